import crypto from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { DEFAULT_MONEY_SETTINGS, LEDGER_KIND_BOOK, fenToYuan, type BalanceEventKind, type LedgerKind, type MoneySettingsBody } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, conflict } from '../../lib/errors.ts';
import { ResultCode } from '@kelvin/contracts';

export type Trx = Transaction<Database>;

/** Who moved the money (a user, or the system for payment callbacks). */
export interface Mover { id: number | null; name: string | null }

export interface Posting {
  kind: LedgerKind;
  /** signed: + into the book, − out of it */
  amountFen: number;
  method?: string | null;
  reason?: string | null;
  causeType?: string | null;
  causeId?: string | null;
  idemKey?: string | null;
  /** refuse when the book would go below zero (refunds, deposit deductions and refunds) */
  noOverdraw?: boolean;
  /** refuse when the balance would go above this (top-ups) */
  ceilingFen?: number | null;
  /** the project's settings when the caller has read them already */
  settings?: MoneySettingsBody;
}

export interface BalanceEvent {
  id: number;
  tenantId: number;
  projectId: number;
  accountId: number;
  kind: BalanceEventKind;
  balanceFen: number;
  entryId: number;
  createdAt: number;
}

export interface Posted { entryId: number; balanceFen: number; depositFen: number; events: BalanceEvent[] }

const DAY_MS = 86_400_000;
const CST_MS = 8 * 3_600_000;
/** The start (ms) of the China Standard Time day an instant falls in: the key of ledger_day. */
export const cstDayStart = (ms: number) => Math.floor((ms + CST_MS) / DAY_MS) * DAY_MS - CST_MS;

/** A project's money settings (defaults until someone saves them). */
export async function settingsOf(db: Db | Trx, projectId: number): Promise<MoneySettingsBody> {
  const row = await db.selectFrom('money_setting').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  if (!row) return { ...DEFAULT_MONEY_SETTINGS };
  return {
    topupMaxFen: row.topup_max_fen, balanceMaxFen: row.balance_max_fen, refundApprovalFen: row.refund_approval_fen,
    warning1Fen: row.warning1_fen, warning2Fen: row.warning2_fen, overdraftFen: row.overdraft_fen,
  };
}

/**
 * Threshold crossings of one balance change (worked examples in ledger.test.ts): warning 1 / warning 2 when the
 * balance falls to or below them, cut-off when it falls to or below −overdraft, reconnect when it rises above that.
 */
export function crossings(before: number, after: number, s: Pick<MoneySettingsBody, 'warning1Fen' | 'warning2Fen' | 'overdraftFen'>): BalanceEventKind[] {
  const out: BalanceEventKind[] = [];
  const cut = -s.overdraftFen;
  if (after < before) {
    if (before > s.warning1Fen && after <= s.warning1Fen) out.push('warning1');
    if (before > s.warning2Fen && after <= s.warning2Fen) out.push('warning2');
    if (before > cut && after <= cut) out.push('cutoff');
  } else if (after > before) {
    if (before <= cut && after > cut) out.push('reconnect');
  }
  return out;
}

/**
 * Posts one ledger entry and moves the account's cached book in the same transaction. The UPDATE … RETURNING is the
 * compare-and-set: it locks the account row (PostgreSQL) inside the single writer transaction (SQLite), checks the
 * limits in its WHERE, and the entry records the balance it produced.
 */
export async function post(trx: Trx, account: { id: number; tenant_id: number; project_id: number }, p: Posting, mover: Mover, now = Date.now()): Promise<Posted> {
  if (!Number.isSafeInteger(p.amountFen) || p.amountFen === 0) throw new AppError(ResultCode.VALIDATION, '金额必须是非零整数分');
  const book = LEDGER_KIND_BOOK[p.kind];
  const col = book === 'balance' ? 'balance_fen' : 'deposit_fen';
  let q = trx.updateTable('account')
    .set(col, sql<number>`${sql.ref(col)} + ${p.amountFen}`)
    .where('id', '=', account.id)
    .where('status', '=', 'active');
  if (p.noOverdraw) q = q.where(sql<boolean>`${sql.ref(col)} + ${p.amountFen} >= 0`);
  if (p.ceilingFen !== undefined && p.ceilingFen !== null) q = q.where(sql<boolean>`${sql.ref(col)} + ${p.amountFen} <= ${p.ceilingFen}`);
  const row = await q.returning(['balance_fen', 'deposit_fen']).executeTakeFirst();
  if (!row) {
    const now = await trx.selectFrom('account').select(['status', 'balance_fen', 'deposit_fen']).where('id', '=', account.id).executeTakeFirst();
    if (!now || now.status !== 'active') throw conflict('账户已退户，不能再收付款');
    const have = book === 'balance' ? now.balance_fen : now.deposit_fen;
    // the refusal was decided by the UPDATE's snapshot; what is read now may already differ (a racing move committed)
    if (p.noOverdraw && (have + p.amountFen < 0 || p.ceilingFen === undefined || p.ceilingFen === null)) throw conflict(`${book === 'balance' ? '余额' : '押金'}不足：当前 ${fenToYuan(have)} 元，本次 ${fenToYuan(-p.amountFen)} 元`);
    throw conflict(`充值后余额将超过上限 ${fenToYuan(p.ceilingFen ?? 0)} 元（当前 ${fenToYuan(have)} 元）`);
  }
  const after = Number(book === 'balance' ? row.balance_fen : row.deposit_fen);
  const entry = await trx.insertInto('ledger_entry').values({
    tenant_id: account.tenant_id, project_id: account.project_id, account_id: account.id, book, kind: p.kind, amount_fen: p.amountFen,
    balance_after_fen: after, method: p.method ?? null, reason: p.reason ?? null, cause_type: p.causeType ?? null, cause_id: p.causeId ?? null,
    actor_id: mover.id, actor_name: mover.name, idem_key: p.idemKey ?? null, created_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  // the per-account day roll-up of the money reports, in the same transaction (核对账目 checks it against the entries)
  await trx.insertInto('ledger_day').values({
    tenant_id: account.tenant_id, project_id: account.project_id, account_id: account.id, day: cstDayStart(now), book, kind: p.kind, method: p.method ?? '', count: 1, sum_fen: p.amountFen,
  }).onConflict((oc) => oc.columns(['account_id', 'day', 'kind', 'method']).doUpdateSet({
    count: sql<number>`ledger_day.count + 1`, sum_fen: sql<number>`ledger_day.sum_fen + ${p.amountFen}`,
  })).execute();
  const events: BalanceEvent[] = [];
  if (book === 'balance') {
    let kinds = crossings(after - p.amountFen, after, p.settings ?? (await settingsOf(trx, account.project_id)));
    if (kinds.includes('reconnect')) {
      // only an account that was cut off reconnects (a new account's first top-up from 0 is not a reconnect)
      const last = await trx.selectFrom('balance_event').select('kind').where('account_id', '=', account.id).where('kind', 'in', ['cutoff', 'reconnect']).orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (last?.kind !== 'cutoff') kinds = kinds.filter((k) => k !== 'reconnect');
    }
    for (const kind of kinds) {
      const ev = await trx.insertInto('balance_event').values({
        tenant_id: account.tenant_id, project_id: account.project_id, account_id: account.id, kind, balance_fen: after, entry_id: entry.id, created_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      events.push({ id: ev.id, tenantId: account.tenant_id, projectId: account.project_id, accountId: account.id, kind, balanceFen: after, entryId: entry.id, createdAt: now });
    }
  }
  return { entryId: entry.id, balanceFen: Number(row.balance_fen), depositFen: Number(row.deposit_fen), events };
}

/** The request's fingerprint: a key reused with another body is refused. */
export function requestHash(op: string, target: unknown, body: unknown): string {
  return crypto.createHash('sha256').update(JSON.stringify([op, target, body])).digest('hex');
}

/**
 * Runs a money-changing operation at most once per (tenant, key), in one transaction with its effects. The key row
 * is inserted first: a racing retry with the same key waits on the unique index (PostgreSQL) or on the single writer
 * (SQLite) and then answers the winner's stored result; a failed operation rolls its key back with everything else.
 */
export async function once<T>(db: Db, tenantId: number, key: string, hash: string, run: (trx: Trx) => Promise<T>): Promise<{ result: T; replayed: boolean }> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx.insertInto('idempotency_key')
      .values({ tenant_id: tenantId, key, request_hash: hash, result: '', created_at: Date.now() })
      .onConflict((oc) => oc.columns(['tenant_id', 'key']).doNothing())
      .returning('id').executeTakeFirst();
    if (!inserted) {
      const prev = await trx.selectFrom('idempotency_key').select(['request_hash', 'result']).where('tenant_id', '=', tenantId).where('key', '=', key).executeTakeFirstOrThrow();
      if (prev.request_hash !== hash) throw conflict('该幂等键已用于另一笔不同的请求，请刷新后重新提交');
      return { result: JSON.parse(prev.result) as T, replayed: true };
    }
    const result = await run(trx);
    await trx.updateTable('idempotency_key').set({ result: JSON.stringify(result) }).where('id', '=', inserted.id).execute();
    return { result, replayed: false };
  });
}
