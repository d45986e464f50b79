import {
  SqliteDialect, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type SqliteDialectConfig, type TransactionSettings,
} from 'kysely';

/**
 * One SQLite file has one writer at a time. The ingest writer thread commits a batch every few tens of milliseconds;
 * a write on the main thread meeting that lock used to wait inside better-sqlite3's busy handler — synchronously,
 * the whole event loop asleep (an API answer, a command, the heartbeat) for up to ~100 ms at a time. This gate is
 * taken before SQLite's own lock: the main thread waits for it asynchronously (Atomics.waitAsync), the writer thread
 * blocks on it (Atomics.wait, it has nothing else to do). A transaction takes it at its first write and keeps it to
 * its end, as SQLite keeps its lock. State in a SharedArrayBuffer both threads hold: [0] who holds it, [1] the main thread is waiting.
 */
// Atomics.waitAsync (ES2024, in Node since 16) is not in this project's TypeScript lib
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, ms: number): { async: boolean; value: Promise<string> | string } }).waitAsync;

const FREE = 0;
const MAIN = 1;
const HOLDER = 0;
const MAIN_WAITING = 1;

export function createWriteGate(buffer = new SharedArrayBuffer(8)) {
  const state = new Int32Array(buffer);
  return {
    buffer,
    /** taken by this (main) thread: once per write statement, or once by a transaction at its first write */
    async acquire(): Promise<void> {
      while (Atomics.compareExchange(state, HOLDER, FREE, MAIN) !== FREE) {
        Atomics.store(state, MAIN_WAITING, 1);
        const held = Atomics.load(state, HOLDER);
        if (held === FREE) continue;
        // with a timeout too, so a wake-up missed between the load and the wait is only a second late
        const wait = waitAsync(state, HOLDER, held, 1000);
        if (wait.async) await wait.value;
      }
      Atomics.store(state, MAIN_WAITING, 0);
    },
    release() {
      Atomics.store(state, HOLDER, FREE);
      Atomics.notify(state, HOLDER);
    },
  };
}

export type WriteGate = ReturnType<typeof createWriteGate>;

const READ = /^\s*(select|pragma|explain)\b/i;
const isWrite = (q: CompiledQuery) => (q.query.kind === 'SelectQueryNode' ? false : q.query.kind === 'RawNode' ? !READ.test(q.sql) : true);

/** SQLite for the main thread: every write statement and every transaction passes the gate first. */
export class GatedSqliteDialect extends SqliteDialect {
  constructor(config: SqliteDialectConfig, private readonly gate: WriteGate) {
    super(config);
  }

  override createDriver(): Driver {
    const inner = super.createDriver();
    const gate = this.gate;
    // connection → its transaction holds the gate (true) or has not written yet (false)
    const inTransaction = new WeakMap<DatabaseConnection, boolean>();
    const gated = (conn: DatabaseConnection): DatabaseConnection => ({
      async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
        const trx = inTransaction.get(conn);
        if (!isWrite(q) || trx === true) return conn.executeQuery<R>(q);
        await gate.acquire();
        // a transaction keeps the gate from its first write to its end (SQLite's lock is held that long too)
        if (trx === false) {
          inTransaction.set(conn, true);
          return conn.executeQuery<R>(q);
        }
        try {
          return await conn.executeQuery<R>(q);
        } finally {
          gate.release();
        }
      },
      streamQuery: <R>(q: CompiledQuery, chunkSize?: number) => conn.streamQuery<R>(q, chunkSize),
    });
    const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const outer = (conn: DatabaseConnection) => {
      let w = wrapped.get(conn);
      if (!w) wrapped.set(conn, (w = gated(conn)));
      return w;
    };
    const innerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const unwrap = (w: DatabaseConnection) => innerOf.get(w)!;
    /** a transaction's commit or rollback, after which the gate is free again */
    const ended = async (w: DatabaseConnection, end: Promise<void>) => {
      const held = inTransaction.get(unwrap(w));
      try {
        await end;
      } finally {
        inTransaction.delete(unwrap(w));
        if (held) gate.release();
      }
    };
    return {
      init: () => inner.init(),
      async acquireConnection() {
        const conn = await inner.acquireConnection();
        const w = outer(conn);
        innerOf.set(w, conn);
        return w;
      },
      async beginTransaction(w: DatabaseConnection, settings: TransactionSettings) {
        await inner.beginTransaction(unwrap(w), settings);
        inTransaction.set(unwrap(w), false);
      },
      commitTransaction: (w: DatabaseConnection) => ended(w, inner.commitTransaction(unwrap(w))),
      rollbackTransaction: (w: DatabaseConnection) => ended(w, inner.rollbackTransaction(unwrap(w))),
      savepoint: inner.savepoint && ((w, name, compile) => inner.savepoint!(unwrap(w), name, compile)),
      rollbackToSavepoint: inner.rollbackToSavepoint && ((w, name, compile) => inner.rollbackToSavepoint!(unwrap(w), name, compile)),
      releaseSavepoint: inner.releaseSavepoint && ((w, name, compile) => inner.releaseSavepoint!(unwrap(w), name, compile)),
      releaseConnection: (w: DatabaseConnection) => inner.releaseConnection(unwrap(w)),
      destroy: () => inner.destroy(),
    };
  }
}
