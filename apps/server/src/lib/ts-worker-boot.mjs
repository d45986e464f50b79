// Runs a TypeScript worker entry from the sources (tests, tsx): registers tsx's loader in this thread, then imports
// the entry. The compiled server never uses this: its workers are bundled to `<name>.worker.mjs` (lib/ts-worker.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.kelvinEntry);
