import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface ProcessHealth {
  rssMb: number;
  heapUsedMb: number;
  /** event-loop delay over the last full minute (null during the first minute after start) */
  eventLoopDelayMs: { mean: number; p99: number; max: number } | null;
}

/** how often the event-loop delay is sampled */
const RESOLUTION_MS = 10;

/**
 * An enabled event-loop delay histogram. Node records the time between two of its samples, so an idle loop reads
 * the resolution (10 ms): the delay is what goes beyond it, as `loopDelayMs` answers.
 */
export function loopDelayHistogram(): IntervalHistogram {
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  h.enable();
  return h;
}

/** A value of `loopDelayHistogram` (ns) as the loop's delay in ms, two decimals. */
export const loopDelayMs = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);

let histogram: IntervalHistogram | null = null;
let lastMinute: ProcessHealth['eventLoopDelayMs'] = null;

/** Memory and event-loop delay of this process (the service monitor, the soak benchmark). */
export function processHealth(): ProcessHealth {
  if (!histogram) {
    const h = loopDelayHistogram();
    histogram = h;
    setInterval(() => {
      lastMinute = { mean: loopDelayMs(h.mean), p99: loopDelayMs(h.percentile(99)), max: loopDelayMs(h.max) };
      h.reset();
    }, 60_000).unref();
  }
  const m = process.memoryUsage();
  return { rssMb: Math.round(m.rss / 2 ** 20), heapUsedMb: Math.round(m.heapUsed / 2 ** 20), eventLoopDelayMs: lastMinute };
}
