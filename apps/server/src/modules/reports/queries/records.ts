import { sql, type SelectQueryBuilder } from 'kysely';
import { ACCOUNT_KINDS, DEVICE_TYPE_BY_CODE, LEDGER_KINDS, MENU_BY_CODE, TOPUP_METHODS, type ReportRow } from '@kelvin/contracts';
import type { Database } from '../../../db/schema.ts';
import { memorySource, sqlSource, type ReportContext, type ReportQueryFn, type ReportSource, type SortSpec } from '../source.ts';

/** `%kw%` (as every keyword search of the console: LIKE's own wildcards are not escaped, SQLite has no default escape). */
export const likeOf = (kw: string) => `%${kw}%`;

/**
 * A report straight over one table (a log, the ledger): counted, paged and streamed in SQL, the sort by the registry
 * key's column then id. `sums` maps total columns to SQL columns.
 */
export function tableSource<TB extends keyof Database, O>(q: SelectQueryBuilder<Database, TB, O>, opts: {
  sort: Record<string, string>; map(row: O): ReportRow; sums?: Record<string, string>;
}): ReportSource {
  const totals = async () => {
    const sums = Object.entries(opts.sums ?? {});
    if (!sums.length) return {};
    const row = await q.clearSelect().select(sums.map(([k, c]) => sql<number>`coalesce(sum(${sql.ref(c)}), 0)`.as(k))).executeTakeFirst() as Record<string, number | string> | undefined;
    return Object.fromEntries(sums.map(([k]) => [k, Number(row?.[k] ?? 0)]));
  };
  // nulls last on both databases (they differ by default), so the screen's pages and the export agree
  const ordered = (query: SelectQueryBuilder<Database, TB, O>, sort: SortSpec) => {
    const column = opts.sort[sort.key] ?? opts.sort.id;
    const dir = sql.raw(sort.order);
    return { column, query: query.orderBy(sql`${sql.ref(column)} ${dir} nulls last`).orderBy(sql`${sql.ref(opts.sort.id)} ${dir}`) };
  };
  const source = sqlSource({
    async count() {
      const row = await q.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst() as { n: number | string } | undefined;
      return Number(row?.n ?? 0);
    },
    async fetch(offset: number, limit: number, sort: SortSpec) {
      return (await ordered(q, sort).query.limit(limit).offset(offset).execute()).map(opts.map);
    },
    totals,
  });
  return {
    ...source,
    /**
     * The export walks by keyset (after the last row's sort value and id), so the 50th slice of 100,000 rows costs what
     * the first did: the rows with a sort value, then those without (nulls last, by id), as the pages show them.
     */
    async *all(sort) {
      const SLICE = 2000;
      const { column } = ordered(q, sort);
      const prop = (c: string) => c.split('.').pop()!;
      const cmp = sql.raw(sort.order === 'asc' ? '>' : '<');
      const id = sql.ref(opts.sort.id);
      for (const nulls of column === opts.sort.id ? [false] : [false, true]) {
        const base = q.where(sql<boolean>`${sql.ref(column)} is ${sql.raw(nulls ? 'null' : 'not null')}`);
        let after: Record<string, unknown> | null = null;
        for (;;) {
          const last: Record<string, unknown> | null = after;
          const slice = !last ? base
            : nulls ? base.where(sql<boolean>`${id} ${cmp} ${last[prop(opts.sort.id)]}`)
            : base.where(sql<boolean>`(${sql.ref(column)} ${cmp} ${last[prop(column)]} OR (${sql.ref(column)} = ${last[prop(column)]} AND ${id} ${cmp} ${last[prop(opts.sort.id)]}))`);
          const rows = await ordered(slice, sort).query.limit(SLICE).execute();
          yield* rows.map(opts.map);
          if (rows.length < SLICE) break;
          after = rows[rows.length - 1] as Record<string, unknown>;
        }
      }
    },
  };
}

/** The rooms of accounts as "1号楼 / 3层 / 301，…" (active bindings), with their floor area. */
export async function roomsOf(ctx: ReportContext, accountIds: number[]): Promise<Map<number, { rooms: string; area: number }>> {
  const out = new Map<number, { rooms: string; area: number }>();
  for (let i = 0; i < accountIds.length; i += 500) {
    const rows = await ctx.db.selectFrom('account_room').select(['account_id', 'room_id']).where('account_id', 'in', accountIds.slice(i, i + 500)).where('active', '=', 1).execute();
    for (const r of rows) {
      const cur = out.get(r.account_id) ?? { rooms: '', area: 0 };
      const path = ctx.places.pathOf(r.room_id);
      out.set(r.account_id, { rooms: cur.rooms ? `${cur.rooms}，${path}` : path, area: cur.area + (ctx.places.floorArea(r.room_id) ?? 0) });
    }
  }
  return out;
}

/** Rows of an account-keyed page get their rooms (one read for the page, not per row). */
async function withRooms(ctx: ReportContext, rows: ReportRow[]): Promise<ReportRow[]> {
  const rooms = await roomsOf(ctx, [...new Set(rows.map((r) => Number(r.accountId)))]);
  return rows.map((r) => ({ ...r, rooms: rooms.get(Number(r.accountId))?.rooms ?? '' }));
}

/** A table source whose page and export rows get the accounts' rooms. */
export function withRoomsSource(ctx: ReportContext, source: ReportSource): ReportSource {
  return {
    ...source,
    page: async (offset, limit, sort) => withRooms(ctx, await source.page(offset, limit, sort)),
    async *all(sort) {
      let batch: ReportRow[] = [];
      for await (const r of source.all(sort)) {
        batch.push(r);
        if (batch.length === 500) {
          yield* await withRooms(ctx, batch);
          batch = [];
        }
      }
      yield* await withRooms(ctx, batch);
    },
  };
}

/** The account filter by keyword: name, phone, or a room's name (searched in the project's areas). */
function accountKeyword<O>(ctx: ReportContext, q: SelectQueryBuilder<Database, 'ledger_entry' | 'account', O>, kw: string | undefined) {
  if (!kw) return q;
  const like = likeOf(kw);
  return q.where((eb) => eb.or([
    eb('account.name', 'like', like), eb('account.phone', 'like', like),
    eb('account.id', 'in', eb.selectFrom('account_room').innerJoin('area', 'area.id', 'account_room.room_id').select('account_room.account_id')
      .where('area.name', 'like', like).where('account_room.tenant_id', '=', ctx.project.tenant_id)),
  ]));
}

const operateRecord: ReportQueryFn = async (ctx) => {
  const { filters: f } = ctx;
  let q = ctx.db.selectFrom('ledger_entry').innerJoin('account', 'account.id', 'ledger_entry.account_id')
    .where('ledger_entry.project_id', '=', ctx.project.id).where('ledger_entry.tenant_id', '=', ctx.project.tenant_id)
    .where('ledger_entry.book', '=', 'balance').where('ledger_entry.kind', 'in', f.kind ? [f.kind] : ['topup', 'refund'])
    .where('ledger_entry.created_at', '>=', f.from).where('ledger_entry.created_at', '<', f.to);
  if (f.method) q = q.where('ledger_entry.method', '=', f.method);
  q = accountKeyword(ctx, q, f.keyword);
  const selected = q.select(['ledger_entry.id', 'ledger_entry.created_at', 'ledger_entry.account_id', 'account.name', 'ledger_entry.kind', 'ledger_entry.amount_fen',
    'ledger_entry.balance_after_fen', 'ledger_entry.method', 'ledger_entry.actor_name', 'ledger_entry.reason']);
  return withRoomsSource(ctx, tableSource(selected, {
    sort: { id: 'ledger_entry.id', at: 'ledger_entry.created_at', accountName: 'account.name', amountFen: 'ledger_entry.amount_fen' },
    sums: { amountFen: 'ledger_entry.amount_fen' },
    map: (r) => ({
      id: r.id, at: r.created_at, accountId: r.account_id, accountName: r.name, kind: LEDGER_KINDS[r.kind as keyof typeof LEDGER_KINDS] ?? r.kind, amountFen: r.amount_fen,
      balanceAfterFen: r.balance_after_fen, method: r.method ? TOPUP_METHODS[r.method as keyof typeof TOPUP_METHODS] ?? r.method : '', operator: r.actor_name ?? '系统', reason: r.reason ?? '',
    }),
  }));
};

const userList: ReportQueryFn = async (ctx) => {
  const { filters: f } = ctx;
  let q = ctx.db.selectFrom('account').where('account.project_id', '=', ctx.project.id).where('account.tenant_id', '=', ctx.project.tenant_id);
  if (f.status) q = q.where('account.status', '=', f.status);
  q = accountKeyword(ctx, q as never, f.keyword) as unknown as typeof q;
  const rows = await q.select(['id', 'name', 'kind', 'phone', 'balance_fen', 'deposit_fen', 'status', 'created_at']).execute();
  const rooms = await roomsOf(ctx, rows.map((r) => r.id));
  return memorySource(ctx.def, rows.map((r) => ({
    accountId: r.id, accountName: r.name, kind: ACCOUNT_KINDS[r.kind as keyof typeof ACCOUNT_KINDS] ?? r.kind, phone: r.phone, rooms: rooms.get(r.id)?.rooms ?? '',
    area: rooms.get(r.id)?.area ?? 0, balanceFen: r.balance_fen, depositFen: r.deposit_fen, status: r.status === 'active' ? '在用' : '已退户', createdAt: r.created_at,
  })));
};

const BIND_ACTIONS: Record<string, string> = { install: '安装', move: '移位', replace: '换表', spare: '备件' };

const deviceBindRecord: ReportQueryFn = async (ctx) => {
  const { filters: f } = ctx;
  let q = ctx.db.selectFrom('device_bind_record').where('project_id', '=', ctx.project.id).where('tenant_id', '=', ctx.project.tenant_id)
    .where('at', '>=', f.from).where('at', '<', f.to);
  if (f.kind) q = q.where('action', '=', f.kind);
  if (f.keyword) {
    const like = likeOf(f.keyword);
    q = q.where((eb) => eb.or([eb('old_device_code', 'like', like), eb('new_device_code', 'like', like)]));
  }
  return tableSource(q.selectAll(), {
    sort: { id: 'id', at: 'at' },
    map: (r) => ({
      id: r.id, at: r.at, action: BIND_ACTIONS[r.action] ?? r.action, deviceType: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type,
      oldDeviceCode: r.old_device_code ?? '', newDeviceCode: r.new_device_code ?? '',
      location: r.area_path ?? ctx.places.pathOf(r.to_area_id ?? r.from_area_id), detail: r.detail, operator: r.username ?? '系统',
    }),
  });
};

/** The tenant's audit trail (gate log): every changing call of its users; the platform's own users are not listed. */
const userOperationLog: ReportQueryFn = async (ctx) => {
  const { filters: f } = ctx;
  let q = ctx.db.selectFrom('gate_log').where('tenant_id', '=', ctx.project.tenant_id).where('at', '>=', f.from).where('at', '<', f.to);
  if (f.keyword) {
    const like = likeOf(f.keyword);
    q = q.where((eb) => eb.or([eb('username', 'like', like), eb('operation', 'like', like), eb('uri', 'like', like)]));
  }
  return tableSource(q.selectAll(), {
    sort: { id: 'id', at: 'at', username: 'username' },
    map: (r) => ({
      id: r.id, at: r.at, username: r.username ?? '', menu: (r.menu_code && MENU_BY_CODE.get(r.menu_code.split(':')[0])?.title) || r.menu_code || '',
      operation: r.operation, method: r.method, uri: r.uri, result: r.status < 400 ? '成功' : r.status === 403 ? '无权限' : `失败（${r.status}）`,
    }),
  });
};

/** The device core's one operation-log query, narrowed by type and keyword. */
const deviceOperationRecord: ReportQueryFn = async (ctx) => {
  const { filters: f } = ctx;
  let q = ctx.core.devices.operationLog(ctx.actor.scope, { projectId: ctx.project.id, from: f.from, to: f.to });
  if (f.deviceType) q = q.where('device_type', '=', f.deviceType);
  if (f.keyword) {
    const like = likeOf(f.keyword);
    q = q.where((eb) => eb.or([eb('device_code', 'like', like), eb('device_name', 'like', like)]));
  }
  return tableSource(q, {
    sort: { id: 'id', at: 'at' },
    map: (r) => ({
      id: r.id, at: r.at, deviceCode: r.device_code, deviceName: r.device_name, deviceType: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type,
      operation: r.operation, detail: r.detail, result: r.result, operator: r.username ?? '系统',
    }),
  });
};

export const RECORD_QUERIES: Record<string, ReportQueryFn> = {
  operateRecord,
  userList_n: userList,
  deviceBindRecord,
  useroperationlog: userOperationLog,
  deviceOperationRecord,
};
