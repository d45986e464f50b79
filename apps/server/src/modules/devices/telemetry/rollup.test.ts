import { describe, expect, it } from 'vitest';
import { GRAINS, HOUR, aggregate, type Reading } from './rollup.mjs';

/** The plain definition: every reading sorted by device, field and time, then one row per run of the same bucket. */
function reference(readings: Reading[]): unknown[][] {
  const rows = readings.filter((r) => r[3] !== null).sort((a, b) => (a[0] - b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || (a[2] - b[2]));
  return GRAINS.map(({ bucketOf }) => {
    const out: unknown[] = [];
    let cur: [number, string, number, number, number, number, number, number, number, number, number, number] | null = null;
    for (const [device, field, ts, num] of rows as [number, string, number, number][]) {
      const bucket = bucketOf(ts);
      if (cur && cur[0] === device && cur[1] === field && cur[2] === bucket) {
        cur[3] += 1;
        cur[4] += num;
        cur[5] = Math.min(cur[5], num);
        cur[6] = Math.max(cur[6], num);
        if (num > cur[10]) cur[11] += num - cur[10];
        cur[9] = ts;
        cur[10] = num;
      } else {
        if (cur) out.push(...cur);
        cur = [device, field, bucket, 1, num, num, num, ts, num, ts, num, 0];
      }
    }
    if (cur) out.push(...cur);
    return out;
  });
}

describe('aggregate (roll-up rows of a batch)', () => {
  it('a worked example: two fields of one meter across an hour boundary, out of order, a null skipped', () => {
    const t0 = Date.UTC(2026, 10, 28, 1, 0, 0); // 09:00 in Shanghai
    const readings: Reading[] = [
      [7, 'f70', t0 + 30 * 60_000, 12],
      [7, 'f70', t0 - 60_000, 10], // 08:59, the hour before
      [7, 'f71', t0 + 60_000, null],
      [7, 'f70', t0 + 10 * 60_000, 11],
      [3, 'f70', t0, 5],
      [7, 'f70', t0 + 50 * 60_000, 11.5], // a drop: counts 0, the step after it counts
    ];
    const [hour, day] = aggregate(readings);
    // device 3 first; device 7's 08:00 bucket (one reading), then its 09:00 bucket: n 3, sum 34.5, min 11, max 12,
    // first 11 at 09:10, last 11.5 at 09:50, delta 12 - 11 = 1 (the drop to 11.5 adds nothing)
    expect(hour).toEqual([
      3, 'f70', t0, 1, 5, 5, 5, t0, 5, t0, 5, 0,
      7, 'f70', t0 - HOUR, 1, 10, 10, 10, t0 - 60_000, 10, t0 - 60_000, 10, 0,
      7, 'f70', t0, 3, 34.5, 11, 12, t0 + 10 * 60_000, 11, t0 + 50 * 60_000, 11.5, 1,
    ]);
    // one Shanghai day: 08:59 → 09:50, 10 → 11 → 12 → 11.5, delta 2
    const dayStart = Date.UTC(2026, 10, 27, 16);
    expect(day).toEqual([
      3, 'f70', dayStart, 1, 5, 5, 5, t0, 5, t0, 5, 0,
      7, 'f70', dayStart, 4, 44.5, 10, 12, t0 - 60_000, 10, t0 + 50 * 60_000, 11.5, 2,
    ]);
  });

  it('any batch gives the rows of the plain definition (devices, fields, buckets and times shuffled)', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 50; round++) {
      const readings: Reading[] = [];
      const seen = new Set<string>();
      for (let i = 0; i < 400; i++) {
        const device = 1 + Math.floor(random() * 20);
        const field = ['f70', 'f71', 'f03', 'f100'][Math.floor(random() * 4)];
        const ts = Date.UTC(2026, 10, 28) + Math.floor(random() * 3 * 86_400) * 1000;
        const key = `${device}|${field}|${ts}`;
        if (seen.has(key)) continue; // history keeps one reading per device, field and time
        seen.add(key);
        readings.push([device, field, ts, random() < 0.05 ? null : Math.round(random() * 1000) / 10]);
      }
      expect(aggregate(readings)).toEqual(reference(readings));
    }
  });
});
