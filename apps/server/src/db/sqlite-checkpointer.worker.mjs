// Copies the SQLite write-ahead log back into the database file from a thread of its own. Left to SQLite, the
// connection whose commit finds the log over its limit does it inside that commit: the ingest writer (a second with
// no commits) or — worse — the main thread, where a gate-log row or a heartbeat would stall the broker and the API
// while megabytes are copied. A PASSIVE checkpoint runs beside readers and the writer and never waits for them.
// Plain JavaScript so it loads the same under tsx, vitest and node.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const db = new SQLite(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
db.pragma('wal_autocheckpoint = 0');

// a log this long (256 MB) whose frames are all copied back is restarted: under a steady ingest the writer rarely
// finds it fully copied at the start of a batch, which is when SQLite would restart it by itself
const RESTART_PAGES = 65536;

function checkpoint() {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    if (row.log >= RESTART_PAGES && row.checkpointed === row.log) {
      // waits at most 50 ms for the writer's current batch; nothing is left to copy, so it holds the next one only briefly
      db.pragma('busy_timeout = 50');
      try {
        db.pragma('wal_checkpoint(RESTART)');
      } finally {
        db.pragma('busy_timeout = 0');
      }
    }
  } catch {
    // busy (a TRUNCATE elsewhere, a migration): the next round
  }
}
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'close') {
    clearInterval(timer);
    checkpoint();
    db.close();
    parentPort.postMessage({ closed: true });
  }
});
