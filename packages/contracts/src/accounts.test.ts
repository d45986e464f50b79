import { describe, expect, it } from 'vitest';
import { accountCreate, accountUpdate, amountInWords, fenToYuan, moneySettingsBody, topupBody, yuanToFen } from './accounts.ts';

describe('amountInWords (receipt 大写, worked out by hand)', () => {
  it.each([
    [10000, '壹佰元整'],
    [2050, '贰拾元伍角'],
    [100001, '壹仟元零壹分'],
    [0, '零元整'],
    [5, '伍分'],
    [50, '伍角'],
    [55, '伍角伍分'],
    [100, '壹元整'],
    [1000, '壹拾元整'],
    [123456, '壹仟贰佰叁拾肆元伍角陆分'],
    [100100, '壹仟零壹元整'],
    [1000000, '壹万元整'],
    [10000000, '壹拾万元整'],
    [100100000, '壹佰万壹仟元整'],
    [100010000, '壹佰万零壹佰元整'],
    [1001000000, '壹仟零壹万元整'],
    [10000000000, '壹亿元整'],
    [10000010000, '壹亿零壹佰元整'],
    [10001000000, '壹亿零壹万元整'],
    [2000500, '贰万零伍元整'],
    [-2050, '负贰拾元伍角'],
  ])('%i fen → %s', (fen, words) => {
    expect(amountInWords(fen)).toBe(words);
  });
  it('refuses fractions of a fen', () => {
    expect(() => amountInWords(1.5)).toThrow();
  });
});

describe('元 ↔ fen', () => {
  it('formats and parses without floats', () => {
    expect(fenToYuan(10000)).toBe('100.00');
    expect(fenToYuan(5)).toBe('0.05');
    expect(fenToYuan(-2050)).toBe('-20.50');
    expect(yuanToFen('100')).toBe(10000);
    expect(yuanToFen('0.1')).toBe(10);
    expect(yuanToFen('19.99')).toBe(1999);
    expect(yuanToFen('1.005')).toBeNull();
    expect(yuanToFen('1e3')).toBeNull();
  });
});

describe('contracts', () => {
  it('the issue contract: account create and top-up', () => {
    expect(accountCreate.parse({ projectId: 1, name: '张三', phone: '13800138000', roomIds: [3] })).toMatchObject({ kind: 'resident' });
    expect(accountCreate.safeParse({ projectId: 1, name: '张三', phone: '12345', roomIds: [] }).error?.issues[0].message).toBe('手机号格式不正确（11 位手机号）');
    expect(topupBody.safeParse({ amountFen: 10.5, method: 'cash' }).success).toBe(false);
    expect(topupBody.safeParse({ amountFen: 0, method: 'cash' }).success).toBe(false);
    expect(topupBody.parse({ amountFen: 10000, method: 'bank' })).toEqual({ amountFen: 10000, method: 'bank' });
  });
  it('an update leaves out what it does not name (no defaults)', () => {
    expect(accountUpdate.parse({ name: '新名' })).toEqual({ name: '新名' });
    expect(accountUpdate.parse({ kind: 'company' })).toEqual({ kind: 'company' });
  });
  it('warning 2 is not above warning 1', () => {
    const r = moneySettingsBody.safeParse({ topupMaxFen: null, balanceMaxFen: null, refundApprovalFen: 0, warning1Fen: 100, warning2Fen: 200, overdraftFen: 0 });
    expect(r.error?.issues[0].message).toBe('预警二金额不能高于预警一');
  });
});
