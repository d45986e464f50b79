import { describe, expect, it } from 'vitest';
import { createIngestCounters } from './counters.ts';
import type { BatchRows } from './sinks.ts';
import { createBatchWriter, type Report } from './writer.ts';

const report = (deviceId: number, ts: number, receivedAt: number, points: [string, number | null, string | null][]): Report => ({
  deviceId, deviceType: '20090', tenantId: 1, projectId: 2, heartbeatMs: 60_000, receivedAt, ts, points: points.map(([code, num, txt]) => ({ code, num, txt })),
});

describe('the batch writer’s rows', () => {
  it('every point to history in order; per device and field the newest reading to state; per device the latest report time', async () => {
    const written: BatchRows[] = [];
    const writer = createBatchWriter({
      sink: { write: async (b) => { written.push(b); return { inserted: 0, pending: [] }; }, close: async () => {} },
      counters: createIngestCounters(), onCommitted: () => {}, onError: (err) => { throw err; }, intervalMs: 1_000,
    });
    // device 7: ts 2000, then an older report (ts 1000, received later), then a newer f71 only; device 8 in between
    const stored = [
      writer.enqueue(report(7, 2000, 10, [['f70', 5, null], ['f71', 1, null]])),
      writer.enqueue(report(8, 1500, 11, [['f70', 9, null], ['f13', null, '08:30']])),
      writer.enqueue(report(7, 1000, 12, [['f70', 4, null], ['f71', 0, null]])),
      writer.enqueue(report(7, 3000, 13, [['f71', 2, null]])),
    ];
    await writer.flush();
    await Promise.all(stored);
    expect(written).toHaveLength(1);
    const [rows] = written;
    expect(rows!.history).toEqual([
      7, 'f70', 2000, 5, null, 7, 'f71', 2000, 1, null,
      8, 'f70', 1500, 9, null, 8, 'f13', 1500, null, '08:30',
      7, 'f70', 1000, 4, null, 7, 'f71', 1000, 0, null,
      7, 'f71', 3000, 2, null,
    ]);
    // (device, field, num, txt, ts) in the order each pair was first seen
    expect(rows!.state).toEqual([7, 'f70', 5, null, 2000, 7, 'f71', 2, null, 3000, 8, 'f70', 9, null, 1500, 8, 'f13', null, '08:30', 1500]);
    // (device, last report, online until)
    expect(rows!.devices).toEqual([7, 13, 60_013, 8, 11, 60_011]);
    await writer.close();
  });
});
