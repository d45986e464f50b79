import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql, type KyselyPlugin, type Migration } from 'kysely';
import type { Database } from './schema.ts';
import { RefuseEmptyUpdate } from './empty-update.ts';
import { TableChanges, TableChangesPlugin } from './table-changes.ts';
import { withStatementCache } from './statement-cache.ts';
import { GatedSqliteDialect, createWriteGate } from './write-gate.ts';
import { logQuerySpan } from '../lib/trace.ts';
import * as m001 from './migrations/001-foundation.ts';
import * as m002 from './migrations/002-devices.ts';
import * as m003 from './migrations/003-admin.ts';
import * as m004 from './migrations/004-projects.ts';
import * as m005 from './migrations/005-device-management.ts';
import * as m006 from './migrations/006-history-order.ts';
import * as m007 from './migrations/007-monitoring.ts';
import * as m008 from './migrations/008-automation.ts';
import * as m009 from './migrations/009-exceptions.ts';
import * as m010 from './migrations/010-accounts.ts';
import * as m011 from './migrations/011-billing.ts';
import * as m012 from './migrations/012-billing-share-basis.ts';
import * as m013 from './migrations/013-rollups.ts';
import * as m014 from './migrations/014-repairs.ts';
import * as m015 from './migrations/015-ledger-day.ts';
import * as m016 from './migrations/016-bigscreen.ts';
import * as m017 from './migrations/017-departments.ts';
import * as m018 from './migrations/018-ops.ts';
import * as m019 from './migrations/019-registration.ts';
import * as m020 from './migrations/020-performance.ts';
import * as m021 from './migrations/021-broker.ts';

export type Db = Kysely<Database>;

/**
 * Ordered migration set shared by both dialects. New files are added here. Migrations only move forward: a file
 * exports `up` alone (a downgrade is a restore of the backup taken before the upgrade; db/upgrade.test.ts checks).
 */
const migrations: Record<string, Migration> = {
  '001-foundation': m001,
  '002-devices': m002,
  '003-admin': m003,
  '004-projects': m004,
  '005-device-management': m005,
  '006-history-order': m006,
  '007-monitoring': m007,
  '008-automation': m008,
  '009-exceptions': m009,
  '010-accounts': m010,
  '011-billing': m011,
  '012-billing-share-basis': m012,
  '013-rollups': m013,
  '014-repairs': m014,
  '015-ledger-day': m015,
  '016-bigscreen': m016,
  '017-departments': m017,
  '018-ops': m018,
  '019-registration': m019,
  '020-performance': m020,
  '021-broker': m021,
};

/** every migration of this version, in order */
export const MIGRATION_NAMES = Object.keys(migrations);

// 64-bit integers (ids, epoch ms) come back as JS numbers; they stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface DbOptions {
  dataDir: string;
  databaseUrl?: string;
  schema?: string;
}

/** The SQLite database file of a data dir (the ingest writer opens its own connection to it). */
export const sqliteFileOf = (dataDir: string) => path.join(dataDir, 'kelvin.db');

/**
 * Connections of a database: PostgreSQL's pool; on SQLite the main thread's connection, the reader threads' (their
 * queries in flight, db/read-db.ts) and the writers on threads of their own (ingest writer, checkpointer).
 */
export type PoolStats =
  | { dialect: 'postgres'; max: number; total: number; idle: number; waiting: number }
  | { dialect: 'sqlite'; readersBusy: number[] };
const pools = new WeakMap<Db, pg.Pool>();

/** The pool figures of /metrics; `readersBusy`: the SQLite reader threads' queries in flight. */
export function poolStats(db: Db, readersBusy: number[] = []): PoolStats {
  const pool = pools.get(db);
  if (!pool) return { dialect: 'sqlite', readersBusy };
  return { dialect: 'postgres', max: pool.options.max ?? 10, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

const changesByDb = new WeakMap<Db, TableChanges>();
const gates = new WeakMap<Db, SharedArrayBuffer>();

/** SQLite: the write gate the main thread shares with the ingest writer thread (db/write-gate.ts); null on PostgreSQL. */
export const writeGateOf = (db: Db): SharedArrayBuffer | null => gates.get(db) ?? null;

/** The write counters of a database (db/table-changes.ts): what in-memory caches check before they answer. */
export function changesOf(db: Db): TableChanges {
  const changes = changesByDb.get(db);
  if (!changes) throw new Error('数据库实例不是由 createDb 创建的');
  return changes;
}

function withChanges(make: (plugins: KyselyPlugin[]) => Db): Db {
  const changes = new TableChanges();
  const db = make([new RefuseEmptyUpdate(), new TableChangesPlugin(changes)]);
  changesByDb.set(db, changes);
  return db;
}

export function createDb(opts: DbOptions): Db {
  if (opts.databaseUrl?.startsWith('postgres')) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    const db = withChanges((plugins) => new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins, log: logQuerySpan }));
    pools.set(db, pool);
    return db;
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = new SQLite(sqliteFileOf(opts.dataDir));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  // telemetry history inserts touch one B-tree leaf per device: keep those pages in memory (64 MB)
  file.pragma('cache_size = -65536');
  // never checkpoint inside a commit on the main thread: the server's checkpointer thread does it (db/checkpointer.ts);
  // a connection without one (a script, a test) checkpoints when it closes
  file.pragma('wal_autocheckpoint = 0');
  // writes wait for the ingest writer thread asynchronously, never asleep in SQLite's busy handler (db/write-gate.ts)
  const gate = createWriteGate();
  // every query of a request becomes a span of its trace (lib/trace.ts; nothing outside a request)
  const db = withChanges((plugins) => new Kysely<Database>({ dialect: new GatedSqliteDialect({ database: withStatementCache(file) }, gate), plugins, log: logQuerySpan }));
  gates.set(db, gate.buffer);
  return db;
}

/** The database a configuration names — its PostgreSQL schema created if needed — migrated to the latest version. */
export async function openDatabase(config: { dataDir: string; databaseUrl?: string; databaseSchema?: string }): Promise<{ db: Db; applied: string[] }> {
  if (config.databaseUrl && config.databaseSchema) await ensureSchema(config.databaseUrl, config.databaseSchema);
  const db = createDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, schema: config.databaseSchema });
  try {
    return { db, applied: await migrate(db, config.databaseSchema) };
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

/** Creates the PostgreSQL schema a test (or a deployment) isolates itself in. */
export async function ensureSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } finally {
    await client.end();
  }
}

export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * `schema`: the PostgreSQL schema the database lives in, when not the default. Kysely looks for its migration tables
 * in every schema unless told which, so two schemas migrating at once (parallel test files) would see each other's.
 */
export async function migrate(db: Db, schema?: string, opts: { to?: string } = {}): Promise<string[]> {
  const migrator = new Migrator({
    db,
    // only `up` is handed over: nothing can migrate down
    provider: { getMigrations: async () => Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, { up: m.up }])) },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  // `to`: stop after that migration (the upgrade test builds a database as an old version left it)
  const { error, results } = opts.to ? await migrator.migrateTo(opts.to) : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Migrations of this version not applied to the database (empty once the start has migrated), and applied ones this
 * version does not know (a newer version upgraded the database).
 */
export async function pendingMigrations(db: Db): Promise<{ pending: string[]; unknown: string[] }> {
  const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const applied = new Set(rows.rows.map((r) => r.name));
  return { pending: MIGRATION_NAMES.filter((n) => !applied.has(n)), unknown: [...applied].filter((n) => !MIGRATION_NAMES.includes(n)) };
}

export async function pingDb(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
