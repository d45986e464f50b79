import { sql } from 'kysely';
import {
  BILLING_METHODS, BILL_PAY_METHODS, BILL_STATUS, DEFAULT_TARIFF, DEVICE_TYPE_BY_CODE, LEDGER_KINDS, REFUND_STATUS, SHARE_METHODS, schemeOf,
  type BillingMethod, type ReportChartData, type ReportRow, type ShareBasis, type TariffDoc,
} from '@kelvin/contracts';
import { cstDayStart } from '../../accounts/index.ts';
import { amountFen, quantize, scaleFen, tariffDocOf } from '../../billing/index.ts';
import { bucketLabel, bucketStart, buckets, dayLabels, memorySource, type Grain, type ReportContext, type ReportQueryFn, type ReportSource, type SortSpec } from '../source.ts';
import { likeOf, roomsOf, tableSource, withRoomsSource } from './records.ts';

/**
 * The money reports: the accounts ledger — through its day roll-up `ledger_day`, kept by the ledger's one
 * writer in the same transaction as every entry — and the billing engine's lines, runs, readings and bills. Every
 * amount is integer fen; every total is over everything the filters select and ties to the ledger (money.test.ts).
 *
 * Periods are [from, to): ledger entries by created_at; billing lines by the end of their run (a line belongs to
 * the interval its use was consumed in, so a run ending 00:00 on the 1st belongs to the month before), as the
 * billing screens select them.
 */

const HOUR = 3_600_000;
const DAY = 86_400_000;
const CST = 8 * HOUR;
const BALANCE_KINDS = ['topup', 'charge', 'refund', 'settlement'];
const DEPOSIT_KINDS = ['deposit_collect', 'deposit_deduct', 'deposit_refund'];
const SHARES = [...SHARE_METHODS] as string[];
/** plant meters' counter: the first one the meter has (the engine's order) */
const PLANT_FIELDS = ['f70', 'f48', 'f60'];

// ---------------------------------------------------------------- the ledger through its day roll-up

interface LedgerSum { accountId: number; at: number; kind: string; method: string; count: number; fen: number }

/** `((col + 8 h) / size) × size − 8 h`: the CST bucket start of an instant, as integer arithmetic on both databases. */
const bucketSql = (column: string, size: number) => sql<number>`((${sql.ref(column)} + ${sql.lit(CST)}) / ${sql.lit(size)}) * ${sql.lit(size)} - ${sql.lit(CST)}`;

/**
 * Count and signed sum of the project's ledger entries of these kinds in [from, to), per day (or hour) × kind × method,
 * per account or over all accounts. Whole days come from ledger_day; only the partial days at the edges of a custom
 * period (and an hourly report) read entries.
 */
async function ledgerSums(ctx: ReportContext, from: number, to: number, kinds: string[], opts: { hourly?: boolean; perAccount?: boolean } = {}): Promise<LedgerSum[]> {
  const { db, project } = ctx;
  const per = opts.perAccount ?? false;
  const out: LedgerSum[] = [];
  const raw = async (a: number, b: number, size: number) => {
    if (b <= a) return;
    const at = bucketSql('created_at', size);
    const method = sql<string>`coalesce(method, '')`;
    const rows = await db.selectFrom('ledger_entry')
      .select([at.as('at'), 'kind', method.as('method'), (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('amount_fen').as('fen')])
      .$if(per, (q) => q.select('account_id').groupBy('account_id'))
      .where('project_id', '=', project.id).where('tenant_id', '=', project.tenant_id).where('kind', 'in', kinds)
      .where('created_at', '>=', a).where('created_at', '<', b)
      .groupBy([at, 'kind', method])
      .execute();
    for (const r of rows) out.push({ accountId: per ? Number((r as { account_id?: number }).account_id) : 0, at: Number(r.at), kind: r.kind, method: r.method, count: Number(r.n), fen: Number(r.fen) });
  };
  if (opts.hourly) {
    await raw(from, to, HOUR);
    return out;
  }
  const d0 = cstDayStart(from) === from ? from : cstDayStart(from) + DAY;
  const d1 = cstDayStart(to);
  if (d0 >= d1) {
    await raw(from, to, DAY);
    return out;
  }
  await raw(from, d0, DAY);
  await raw(d1, to, DAY);
  const rows = await db.selectFrom('ledger_day')
    .select(['day', 'kind', 'method', (eb) => eb.fn.sum<number>('count').as('n'), (eb) => eb.fn.sum<number>('sum_fen').as('fen')])
    .$if(per, (q) => q.select('account_id').groupBy('account_id'))
    .where('project_id', '=', project.id).where('tenant_id', '=', project.tenant_id).where('kind', 'in', kinds)
    .where('day', '>=', d0).where('day', '<', d1)
    .groupBy(['day', 'kind', 'method'])
    .execute();
  for (const r of rows) out.push({ accountId: per ? Number((r as { account_id?: number }).account_id) : 0, at: Number(r.day), kind: r.kind, method: r.method, count: Number(r.n), fen: Number(r.fen) });
  return out;
}

/** Each account's book before an instant (the opening balance of a period): days before from ledger_day, the rest of that day from entries. */
async function bookBefore(ctx: ReportContext, at: number, book: 'balance' | 'deposit'): Promise<Map<number, number>> {
  const { db, project } = ctx;
  const day = cstDayStart(at);
  const out = new Map<number, number>();
  const days = await db.selectFrom('ledger_day').select(['account_id', (eb) => eb.fn.sum<number>('sum_fen').as('fen')])
    .where('project_id', '=', project.id).where('tenant_id', '=', project.tenant_id).where('book', '=', book).where('day', '<', day).groupBy('account_id').execute();
  const rest = await db.selectFrom('ledger_entry').select(['account_id', (eb) => eb.fn.sum<number>('amount_fen').as('fen')])
    .where('project_id', '=', project.id).where('tenant_id', '=', project.tenant_id).where('book', '=', book).where('created_at', '>=', day).where('created_at', '<', at)
    .groupBy('account_id').execute();
  for (const r of [...days, ...rest]) out.set(Number(r.account_id), (out.get(Number(r.account_id)) ?? 0) + Number(r.fen));
  return out;
}

/** The project's accounts the keyword (name, phone, a room's name) and status select. */
async function accountsOf(ctx: ReportContext, opts: { keyword?: string; status?: string } = {}) {
  let q = ctx.db.selectFrom('account').select(['id', 'name', 'phone', 'status', 'balance_fen', 'deposit_fen'])
    .where('project_id', '=', ctx.project.id).where('tenant_id', '=', ctx.project.tenant_id);
  if (opts.status) q = q.where('status', '=', opts.status);
  if (opts.keyword) {
    const like = likeOf(opts.keyword);
    q = q.where((eb) => eb.or([
      eb('name', 'like', like), eb('phone', 'like', like),
      eb('id', 'in', eb.selectFrom('account_room').innerJoin('area', 'area.id', 'account_room.room_id').select('account_room.account_id')
        .where('area.name', 'like', like).where('account_room.tenant_id', '=', ctx.project.tenant_id)),
    ]));
  }
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.id, { ...r, balance_fen: Number(r.balance_fen), deposit_fen: Number(r.deposit_fen) }]));
}

const grainOf = (ctx: ReportContext): Grain => ctx.filters.grain ?? 'day';
const statusText = (s: string) => (s === 'active' ? '在用' : '已退户');

// ---------------------------------------------------------------- 缴费报表: top-ups by day and method

const payReport: ReportQueryFn = async (ctx) => {
  const { from, to } = ctx.filters;
  const grain = grainOf(ctx);
  const sums = await ledgerSums(ctx, from, to, ['topup', 'refund'], { hourly: grain === 'hour' });
  const rows = new Map<number, { count: number; cashFen: number; bankFen: number; onlineFen: number; refundFen: number; netFen: number }>();
  let unknown = 0;
  for (const s of sums) {
    const start = bucketStart(s.at, grain);
    const r = rows.get(start) ?? { count: 0, cashFen: 0, bankFen: 0, onlineFen: 0, refundFen: 0, netFen: 0 };
    r.count += s.count;
    r.netFen += s.fen;
    if (s.kind === 'refund') r.refundFen -= s.fen;
    else if (s.method === 'cash') r.cashFen += s.fen;
    else if (s.method === 'bank') r.bankFen += s.fen;
    else if (s.method === 'online') r.onlineFen += s.fen;
    else unknown += s.fen;
    rows.set(start, r);
  }
  const list: ReportRow[] = [...rows.entries()].map(([start, r]) => ({ bucket: bucketLabel(start, grain), ...r }));
  const all = buckets(from, to, grain);
  const chart: ReportChartData = {
    x: all.map((b) => b.label),
    series: Object.fromEntries((['cashFen', 'bankFen', 'onlineFen', 'refundFen'] as const).map((k) => [k, all.map((b) => rows.get(b.start)?.[k] ?? 0)])),
  };
  const notes = ['净收入 = 充值 − 退费（余额账本的充值与退费流水，与充值记录逐笔一致）；退户结算退还的余额见退费表（新）'];
  if (unknown) notes.push(`另有未注明方式的充值 ${unknown} 分，计入净收入`);
  return memorySource(ctx.def, list, { chart, notes });
};

// ---------------------------------------------------------------- 缴费报表（新）: opening + in − out = closing per account

const payReportN: ReportQueryFn = async (ctx) => {
  const { from, to, keyword } = ctx.filters;
  const accounts = await accountsOf(ctx, { keyword });
  const opening = await bookBefore(ctx, from, 'balance');
  const sums = (await ledgerSums(ctx, from, to, BALANCE_KINDS, { perAccount: true })).filter((s) => accounts.has(s.accountId));
  const per = new Map<number, { topupFen: number; topups: number; chargeFen: number; refundFen: number; net: number }>();
  const daily = new Map<number, { topupFen: number; chargeFen: number }>();
  for (const s of sums) {
    const r = per.get(s.accountId) ?? { topupFen: 0, topups: 0, chargeFen: 0, refundFen: 0, net: 0 };
    const d = daily.get(s.at) ?? { topupFen: 0, chargeFen: 0 };
    r.net += s.fen;
    if (s.kind === 'topup') {
      r.topupFen += s.fen;
      r.topups += s.count;
      d.topupFen += s.fen;
    } else if (s.kind === 'charge') {
      r.chargeFen -= s.fen;
      d.chargeFen -= s.fen;
    } else r.refundFen -= s.fen; // refund, and settlement (a move-out's balance paid back, or arrears covered from the deposit)
    per.set(s.accountId, r);
    daily.set(s.at, d);
  }
  const ids = [...accounts.keys()].filter((id) => per.has(id) || (opening.get(id) ?? 0) !== 0);
  const rooms = await roomsOf(ctx, ids);
  const rows: ReportRow[] = ids.map((id) => {
    const a = accounts.get(id)!;
    const r = per.get(id) ?? { topupFen: 0, topups: 0, chargeFen: 0, refundFen: 0, net: 0 };
    const open = opening.get(id) ?? 0;
    return {
      accountId: id, accountName: a.name, rooms: rooms.get(id)?.rooms ?? '', openingFen: open, topupFen: r.topupFen, topups: r.topups,
      chargeFen: r.chargeFen, refundFen: r.refundFen, closingFen: open + r.net,
    };
  });
  const days = dayLabels(from, to);
  const chart: ReportChartData = { x: days.map((d) => d.label), series: { topupFen: days.map((d) => daily.get(d.start)?.topupFen ?? 0), chargeFen: days.map((d) => daily.get(d.start)?.chargeFen ?? 0) } };
  return memorySource(ctx.def, rows, { chart, notes: ['期初 + 充值 − 扣费 − 退费 = 期末；退费含退户结算（退还余额为支出，押金抵扣欠费为收入）'] });
};

// ---------------------------------------------------------------- 退费表 / 退费表（新）

const refundTable: ReportQueryFn = async (ctx) => {
  const f = ctx.filters;
  let q = ctx.db.selectFrom('account_refund').innerJoin('account', 'account.id', 'account_refund.account_id')
    .where('account_refund.project_id', '=', ctx.project.id).where('account_refund.tenant_id', '=', ctx.project.tenant_id)
    .where('account_refund.created_at', '>=', f.from).where('account_refund.created_at', '<', f.to);
  if (f.status) q = q.where('account_refund.status', '=', f.status);
  if (f.keyword) {
    const like = likeOf(f.keyword);
    q = q.where((eb) => eb.or([eb('account.name', 'like', like), eb('account.phone', 'like', like)]));
  }
  const selected = q.select(['account_refund.id', 'account_refund.created_at', 'account_refund.account_id', 'account.name', 'account_refund.amount_fen', 'account_refund.reason',
    'account_refund.status', 'account_refund.requested_name', 'account_refund.decided_name', 'account_refund.decided_at']);
  return withRoomsSource(ctx, tableSource(selected, {
    sort: { id: 'account_refund.id', at: 'account_refund.created_at', accountName: 'account.name', amountFen: 'account_refund.amount_fen' },
    sums: { amountFen: 'account_refund.amount_fen' },
    map: (r) => ({
      id: r.id, at: r.created_at, accountId: r.account_id, accountName: r.name, amountFen: Number(r.amount_fen), reason: r.reason,
      status: REFUND_STATUS[r.status as keyof typeof REFUND_STATUS] ?? r.status, requestedBy: r.requested_name ?? '', decidedBy: r.decided_name ?? '', decidedAt: r.decided_at,
    }),
  }));
};

/** Money actually paid back: balance refunds, a move-out's balance returned, deposits returned (amounts shown positive). */
const refundTableN: ReportQueryFn = async (ctx) => {
  const f = ctx.filters;
  let q = ctx.db.selectFrom('ledger_entry').innerJoin('account', 'account.id', 'ledger_entry.account_id')
    .where('ledger_entry.project_id', '=', ctx.project.id).where('ledger_entry.tenant_id', '=', ctx.project.tenant_id)
    .where('ledger_entry.created_at', '>=', f.from).where('ledger_entry.created_at', '<', f.to)
    .where((eb) => eb.or([eb('ledger_entry.kind', 'in', ['refund', 'deposit_refund']), eb.and([eb('ledger_entry.kind', '=', 'settlement'), eb('ledger_entry.amount_fen', '<', 0)])]));
  if (f.keyword) {
    const like = likeOf(f.keyword);
    q = q.where((eb) => eb.or([eb('account.name', 'like', like), eb('account.phone', 'like', like)]));
  }
  const selected = q.select(['ledger_entry.id', 'ledger_entry.created_at', 'ledger_entry.account_id', 'account.name', 'ledger_entry.kind', 'ledger_entry.amount_fen', 'ledger_entry.actor_name', 'ledger_entry.reason']);
  const source = tableSource(selected, {
    // shown positive: the larger refund first when sorted descending
    sort: { id: 'ledger_entry.id', at: 'ledger_entry.created_at', accountName: 'account.name', amountFen: 'ledger_entry.amount_fen' },
    map: (r) => ({
      id: r.id, at: r.created_at, accountId: r.account_id, accountName: r.name, kind: r.kind === 'settlement' ? '退户退余额' : LEDGER_KINDS[r.kind as keyof typeof LEDGER_KINDS] ?? r.kind,
      amountFen: -Number(r.amount_fen), operator: r.actor_name ?? '系统', reason: r.reason ?? '',
    }),
  });
  const sorted: ReportSource = {
    ...source,
    page: (offset, limit, sort) => source.page(offset, limit, flipAmount(sort)),
    all: (sort) => source.all(flipAmount(sort)),
    totals: async () => {
      const row = await q.select((eb) => eb.fn.sum<number>('ledger_entry.amount_fen').as('fen')).executeTakeFirst();
      return { amountFen: -Number(row?.fen ?? 0) };
    },
  };
  return withRoomsSource(ctx, sorted);
};
const flipAmount = (s: SortSpec): SortSpec => (s.key === 'amountFen' ? { key: s.key, order: s.order === 'asc' ? 'desc' : 'asc' } : s);

// ---------------------------------------------------------------- 押金数据 / 押金报表

const depositData: ReportQueryFn = async (ctx) => {
  const { from, to, keyword, status } = ctx.filters;
  const accounts = await accountsOf(ctx, { keyword, status });
  const per = new Map<number, { collectFen: number; deductFen: number; refundFen: number }>();
  for (const s of await ledgerSums(ctx, from, to, DEPOSIT_KINDS, { perAccount: true })) {
    if (!accounts.has(s.accountId)) continue;
    const r = per.get(s.accountId) ?? { collectFen: 0, deductFen: 0, refundFen: 0 };
    if (s.kind === 'deposit_collect') r.collectFen += s.fen;
    else if (s.kind === 'deposit_deduct') r.deductFen -= s.fen;
    else r.refundFen -= s.fen;
    per.set(s.accountId, r);
  }
  const ids = [...accounts.keys()].filter((id) => per.has(id) || accounts.get(id)!.deposit_fen !== 0);
  const rooms = await roomsOf(ctx, ids);
  return memorySource(ctx.def, ids.map((id) => {
    const a = accounts.get(id)!;
    return { accountId: id, accountName: a.name, rooms: rooms.get(id)?.rooms ?? '', ...(per.get(id) ?? { collectFen: 0, deductFen: 0, refundFen: 0 }), depositFen: a.deposit_fen, status: statusText(a.status) };
  }), { notes: ['收取、扣除、退还为所选时间内的押金流水；当前押金为此刻的押金'] });
};

const depositReport: ReportQueryFn = async (ctx) => {
  const { from, to } = ctx.filters;
  const grain = grainOf(ctx);
  const rows = new Map<number, { count: number; collectFen: number; deductFen: number; refundFen: number; netFen: number }>();
  for (const s of await ledgerSums(ctx, from, to, DEPOSIT_KINDS, { hourly: grain === 'hour' })) {
    const start = bucketStart(s.at, grain);
    const r = rows.get(start) ?? { count: 0, collectFen: 0, deductFen: 0, refundFen: 0, netFen: 0 };
    r.count += s.count;
    r.netFen += s.fen;
    if (s.kind === 'deposit_collect') r.collectFen += s.fen;
    else if (s.kind === 'deposit_deduct') r.deductFen -= s.fen;
    else r.refundFen -= s.fen;
    rows.set(start, r);
  }
  const all = buckets(from, to, grain);
  const chart: ReportChartData = {
    x: all.map((b) => b.label),
    series: Object.fromEntries((['collectFen', 'deductFen', 'refundFen'] as const).map((k) => [k, all.map((b) => rows.get(b.start)?.[k] ?? 0)])),
  };
  return memorySource(ctx.def, [...rows.entries()].map(([start, r]) => ({ bucket: bucketLabel(start, grain), ...r })), { chart, notes: ['净额 = 收取 − 扣除 − 退还'] });
};

// ---------------------------------------------------------------- 账单数据 (postpaid bills)

const PAY_METHOD_TEXT: Record<string, string> = { ...BILL_PAY_METHODS, settlement: '迁出结算' };

const expenseBillData: ReportQueryFn = async (ctx) => {
  const f = ctx.filters;
  const now = ctx.now;
  let q = ctx.db.selectFrom('billing_bill').innerJoin('account', 'account.id', 'billing_bill.account_id')
    .where('billing_bill.project_id', '=', ctx.project.id).where('billing_bill.tenant_id', '=', ctx.project.tenant_id)
    .where('billing_bill.period_from', '>=', f.from).where('billing_bill.period_from', '<', f.to);
  if (f.status === 'paid') q = q.where('billing_bill.status', '=', 'paid');
  if (f.status === 'issued') q = q.where('billing_bill.status', '=', 'issued').where('billing_bill.due_at', '>=', now);
  if (f.status === 'overdue') q = q.where('billing_bill.status', '=', 'issued').where('billing_bill.due_at', '<', now);
  if (f.keyword) {
    const like = likeOf(f.keyword);
    q = q.where((eb) => eb.or([eb('account.name', 'like', like), eb('account.phone', 'like', like),
      eb('account.id', 'in', eb.selectFrom('account_room').innerJoin('area', 'area.id', 'account_room.room_id').select('account_room.account_id').where('area.name', 'like', like).where('account_room.tenant_id', '=', ctx.project.tenant_id))]));
  }
  const stateOf = (status: string, due: number) => (status === 'paid' ? 'paid' : due < now ? 'overdue' : 'issued');
  const selected = q.select(['billing_bill.id', 'billing_bill.period', 'billing_bill.account_id', 'account.name', 'billing_bill.amount_fen', 'billing_bill.lines', 'billing_bill.status',
    'billing_bill.issued_at', 'billing_bill.due_at', 'billing_bill.paid_at', 'billing_bill.pay_method']);
  const source = tableSource(selected, {
    sort: { id: 'billing_bill.id', period: 'billing_bill.period', accountName: 'account.name', amountFen: 'billing_bill.amount_fen', issuedAt: 'billing_bill.issued_at', dueAt: 'billing_bill.due_at', paidAt: 'billing_bill.paid_at' },
    sums: { amountFen: 'billing_bill.amount_fen' },
    map: (r) => ({
      id: r.id, period: r.period, accountId: r.account_id, accountName: r.name, amountFen: Number(r.amount_fen), lines: Number(r.lines),
      status: BILL_STATUS[stateOf(r.status, Number(r.due_at))], issuedAt: r.issued_at, dueAt: r.due_at, paidAt: r.paid_at, payMethod: r.pay_method ? PAY_METHOD_TEXT[r.pay_method] ?? r.pay_method : '',
    }),
  });
  const chart = async (): Promise<ReportChartData> => {
    const by = await q.select(['billing_bill.status', 'billing_bill.due_at', 'billing_bill.amount_fen']).execute();
    const sums = new Map<string, number>();
    for (const b of by) {
      const s = stateOf(b.status, Number(b.due_at));
      sums.set(s, (sums.get(s) ?? 0) + Number(b.amount_fen));
    }
    const keys = (['issued', 'overdue', 'paid'] as const).filter((k) => sums.has(k));
    return { x: keys.map((k) => BILL_STATUS[k]), series: { amountFen: keys.map((k) => sums.get(k)!) } };
  };
  return withRoomsSource(ctx, { ...source, chart });
};

// ---------------------------------------------------------------- billing lines

/** The project's billing lines whose run ended in (from, to]. */
const linesIn = (ctx: ReportContext) => ctx.db.selectFrom('billing_line')
  .where('billing_line.project_id', '=', ctx.project.id).where('billing_line.tenant_id', '=', ctx.project.tenant_id)
  .where('billing_line.period_until', '>', ctx.filters.from).where('billing_line.period_until', '<=', ctx.filters.to);

const dataDetails: ReportQueryFn = async (ctx) => {
  const f = ctx.filters;
  let q = linesIn(ctx).innerJoin('account', 'account.id', 'billing_line.account_id').leftJoin('device', 'device.id', 'billing_line.device_id');
  if (f.keyword) {
    const like = likeOf(f.keyword);
    q = q.where((eb) => eb.or([eb('account.name', 'like', like), eb('device.device_name', 'like', like), eb('device.device_code', 'like', like)]));
  }
  const selected = q.select(['billing_line.id', 'billing_line.period_from', 'billing_line.period_until', 'account.name', 'device.device_name', 'billing_line.label', 'billing_line.quantity',
    'billing_line.unit', 'billing_line.unit_price', 'billing_line.amount_fen']);
  return tableSource(selected, {
    sort: { id: 'billing_line.id', periodFrom: 'billing_line.period_from', periodUntil: 'billing_line.period_until', accountName: 'account.name', amountFen: 'billing_line.amount_fen' },
    sums: { quantity: 'billing_line.quantity', amountFen: 'billing_line.amount_fen' },
    map: (r) => ({
      id: r.id, periodFrom: r.period_from, periodUntil: r.period_until, accountName: r.name, deviceName: r.device_name ?? '', label: r.label, quantity: Number(r.quantity),
      unit: r.unit, unitPrice: r.unit_price, amountFen: Number(r.amount_fen),
    }),
  });
};

/** The CST day of a line's use: the day just before its run's end. */
const lineDay = sql<number>`((billing_line.period_until - 1 + ${sql.lit(CST)}) / ${sql.lit(DAY)}) * ${sql.lit(DAY)} - ${sql.lit(CST)}`;

const summaryReport: ReportQueryFn = async (ctx) => {
  const { from, to, keyword } = ctx.filters;
  const accounts = await accountsOf(ctx, { keyword });
  const lines = await linesIn(ctx).select(['billing_line.account_id', lineDay.as('day'), (eb) => eb.fn.sum<number>('billing_line.quantity').as('q'), (eb) => eb.fn.sum<number>('billing_line.amount_fen').as('fen')])
    .groupBy(['billing_line.account_id', lineDay]).execute();
  const per = new Map<number, { quantity: number; amountFen: number; topupFen: number }>();
  const daily = new Map<number, number>();
  for (const l of lines) {
    const id = Number(l.account_id);
    if (!accounts.has(id)) continue;
    const r = per.get(id) ?? { quantity: 0, amountFen: 0, topupFen: 0 };
    r.quantity += Number(l.q);
    r.amountFen += Number(l.fen);
    per.set(id, r);
    daily.set(Number(l.day), (daily.get(Number(l.day)) ?? 0) + Number(l.fen));
  }
  for (const s of await ledgerSums(ctx, from, to, ['topup'], { perAccount: true })) {
    if (!accounts.has(s.accountId)) continue;
    const r = per.get(s.accountId) ?? { quantity: 0, amountFen: 0, topupFen: 0 };
    r.topupFen += s.fen;
    per.set(s.accountId, r);
  }
  const ids = [...per.keys()];
  const rooms = await roomsOf(ctx, ids);
  const rows = ids.map((id) => ({
    accountId: id, accountName: accounts.get(id)!.name, rooms: rooms.get(id)?.rooms ?? '', ...per.get(id)!, quantity: quantize(per.get(id)!.quantity), balanceFen: accounts.get(id)!.balance_fen,
  }));
  const days = dayLabels(from, to);
  return memorySource(ctx.def, rows, {
    chart: { x: days.map((d) => d.label), series: { amountFen: days.map((d) => daily.get(d.start) ?? 0) } },
    notes: ['费用为计费明细合计（按计费批次结束时间归入日期），充值为同期余额账本的充值；当前余额为此刻余额'],
  });
};

/** The tariff versions of the project, for the accounting close day and prices at an instant. */
export async function tariffs(ctx: ReportContext): Promise<(ts: number) => TariffDoc> {
  const rows = await ctx.db.selectFrom('billing_tariff').select(['scheme', 'doc', 'effective_from']).where('project_id', '=', ctx.project.id).orderBy('effective_from').orderBy('id').execute();
  const docs = rows.map((r) => ({ from: Number(r.effective_from), doc: tariffDocOf(r) }));
  const fallback: TariffDoc = { ...DEFAULT_TARIFF, scheme: ctx.project.billing_scheme ?? DEFAULT_TARIFF.scheme };
  return (ts) => {
    let doc = docs[0]?.doc ?? fallback;
    for (const d of docs) if (d.from < ts) doc = d.doc;
    return doc;
  };
}

/** The accounting period (YYYY-MM, from the close day of that month to the next close day) of a local day. */
function periodOfDay(dayStart: number, closeDay: number): string {
  const d = new Date(dayStart + CST);
  const back = d.getUTCDate() < closeDay ? 1 : 0;
  const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1));
  return `${m.getUTCFullYear()}-${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
}

const accountingPeriod: ReportQueryFn = async (ctx) => {
  const accounts = await accountsOf(ctx, { keyword: ctx.filters.keyword });
  const docAt = await tariffs(ctx);
  const charged = sql<number>`case when billing_line.entry_id is null then 0 else 1 end`;
  const kwh = sql<number>`sum(case when billing_line.unit = 'kWh' then billing_line.quantity else 0 end)`;
  const lines = await linesIn(ctx).leftJoin('billing_bill', 'billing_bill.id', 'billing_line.bill_id')
    .select(['billing_line.account_id', lineDay.as('day'), 'billing_bill.period', 'billing_bill.status', 'billing_bill.due_at', charged.as('charged'), kwh.as('q'), (eb) => eb.fn.sum<number>('billing_line.amount_fen').as('fen')])
    .groupBy(['billing_line.account_id', lineDay, 'billing_bill.period', 'billing_bill.status', 'billing_bill.due_at', charged]).execute();
  const per = new Map<string, { accountId: number; period: string; quantity: number; amountFen: number; states: Set<string> }>();
  for (const l of lines) {
    const id = Number(l.account_id);
    if (!accounts.has(id)) continue;
    const day = Number(l.day);
    const period = l.period ?? periodOfDay(day, docAt(day + DAY).accounting.closeDay);
    const key = `${id}:${period}`;
    const r = per.get(key) ?? { accountId: id, period, quantity: 0, amountFen: 0, states: new Set<string>() };
    r.quantity += Number(l.q);
    r.amountFen += Number(l.fen);
    r.states.add(l.status ? BILL_STATUS[l.status === 'paid' ? 'paid' : Number(l.due_at) < ctx.now ? 'overdue' : 'issued'] : Number(l.charged) ? '已扣费' : '未出账');
    per.set(key, r);
  }
  const rooms = await roomsOf(ctx, [...new Set([...per.values()].map((r) => r.accountId))]);
  const rows = [...per.entries()].map(([key, r]) => ({
    key, period: r.period, accountId: r.accountId, accountName: accounts.get(r.accountId)!.name, rooms: rooms.get(r.accountId)?.rooms ?? '',
    quantity: quantize(r.quantity), amountFen: r.amountFen, billStatus: [...r.states].sort().join('、'),
  }));
  const periods = [...new Set(rows.map((r) => r.period))].sort();
  return memorySource(ctx.def, rows, {
    chart: { x: periods, series: { amountFen: periods.map((p) => rows.filter((r) => r.period === p).reduce((s, r) => s + r.amountFen, 0)) } },
    notes: ['账期按项目结算日划分（已出账的按账单账期）；用量为以 kWh 计的明细合计；预付费项目的费用随用随扣（已扣费）'],
  });
};

const LADDER_LABEL = /^(\d{4}(?:-\d{2})?) 第(\d+)档/;

const ladderReport: ReportQueryFn = async (ctx) => {
  const accounts = await accountsOf(ctx, { keyword: ctx.filters.keyword });
  const lines = await linesIn(ctx).where('billing_line.method', '=', 'ladder')
    .select(['billing_line.account_id', 'billing_line.label', (eb) => eb.fn.sum<number>('billing_line.quantity').as('q'), (eb) => eb.fn.sum<number>('billing_line.amount_fen').as('fen')])
    .groupBy(['billing_line.account_id', 'billing_line.label']).execute();
  type Row = { accountId: number; period: string; tier1: number; tier1Fen: number; tier2: number; tier2Fen: number; tier3: number; tier3Fen: number; amountFen: number };
  const per = new Map<string, Row>();
  let above = false;
  let unparsed = 0;
  for (const l of lines) {
    const id = Number(l.account_id);
    if (!accounts.has(id)) continue;
    const m = LADDER_LABEL.exec(l.label);
    if (!m) {
      unparsed += Number(l.fen);
      continue;
    }
    const tier = Math.min(3, Number(m[2]));
    if (Number(m[2]) > 3) above = true;
    const key = `${id}:${m[1]}`;
    const r = per.get(key) ?? { accountId: id, period: m[1]!, tier1: 0, tier1Fen: 0, tier2: 0, tier2Fen: 0, tier3: 0, tier3Fen: 0, amountFen: 0 };
    r[`tier${tier}` as 'tier1'] += Number(l.q);
    r[`tier${tier}Fen` as 'tier1Fen'] += Number(l.fen);
    r.amountFen += Number(l.fen);
    per.set(key, r);
  }
  const rooms = await roomsOf(ctx, [...new Set([...per.values()].map((r) => r.accountId))]);
  const rows = [...per.entries()].map(([key, r]) => ({
    key, ...r, tier1: quantize(r.tier1), tier2: quantize(r.tier2), tier3: quantize(r.tier3), accountName: accounts.get(r.accountId)!.name, rooms: rooms.get(r.accountId)?.rooms ?? '',
  }));
  const periods = [...new Set(rows.map((r) => r.period))].sort();
  const notes = ['账期为阶梯周期（按月或按年）；各档用量与金额为所选时间内结束的计费批次的阶梯明细合计'];
  if (above) notes.push('第三档以上的用量与金额计入第三档');
  if (unparsed) notes.push(`另有 ${unparsed} 分的阶梯明细无法识别档位，未列入`);
  return memorySource(ctx.def, rows, {
    chart: { x: periods, series: Object.fromEntries((['tier1', 'tier2', 'tier3'] as const).map((k) => [k, periods.map((p) => quantize(rows.filter((r) => r.period === p).reduce((s, r) => s + r[k], 0)))])) },
    notes,
  });
};

// ---------------------------------------------------------------- shares (report3)

const basisText = (b: ShareBasis | null, unit: string) => {
  if (!b) return '';
  const parts = [`面积 ${b.area.toFixed(2)} m²`];
  if (b.equivalent !== undefined) parts.push(`当量 ${b.equivalent} ${unit}`);
  if (b.hours !== undefined) parts.push(`通阀 ${b.hours} h`);
  return parts.join('，');
};

const billingDataAllocation: ReportQueryFn = async (ctx) => {
  const f = ctx.filters;
  let q = linesIn(ctx).innerJoin('account', 'account.id', 'billing_line.account_id').where('billing_line.method', 'in', SHARES);
  if (f.keyword) {
    const like = likeOf(f.keyword);
    q = q.where((eb) => eb.or([eb('account.name', 'like', like), eb('billing_line.label', 'like', like)]));
  }
  const selected = q.select(['billing_line.id', 'billing_line.run_id', 'billing_line.period_from', 'account.name', 'billing_line.label', 'billing_line.basis', 'billing_line.unit',
    'billing_line.quantity', 'billing_line.amount_fen']);
  const source = tableSource(selected, {
    sort: { id: 'billing_line.id', periodFrom: 'billing_line.period_from', accountName: 'account.name', amountFen: 'billing_line.amount_fen' },
    sums: { quantity: 'billing_line.quantity', amountFen: 'billing_line.amount_fen' },
    map: (r) => {
      const basis = r.basis ? JSON.parse(r.basis) as ShareBasis : null;
      return {
        id: r.id, runId: r.run_id, periodFrom: r.period_from, teamName: basis?.team ?? '', accountName: r.name, label: r.label, basis: basisText(basis, r.unit),
        ratio: null, quantity: Number(r.quantity), amountFen: Number(r.amount_fen),
      };
    },
  });
  // 比例: the line's part of what its team shared in that run (every member's line of the run carries the same label)
  const withRatio = async (rows: ReportRow[]) => {
    const runs = [...new Set(rows.map((r) => Number(r.runId)))];
    if (!runs.length) return rows;
    const sums = await ctx.db.selectFrom('billing_line').select(['run_id', 'label', (eb) => eb.fn.sum<number>('amount_fen').as('fen')])
      .where('run_id', 'in', runs).where('method', 'in', SHARES).groupBy(['run_id', 'label']).execute();
    const total = new Map(sums.map((s) => [`${s.run_id}|${s.label}`, Number(s.fen)]));
    return rows.map((r) => {
      const t = total.get(`${r.runId}|${r.label}`) ?? 0;
      return { ...r, ratio: t ? Math.round((Number(r.amountFen) / t) * 1e6) / 1e6 : 0 };
    });
  };
  return {
    ...source,
    page: async (offset, limit, sort) => withRatio(await source.page(offset, limit, sort)),
    async *all(sort) {
      let batch: ReportRow[] = [];
      for await (const r of source.all(sort)) {
        batch.push(r);
        if (batch.length === 500) {
          yield* await withRatio(batch);
          batch = [];
        }
      }
      yield* await withRatio(batch);
    },
    notes: ['比例为该户分得金额占分摊组本批次费用的比例；分摊依据为计费时的面积与当量（或通阀时间）'],
  };
};

/**
 * Per share team over the runs that ended in the period: the cost recomputed from its total meters' readings at the
 * tariff's price (the engine's formula, from billing_reading), the public part, and what the members' lines add up
 * to. 差额 = 分摊合计 − 总费用: 0 when every fen of the cost was placed on someone.
 */
const shareReport: ReportQueryFn = async (ctx) => {
  const { db, project, filters: f } = ctx;
  const teams = await db.selectFrom('billing_share_team').select(['id', 'name']).where('project_id', '=', project.id).where('tenant_id', '=', project.tenant_id).orderBy('id').execute();
  const teamIds = teams.map((t) => t.id);
  const members = teamIds.length ? await db.selectFrom('billing_share_member').select(['team_id', (eb) => eb.fn.countAll<number>().as('n')]).where('team_id', 'in', teamIds).groupBy('team_id').execute() : [];
  const relations = teamIds.length ? await db.selectFrom('billing_device_relation').select(['team_id', 'device_id', 'role']).where('team_id', 'in', teamIds).execute() : [];
  const runs = await db.selectFrom('billing_run').select(['id', 'scheme', 'period_until']).where('project_id', '=', project.id).where('tenant_id', '=', project.tenant_id)
    .where('state', '=', 'done').where('period_until', '>', f.from).where('period_until', '<=', f.to).execute();
  const plantIds = [...new Set(relations.map((r) => r.device_id))];
  const readings = plantIds.length && runs.length
    ? await db.selectFrom('billing_reading').innerJoin('billing_run', 'billing_run.id', 'billing_reading.run_id')
      .select(['billing_reading.run_id', 'billing_reading.device_id', 'billing_reading.field_code', 'billing_reading.use'])
      .where('billing_run.project_id', '=', project.id).where('billing_run.period_until', '>', f.from).where('billing_run.period_until', '<=', f.to)
      .where('billing_reading.device_id', 'in', plantIds).where('billing_reading.field_code', 'in', PLANT_FIELDS).execute()
    : [];
  const useOf = new Map<string, number>();
  for (const r of readings) useOf.set(`${r.run_id}|${r.device_id}|${r.field_code}`, Number(r.use));
  const plantUse = (run: number, device: number, field?: string) => {
    for (const fc of field ? [field] : PLANT_FIELDS) {
      const u = useOf.get(`${run}|${device}|${fc}`);
      if (u !== undefined) return u;
    }
    return 0;
  };
  const shared = await linesIn(ctx).where('billing_line.method', 'in', SHARES)
    .select(['billing_line.run_id', 'billing_line.method', 'billing_line.label', (eb) => eb.fn.sum<number>('billing_line.amount_fen').as('fen')])
    .groupBy(['billing_line.run_id', 'billing_line.method', 'billing_line.label']).execute();
  const docAt = await tariffs(ctx);
  const teamOfLabel = (method: string, label: string) => teams.find((t) => label.startsWith(`${BILLING_METHODS[method as BillingMethod]}（${t.name}）`));

  const rows = teams.map((t) => ({
    teamId: t.id, teamName: t.name, members: Number(members.find((m) => m.team_id === t.id)?.n ?? 0),
    totalUse: 0, publicUse: 0, costFen: 0, publicFen: 0, sharedFen: 0, differenceFen: 0, check: '',
  }));
  const byTeam = new Map(rows.map((r) => [r.teamId, r]));
  let unmatched = 0;
  const sharedByRun = new Map<string, number>();
  for (const l of shared) {
    const t = teamOfLabel(l.method, l.label);
    if (!t) {
      unmatched += Number(l.fen);
      continue;
    }
    byTeam.get(t.id)!.sharedFen += Number(l.fen);
    sharedByRun.set(`${l.run_id}|${t.id}`, (sharedByRun.get(`${l.run_id}|${t.id}`) ?? 0) + Number(l.fen));
  }
  let touRuns = 0;
  for (const run of runs) {
    const doc = docAt(Number(run.period_until));
    const method = schemeOf(run.scheme)?.method;
    if (!method || !SHARE_METHODS.has(method)) continue;
    for (const t of teams) {
      const r = byTeam.get(t.id)!;
      const totals = relations.filter((x) => x.team_id === t.id && x.role === 'total').map((x) => x.device_id);
      const publics = relations.filter((x) => x.team_id === t.id && x.role === 'public').map((x) => x.device_id);
      if (!totals.length) continue;
      if (method === 'onOffTimeArea') {
        const heat = quantize(totals.reduce((s, id) => s + plantUse(run.id, id, 'f60'), 0));
        r.totalUse += heat;
        r.costFen += amountFen(heat, doc.price);
        continue;
      }
      const totalUse = totals.map((id) => plantUse(run.id, id));
      const publicUse = publics.map((id) => plantUse(run.id, id));
      r.totalUse += totalUse.reduce((s, u) => s + u, 0);
      r.publicUse += publicUse.reduce((s, u) => s + u, 0);
      if (doc.tou.enabled) {
        // TOU prices each interval's use at its own price: the readings of a run do not keep that split
        touRuns++;
        const s = sharedByRun.get(`${run.id}|${t.id}`) ?? 0;
        r.costFen += s;
        continue;
      }
      const cost = totalUse.reduce((s, u) => s + amountFen(u, doc.price), 0);
      r.costFen += cost;
      r.publicFen += method === 'shareArea' ? cost : method === 'shareMixed' ? scaleFen(cost, doc.share.publicRatio) : Math.min(cost, publicUse.reduce((s, u) => s + amountFen(u, doc.price), 0));
    }
  }
  for (const r of rows) {
    r.totalUse = quantize(r.totalUse);
    r.publicUse = quantize(r.publicUse);
    r.differenceFen = r.sharedFen - r.costFen;
    r.check = r.differenceFen === 0 ? '一致' : '不符';
  }
  const notes = ['总费用由分摊组总表的计费读数按电价复算；差额 = 分摊合计 − 总费用，为 0 表示费用已全部分摊到户'];
  if (touRuns) notes.push(`${touRuns} 个分摊组批次为分时计价，其总费用取分摊合计（读数不保留分时段用量，无法复算）`);
  if (unmatched) notes.push(`另有 ${unmatched} 分的分摊明细对应的分摊组已改名或删除，未列入`);
  const withCost = rows.filter((r) => r.costFen || r.sharedFen);
  return memorySource(ctx.def, rows, { chart: { x: withCost.map((r) => r.teamName), series: { costFen: withCost.map((r) => r.costFen) } }, notes });
};

// ---------------------------------------------------------------- charges per device type

function deviceCharges(types: (code: string, category: string) => boolean, withReadings: boolean): ReportQueryFn {
  const codes = [...DEVICE_TYPE_BY_CODE.values()].filter((t) => types(t.code, t.category)).map((t) => t.code);
  return async (ctx) => {
    const f = ctx.filters;
    let q = linesIn(ctx).innerJoin('device', 'device.id', 'billing_line.device_id').innerJoin('account', 'account.id', 'billing_line.account_id').where('device.device_type', 'in', codes);
    if (f.areaId !== undefined) q = q.where('device.area_id', 'in', [...ctx.places.subtree(f.areaId)]);
    if (f.keyword) {
      const like = likeOf(f.keyword);
      q = q.where((eb) => eb.or([eb('device.device_name', 'like', like), eb('device.device_code', 'like', like), eb('account.name', 'like', like)]));
    }
    const grouped = await q.select((eb) => [
      'billing_line.device_id', 'device.device_code', 'device.device_name', 'device.area_id', eb.fn.max('account.name').as('account_name'), eb.fn.max('billing_line.unit').as('unit'),
      eb.fn.sum<number>('billing_line.quantity').as('q'), eb.fn.sum<number>('billing_line.amount_fen').as('fen'),
    ]).groupBy(['billing_line.device_id', 'device.device_code', 'device.device_name', 'device.area_id']).execute();
    const range = new Map<number, { startTs: number; startValue: number | null; endTs: number; endValue: number | null }>();
    if (withReadings && grouped.length) {
      const ids = grouped.map((g) => Number(g.device_id));
      for (let i = 0; i < ids.length; i += 500) {
        const rs = await ctx.db.selectFrom('billing_reading').innerJoin('billing_run', 'billing_run.id', 'billing_reading.run_id')
          .select(['billing_reading.device_id', 'billing_reading.start_ts', 'billing_reading.start_value', 'billing_reading.end_ts', 'billing_reading.end_value'])
          .where('billing_run.project_id', '=', ctx.project.id).where('billing_run.period_until', '>', f.from).where('billing_run.period_until', '<=', f.to)
          .where('billing_reading.field_code', '=', 'f60').where('billing_reading.device_id', 'in', ids.slice(i, i + 500)).execute();
        for (const r of rs) {
          const cur = range.get(r.device_id) ?? { startTs: Infinity, startValue: null, endTs: -Infinity, endValue: null };
          if (r.start_ts !== null && Number(r.start_ts) < cur.startTs) Object.assign(cur, { startTs: Number(r.start_ts), startValue: r.start_value });
          if (r.end_ts !== null && Number(r.end_ts) > cur.endTs) Object.assign(cur, { endTs: Number(r.end_ts), endValue: r.end_value });
          range.set(r.device_id, cur);
        }
      }
    }
    const rows = grouped.map((g) => ({
      deviceId: Number(g.device_id), deviceCode: g.device_code, deviceName: g.device_name, location: ctx.places.pathOf(g.area_id), accountName: String(g.account_name ?? ''),
      quantity: quantize(Number(g.q)), unit: String(g.unit ?? ''), amountFen: Number(g.fen),
      ...(withReadings ? { startValue: range.get(Number(g.device_id))?.startValue ?? null, endValue: range.get(Number(g.device_id))?.endValue ?? null } : {}),
    }));
    const top = [...rows].sort((a, b) => b.amountFen - a.amountFen).slice(0, 10);
    return memorySource(ctx.def, rows, {
      chart: { x: top.map((r) => r.deviceName), series: { amountFen: top.map((r) => r.amountFen) } },
      notes: ['按设备汇总的计费明细；分摊明细与多设备账户的阶梯明细不对应单台设备，未列入'],
    });
  };
}

export const MONEY_QUERIES: Record<string, ReportQueryFn> = {
  payReport,
  payReport_n: payReportN,
  refundTable,
  refundTable_n: refundTableN,
  depositdata: depositData,
  depositreport: depositReport,
  expensebilldata: expenseBillData,
  dataDetails_n: dataDetails,
  summaryReport_n: summaryReport,
  accountingPeriod_n: accountingPeriod,
  ladderReport_n: ladderReport,
  billingDataAllocation_n: billingDataAllocation,
  shareReport_n: shareReport,
  airconcostdata: deviceCharges((code, category) => code !== 'deviceAG2420' && (category === 'billingThermostat' || category === 'airCabinet' || category === 'thermostat'), false),
  calorimeterchargedata: deviceCharges((_code, category) => category === 'heatMeter', true),
  ag2420chargedata: deviceCharges((code) => code === 'deviceAG2420', false),
};
