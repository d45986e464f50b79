import { describe, expect, it } from 'vitest';
import { loopDelayHistogram, loopDelayMs } from './process-health.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('event-loop delay', () => {
  it('reads about 0 ms on an idle loop (not the 10 ms between samples) and the length of a block that held it', async () => {
    const h = loopDelayHistogram();
    try {
      await sleep(300);
      // Node records the time between samples: an idle loop's raw values sit at the resolution
      expect(h.percentile(50) / 1e6).toBeGreaterThanOrEqual(9);
      expect(loopDelayMs(h.percentile(50))).toBeLessThan(5);
      h.reset();
      await sleep(30); // (the first sample after a reset only starts the next interval)
      const until = Date.now() + 120;
      while (Date.now() < until) { /* the loop is held */ }
      await sleep(50);
      expect(loopDelayMs(h.max)).toBeGreaterThanOrEqual(100);
      expect(loopDelayMs(h.max)).toBeLessThan(h.max / 1e6);
    } finally {
      h.disable();
    }
  });
});
