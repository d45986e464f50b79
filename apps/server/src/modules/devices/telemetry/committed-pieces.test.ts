import { describe, expect, it } from 'vitest';
import { committedPieces } from './committed-pieces.ts';
import type { CommittedBatch, Report } from './writer.ts';

const report = (deviceId: number): Report => ({ deviceId, deviceType: '20090', tenantId: 1, projectId: 2, heartbeatMs: 60_000, receivedAt: 0, ts: deviceId, points: [] });
const batch = (from: number, n: number, pending: number[]): CommittedBatch => ({ reports: Array.from({ length: n }, (_, i) => report(from + i)), pendingCommandDevices: pending });

describe('committed batches on their way to the main thread', () => {
  it('go in pieces, one in flight at a time, in order, the pending devices with the first piece', async () => {
    const sent: CommittedBatch[] = [];
    let take: (() => void) | null = null;
    const pieces = committedPieces((piece) => {
      sent.push(piece);
      return new Promise<void>((resolve) => (take = resolve));
    }, (err) => { throw err; }, 250);

    pieces.push(batch(0, 600, [7, 9]));
    pieces.push(batch(600, 10, [3]));
    // the first piece is posted; the rest wait until the main thread has taken it
    expect(sent.map((p) => p.reports.length)).toEqual([250]);
    expect(pieces.waiting()).toBe(3);
    const drained = pieces.drained();
    while (sent.length < 4 || pieces.waiting()) {
      const n = sent.length;
      take!();
      await new Promise((r) => setImmediate(r));
      expect(sent.length).toBe(n + 1);
    }
    take!();
    await drained;

    expect(sent.map((p) => p.reports.length)).toEqual([250, 250, 100, 10]);
    expect(sent.map((p) => p.pendingCommandDevices)).toEqual([[7, 9], [], [], [3]]);
    expect(sent.flatMap((p) => p.reports.map((r) => r.deviceId))).toEqual(Array.from({ length: 610 }, (_, i) => i));
  });

  it('a piece the main thread failed to take is reported and the next ones still go', async () => {
    const errors: unknown[] = [];
    const sent: number[] = [];
    const pieces = committedPieces(async (piece) => {
      sent.push(piece.reports[0]!.deviceId);
      if (sent.length === 1) throw new Error('gone');
    }, (err) => errors.push(err), 2);
    pieces.push(batch(0, 5, []));
    await pieces.drained();
    expect(sent).toEqual([0, 2, 4]);
    expect(errors).toHaveLength(1);
  });
});
