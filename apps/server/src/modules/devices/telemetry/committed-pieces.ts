import type { CommittedBatch } from './writer.ts';

/**
 * Reports per message to the main thread. A structured clone is decoded in one go on the receiving thread, before
 * any of its code runs: a batch of 10,000 reports took ~100 ms of the main thread's loop on these cores (2,000: ~20 ms),
 * 250 take ~3 ms.
 */
export const REPORTS_PER_PIECE = 250;

/**
 * Committed batches on their way from the broker thread to the main thread, in pieces of at most `size` reports, one
 * piece in flight at a time: `send` answers once the main thread has taken the piece, and only then is the next one
 * posted. Messages already waiting on a port are all decoded in one turn of the receiving loop, so pieces posted at
 * once would stall it as long as the whole batch; one at a time, the main thread's timers, requests and I/O run
 * between them. Pieces keep the batches' order; a batch's pending-command devices travel with its first piece.
 */
export function committedPieces(send: (piece: CommittedBatch) => Promise<unknown>, onError: (err: unknown) => void, size = REPORTS_PER_PIECE) {
  const waiting: CommittedBatch[] = [];
  let sending: Promise<void> | null = null;

  async function pump() {
    while (waiting.length) await send(waiting.shift()!).catch(onError);
    sending = null;
  }

  return {
    push(batch: CommittedBatch) {
      for (let i = 0; i < batch.reports.length || i === 0; i += size) {
        waiting.push({ reports: batch.reports.slice(i, i + size), pendingCommandDevices: i === 0 ? batch.pendingCommandDevices : [] });
      }
      sending ??= pump();
    },
    /** resolves once every piece pushed so far has been taken (flush, close) */
    async drained() {
      while (sending) await sending;
    },
    /** pieces not yet posted (tests) */
    waiting: () => waiting.length,
  };
}
