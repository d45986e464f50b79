import { describe, expect, it } from 'vitest';
import { formatFen, formatYuan, parseYuan, parseYuanWithin } from './money';

const fen = (s: string | number | null) => {
  const r = parseYuan(s);
  return r.ok ? r.fen : r.message;
};

describe('元 → 分 (parseYuan)', () => {
  it('converts on the digits, without floating-point error', () => {
    // 0.29 * 100 = 28.999999999999996 and 1.005 * 100 = 100.49999999999999 in binary floating point
    expect(fen('0.29')).toBe(29);
    expect(fen('0.57')).toBe(57);
    expect(fen('1.1')).toBe(110);
    expect(fen('19.99')).toBe(1999);
    expect(fen('100')).toBe(10000);
    expect(fen('100.00')).toBe(10000);
    expect(fen('20.00')).toBe(2000);
    expect(fen('4.35')).toBe(435);
    expect(fen('0.01')).toBe(1);
    expect(fen('1,234.56')).toBe(123456);
    expect(fen('  8.5 ')).toBe(850);
    expect(fen('007.10')).toBe(710);
    expect(fen('10.')).toBe(1000);
    expect(fen(12.3)).toBe(1230);
  });

  it('every 分 from 0.01 to 99.99 round-trips through the formatter', () => {
    for (let f = 1; f < 10_000; f++) expect(fen(formatFen(f))).toBe(f);
  });

  it('refuses what is not a positive amount of at most two decimals', () => {
    expect(fen('')).toBe('请输入金额');
    expect(fen('   ')).toBe('请输入金额');
    expect(fen(null)).toBe('请输入金额');
    expect(fen('0')).toBe('金额必须大于 0');
    expect(fen('0.00')).toBe('金额必须大于 0');
    expect(fen('-5')).toBe('金额必须大于 0');
    expect(fen('1.005')).toBe('金额最多两位小数（精确到分）');
    expect(fen('abc')).toBe('请输入数字金额，如 100 或 100.50');
    expect(fen('1e3')).toBe('请输入数字金额，如 100 或 100.50');
    expect(fen('.5')).toBe('请输入数字金额，如 100 或 100.50');
    expect(fen('1.2.3')).toBe('请输入数字金额，如 100 或 100.50');
    expect(fen('100000000.01')).toBe('单笔金额不能超过 100,000,000.00 元');
    expect(fen('99999999999999999999')).toBe('单笔金额不能超过 100,000,000.00 元');
    expect(fen('100000000')).toBe(10_000_000_000);
  });

  it('checks an upper limit given in 分', () => {
    expect(parseYuanWithin('500', 50000)).toEqual({ ok: true, fen: 50000 });
    expect(parseYuanWithin('500.01', 50000, '充值金额')).toEqual({ ok: false, message: '充值金额不能超过 500.00 元' });
    expect(parseYuanWithin('500.01', null)).toEqual({ ok: true, fen: 50001 });
  });
});

describe('分 → 元 (formatFen)', () => {
  it('shows two decimals and thousands separators', () => {
    expect(formatFen(0)).toBe('0.00');
    expect(formatFen(1)).toBe('0.01');
    expect(formatFen(10)).toBe('0.10');
    expect(formatFen(10000)).toBe('100.00');
    expect(formatFen(8000)).toBe('80.00');
    expect(formatFen(-2000)).toBe('-20.00');
    expect(formatFen(-5)).toBe('-0.05');
    expect(formatFen(123456789)).toBe('1,234,567.89');
    expect(formatYuan(10000)).toBe('100.00 元');
  });

  it('never shows a wrong figure for a non-integer', () => {
    expect(formatFen(1.5)).toBe('—');
    expect(formatFen(Number.NaN)).toBe('—');
  });
});
