import { afterEach, describe, expect, it, vi } from 'vitest';
import { MoneyAttempt, newIdempotencyKey, settleAttempt } from './idempotency';
import { ApiError } from '../../lib/http';
import { accountApi } from './api';

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

describe('Idempotency-Key 随请求发送', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a retry after no answer repeats the same key; the next payment gets another', async () => {
    const sent: (string | null)[] = [];
    const answers: (() => Response | Promise<Response>)[] = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => ({ ok: true, status: 200, json: async () => ({ code: 200, msg: 'ok', data: { entryId: 7, balanceFen: 10000 } }) }) as unknown as Response,
      () => ({ ok: false, status: 400, headers: new Headers(), json: async () => ({ code: 40000, msg: '充值金额超过单次上限', data: null }) }) as unknown as Response,
    ];
    vi.stubGlobal('fetch', vi.fn(async (_url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers).get('Idempotency-Key'));
      return answers.shift()!();
    }));
    const attempt = new MoneyAttempt();
    const pay = () => accountApi.topup(1, { amountFen: 10000, method: 'cash' }, attempt.key, { silent: true }).then(
      (r) => { attempt.succeeded(); return r; },
      (e: unknown) => { settleAttempt(attempt, e); throw e; },
    );
    await expect(pay()).rejects.toBeInstanceOf(ApiError);
    expect(attempt.locked).toBe(true);
    await expect(pay()).resolves.toMatchObject({ entryId: 7 });
    expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]).toBe(sent[0]);

    attempt.reset();
    await expect(pay()).rejects.toThrow('充值金额超过单次上限');
    expect(sent[2]).not.toBe(sent[0]);
    expect(attempt.key).not.toBe(sent[2]);
  });
});
