import os from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  CompiledQuery, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type QueryResult,
} from 'kysely';
import { logQuerySpan } from '../lib/trace.ts';
import type { Db } from './index.ts';
import { sqliteFileOf } from './index.ts';
import { dialectOf } from './dialect.ts';

/**
 * The database for long reads (history ranges, reports, exports): on SQLite a small pool of reader threads with
 * their own read-only connections (better-sqlite3 runs a query synchronously, so on the main thread a one-second
 * report would hold up every device's acknowledgement for that second); on PostgreSQL the pool is already
 * asynchronous and the same database serves. Only reads: a write through it fails.
 */
export interface ReadDb {
  db: Db;
  /** queries in flight on each reader thread (/metrics); none on PostgreSQL */
  busy(): number[];
  close(): Promise<void>;
}

interface Reader {
  worker: Worker;
  busy: number;
}

interface Pending {
  reader: Reader;
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

class ReaderPool {
  private readonly workers: Reader[] = [];
  private readonly pending = new Map<number, Pending>();
  private next = 1;

  constructor(file: string, size: number) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL('./sqlite-reader.worker.mjs', import.meta.url), { workerData: { file } });
      const slot = { worker, busy: 0 };
      worker.on('message', (m: { id: number; columns?: string[]; rows?: unknown[][]; error?: { message: string; code?: string } }) => {
        slot.busy--;
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (!p) return;
        if (m.error) p.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
        else p.resolve(rowObjects(m.columns ?? [], m.rows ?? []));
      });
      // a reader that dies fails what it held
      worker.on('error', (err) => {
        for (const [id, p] of this.pending) {
          if (p.reader !== slot) continue;
          this.pending.delete(id);
          p.reject(err);
        }
      });
      worker.unref();
      this.workers.push(slot);
    }
  }

  run(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    // the least busy reader: a long report does not queue short reads behind it while another reader is free
    const slot = this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
    const id = this.next++;
    slot.busy++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { reader: slot, resolve, reject });
      slot.worker.postMessage({ id, sql, parameters });
    });
  }

  busy(): number[] {
    return this.workers.map((w) => w.busy);
  }

  async close() {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
    for (const p of this.pending.values()) p.reject(new Error('读取线程已关闭'));
    this.pending.clear();
  }
}

/** Rows as the reader sends them (values in column order) made objects again; a repeated name keeps its last value, as better-sqlite3 does. */
function rowObjects(columns: string[], rows: unknown[][]): Record<string, unknown>[] {
  const out = new Array<Record<string, unknown>>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const values = rows[r]!;
    const row: Record<string, unknown> = {};
    for (let c = 0; c < columns.length; c++) row[columns[c]!] = values[c];
    out[r] = row;
  }
  return out;
}

class ReaderConnection implements DatabaseConnection {
  constructor(private readonly pool: ReaderPool) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: (await this.pool.run(compiled.sql, compiled.parameters)) as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('读取线程不支持流式查询，请分页读取');
  }
}

class ReaderDriver implements Driver {
  private readonly connection: ReaderConnection;
  constructor(private readonly pool: ReaderPool) {
    this.connection = new ReaderConnection(pool);
  }
  async init() {}
  async acquireConnection() {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('读取线程只用于查询');
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  async destroy() {
    await this.pool.close();
  }
}

/** Reader threads: a second core's worth for long reads, never more than the machine has beside the main thread. */
export const READERS = Math.max(1, Math.min(2, os.availableParallelism() - 1));

export function openReadDb(db: Db, config: { dataDir: string }): ReadDb {
  if (dialectOf(db) === 'postgres') return { db, busy: () => [], close: async () => {} };
  const pool = new ReaderPool(sqliteFileOf(config.dataDir), READERS);
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReaderDriver(pool),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  const readDb = new Kysely<never>({ dialect, log: logQuerySpan }) as unknown as Db;
  return { db: readDb, busy: () => pool.busy(), close: () => readDb.destroy() };
}
