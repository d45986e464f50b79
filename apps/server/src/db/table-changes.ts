import pg from 'pg';
import {
  AliasNode, DeleteQueryNode, InsertQueryNode, TableNode, UpdateQueryNode, sql,
  type KyselyPlugin, type OperationNode, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult,
  type RootOperationNode, type UnknownRow,
} from 'kysely';
import type { Database } from './schema.ts';

type Table = keyof Database & string;

/**
 * A counter per table, moved on every write to it: in-memory caches (signed-in sessions, the area tree) remember the
 * counters they were built at and rebuild when one has moved, so a revoked token or a changed role acts on the next
 * request. In this process the Kysely plugin below moves them as each INSERT/UPDATE/DELETE runs — before (a cache
 * filled while the write runs is stale at once) and after it; on PostgreSQL, writes of other processes arrive as a
 * NOTIFY from a statement trigger (migration 020), which also fires at commit for this process's own transactions.
 */
export class TableChanges {
  private readonly epochs = new Map<string, number>();

  bump(table: string) {
    this.epochs.set(table, (this.epochs.get(table) ?? 0) + 1);
  }

  /** One number that moves whenever any of the tables is written (the counters only grow). */
  epoch(tables: readonly Table[]): number {
    let sum = 0;
    for (const t of tables) sum += this.epochs.get(t) ?? 0;
    return sum;
  }
}

/** The tables whose changes a process must hear from the others (PostgreSQL triggers are created on these). */
export const WATCHED_TABLES = [
  'session', 'app_user', 'tenant', 'role_grant', 'user_role', 'user_project', 'menu', 'menu_element', 'area', 'device',
] as const satisfies readonly Table[];

function tableOf(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (TableNode.is(node)) return node.table.identifier.name;
  if (AliasNode.is(node)) return tableOf(node.node);
  return undefined;
}

function writtenTables(node: RootOperationNode): string[] {
  if (InsertQueryNode.is(node)) return [tableOf(node.into)].filter((t): t is string => !!t);
  if (UpdateQueryNode.is(node)) return [tableOf(node.table)].filter((t): t is string => !!t);
  if (DeleteQueryNode.is(node)) return node.from.froms.map(tableOf).filter((t): t is string => !!t);
  return [];
}

export class TableChangesPlugin implements KyselyPlugin {
  private readonly pending = new WeakMap<object, string[]>();

  constructor(readonly changes: TableChanges) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const tables = writtenTables(args.node);
    if (tables.length) {
      for (const t of tables) this.changes.bump(t);
      this.pending.set(args.queryId, tables);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const tables = this.pending.get(args.queryId);
    if (tables) for (const t of tables) this.changes.bump(t);
    return args.result;
  }
}

/** The NOTIFY channel of an installation, one per schema (the trigger and the listener evaluate the same expression). */
const CHANNEL_SQL = `left('kelvin_changes_' || regexp_replace(current_schema(), '\\W', '', 'g'), 63)`;

/** PostgreSQL: hears the watched tables' triggers (other processes' commits and this one's) and moves the counters. */
export async function listenForChanges(opts: { databaseUrl: string; schema?: string; changes: TableChanges; onError: (err: unknown) => void }) {
  let client: pg.Client | null = null;
  let closed = false;
  const connect = async () => {
    const c = new pg.Client({ connectionString: opts.databaseUrl, ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}) });
    c.on('notification', (n) => {
      if (n.payload) opts.changes.bump(n.payload);
    });
    c.on('error', (err) => {
      opts.onError(err);
      client = null;
      c.end().catch(() => {});
      // while reconnecting nothing is heard: every cache is dropped once connected again
      if (!closed) setTimeout(() => void connect().then(() => WATCHED_TABLES.forEach((t) => opts.changes.bump(t)), opts.onError), 1000);
    });
    await c.connect();
    const { rows } = await c.query<{ channel: string }>(`SELECT ${CHANNEL_SQL} AS channel`);
    await c.query(`LISTEN "${rows[0]!.channel}"`);
    client = c;
  };
  await connect();
  return {
    async close() {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}

/** Migration 020's trigger function body, kept beside the channel name it must match. */
export const notifyFunctionSql = sql.raw(`CREATE OR REPLACE FUNCTION kelvin_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(${CHANNEL_SQL}, TG_TABLE_NAME);
  RETURN NULL;
END $$`);
