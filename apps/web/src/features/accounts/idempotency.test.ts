import { describe, expect, it } from 'vitest';
import { MoneyAttempt, newIdempotencyKey, settleAttempt } from './idempotency';
import { ApiError } from '../../lib/http';

const counter = () => {
  let n = 0;
  return () => `k${++n}`;
};

describe('Idempotency-Key 的生命周期', () => {
  it('one key per opened dialog; a retry after no answer sends the same key, with the inputs locked', () => {
    const a = new MoneyAttempt(counter());
    expect(a.key).toBe('k1');
    expect(a.state).toBe('ready');
    settleAttempt(a, new ApiError('请求超时，请稍后重试', 0, 0));
    expect(a.key).toBe('k1');
    expect(a.locked).toBe(true);
    // a second timeout and a 502 from a proxy keep it too: the server may have applied it
    settleAttempt(a, new ApiError('网络错误', 0, 0));
    settleAttempt(a, new ApiError('请求失败（502）', 502, 502));
    expect(a.key).toBe('k1');
    a.succeeded();
    expect(a.state).toBe('done');
    expect(a.key).toBe('k1');
  });

  it('a refusal (nothing applied) gives the corrected attempt a new key and unlocks the inputs', () => {
    const a = new MoneyAttempt(counter());
    settleAttempt(a, new ApiError('充值金额超过单笔上限', 40000, 200));
    expect(a.key).toBe('k2');
    expect(a.locked).toBe(false);
    settleAttempt(a, new ApiError('参数错误', 400, 400));
    expect(a.key).toBe('k3');
  });

  it('the next payment (dialog opened again) never reuses a spent key', () => {
    const a = new MoneyAttempt(counter());
    a.succeeded();
    a.reset();
    expect(a.key).toBe('k2');
    expect(a.state).toBe('ready');
  });

  it('generated keys are unique', () => {
    const keys = new Set(Array.from({ length: 1000 }, newIdempotencyKey));
    expect(keys.size).toBe(1000);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f-]{32,36}$/);
  });
});
