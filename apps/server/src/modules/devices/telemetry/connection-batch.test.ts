import { describe, expect, it } from 'vitest';
import { createConnectionBatch } from './connection-batch.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('connection times, collected and written together', () => {
  it('one write per moment with each device once', async () => {
    const writes: [number[], boolean][] = [];
    const batch = createConnectionBatch({ intervalMs: 20, write: async (ids, closing) => void writes.push([ids, closing]), onError: (err) => { throw err; } });
    batch.add(1);
    batch.add(2);
    batch.add(1);
    expect(writes).toEqual([]);
    await sleep(60);
    expect(writes).toEqual([[[1, 2], false]]);
    await batch.close();
    expect(writes).toHaveLength(1);
  });

  it('close writes what was collected at once, waits for a write in progress, and no timer fires afterwards', async () => {
    const writes: [number[], boolean][] = [];
    let slow: (() => void) | null = null;
    const batch = createConnectionBatch({
      intervalMs: 20,
      write: async (ids, closing) => {
        writes.push([ids, closing]);
        if (ids.includes(5)) await new Promise<void>((r) => (slow = r));
      },
      onError: (err) => { throw err; },
    });
    batch.add(5);
    await sleep(40); // the write of 5 is in progress
    expect(writes).toEqual([[[5], false]]);
    batch.add(6);
    let closed = false;
    const closing = batch.close().then(() => (closed = true));
    await sleep(10);
    expect(closed).toBe(false); // waits for the write of 5
    slow!();
    await closing;
    expect(writes).toEqual([[[5], false], [[6], true]]);
    batch.add(7); // after close: nothing more is written
    await sleep(60);
    expect(writes).toHaveLength(2);
  });
});
