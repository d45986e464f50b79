import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread written in TypeScript (`src/**∕<name>.worker.ts`), given its URL beside the caller's source.
 * Compiled, the caller and the worker are both in dist/ and the worker is `<name>.worker.mjs` there
 * (scripts/build-server.mjs); from the sources, a small bootstrap registers tsx in the thread first — Node 20 applies
 * no `--import` to a worker's own entry.
 */
export function startTsWorker(url: URL, workerData: unknown): Worker {
  if (url.pathname.endsWith('.ts') && fs.existsSync(fileURLToPath(url))) {
    return new Worker(new URL('./ts-worker-boot.mjs', import.meta.url), { workerData: { ...(workerData as object), kelvinEntry: url.href } });
  }
  return new Worker(new URL(url.href.replace(/\.ts$/, '.mjs')), { workerData });
}
