// A reader of the SQLite database in a worker thread with its own connection: WAL lets readers run beside the writer,
// so a year-long report or an export's slices take this thread's time, not the main thread's (the broker, the API).
// Plain JavaScript so it loads the same under tsx, vitest and node.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { lowerThisThread } from '../lib/thread-priority.mjs';

lowerThisThread(10);

const db = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('cache_size = -65536');

const statements = new Map();
function statement(sql) {
  let stmt = statements.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    // a bounded cache: report SQL varies with the number of ids
    if (statements.size > 500) statements.clear();
    statements.set(sql, stmt);
  }
  return stmt;
}

// Rows cross to the main thread as arrays of values beside one list of column names (read-db.ts makes them objects
// again): a structured clone of objects carries every row's keys, and decoding it on the main thread took twice as
// long (9,000 three-column rows: 3.0 ms against 1.7 ms with the objects rebuilt; here 2.1 ms against 1.2 ms).
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    const stmt = statement(sql);
    if (!stmt.reader) {
      stmt.run(parameters);
      parentPort.postMessage({ id, columns: [], rows: [] });
      return;
    }
    const columns = stmt.columns().map((c) => c.name);
    parentPort.postMessage({ id, columns, rows: stmt.raw(true).all(parameters) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: err.message, code: err.code } });
  }
});
