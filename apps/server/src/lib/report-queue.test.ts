import { describe, expect, it } from 'vitest';
import { createReportQueue } from './report-queue.ts';

describe('report queue', () => {
  it('handles items in order, synchronous and asynchronous ones mixed, and goes on after an error', async () => {
    const seen: number[] = [];
    const errors: unknown[] = [];
    const q = createReportQueue<number>({
      max: 100,
      handle: (n) => {
        if (n === 3) throw new Error('drei');
        if (n % 2 === 0) return new Promise<void>((resolve) => setTimeout(() => { seen.push(n); resolve(); }, 2));
        seen.push(n);
      },
      onError: (err) => errors.push(err),
    });
    for (let n = 0; n < 8; n++) q.push(n);
    await q.idle();
    expect(seen).toEqual([0, 1, 2, 4, 5, 6, 7]);
    expect(errors).toHaveLength(1);
    // pushed after the drain ended: a new one starts
    q.push(9);
    await q.idle();
    expect(seen.at(-1)).toBe(9);
    expect(q.stats()).toEqual({ queued: 0, dropped: 0 });
  });

  it('drops beyond max and counts it', async () => {
    const seen: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const q = createReportQueue<number>({ max: 3, handle: (n) => (n === 0 ? gate.then(() => void seen.push(n)) : void seen.push(n)), onError: () => {} });
    for (let n = 0; n < 6; n++) q.push(n);
    // 0 is being handled, 1, 2 and 3 wait: 4 and 5 find the queue full
    expect(q.stats()).toEqual({ queued: 3, dropped: 2 });
    release();
    await q.idle();
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('a long run of synchronous items gives the event loop turns', async () => {
    let timerRanAt = -1;
    let handled = 0;
    const q = createReportQueue<number>({
      max: 1_000_000,
      handle: () => {
        const until = performance.now() + 0.05;
        while (performance.now() < until); // 50 µs of work each: 4,000 items are 200 ms
        handled++;
      },
      onError: () => {},
    });
    setTimeout(() => (timerRanAt = handled), 1);
    for (let n = 0; n < 4000; n++) q.push(n);
    await q.idle();
    expect(handled).toBe(4000);
    // the timer ran while items were still waiting, not after all of them
    expect(timerRanAt).toBeGreaterThan(0);
    expect(timerRanAt).toBeLessThan(4000);
  });

  it('stop: nothing more is handled', async () => {
    const seen: number[] = [];
    const q = createReportQueue<number>({ max: 10, handle: (n) => new Promise<void>((resolve) => setTimeout(() => { seen.push(n); resolve(); }, 1)), onError: () => {} });
    q.push(1);
    q.push(2);
    q.stop();
    await q.idle();
    expect(seen).toEqual([1]);
  });
});
