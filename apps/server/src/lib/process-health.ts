import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface ProcessHealth {
  rssMb: number;
  heapUsedMb: number;
  /** event-loop delay over the last full minute (null during the first minute after start) */
  eventLoopDelayMs: { mean: number; p99: number; max: number } | null;
}

let histogram: IntervalHistogram | null = null;
let lastMinute: ProcessHealth['eventLoopDelayMs'] = null;
const ms = (ns: number) => Math.round(ns / 1e4) / 100;

/** Memory and event-loop delay of this process (the service monitor, the soak benchmark). */
export function processHealth(): ProcessHealth {
  if (!histogram) {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    histogram = h;
    setInterval(() => {
      lastMinute = { mean: ms(h.mean), p99: ms(h.percentile(99)), max: ms(h.max) };
      h.reset();
    }, 60_000).unref();
  }
  const m = process.memoryUsage();
  return { rssMb: Math.round(m.rss / 2 ** 20), heapUsedMb: Math.round(m.heapUsed / 2 ** 20), eventLoopDelayMs: lastMinute };
}
