import { describe, expect, it } from 'vitest';
import { localMidnight, quoteBody, type TouSection } from '@kelvin/contracts';
import { prng } from '../../simulator/model.ts';
import {
  amountFen, FormulaError, heatTwoPartLines, ladderLines, onOffTimeAreaLines, quantize, quote, shareLines, splitLargestRemainder,
  timeEquivalent, touKindAt,
} from './formulas.ts';

/**
 * Worked examples of the billing formulas (design §8), each computed by hand; the arithmetic stands in the comment
 * beside the case so an auditor can check it with a pencil. Money is fen, half-up at the fen; quantities 6 decimals.
 */

const TIERS = [{ upTo: 2880, add: '0' }, { upTo: 4800, add: '0.05' }, { upTo: null, add: '0.30' }];
const line = (label: string, quantity: number, unitPrice: string, amountFen: number) => ({ label, quantity, unitPrice, amountFen });
const sum = (lines: { amountFen: number }[]) => lines.reduce((a, l) => a + l.amountFen, 0);

describe('quantize: half-up (away from zero) to 6 decimals, free of float noise', () => {
  it.each([
    // 12.522 − 12.5 is 0.021999999999999353 as a double; 6 decimals → 0.022
    ['12.522 − 12.5', 12.522 - 12.5, 0.022],
    // 0.1 + 0.2 = 0.30000000000000004 → 0.3
    ['0.1 + 0.2', 0.1 + 0.2, 0.3],
    // 1.0000025: the 7th decimal is 5 → up to 1.000003. Math.round(x × 1e6) / 1e6 gives 1.000002 (x × 1e6 = 1000002.4999999999)
    ['1.0000025', 1.0000025, 1.000003],
    // 0.0001245 → 0.000125 (x × 1e6 = 124.49999999999999, the naive way gives 0.000124)
    ['0.0001245', 0.0001245, 0.000125],
    // 1.0000024 → 7th decimal 4 → down
    ['1.0000024', 1.0000024, 1.000002],
    // away from zero: −1.0000025 → −1.000003
    ['−1.0000025', -1.0000025, -1.000003],
    // exponent notation: 5e-7 → half a micro-unit → up to 0.000001; 4.9e-7 → 0
    ['5e-7', 5e-7, 0.000001],
    ['4.9e-7', 4.9e-7, 0],
    // already 6 decimals at the top of the range: unchanged
    ['999999999.999999', 999999999.999999, 999999999.999999],
    ['0', 0, 0],
  ])('%s → %s', (_name, x, want) => {
    expect(quantize(x)).toBe(want);
  });

  it('never returns −0 and refuses what is not a finite number', () => {
    expect(Object.is(quantize(-1e-9), 0)).toBe(true);
    expect(() => quantize(Number.NaN)).toThrow(FormulaError);
    expect(() => quantize(Number.POSITIVE_INFINITY)).toThrow(FormulaError);
  });
});

describe('amountFen: quantize(q) × price, half-up at the fen', () => {
  it.each([
    // 1 × 0.0050 元 = 0.0050 元 = 0.5 fen → exactly half → 1 fen
    [1, '0.0050', 1],
    // 3 × 0.0015 元 = 0.0045 元 = 0.45 fen → 0 fen
    [3, '0.0015', 0],
    // 0.5 × 0.0300 元 = 0.015 元 = 1.5 fen → 2 fen
    [0.5, '0.0300', 2],
    // 1 × 0.0149 元 = 1.49 fen → 1 fen
    [1, '0.0149', 1],
    // 80 × 0.5283 = 42.264 元 = 4226.4 fen → 4226
    [80, '0.5283', 4226],
    // 120 × 0.5783 = 69.396 元 = 6939.6 fen → 6940
    [120, '0.5783', 6940],
    // 1.005 × 1 = 1.005 元 = 100.5 fen → 101 (Math.round(1.005 × 100) = 100: 1.005 × 100 = 100.49999999999999)
    [1.005, '1', 101],
    // (0.1 + 0.6) × 0.05 = 0.7 × 0.05 = 0.035 元 = 3.5 fen → 4 (in floats 0.7 × 0.05 × 100 = 3.4999999999999996 → 3)
    [0.1 + 0.6, '0.05', 4],
    // (12.522 − 12.5) × 7.5: quantized 0.022 × 7.5 = 0.165 元 = 16.5 fen → 17. The raw double 0.021999999999999353
    // taken exactly would give 16.4999… fen → 16: quantizing first is what makes it 17.
    [12.522 - 12.5, '7.5', 17],
    // a quantity's 7th decimal is rounded before pricing: 0.0000005 → 0.000001 × 10000 元 = 0.01 元 = 1 fen
    [0.0000005, '10000', 1],
    // zero quantity or zero price → 0
    [0, '0.5283', 0],
    [12.5, '0', 0],
  ])('%s × %s 元 → %s fen', (q, price, want) => {
    expect(amountFen(q, price)).toBe(want);
  });

  it('refuses a negative quantity, a malformed price and an amount beyond 2^53 fen', () => {
    expect(() => amountFen(-1, '1')).toThrow('数量不能为负');
    expect(() => amountFen(1, '0.12345')).toThrow(FormulaError);
    expect(() => amountFen(1, '1e3')).toThrow(FormulaError);
    expect(() => amountFen(1, '-1')).toThrow(FormulaError);
    // 999999999.999999 × 9999999.9999 元 ≈ 1e16 元 = 1e18 fen > 2^53
    expect(() => amountFen(999999999.999999, '9999999.9999')).toThrow('金额过大');
  });
});

describe('timeEquivalent: T_eq = Σ k × t, exact to 6 decimals', () => {
  it.each([
    // 0.6 × 10 + 0.8 × 5 + 1 × 2.5 = 6 + 4 + 2.5 = 12.5 h
    [{ low: 10, mid: 5, high: 2.5 }, { low: '0.6', mid: '0.8', high: '1' }, 12.5],
    // 0.6 × 0.333333 = 0.1999998 → 6 decimals → 0.2
    [{ low: 0.333333, mid: 0, high: 0 }, { low: '0.6', mid: '0.8', high: '1' }, 0.2],
    // 0.5 × 0.000001 = 0.0000005 → half-up → 0.000001
    [{ low: 0, mid: 0.000001, high: 0 }, { low: '0.6', mid: '0.5', high: '1' }, 0.000001],
    // (0.1 + 0.2) × 0.6 + (0.1 + 0.6) × 0.7 = 0.3 × 0.6 + 0.7 × 0.7 = 0.18 + 0.49 = 0.67 (floats would give 0.6699999999999999)
    [{ low: 0.1 + 0.2, mid: 0.1 + 0.6, high: 0 }, { low: '0.6', mid: '0.7', high: '1' }, 0.67],
    // all zero → 0
    [{ low: 0, mid: 0, high: 0 }, { low: '0.6', mid: '0.8', high: '1' }, 0],
  ])('%o with k %o → %s h', (hours, k, want) => {
    expect(timeEquivalent(hours, k)).toBe(want);
  });

  it('refuses a negative run time', () => {
    expect(() => timeEquivalent({ low: -1, mid: 0, high: 0 }, { low: '0.6', mid: '0.8', high: '1' })).toThrow('低速时间不能为负');
  });
});

describe('ladderLines: price 0.5283, tiers 2880 / +0, 4800 / +0.05, ∞ / +0.30', () => {
  it.each([
    {
      name: 'crossing the first boundary (2800 + 200)',
      // (2800, 3000]: 2800→2880 = 80 kWh in tier 1, 2880→3000 = 120 kWh in tier 2
      // 80 × 0.5283 = 42.264 元 → 4226 fen; 120 × (0.5283 + 0.05 = 0.5783) = 69.396 元 → 6940 fen; total 11166
      usedBefore: 2800, use: 200,
      lines: [line('第1档', 80, '0.5283', 4226), line('第2档', 120, '0.5783', 6940)], total: 11166,
    },
    {
      name: 'crossing two boundaries at once (2000 + 3000)',
      // (2000, 5000]: 2000→2880 = 880, 2880→4800 = 1920, 4800→5000 = 200
      // 880 × 0.5283 = 464.904 元 → 46490; 1920 × 0.5783 = 1110.336 元 → 111034; 200 × 0.8283 = 165.66 元 → 16566
      // total 46490 + 111034 + 16566 = 174090
      usedBefore: 2000, use: 3000,
      lines: [line('第1档', 880, '0.5283', 46490), line('第2档', 1920, '0.5783', 111034), line('第3档', 200, '0.8283', 16566)], total: 174090,
    },
    {
      name: 'entirely inside tier 1 (100 + 50.5)',
      // 50.5 × 0.5283 = 26.67915 元 = 2667.915 fen → 2668
      usedBefore: 100, use: 50.5, lines: [line('第1档', 50.5, '0.5283', 2668)], total: 2668,
    },
    {
      name: 'entirely inside tier 3 (5000 + 100)',
      // 100 × (0.5283 + 0.30 = 0.8283) = 82.83 元 → 8283
      usedBefore: 5000, use: 100, lines: [line('第3档', 100, '0.8283', 8283)], total: 8283,
    },
    {
      name: 'ending exactly on a boundary (2800 + 80)',
      // (2800, 2880] lies wholly in tier 1: 80 × 0.5283 → 4226; tier 2 gets nothing, so no line for it
      usedBefore: 2800, use: 80, lines: [line('第1档', 80, '0.5283', 4226)], total: 4226,
    },
    {
      name: 'starting exactly on a boundary (2880 + 10)',
      // (2880, 2890] lies wholly in tier 2: 10 × 0.5783 = 5.783 元 = 578.3 fen → 578
      usedBefore: 2880, use: 10, lines: [line('第2档', 10, '0.5783', 578)], total: 578,
    },
    {
      name: 'float inputs at a boundary (2880.1 − 0.2, + 0.1 + 0.1)',
      // (2879.9, 2880.1] → 0.1 in tier 1, 0.1 in tier 2 (each quantity is quantized, so no 0.09999999999990905)
      // 0.1 × 0.5283 = 0.05283 元 = 5.283 fen → 5; 0.1 × 0.5783 = 5.783 fen → 6; total 11
      usedBefore: 2880.1 - 0.2, use: 0.1 + 0.1, lines: [line('第1档', 0.1, '0.5283', 5), line('第2档', 0.1, '0.5783', 6)], total: 11,
    },
    { name: 'use 0', usedBefore: 2800, use: 0, lines: [], total: 0 },
  ])('$name', ({ usedBefore, use, lines, total }) => {
    const got = ladderLines('0.5283', TIERS, usedBefore, use);
    expect(got).toEqual(lines);
    expect(sum(got)).toBe(total);
  });

  it('use above a bounded last tier stays in the last tier', () => {
    // tiers 100 / +0, 200 / +0.1, base 0.5: (150, 250] → 50 up to 200 and 50 beyond, all in tier 2
    // 100 × 0.6 = 60 元 = 6000 fen
    expect(ladderLines('0.5', [{ upTo: 100, add: '0' }, { upTo: 200, add: '0.1' }], 150, 100)).toEqual([line('第2档', 100, '0.6000', 6000)]);
  });

  it('a single unbounded tier prices everything at price + add', () => {
    // 3.5 × (1.2 + 0.0001 = 1.2001) = 4.20035 元 = 420.035 fen → 420
    expect(ladderLines('1.2', [{ upTo: null, add: '0.0001' }], 12345, 3.5)).toEqual([line('第1档', 3.5, '1.2001', 420)]);
  });

  it('refuses tiers out of order, an unbounded tier before the last, and negative use', () => {
    expect(() => ladderLines('0.5', [{ upTo: 200, add: '0' }, { upTo: 100, add: '0' }, { upTo: null, add: '0' }], 0, 1)).toThrow('阶梯上限必须逐档递增');
    expect(() => ladderLines('0.5', [{ upTo: null, add: '0' }, { upTo: 100, add: '0' }], 0, 1)).toThrow('只有最后一档可以不设上限');
    expect(() => ladderLines('0.5', TIERS, 0, -1)).toThrow('本次用电量不能为负');
    expect(() => ladderLines('0.5', [], 0, 1)).toThrow(FormulaError);
  });
});

describe('heatTwoPartLines: basic 元/m² × area + 元/GJ × heat', () => {
  it('16 元/m², 85 元/GJ, 89.5 m², 3.275 GJ', () => {
    // 基本热费 16 × 89.5 = 1432.00 元 = 143200 fen; 计量热费 85 × 3.275 = 278.375 元 = 27837.5 fen → 27838
    // total 143200 + 27838 = 171038
    const got = heatTwoPartLines('16', '85', 89.5, 3.275);
    expect(got).toEqual([line('基本热费', 89.5, '16.0000', 143200), line('计量热费', 3.275, '85.0000', 27838)]);
    expect(sum(got)).toBe(171038);
  });

  it('keeps a zero line (no heat metered this period)', () => {
    // 16 × 50 = 800 元 = 80000 fen; 85 × 0 = 0
    expect(heatTwoPartLines('16', '85', 50, 0)).toEqual([line('基本热费', 50, '16.0000', 80000), line('计量热费', 0, '85.0000', 0)]);
  });
});

describe('splitLargestRemainder', () => {
  const split = (total: number, weights: [string, number][]) =>
    Object.fromEntries(splitLargestRemainder(total, weights.map(([id, weight]) => ({ id, weight }))));

  it.each([
    // 100 / 3 = 33.333… each: floors 33 + 33 + 33 = 99, 1 left; the three remainders tie → the first in input order
    { name: 'ties go by input order', total: 100, weights: [['a', 1], ['b', 1], ['c', 1]] as [string, number][], want: { a: 34, b: 33, c: 33 } },
    // 200 / 3 = 66.666… each: floors 198, 2 left → a and b
    { name: 'two fen over a three-way tie', total: 200, weights: [['a', 1], ['b', 1], ['c', 1]] as [string, number][], want: { a: 67, b: 67, c: 66 } },
    // same tie, other input order: the first listed wins
    { name: 'tie order follows the input, not the id', total: 100, weights: [['c', 1], ['b', 1], ['a', 1]] as [string, number][], want: { c: 34, b: 33, a: 33 } },
    // 10 × 1/6 = 1.666…, 10 × 2/6 = 3.333…, 10 × 3/6 = 5: floors 1 + 3 + 5 = 9, 1 left → largest remainder 0.666… (a)
    { name: 'the largest remainder wins, not the largest weight', total: 10, weights: [['a', 1], ['b', 2], ['c', 3]] as [string, number][], want: { a: 2, b: 3, c: 5 } },
    { name: 'a single member gets everything', total: 12345, weights: [['only', 0.000001]] as [string, number][], want: { only: 12345 } },
    // weights 0 / 0 / 0 → equal split: 10 / 3 → 4 / 3 / 3
    { name: 'all weights 0 → equal split', total: 10, weights: [['a', 0], ['b', 0], ['c', 0]] as [string, number][], want: { a: 4, b: 3, c: 3 } },
    // a zero weight next to others gets nothing: 7 × 1/2 = 3.5 each → 3 + 3, 1 left → b (first of the tie)
    { name: 'a zero weight gets nothing', total: 7, weights: [['a', 0], ['b', 1], ['c', 1]] as [string, number][], want: { a: 0, b: 4, c: 3 } },
    // 6-decimal weights: 1 fen by 0.000001 / 0.000002 → 0.333… / 0.666… → floors 0 + 0, 1 left → b
    { name: 'micro weights', total: 1, weights: [['a', 0.000001], ['b', 0.000002]] as [string, number][], want: { a: 0, b: 1 } },
    { name: 'total 0 → all 0', total: 0, weights: [['a', 5], ['b', 1]] as [string, number][], want: { a: 0, b: 0 } },
    { name: 'empty list → empty map', total: 0, weights: [] as [string, number][], want: {} },
  ])('$name', ({ total, weights, want }) => {
    expect(split(total, weights)).toEqual(want);
  });

  it('keeps number ids and the input order of the map', () => {
    const got = splitLargestRemainder(5, [{ id: 30, weight: 1 }, { id: 10, weight: 1 }]);
    expect([...got.entries()]).toEqual([[30, 3], [10, 2]]);
  });

  it('refuses a negative weight, a duplicate id and a total that is not whole non-negative fen', () => {
    expect(() => split(10, [['a', -1], ['b', 2]])).toThrow('分摊权重不能为负');
    expect(() => split(10, [['a', 1], ['a', 2]])).toThrow('分摊对象重复');
    expect(() => split(10.5, [['a', 1]])).toThrow(FormulaError);
    expect(() => split(-1, [['a', 1]])).toThrow(FormulaError);
  });

  it('property: the shares add up to the total and each is the floor of its exact share or one more (seeded)', () => {
    const random = prng(20261125);
    for (let run = 0; run < 400; run++) {
      const n = 1 + Math.floor(random() * 25);
      const total = Math.floor(random() * 1e9);
      const zero = random() < 0.1;
      // integer micro-units k_i; the weight handed in is k_i / 1e6 (≤ 6 decimals)
      const micros = Array.from({ length: n }, () => (zero || random() < 0.15 ? 0 : Math.floor(random() * 1e9)));
      const got = splitLargestRemainder(total, micros.map((k, i) => ({ id: i, weight: k / 1e6 })));
      const shares = micros.map((_k, i) => got.get(i)!);
      expect(shares.reduce((a, s) => a + s, 0)).toBe(total);
      const ks = micros.every((k) => k === 0) ? micros.map(() => 1n) : micros.map(BigInt);
      const whole = ks.reduce((a, k) => a + k, 0n);
      shares.forEach((s, i) => {
        const floor = (BigInt(total) * ks[i]) / whole;
        expect(BigInt(s) === floor || BigInt(s) === floor + 1n).toBe(true);
      });
    }
  });
});

describe('shareLines: fee_i = (C − C_public) × E_i / ΣE + C_public × A_i / ΣA', () => {
  it('10000 fen, 1000 public, three equal rooms', () => {
    // private 9000 by E 1/1/1 → 3000 / 3000 / 3000
    // public 1000 by A 1/1/1 → 333.33… each: floors 999, 1 left → first room: 334 / 333 / 333
    // fee 3334 / 3333 / 3333, Σ 10000; unit price = fee ÷ E: 33.34 / 33.33 / 33.33 元
    const got = shareLines(10000, 1000, [{ id: 1, equivalent: 1, area: 1 }, { id: 2, equivalent: 1, area: 1 }, { id: 3, equivalent: 1, area: 1 }]);
    expect(got).toEqual([line('1', 1, '33.3400', 3334), line('2', 1, '33.3300', 3333), line('3', 1, '33.3300', 3333)]);
    expect(sum(got)).toBe(10000);
  });

  it('uneven weights: 10000 fen, 1001 public, E 3 / 2 / 2, A 90 / 60 / 50', () => {
    // private 10000 − 1001 = 8999 by E (ΣE = 7):
    //   8999 × 3/7 = 26997/7 = 3856 rem 5 (3856.714…); 8999 × 2/7 = 17998/7 = 2571 rem 1 (2571.142…), twice
    //   floors 3856 + 2571 + 2571 = 8998, 1 left → largest remainder 5/7 (room 101) → 3857 / 2571 / 2571
    // public 1001 by A (ΣA = 200):
    //   1001 × 90/200 = 450.45, × 60/200 = 300.3, × 50/200 = 250.25 → floors 450 + 300 + 250 = 1000, 1 left →
    //   largest remainder .45 (room 101) → 451 / 300 / 250
    // fee 3857 + 451 = 4308, 2571 + 300 = 2871, 2571 + 250 = 2821; Σ 10000
    // unit price 4308 / 3 = 1436 fen = 14.36 元; 2871 / 2 = 1435.5 fen = 14.355 元; 2821 / 2 = 1410.5 fen = 14.105 元
    const got = shareLines(10000, 1001, [{ id: '101', equivalent: 3, area: 90 }, { id: '102', equivalent: 2, area: 60 }, { id: '103', equivalent: 2, area: 50 }]);
    expect(got).toEqual([line('101', 3, '14.3600', 4308), line('102', 2, '14.3550', 2871), line('103', 2, '14.1050', 2821)]);
    expect(sum(got)).toBe(10000);
  });

  it('all equivalents 0: the private part is split equally, unit price 0.0000', () => {
    // private 900 by E 0/0/0 → equal: 300 / 300 / 300; public 100 by A 50/30/20 → 50 / 30 / 20
    // fee 350 / 330 / 320, Σ 1000
    const got = shareLines(1000, 100, [{ id: 'a', equivalent: 0, area: 50 }, { id: 'b', equivalent: 0, area: 30 }, { id: 'c', equivalent: 0, area: 20 }]);
    expect(got).toEqual([line('a', 0, '0.0000', 350), line('b', 0, '0.0000', 330), line('c', 0, '0.0000', 320)]);
  });

  it('a room with no use pays only its area part', () => {
    // private 90 by E 0/1/1 → 0 / 45 / 45; public 10 by A 1/1/1 → 3.33… each → 4 / 3 / 3 (tie → first)
    // fee 4 / 48 / 48, Σ 100; unit price 48 fen / 1 = 0.48 元
    const got = shareLines(100, 10, [{ id: 'a', equivalent: 0, area: 1 }, { id: 'b', equivalent: 1, area: 1 }, { id: 'c', equivalent: 1, area: 1 }]);
    expect(got).toEqual([line('a', 0, '0.0000', 4), line('b', 1, '0.4800', 48), line('c', 1, '0.4800', 48)]);
  });

  it('refuses public > total and a cost with no one to share it', () => {
    expect(() => shareLines(100, 101, [{ id: 1, equivalent: 1, area: 1 }])).toThrow('公共费用不能大于总费用');
    expect(() => shareLines(100, 0, [])).toThrow('没有分摊对象');
    expect(shareLines(0, 0, [])).toEqual([]);
  });

  it('property: Σ fee = total, each fee within 2 fen of the exact formula (seeded)', () => {
    const random = prng(7);
    for (let run = 0; run < 300; run++) {
      const n = 1 + Math.floor(random() * 30);
      const total = Math.floor(random() * 1e8);
      const publicFen = Math.floor(random() * (total + 1));
      const e = Array.from({ length: n }, () => (random() < 0.2 ? 0 : Math.floor(random() * 5e8)));
      const a = Array.from({ length: n }, () => 1 + Math.floor(random() * 2e8));
      const got = shareLines(total, publicFen, e.map((k, i) => ({ id: i, equivalent: k / 1e6, area: a[i] / 1e6 })));
      expect(sum(got)).toBe(total);
      // exact fee_i = P × E_i / ΣE + U × A_i / ΣA (ΣE = 0 → equal weights), compared as integers × ΣE × ΣA
      const es = e.every((k) => k === 0) ? e.map(() => 1n) : e.map(BigInt);
      const as = a.map(BigInt);
      const se = es.reduce((x, y) => x + y, 0n);
      const sa = as.reduce((x, y) => x + y, 0n);
      got.forEach((l, i) => {
        const exact = BigInt(total - publicFen) * es[i] * sa + BigInt(publicFen) * as[i] * se;
        const diff = BigInt(l.amountFen) * se * sa - exact;
        expect(diff < 2n * se * sa && diff > -2n * se * sa).toBe(true);
      });
    }
  });
});

describe('onOffTimeAreaLines: Q_i = Q × A_i t_i / Σ(A t) (JGJ 173-2009)', () => {
  it('Q 100 GJ at 50 元/GJ, A 80 / 120 m², t 100 / 50 h', () => {
    // A·t = 80 × 100 = 8000, 120 × 50 = 6000; Σ = 14000
    // Q_i = 100 × 8000/14000 = 57.1428571… → 57.142857; 100 × 6000/14000 = 42.8571428… → 42.857143
    // cost 100 × 50 = 5000 元 = 500000 fen; shares 500000 × 8/14 = 285714.2857…, × 6/14 = 214285.7142…
    // floors 285714 + 214285 = 499999, 1 left → largest remainder .714 (second room) → 285714 / 214286; Σ 500000
    const got = onOffTimeAreaLines(100, '50', [{ id: 'A101', area: 80, hours: 100 }, { id: 'A102', area: 120, hours: 50 }]);
    expect(got).toEqual([line('A101', 57.142857, '50.0000', 285714), line('A102', 42.857143, '50.0000', 214286)]);
    expect(sum(got)).toBe(500000);
  });

  it('three equal rooms: Σ Q_i is 0.999999 GJ but the fen still add up', () => {
    // Q 1 GJ × 1 元 = 100 fen; A·t = 100 each → Q_i = 0.333333… → 0.333333 each
    // 100 / 3 = 33.33… → 33 × 3 = 99, 1 left → first room: 34 / 33 / 33
    const got = onOffTimeAreaLines(1, '1', [{ id: 1, area: 100, hours: 1 }, { id: 2, area: 100, hours: 1 }, { id: 3, area: 100, hours: 1 }]);
    expect(got).toEqual([line('1', 0.333333, '1.0000', 34), line('2', 0.333333, '1.0000', 33), line('3', 0.333333, '1.0000', 33)]);
  });

  it('a room whose valve never opened gets nothing', () => {
    // A·t = 50 × 0 = 0 and 50 × 10 = 500 → all 2.5 GJ × 40 元 = 100 元 = 10000 fen to the second room
    expect(onOffTimeAreaLines(2.5, '40', [{ id: 1, area: 50, hours: 0 }, { id: 2, area: 50, hours: 10 }]))
      .toEqual([line('1', 0, '40.0000', 0), line('2', 2.5, '40.0000', 10000)]);
  });

  it('Σ(A t) = 0 with heat to allocate throws (no fen lost silently); with Q = 0 every line is 0', () => {
    expect(() => onOffTimeAreaLines(10, '50', [{ id: 1, area: 80, hours: 0 }, { id: 2, area: 0, hours: 5 }])).toThrow('通阀时间与面积之积为 0，无法分配');
    expect(onOffTimeAreaLines(0, '50', [{ id: 1, area: 80, hours: 0 }])).toEqual([line('1', 0, '50.0000', 0)]);
  });

  it('property: Σ shares = amountFen(Q, price) (seeded)', () => {
    const random = prng(1024);
    for (let run = 0; run < 300; run++) {
      const n = 1 + Math.floor(random() * 20);
      const q = Math.floor(random() * 1e9) / 1e6;
      const price = `${Math.floor(random() * 200)}.${String(Math.floor(random() * 1e4)).padStart(4, '0')}`;
      const inputs = Array.from({ length: n }, (_x, i) => ({ id: i, area: Math.floor(random() * 3e8) / 1e6, hours: 1 + Math.floor(random() * 7e8) / 1e6 }));
      expect(sum(onOffTimeAreaLines(q, price, inputs))).toBe(amountFen(q, price));
    }
  });
});

describe('touKindAt: Asia/Shanghai local time, [start, end), across midnight', () => {
  const tou: TouSection = {
    enabled: true,
    periods: [
      { start: '08:00', end: '11:00', kind: 'peak' }, { start: '11:00', end: '18:00', kind: 'flat' },
      { start: '18:00', end: '22:00', kind: 'peak' }, { start: '22:00', end: '08:00', kind: 'valley' },
    ],
    prices: { peak: '1.2000', flat: '0.8000', valley: '0.4000' },
    holidayKind: null,
  };
  const day = localMidnight('2026-01-15');
  const at = (hhmm: string, extraMs = 0) => day + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3))) * 60_000 + extraMs;

  it.each([
    ['23:30', 0, 'valley'], // inside 22:00–08:00, before midnight
    ['00:00', 0, 'valley'], // midnight itself, inside the wrap
    ['07:59', 59_999, 'valley'], // 07:59:59.999 is still minute 479 < 480
    ['08:00', 0, 'peak'], // the valley's end is open, the peak's start closed
    ['10:59', 0, 'peak'],
    ['11:00', 0, 'flat'],
    ['17:59', 0, 'flat'],
    ['18:00', 0, 'peak'],
    ['21:59', 0, 'peak'],
    ['22:00', 0, 'valley'],
  ])('%s (+%s ms) → %s', (hhmm, extra, kind) => {
    expect(touKindAt(at(hhmm, extra), tou, false)).toBe(kind);
  });

  it('reads the instant in Shanghai time, whatever the machine zone', () => {
    // 2026-01-15 15:30 UTC = 23:30 in Shanghai (+08:00) → valley; 00:30 UTC = 08:30 → peak
    expect(touKindAt(Date.UTC(2026, 0, 15, 15, 30), tou, false)).toBe('valley');
    expect(touKindAt(Date.UTC(2026, 0, 15, 0, 30), tou, false)).toBe('peak');
  });

  it('holidayKind covers the whole holiday; without it a holiday is an ordinary day', () => {
    expect(touKindAt(at('09:00'), { ...tou, holidayKind: 'valley' }, true)).toBe('valley');
    expect(touKindAt(at('09:00'), { ...tou, holidayKind: 'valley' }, false)).toBe('peak');
    expect(touKindAt(at('09:00'), tou, true)).toBe('peak');
  });

  it('a minute no period covers is flat; the first covering period wins; start = end covers the day', () => {
    const nightOnly: TouSection = { ...tou, periods: [{ start: '22:00', end: '06:00', kind: 'valley' }] };
    expect(touKindAt(at('12:00'), nightOnly, false)).toBe('flat');
    expect(touKindAt(at('05:59'), nightOnly, false)).toBe('valley');
    expect(touKindAt(at('06:00'), nightOnly, false)).toBe('flat');
    const overlapping: TouSection = { ...tou, periods: [{ start: '09:00', end: '10:00', kind: 'valley' }, { start: '08:00', end: '12:00', kind: 'peak' }] };
    expect(touKindAt(at('09:30'), overlapping, false)).toBe('valley');
    expect(touKindAt(at('08:30'), overlapping, false)).toBe('peak');
    expect(touKindAt(at('15:00'), { ...tou, periods: [{ start: '07:00', end: '07:00', kind: 'valley' }] }, false)).toBe('valley');
    expect(touKindAt(at('15:00'), { ...tou, periods: [] }, false)).toBe('flat');
  });
});

describe('quote(): the contract shapes of POST /api/v1/billing/quote', () => {
  it('ladder (text inputs as a form posts them)', () => {
    const body = quoteBody.parse({ method: 'ladder', params: { price: '0.5283', tiers: TIERS }, inputs: { usedBefore: '2800', use: '200' } });
    expect(quote(body)).toEqual({ totalFen: 11166, lines: [line('第1档', 80, '0.5283', 4226), line('第2档', 120, '0.5783', 6940)] });
  });

  it('timeEquivalent: 12.5 h × 1.20 元 = 15.00 元', () => {
    // T_eq = 0.6 × 10 + 0.8 × 5 + 1 × 2.5 = 12.5 h; 12.5 × 1.20 = 15.00 元 = 1500 fen
    const body = quoteBody.parse({ method: 'timeEquivalent', params: { price: '1.20', k: { low: '0.6', mid: '0.8', high: '1' } }, inputs: { hours: { low: 10, mid: 5, high: 2.5 } } });
    expect(quote(body)).toEqual({ totalFen: 1500, lines: [line('时间当量', 12.5, '1.2000', 1500)] });
  });

  it('heatTwoPart: 1432.00 + 278.38 = 1710.38 元', () => {
    const body = quoteBody.parse({ method: 'heatTwoPart', params: { basicPrice: '16', heatPrice: '85' }, inputs: { area: 89.5, heatGJ: 3.275 } });
    expect(quote(body)).toEqual({ totalFen: 171038, lines: [line('基本热费', 89.5, '16.0000', 143200), line('计量热费', 3.275, '85.0000', 27838)] });
  });

  it('share: the lines add up to totalFen', () => {
    const body = quoteBody.parse({
      method: 'share',
      params: { totalFen: 10000, publicFen: 1000 },
      inputs: [{ id: 'A-101', equivalent: 1, area: 1 }, { id: 'A-102', equivalent: 1, area: 1 }, { id: 'A-103', equivalent: 1, area: 1 }],
    });
    expect(quote(body)).toEqual({ totalFen: 10000, lines: [line('A-101', 1, '33.3400', 3334), line('A-102', 1, '33.3300', 3333), line('A-103', 1, '33.3300', 3333)] });
  });

  it('onOffTimeArea: 100 GJ × 50 元 = 5000 元 over two rooms; and the zero-Σ(A t) refusal', () => {
    const body = quoteBody.parse({ method: 'onOffTimeArea', params: { buildingHeatGJ: 100, price: '50' }, inputs: [{ id: 1, area: 80, hours: 100 }, { id: 2, area: 120, hours: 50 }] });
    expect(quote(body)).toEqual({ totalFen: 500000, lines: [line('1', 57.142857, '50.0000', 285714), line('2', 42.857143, '50.0000', 214286)] });
    const none = quoteBody.parse({ method: 'onOffTimeArea', params: { buildingHeatGJ: 100, price: '50' }, inputs: [{ id: 1, area: 80, hours: 0 }] });
    expect(() => quote(none)).toThrow(FormulaError);
  });
});
