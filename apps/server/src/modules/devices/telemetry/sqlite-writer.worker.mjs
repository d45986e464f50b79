// The SQLite side of the ingest batch writer, in a worker thread with its own connection: better-sqlite3 is
// synchronous, so writing here keeps the broker and the API responsive on the main thread and uses a second core.
// Plain JavaScript so it loads the same under tsx, vitest and node.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { GRAINS, ROLLUP_WIDTH, aggregate, lateBuckets, upsertSql } from './rollup.mjs';

const db = new SQLite(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
// history inserts touch one B-tree leaf per device (key device, ts, field): keep those pages in memory
db.pragma('cache_size = -131072');
// the server's checkpointer thread copies the log back (db/checkpointer.ts): a checkpoint inside a batch's commit
// was a second without commits; after a reset the log file is cut back to 64 MB
db.pragma('wal_autocheckpoint = 0');
db.pragma('journal_size_limit = 67108864');

const ROWS = 500;
const statements = new Map();

function statement(kind, rows) {
  const key = `${kind}:${rows}`;
  let stmt = statements.get(key);
  if (stmt) return stmt;
  const tuple = (n) => `(${Array(n).fill('?').join(',')})`;
  const values = (n) => Array(rows).fill(tuple(n)).join(',');
  switch (kind) {
    case 'history':
      // RETURNING: the rows really added (not the duplicates) feed the roll-ups
      stmt = db.prepare(`INSERT INTO device_history (device_id, field_code, ts, num, txt) VALUES ${values(5)} ON CONFLICT DO NOTHING RETURNING device_id, field_code, ts, num`).raw(true);
      break;
    case 'device_rollup_hour':
    case 'device_rollup_day':
      stmt = db.prepare(upsertSql('sqlite', kind, 'merge', rows)).raw(true);
      break;
    case 'device_rollup_hour:replace':
    case 'device_rollup_day:replace':
      stmt = db.prepare(upsertSql('sqlite', kind.split(':')[0], 'replace', rows));
      break;
    case 'state':
      stmt = db.prepare(`INSERT INTO device_state (device_id, field_code, num, txt, ts) VALUES ${values(5)} ON CONFLICT (device_id, field_code) DO UPDATE SET num = excluded.num, txt = excluded.txt, ts = excluded.ts WHERE excluded.ts >= device_state.ts`);
      break;
    case 'devices':
      stmt = db.prepare(`WITH v(id, at, until) AS (VALUES ${values(3)}) UPDATE device SET last_report_at = v.at, online_until = v.until FROM v WHERE device.id = v.id RETURNING device.id AS id, device.command_pending_at AS pending`);
      break;
    default:
      throw new Error(kind);
  }
  if (statements.size > 400) statements.clear();
  statements.set(key, stmt);
  return stmt;
}

/** Runs `kind` over a flat parameter array of `width` columns per row, in chunks of ROWS rows. */
function each(kind, flat, width, fn) {
  const rows = flat.length / width;
  for (let i = 0; i < rows; i += ROWS) {
    const n = Math.min(ROWS, rows - i);
    fn(statement(kind, n), flat.slice(i * width, (i + n) * width));
  }
}

const counter = db.prepare('INSERT INTO ingest_counter (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = ingest_counter.value + excluded.value, updated_at = excluded.updated_at');
const reject = db.prepare('INSERT INTO ingest_reject (tenant_id, device_code, topic, reason, detail, at) VALUES (?, ?, ?, ?, ?, ?)');
const bucketReadings = db.prepare('SELECT device_id, field_code, ts, num FROM device_history WHERE device_id = ? AND ts >= ? AND ts < ? AND field_code = ? AND num IS NOT NULL').raw(true);

/** Adds the inserted readings to both roll-ups; buckets that got a late reading are recomputed from history. */
function rollUp(readings) {
  const batches = aggregate(readings);
  GRAINS.forEach((grain, g) => {
    const late = [];
    each(grain.table, batches[g], ROLLUP_WIDTH, (stmt, params) => {
      late.push(...lateBuckets(grain, stmt.all(params)));
    });
    if (!late.length) return;
    const readingsOfLate = [];
    for (const [device, field, from, to] of late) readingsOfLate.push(...bucketReadings.all(device, from, to, field));
    each(`${grain.table}:replace`, aggregate(readingsOfLate, [grain])[0], ROLLUP_WIDTH, (stmt, params) => stmt.run(params));
  });
}

const write = db.transaction((batch) => {
  const added = [];
  each('history', batch.history, 5, (stmt, params) => {
    for (const row of stmt.all(params)) added.push(row);
  });
  const inserted = added.length;
  if (inserted) rollUp(added);
  each('state', batch.state, 5, (stmt, params) => stmt.run(params));
  const pending = [];
  each('devices', batch.devices, 3, (stmt, params) => {
    for (const row of stmt.all(params)) if (row.pending !== null) pending.push(row.id);
  });
  const historyRows = batch.history.length / 5;
  const counters = [...batch.counters, ['points_stored', inserted], ['points_duplicate', historyRows - inserted]];
  for (const [name, value] of counters) if (value) counter.run(name, value, batch.now);
  for (const r of batch.rejects) reject.run(r.tenantId, r.deviceCode, r.topic, r.reason, r.detail, r.at);
  return { inserted, pending };
});

// The write gate shared with the main thread (db/write-gate.ts): [0] who holds it (0 free, 1 main, 2 this thread),
// [1] the main thread is waiting. This thread blocks on it (it has nothing else to do). A waiting main thread takes
// it first, within HAND_OFF_MS: otherwise, under a backlog of batches, this thread took it again every time and the
// main thread's writes — and every query queued behind them on its one connection — starved. The main thread's
// writes are few and short (connection times are written in batches), so handing off costs the ingest little.
const gate = workerData.gate ? new Int32Array(workerData.gate) : null;
const WRITER = 2;
const HAND_OFF_MS = 100;

function acquire() {
  if (!gate) return;
  const handOffUntil = Date.now() + HAND_OFF_MS;
  for (;;) {
    const held = Atomics.load(gate, 0);
    // a waiting main thread takes the free gate first (its wake-up goes through its event loop): wait until it has
    if (held === 0 && Atomics.load(gate, 1) === 1 && Date.now() < handOffUntil) {
      Atomics.wait(gate, 0, 0, 5);
      continue;
    }
    if (held === 0 && Atomics.compareExchange(gate, 0, 0, WRITER) === 0) return;
    if (held !== 0) Atomics.wait(gate, 0, held, 50);
  }
}

function release() {
  if (!gate) return;
  Atomics.store(gate, 0, 0);
  Atomics.notify(gate, 0);
}

parentPort.on('message', (msg) => {
  if (msg.close) {
    db.close();
    parentPort.postMessage({ closed: true });
    return;
  }
  try {
    acquire();
    let result;
    try {
      result = write.immediate(msg.batch);
    } finally {
      release();
    }
    parentPort.postMessage({ id: msg.id, ...result });
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
  }
});
