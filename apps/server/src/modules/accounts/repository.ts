import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { AccountRefundTable, AccountTable, LedgerEntryTable, PaymentOrderTable } from '../../db/schema.ts';
import { scoped, type Scope } from '../../lib/scope.ts';
import type { Trx } from './ledger.ts';

export type AccountRow = Selectable<AccountTable>;
export type EntryRow = Selectable<LedgerEntryTable>;
export type OrderRow = Selectable<PaymentOrderTable>;
export type RefundJoined = Selectable<AccountRefundTable> & { account_name: string; phone: string };

export const accountsOf = (db: Db | Trx, scope: Scope) => scoped(db.selectFrom('account'), scope);
export const groupsOf = (db: Db | Trx, scope: Scope) => scoped(db.selectFrom('account_group'), scope);
export const refundsOf = (db: Db | Trx, scope: Scope) => scoped(db.selectFrom('account_refund'), scope, { tenant: 'account_refund.tenant_id', project: 'account_refund.project_id' });
export const ordersOf = (db: Db | Trx, scope: Scope) => scoped(db.selectFrom('payment_order'), scope);
export const eventsOf = (db: Db | Trx, scope: Scope) => scoped(db.selectFrom('balance_event'), scope, { tenant: 'balance_event.tenant_id', project: 'balance_event.project_id' });

/** Ledger rows with the account's name, scoped. */
export const entriesOf = (db: Db | Trx, scope: Scope) =>
  scoped(db.selectFrom('ledger_entry'), scope, { tenant: 'ledger_entry.tenant_id', project: 'ledger_entry.project_id' })
    .innerJoin('account', 'account.id', 'ledger_entry.account_id')
    .selectAll('ledger_entry')
    .select(['account.name as account_name', 'account.phone as account_phone']);

/** Active rooms of accounts with their names (area names are read here, written by projects). */
export async function roomsOf(db: Db | Trx, accountIds: number[], activeOnly = true) {
  if (!accountIds.length) return new Map<number, { id: number; name: string; path: string }[]>();
  let q = db.selectFrom('account_room')
    .innerJoin('area as room', 'room.id', 'account_room.room_id')
    .leftJoin('area as floor', 'floor.id', 'room.parent_id')
    .leftJoin('area as building', 'building.id', 'floor.parent_id')
    .select(['account_room.account_id', 'room.id', 'room.name', 'floor.name as floor_name', 'floor.level as floor_level', 'building.name as building_name', 'building.level as building_level'])
    .where('account_room.account_id', 'in', accountIds);
  if (activeOnly) q = q.where('account_room.active', '=', 1);
  const rows = await q.orderBy('account_room.id').execute();
  const out = new Map<number, { id: number; name: string; path: string }[]>();
  for (const r of rows) {
    const parts = [r.building_level && r.building_level !== 'project' ? r.building_name : null, r.floor_level && r.floor_level !== 'project' ? r.floor_name : null, r.name].filter(Boolean);
    const list = out.get(r.account_id) ?? [];
    list.push({ id: r.id, name: r.name, path: parts.join('/') });
    out.set(r.account_id, list);
  }
  return out;
}

export async function devicesOf(db: Db | Trx, accountIds: number[]) {
  if (!accountIds.length) return new Map<number, number[]>();
  const rows = await db.selectFrom('account_device').select(['account_id', 'device_id']).where('account_id', 'in', accountIds).orderBy('id').execute();
  const out = new Map<number, number[]>();
  for (const r of rows) out.set(r.account_id, [...(out.get(r.account_id) ?? []), r.device_id]);
  return out;
}

/** Rooms among these that an open account already pays for. */
export async function takenRooms(db: Db | Trx, roomIds: number[], exceptAccountId?: number) {
  if (!roomIds.length) return [];
  let q = db.selectFrom('account_room').select(['room_id', 'account_id']).where('room_id', 'in', roomIds).where('active', '=', 1);
  if (exceptAccountId) q = q.where('account_id', '!=', exceptAccountId);
  return q.execute();
}

/** Per account: the sums of its entries per book (核对账目). */
export async function entrySums(db: Db, accountIds: number[] | null, scope: Scope) {
  let q = scoped(db.selectFrom('ledger_entry'), scope)
    .select(['account_id', 'book', (eb) => eb.fn.sum<number>('amount_fen').as('total')])
    .groupBy(['account_id', 'book']);
  if (accountIds) q = q.where('account_id', 'in', accountIds.length ? accountIds : [-1]);
  const rows = await q.execute();
  const out = new Map<string, number>();
  for (const r of rows) out.set(`${r.account_id}:${r.book}`, Number(r.total));
  return out;
}

/**
 * 核对账目 of the day roll-up: per (account, CST day, kind, method) the entries' count and sum against ledger_day's.
 * Keys where they differ (or that only one side has), with the entries' figures as expected.
 */
export async function dayRollupMismatches(db: Db, scope: Scope, projectId?: number) {
  const day = sql<number>`((created_at + 28800000) / 86400000) * 86400000 - 28800000`;
  let entries = scoped(db.selectFrom('ledger_entry'), scope)
    .select(['account_id', day.as('day'), 'kind', sql<string>`coalesce(method, '')`.as('method'), (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('amount_fen').as('fen')])
    .groupBy(['account_id', day, 'kind', sql`coalesce(method, '')`]);
  let days = scoped(db.selectFrom('ledger_day'), scope).select(['account_id', 'day', 'kind', 'method', 'count', 'sum_fen']);
  if (projectId) {
    entries = entries.where('project_id', '=', projectId);
    days = days.where('project_id', '=', projectId);
  }
  const keyOf = (r: { account_id: number; day: number; kind: string; method: string }) => `${r.account_id}|${Number(r.day)}|${r.kind}|${r.method}`;
  const want = new Map((await entries.execute()).map((r) => [keyOf(r), { accountId: Number(r.account_id), day: Number(r.day), n: Number(r.n), fen: Number(r.fen) }]));
  const out: { accountId: number; day: number; expectedFen: number; actualFen: number; expectedCount: number; actualCount: number }[] = [];
  for (const r of await days.execute()) {
    const k = keyOf(r);
    const w = want.get(k);
    want.delete(k);
    if (!w || w.n !== Number(r.count) || w.fen !== Number(r.sum_fen)) {
      out.push({ accountId: Number(r.account_id), day: Number(r.day), expectedFen: w?.fen ?? 0, actualFen: Number(r.sum_fen), expectedCount: w?.n ?? 0, actualCount: Number(r.count) });
    }
  }
  for (const w of want.values()) out.push({ accountId: w.accountId, day: w.day, expectedFen: w.fen, actualFen: 0, expectedCount: w.n, actualCount: 0 });
  return out;
}
