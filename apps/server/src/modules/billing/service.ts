import {
  METHOD_FIELDS, localMidnight, schemeOf, type BillLineRow, type BillStatus, type BillingMethod, type BillingRunRow, type BillingRunState, type ChargeSummaryRow,
  type ExpenseBillRow, type LineQuery, type RunGap, type RunResult, type ShareBasis, type SupplyAction, type SupplyActionRow, type SupplyStatus,
} from '@kelvin/contracts';
import type { z } from 'zod';
import type { billQuery, billingRunQuery, chargeDataBody, supplyQuery, billPayBody } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { scoped, type Actor } from '../../lib/scope.ts';
import type { AccountService } from '../accounts/index.ts';
import type { ProjectService } from '../projects/index.ts';
import type { BillingConfig } from './config.ts';
import type { createEngine } from './engine.ts';
import type { PrepaidLoop } from './prepaid.ts';

type Engine = ReturnType<typeof createEngine>;
const DAY_MS = 86_400_000;

/**
 * What operators do with the engine: run it, read runs, lines (with the readings behind each), per-device charge
 * data, postpaid expense bills (issue a period, pay, overdue), and the prepaid loop's supply actions.
 */
export function createBillingService(deps: { db: Db; engine: Engine; config: BillingConfig; projects: ProjectService; accounts: AccountService; prepaid: PrepaidLoop }) {
  const { db, engine, projects } = deps;

  const runRow = (r: { id: number; project_id: number; project_name: string; scheme: number; period_from: number; period_until: number; state: string; accounts: number; lines: number; total_fen: number; gaps: string; trigger: string; started_at: number; finished_at: number | null }): BillingRunRow => ({
    runId: r.id, projectId: r.project_id, projectName: r.project_name, scheme: r.scheme, periodFrom: Number(r.period_from), periodUntil: Number(r.period_until),
    state: r.state as BillingRunState, accounts: Number(r.accounts), lines: Number(r.lines), totalFen: Number(r.total_fen), gaps: JSON.parse(r.gaps) as RunGap[], trigger: r.trigger,
    startedAt: Number(r.started_at), finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  });
  const runsOf = (actor: Actor) => scoped(db.selectFrom('billing_run').innerJoin('area', 'area.id', 'billing_run.project_id'), actor.scope, { tenant: 'billing_run.tenant_id', project: 'billing_run.project_id' })
    .select(['billing_run.id', 'billing_run.project_id', 'area.name as project_name', 'billing_run.scheme', 'billing_run.period_from', 'billing_run.period_until', 'billing_run.state',
      'billing_run.accounts', 'billing_run.lines', 'billing_run.total_fen', 'billing_run.gaps', 'billing_run.trigger', 'billing_run.started_at', 'billing_run.finished_at']);

  const linesOf = (actor: Actor) => scoped(db.selectFrom('billing_line')
    .innerJoin('account', 'account.id', 'billing_line.account_id')
    .leftJoin('device', 'device.id', 'billing_line.device_id'), actor.scope, { tenant: 'billing_line.tenant_id', project: 'billing_line.project_id' })
    .select(['billing_line.id', 'billing_line.run_id', 'billing_line.project_id', 'billing_line.account_id', 'account.name as account_name', 'billing_line.device_id', 'device.device_name',
      'billing_line.method', 'billing_line.label', 'billing_line.quantity', 'billing_line.unit', 'billing_line.unit_price', 'billing_line.amount_fen', 'billing_line.period_from',
      'billing_line.period_until', 'billing_line.entry_id', 'billing_line.bill_id', 'billing_line.basis']);
  type LineDb = Awaited<ReturnType<ReturnType<typeof linesOf>['execute']>>[number];

  async function toLines(rows: LineDb[]): Promise<BillLineRow[]> {
    // a share line's readings are those of the devices its basis names (the account's own at the run)
    const bases = new Map(rows.map((r) => [r.id, r.basis ? JSON.parse(r.basis) as ShareBasis : null]));
    const devicesOf = (r: LineDb) => (r.device_id !== null ? [r.device_id] : bases.get(r.id)?.deviceIds ?? []);
    const keys = rows.filter((r) => devicesOf(r).length);
    const readings = keys.length
      ? await db.selectFrom('billing_reading').selectAll().where('run_id', 'in', [...new Set(keys.map((r) => r.run_id))]).where('device_id', 'in', [...new Set(keys.flatMap(devicesOf))]).execute()
      : [];
    return rows.map((r) => {
      const fields = METHOD_FIELDS[r.method as BillingMethod]?.fields;
      const ids = devicesOf(r);
      return {
        id: r.id, runId: r.run_id, projectId: r.project_id, accountId: r.account_id, accountName: r.account_name, deviceId: r.device_id, deviceName: r.device_name ?? null,
        method: r.method as BillLineRow['method'], label: r.label, quantity: Number(r.quantity), unit: r.unit, unitPrice: r.unit_price, amountFen: Number(r.amount_fen),
        periodFrom: Number(r.period_from), periodUntil: Number(r.period_until), entryId: r.entry_id, billId: r.bill_id,
        basis: bases.get(r.id) ?? null,
        readings: readings.filter((x) => x.run_id === r.run_id && ids.includes(x.device_id) && (!fields || fields.includes(x.field_code) || !['f20', 'f21', 'f22', 'f30', 'f60', 'f70'].includes(x.field_code)))
          .map((x) => ({ deviceId: x.device_id, fieldCode: x.field_code, startTs: x.start_ts === null ? null : Number(x.start_ts), startValue: x.start_value, endTs: x.end_ts === null ? null : Number(x.end_ts), endValue: x.end_value })),
      };
    });
  }

  function filterLines(actor: Actor, q: Omit<LineQuery, 'pageNo' | 'pageSize'>) {
    let query = linesOf(actor);
    if (q.projectId) query = query.where('billing_line.project_id', '=', q.projectId);
    if (q.runId) query = query.where('billing_line.run_id', '=', q.runId);
    if (q.billId) query = query.where('billing_line.bill_id', '=', q.billId);
    if (q.accountId) query = query.where('billing_line.account_id', '=', q.accountId);
    if (q.deviceId) query = query.where('billing_line.device_id', '=', q.deviceId);
    if (q.method) query = q.method === 'share' ? query.where('billing_line.method', 'in', ['shareTime', 'shareEnergy', 'shareArea', 'shareMixed', 'onOffTimeArea']) : query.where('billing_line.method', '=', q.method);
    if (q.startTime !== undefined) query = query.where('billing_line.period_until', '>', q.startTime);
    if (q.endTime !== undefined) query = query.where('billing_line.period_until', '<=', q.endTime);
    return query;
  }

  const sumFen = async (query: ReturnType<typeof linesOf>) => Number((await query.clearSelect().select((eb) => eb.fn.sum<number>('billing_line.amount_fen').as('fen')).executeTakeFirst())?.fen ?? 0);

  const billStatus = (status: string, dueAt: number, now: number): BillStatus => (status === 'paid' ? 'paid' : dueAt < now ? 'overdue' : 'issued');
  const billsOf = (actor: Actor) => scoped(db.selectFrom('billing_bill').innerJoin('account', 'account.id', 'billing_bill.account_id'), actor.scope, { tenant: 'billing_bill.tenant_id', project: 'billing_bill.project_id' })
    .select(['billing_bill.id', 'billing_bill.project_id', 'billing_bill.account_id', 'account.name as account_name', 'account.phone', 'billing_bill.period', 'billing_bill.period_from',
      'billing_bill.period_until', 'billing_bill.amount_fen', 'billing_bill.lines', 'billing_bill.status', 'billing_bill.issued_at', 'billing_bill.due_at', 'billing_bill.paid_at',
      'billing_bill.pay_method', 'billing_bill.paid_by']);
  const toBill = (r: Awaited<ReturnType<ReturnType<typeof billsOf>['execute']>>[number], now = Date.now()): ExpenseBillRow => ({
    id: r.id, projectId: r.project_id, accountId: r.account_id, accountName: r.account_name, phone: r.phone, period: r.period, periodFrom: Number(r.period_from),
    periodUntil: Number(r.period_until), amountFen: Number(r.amount_fen), lines: Number(r.lines), status: billStatus(r.status, Number(r.due_at), now), issuedAt: Number(r.issued_at),
    dueAt: Number(r.due_at), paidAt: r.paid_at === null ? null : Number(r.paid_at), payMethod: r.pay_method, paidBy: r.paid_by,
  });

  /** [start, end) of an accounting period "YYYY-MM": from the close day of that month to the close day of the next. */
  async function periodRange(projectId: number, period: string): Promise<[number, number]> {
    const [y, m] = period.split('-').map(Number) as [number, number];
    const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    const startDay = (await deps.config.tariffAt(projectId, localMidnight(`${period}-01`))).doc.accounting.closeDay;
    const endDay = (await deps.config.tariffAt(projectId, localMidnight(`${next}-01`))).doc.accounting.closeDay;
    return [localMidnight(`${period}-${String(startDay).padStart(2, '0')}`), localMidnight(`${next}-${String(endDay).padStart(2, '0')}`)];
  }

  const supplyOf = (actor: Actor) => scoped(db.selectFrom('billing_supply').innerJoin('account', 'account.id', 'billing_supply.account_id').innerJoin('device', 'device.id', 'billing_supply.device_id'),
    actor.scope, { tenant: 'billing_supply.tenant_id', project: 'billing_supply.project_id' })
    .select(['billing_supply.id', 'billing_supply.project_id', 'billing_supply.account_id', 'account.name as account_name', 'billing_supply.device_id', 'device.device_name',
      'device.device_type', 'billing_supply.action', 'billing_supply.status', 'billing_supply.attempts', 'billing_supply.command_id', 'billing_supply.last_error',
      'billing_supply.created_at', 'billing_supply.updated_at']);
  const toSupply = (r: Awaited<ReturnType<ReturnType<typeof supplyOf>['execute']>>[number]): SupplyActionRow => ({
    id: r.id, projectId: r.project_id, accountId: r.account_id, accountName: r.account_name, deviceId: r.device_id, deviceName: r.device_name, deviceType: r.device_type,
    action: r.action as SupplyAction, status: r.status as SupplyStatus, attempts: r.attempts, commandId: r.command_id, lastError: r.last_error, createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
  });

  /**
   * 出账: closes an accounting period of a postpaid project — bills the period first (a run up to its end), then one
   * bill per account for the lines of the period not yet on a bill. Issuing again adds bills only for what is new.
   */
  async function issueBills(projectId: number, period: string) {
    const tariff = await deps.config.tariffAt(projectId, Date.now());
    const scheme = schemeOf(tariff.doc.scheme);
    if (scheme?.prepaid) throw invalid('该项目为预付费方案，费用随用随扣，不出具账单', ['projectId']);
    const [start, end] = await periodRange(projectId, period);
    if (end > Date.now()) throw invalid(`账期 ${period} 尚未结束（结算日 ${new Date(end + 8 * 3600_000).toISOString().slice(0, 10)}），结束后才能出账`, ['period']);
    await engine.run(projectId, end, 'bill');
    const now = Date.now();
    const due = await db.selectFrom('billing_line').select(['account_id', 'tenant_id', (eb) => eb.fn.sum<number>('amount_fen').as('fen'), (eb) => eb.fn.count<number>('id').as('n')])
      .where('project_id', '=', projectId).where('bill_id', 'is', null).where('entry_id', 'is', null).where('period_until', '>', start).where('period_until', '<=', end).groupBy(['account_id', 'tenant_id']).execute();
    let issued = 0;
    let totalFen = 0;
    for (const d of due) {
      await db.transaction().execute(async (trx) => {
        const bill = await trx.insertInto('billing_bill').values({
          tenant_id: d.tenant_id, project_id: projectId, account_id: d.account_id, period, period_from: start, period_until: end, amount_fen: Number(d.fen), lines: Number(d.n),
          status: 'issued', issued_at: now, due_at: now + tariff.doc.accounting.dueDays * DAY_MS, paid_at: null, pay_method: null, paid_by: null, entry_id: null,
        }).onConflict((oc) => oc.columns(['account_id', 'period']).doNothing()).returning('id').executeTakeFirst();
        if (!bill) return;
        await trx.updateTable('billing_line').set({ bill_id: bill.id }).where('project_id', '=', projectId).where('account_id', '=', d.account_id).where('bill_id', 'is', null).where('entry_id', 'is', null)
          .where('period_until', '>', start).where('period_until', '<=', end).execute();
        issued++;
        totalFen += Number(d.fen);
      });
    }
    return { issued, totalFen };
  }

  return {
    async run(actor: Actor, projectId: number, until = Date.now()): Promise<RunResult> {
      await projects.project(actor.scope, projectId);
      if (until > Date.now() + 60_000) throw invalid('截止时间不能晚于现在', ['until']);
      return engine.run(projectId, until, 'manual');
    },

    async runs(actor: Actor, q: z.infer<typeof billingRunQuery>) {
      if (q.projectId) await projects.project(actor.scope, q.projectId);
      let query = runsOf(actor);
      if (q.projectId) query = query.where('billing_run.project_id', '=', q.projectId);
      const page = await paginate(query, q, (b) => b.orderBy('billing_run.period_until', 'desc').orderBy('billing_run.id', 'desc'));
      return { total: page.total, rows: page.rows.map(runRow) };
    },

    async runDetail(actor: Actor, id: number) {
      const r = await runsOf(actor).where('billing_run.id', '=', id).executeTakeFirst();
      if (!r) throw notFound('计费批次');
      return runRow(r);
    },

    async lines(actor: Actor, q: LineQuery) {
      if (q.projectId) await projects.project(actor.scope, q.projectId);
      const query = filterLines(actor, q);
      const page = await paginate(query, q, (b) => b.orderBy('billing_line.period_until', 'desc').orderBy('billing_line.account_id').orderBy('billing_line.seq'));
      return { total: page.total, rows: await toLines(page.rows), totalFen: await sumFen(query) };
    },

    async *lineRows(actor: Actor, q: Omit<LineQuery, 'pageNo' | 'pageSize'>) {
      if (q.projectId) await projects.project(actor.scope, q.projectId);
      let last = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const rows = await filterLines(actor, q).where('billing_line.id', '<', last).orderBy('billing_line.id', 'desc').limit(500).execute();
        if (!rows.length) return;
        yield* await toLines(rows);
        last = rows[rows.length - 1]!.id;
      }
    },

    async chargeSummary(actor: Actor, b: z.infer<typeof chargeDataBody>) {
      await projects.project(actor.scope, b.projectId);
      let query = filterLines(actor, { projectId: b.projectId, startTime: b.startTime, endTime: b.endTime, deviceId: b.deviceId }).where('billing_line.device_id', 'is not', null);
      if (b.deviceType) query = query.where('device.device_type', '=', b.deviceType);
      if (b.keyword) query = query.where((eb) => eb.or([eb('device.device_name', 'like', `%${b.keyword}%`), eb('device.device_code', 'like', `%${b.keyword}%`)]));
      const grouped = query.clearSelect().select((eb) => [
        'billing_line.device_id', 'device.device_code', 'device.device_name', 'device.device_type', eb.fn.max('account.name').as('account_name'), eb.fn.max('billing_line.unit').as('unit'),
        eb.fn.sum<number>('billing_line.quantity').as('quantity'), eb.fn.sum<number>('billing_line.amount_fen').as('fen'), eb.fn.count<number>('billing_line.id').as('lines'),
      ]).groupBy(['billing_line.device_id', 'device.device_code', 'device.device_name', 'device.device_type']);
      const total = Number((await db.selectFrom(grouped.as('g')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await grouped.orderBy('fen', 'desc').orderBy('billing_line.device_id').limit(b.pageSize).offset((b.pageNo - 1) * b.pageSize).execute();
      return {
        total, totalFen: await sumFen(query),
        rows: rows.map((r): ChargeSummaryRow => ({
          deviceId: r.device_id!, deviceCode: r.device_code ?? '', deviceName: r.device_name ?? '', deviceType: r.device_type ?? '', accountName: r.account_name as string | null,
          quantity: Math.round(Number(r.quantity) * 1e6) / 1e6, unit: String(r.unit ?? ''), amountFen: Number(r.fen), lines: Number(r.lines),
        })),
      };
    },

    async chargeDetail(actor: Actor, b: z.infer<typeof chargeDataBody>) {
      await projects.project(actor.scope, b.projectId);
      let query = filterLines(actor, { projectId: b.projectId, startTime: b.startTime, endTime: b.endTime, deviceId: b.deviceId }).where('billing_line.device_id', 'is not', null);
      if (b.deviceType) query = query.where('device.device_type', '=', b.deviceType);
      if (b.keyword) query = query.where((eb) => eb.or([eb('device.device_name', 'like', `%${b.keyword}%`), eb('device.device_code', 'like', `%${b.keyword}%`)]));
      const page = await paginate(query, b, (x) => x.orderBy('billing_line.period_until', 'desc').orderBy('billing_line.id'));
      return { total: page.total, rows: await toLines(page.rows), totalFen: await sumFen(query) };
    },

    // ---------------------------------------------------------------- expense bills (postpaid)

    async bills(actor: Actor, q: z.infer<typeof billQuery>) {
      if (q.projectId) await projects.project(actor.scope, q.projectId);
      const now = Date.now();
      let query = billsOf(actor);
      if (q.projectId) query = query.where('billing_bill.project_id', '=', q.projectId);
      if (q.period) query = query.where('billing_bill.period', '=', q.period);
      if (q.status === 'paid') query = query.where('billing_bill.status', '=', 'paid');
      if (q.status === 'issued') query = query.where('billing_bill.status', '=', 'issued').where('billing_bill.due_at', '>=', now);
      if (q.status === 'overdue') query = query.where('billing_bill.status', '=', 'issued').where('billing_bill.due_at', '<', now);
      if (q.keyword) query = query.where((eb) => eb.or([eb('account.name', 'like', `%${q.keyword}%`), eb('account.phone', 'like', `%${q.keyword}%`)]));
      const page = await paginate(query, q, (b) => b.orderBy('billing_bill.period', 'desc').orderBy('billing_bill.id'));
      const totalFen = Number((await query.clearSelect().select((eb) => eb.fn.sum<number>('billing_bill.amount_fen').as('fen')).executeTakeFirst())?.fen ?? 0);
      return { total: page.total, rows: page.rows.map((r) => toBill(r, now)), totalFen };
    },

    /** 出账 by hand (issueBills). */
    async issue(actor: Actor, projectId: number, period: string) {
      await projects.project(actor.scope, projectId);
      return issueBills(projectId, period);
    },

    /**
     * The schedule's 出账: a postpaid project's last closed accounting period is issued once it has ended (nothing
     * happens when it was issued already or holds no lines).
     */
    async issueClosedPeriod(projectId: number, now = Date.now()) {
      const tariff = await deps.config.tariffAt(projectId, now);
      if (schemeOf(tariff.doc.scheme)?.prepaid !== false) return { issued: 0, totalFen: 0 };
      const months = [-1, 0].map((d) => {
        const p = new Date(now + 8 * 3_600_000);
        const m = new Date(Date.UTC(p.getUTCFullYear(), p.getUTCMonth() + d, 1));
        return `${m.getUTCFullYear()}-${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
      });
      let closed: string | null = null;
      for (const label of months) if ((await periodRange(projectId, label))[1] <= now) closed = label;
      return closed ? issueBills(projectId, closed) : { issued: 0, totalFen: 0 };
    },

    /** 缴费: cash and transfer are recorded; 余额抵扣 charges the prepaid balance (idempotent on the key). */
    async pay(actor: Actor, id: number, b: z.infer<typeof billPayBody>, key: string): Promise<ExpenseBillRow> {
      const bill = await billsOf(actor).where('billing_bill.id', '=', id).executeTakeFirst();
      if (!bill) throw notFound('账单');
      if (bill.status === 'paid') {
        if (bill.pay_method === b.method) return toBill(bill);
        throw conflict('该账单已缴费');
      }
      let entryId: number | null = null;
      if (b.method === 'balance' && Number(bill.amount_fen) > 0) {
        const r = await deps.accounts.charge(actor, bill.account_id, { amountFen: Number(bill.amount_fen), reason: `缴纳 ${bill.period} 账单${b.remark ? `（${b.remark}）` : ''}`, causeType: 'billing_bill', causeId: String(id) }, key);
        entryId = r.entryId;
      }
      await db.updateTable('billing_bill').set({ status: 'paid', paid_at: Date.now(), pay_method: b.method, paid_by: actor.user.name || actor.user.username, entry_id: entryId })
        .where('id', '=', id).where('status', '=', 'issued').execute();
      return toBill((await billsOf(actor).where('billing_bill.id', '=', id).executeTakeFirstOrThrow()));
    },

    // ---------------------------------------------------------------- supply actions

    async supply(actor: Actor, q: z.infer<typeof supplyQuery>) {
      if (q.projectId) await projects.project(actor.scope, q.projectId);
      let query = supplyOf(actor);
      if (q.projectId) query = query.where('billing_supply.project_id', '=', q.projectId);
      if (q.accountId) query = query.where('billing_supply.account_id', '=', q.accountId);
      if (q.status) query = query.where('billing_supply.status', '=', q.status);
      const page = await paginate(query, q, (b) => b.orderBy('billing_supply.id', 'desc'));
      return { total: page.total, rows: page.rows.map(toSupply) };
    },

    async retrySupply(actor: Actor, id: number): Promise<SupplyActionRow> {
      const one = () => supplyOf(actor).where('billing_supply.id', '=', id).executeTakeFirst();
      const row = await one();
      if (!row) throw notFound('供能操作');
      if (row.status !== 'failed' && row.status !== 'gaveUp') throw conflict('只有未执行的操作可以重试');
      await deps.prepaid.retry(id);
      return toSupply((await one())!);
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
