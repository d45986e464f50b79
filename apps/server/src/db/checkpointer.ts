import { Worker } from 'node:worker_threads';

/** How often the write-ahead log is copied back (the ingest writes megabytes a second at full rate). */
const CHECKPOINT_INTERVAL_MS = 500;

/**
 * SQLite: the one place the write-ahead log is checkpointed (db/sqlite-checkpointer.worker.mjs); every connection
 * that writes turns its own automatic checkpoint off (createDb, the ingest writer).
 */
export function startCheckpointer(file: string) {
  const worker = new Worker(new URL('./sqlite-checkpointer.worker.mjs', import.meta.url), { workerData: { file, intervalMs: CHECKPOINT_INTERVAL_MS } });
  worker.unref();
  return {
    close: () => new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      worker.on('message', (m: { closed?: boolean }) => m.closed && void worker.terminate());
      worker.postMessage('close');
    }),
  };
}
