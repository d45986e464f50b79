/**
 * Use of one cumulative counter (kWh, GJ, run hours) over a billing period, from its readings: exact in micro-units
 * (counters carry ≤ 6 decimals), each step's increment attributed to the bucket of the step's end (a tariff version,
 * a TOU period, a ladder cycle), a drop read as a meter reset or replacement (the new meter counts from its first
 * reading; what the old one counted after its last reading is not guessed but reported), and silences reported.
 */

export interface Point { ts: number; v: number }

export interface MeterUse {
  start: Point | null;
  end: Point | null;
  /** micro-units per bucket key */
  buckets: Map<string, number>;
  /** micro-units */
  total: number;
  resets: { ts: number; from: number; to: number }[];
  /** silences longer than gapMs, and the tail when the last reading is older than until − gapMs */
  gaps: { from: number; to: number }[];
  /** no reading at all in (from, until] */
  silent: boolean;
}

export const MICRO = 1_000_000;
export const micro = (v: number) => Math.round(v * MICRO);
export const fromMicro = (m: number) => m / MICRO;

/**
 * `start` is the reading at or before the period start (the previous run's end reading, or history); `points` the
 * readings in (from, until] in time order.
 */
export function meterUse(start: Point | null, points: Point[], bucketOf: (ts: number) => string, opts: { from: number; until: number; gapMs: number }): MeterUse {
  const buckets = new Map<string, number>();
  const resets: MeterUse['resets'] = [];
  const gaps: MeterUse['gaps'] = [];
  let total = 0;
  let prev = start;
  let lastSeen = start ? Math.max(start.ts, opts.from) : opts.from;
  for (const p of points) {
    if (p.ts - lastSeen > opts.gapMs) gaps.push({ from: lastSeen, to: p.ts });
    lastSeen = p.ts;
    if (prev) {
      const d = micro(p.v) - micro(prev.v);
      if (d < 0) resets.push({ ts: p.ts, from: prev.v, to: p.v });
      else if (d > 0) {
        const key = bucketOf(p.ts);
        buckets.set(key, (buckets.get(key) ?? 0) + d);
        total += d;
      }
    }
    prev = p;
  }
  const end = points.length ? points[points.length - 1]! : start;
  if (opts.until - lastSeen > opts.gapMs) gaps.push({ from: lastSeen, to: opts.until });
  return { start, end, buckets, total, resets, gaps, silent: points.length === 0 };
}
