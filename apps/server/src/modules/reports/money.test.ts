import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BILLING_METHODS, DEFAULT_TARIFF, MENU_BY_CODE, fenToYuan, localMidnight, reportMenuCode, REPORT_BY_CODE, type ReportPage } from '@kelvin/contracts';
import { createArea, startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../../test/harness.ts';
import { TENANT_ADMIN_CODES, download, xlsxText } from '../admin/fixtures.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';

/**
 * The money reports on a small hand-built data set: top-ups by cash/bank/online, a charge, a refund, deposits
 * collected/deducted/refunded (all through the accounts API, so the ledger's one writer keeps ledger_day), a billing
 * run's lines (ladder tiers, a device line, a heat meter, two share teams), bills issued and paid. Every expected figure
 * is worked out by hand beside the case; the totals are also compared with the ledger's entries for the same filter.
 */

const H = 3_600_000;
const DAY = 24 * H;
/** October 2026 in Shanghai time */
const T0 = localMidnight('2026-10-01');
const T1 = localMidnight('2026-11-01');
const at = (date: string, hh = 10) => localMidnight(date) + hh * H;

let k: TestClient;
let a: TenantWithProject;
let token: string;
let tokenB: string;
const acc = { a1: 0, a2: 0, a3: 0 };

async function data(method: 'GET' | 'POST', url: string, body?: unknown, when?: number) {
  const spy = when === undefined ? null : vi.spyOn(Date, 'now').mockReturnValue(when);
  try {
    const res = await k.call(method, url, { token, body, headers: method === 'POST' ? { 'idempotency-key': `money-${crypto.randomUUID()}` } : {} });
    expect(res.body.code, `${url} ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  } finally {
    spy?.mockRestore();
  }
}

/** The project made to fit the report's screen (spec §6: project type, second type, billing scheme → report group). */
async function fit(code: string) {
  const menu = MENU_BY_CODE.get(reportMenuCode(REPORT_BY_CODE.get(code)!))!;
  const scheme = menu.reportGroups?.includes('report2') ? 7 : menu.reportGroups?.includes('report3') ? 9 : 1;
  await k.db.updateTable('area').set({ project_type: menu.projectTypes?.[0] ?? 'PT2010', project_type2: menu.projectType2?.[0] ?? 101, billing_scheme: scheme }).where('id', '=', a.projectId).execute();
}
async function report(code: string, q = `from=${T0}&to=${T1}`): Promise<ReportPage> {
  await fit(code);
  return data('GET', `/api/v1/datacenter/${code}?projectId=${a.projectId}&pageSize=100&${q}`);
}
const byName = (p: ReportPage, name: string) => p.rows.find((r) => r.accountName === name)!;
/** Σ ledger entries of the project in [from, to) for these kinds */
async function ledger(kinds: string[], from = T0, to = T1) {
  const r = await k.db.selectFrom('ledger_entry').select((eb) => eb.fn.sum<number>('amount_fen').as('fen')).where('project_id', '=', a.projectId)
    .where('kind', 'in', kinds).where('created_at', '>=', from).where('created_at', '<', to).executeTakeFirst();
  return Number(r?.fen ?? 0);
}

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, tokenA: token, tokenB } = await twoTenants(k, 'money', TENANT_ADMIN_CODES, ['PT2010', 'PT2010']));
  const room1 = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'room', name: '101' });
  const room2 = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'room', name: '102' });
  acc.a1 = (await data('POST', '/api/v1/account', { projectId: a.projectId, name: '甲', phone: '13800000001', roomIds: [room1] })).id;
  acc.a2 = (await data('POST', '/api/v1/account', { projectId: a.projectId, name: '乙', phone: '13800000002', roomIds: [room2] })).id;
  const room3 = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'room', name: '103' });
  acc.a3 = (await data('POST', '/api/v1/account', { projectId: a.projectId, name: '丙', phone: '13800000003', roomIds: [room3] })).id;

  // ---- the ledger, through the accounts API at chosen instants
  await data('POST', `/api/v1/account/${acc.a1}/topup`, { amountFen: 10_000, method: 'cash' }, at('2026-09-20')); // 期初 甲 100.00
  await data('POST', '/api/v1/user/admindeposit/collect', { accountId: acc.a1, amountFen: 20_000, reason: '押金' }, at('2026-10-02'));
  await data('POST', '/api/v1/user/admindeposit/deduct', { accountId: acc.a1, amountFen: 3_000, reason: '损坏' }, at('2026-10-03'));
  await data('POST', '/api/v1/user/admindeposit/refund', { accountId: acc.a1, amountFen: 5_000, reason: '部分退还' }, at('2026-10-04'));
  await data('POST', `/api/v1/account/${acc.a1}/topup`, { amountFen: 5_000, method: 'bank' }, at('2026-10-05'));
  // online: an order paid through the sandbox provider (the credit is the callback's, at the time paid)
  const order = await data('POST', `/api/v1/account/${acc.a2}/order`, { amountFen: 3_000 }, at('2026-10-05', 11));
  await data('POST', `/api/v1/payment/sandbox/${order.orderNo}/pay`, undefined, at('2026-10-05', 11));
  await data('POST', `/api/v1/account/${acc.a1}/charge`, { amountFen: 1_234, reason: '维修费' }, at('2026-10-06'));
  await data('POST', `/api/v1/account/${acc.a2}/refund`, { amountFen: 1_000, reason: '多充退回' }, at('2026-10-10'));
  // the period edge: the last millisecond of October and the first of November
  await data('POST', `/api/v1/account/${acc.a2}/topup`, { amountFen: 2_000, method: 'cash' }, T1 - 1);
  await data('POST', `/api/v1/account/${acc.a2}/topup`, { amountFen: 700, method: 'cash' }, T1);

  // ---- billing: a tariff (scheme 9, 1.0000 元), runs, lines, readings, share teams, bills (billing's tables as the engine leaves them)
  const db = k.db;
  const t = a.tenantId;
  const p = a.projectId;
  await db.insertInto('billing_tariff').values({ tenant_id: t, project_id: p, scheme: 9, doc: JSON.stringify({ ...DEFAULT_TARIFF, scheme: 9, price: '1.0000' }), effective_from: T0 - DAY, remark: null, created_by: null, created_at: T0 }).execute();
  const dev = async (type: string, name: string) => (await createTestDevice(k, { tenantId: t, projectId: p, areaId: a.buildingId, type, name })).id;
  const thermostat = await dev('device20030', '乙空调');
  const heat = await dev('calorimeter', '乙热表');
  const total1 = await dev('device20090', '1号总表');
  const total2 = await dev('device20090', '2号总表');
  const run = async (until: number, scheme: number) => (await db.insertInto('billing_run').values({
    tenant_id: t, project_id: p, scheme, period_from: until - 15 * DAY, period_until: until, state: 'done', accounts: 2, lines: 0, total_fen: 0, gaps: '[]', trigger: 'test', started_at: until, finished_at: until,
  }).returning('id').executeTakeFirstOrThrow()).id;
  const r1 = await run(T0 + 15 * DAY, 7);
  const r2 = await run(T1, 9); // ends 00:00 on 1 November: October's use
  const r3 = await run(T1 + 15 * 60_000, 7); // ends 00:15 on 1 November: November
  const bill = async (accountId: number, amount: number, status: string) => (await db.insertInto('billing_bill').values({
    tenant_id: t, project_id: p, account_id: accountId, period: '2026-10', period_from: T0, period_until: T1, amount_fen: amount, lines: 1, status,
    issued_at: T1 + DAY, due_at: T1 + 400 * DAY, paid_at: status === 'paid' ? T1 + 2 * DAY : null, pay_method: status === 'paid' ? 'cash' : null, paid_by: null, entry_id: null,
  }).returning('id').executeTakeFirstOrThrow()).id;
  const bill1 = await bill(acc.a1, 6_650, 'issued');
  const bill2 = await bill(acc.a2, 1_500, 'paid');
  let seq = 0;
  const line = (runId: number, until: number, accountId: number, l: { device?: number; method: string; label: string; q: number; unit: string; price: string; fen: number; bill?: number; basis?: object }) => db.insertInto('billing_line').values({
    tenant_id: t, project_id: p, run_id: runId, account_id: accountId, seq: ++seq, device_id: l.device ?? null, method: l.method, label: l.label, quantity: l.q, unit: l.unit, unit_price: l.price,
    amount_fen: l.fen, period_from: until - 15 * DAY, period_until: until, entry_id: null, bill_id: l.bill ?? null, basis: l.basis ? JSON.stringify(l.basis) : null,
  }).execute();
  const u1 = T0 + 15 * DAY;
  // 甲 ladder: 100 kWh × 0.50 = 50.00; 20 kWh × 0.55 = 11.00; then 10 kWh × 0.55 = 5.50 (run ending 1 Nov 00:00); November's 7.00 is outside
  await line(r1, u1, acc.a1, { method: 'ladder', label: '2026-10 第1档', q: 100, unit: 'kWh', price: '0.5000', fen: 5_000, bill: bill1 });
  await line(r1, u1, acc.a1, { method: 'ladder', label: '2026-10 第2档', q: 20, unit: 'kWh', price: '0.5500', fen: 1_100, bill: bill1 });
  await line(r2, T1, acc.a1, { method: 'ladder', label: '2026-10 第2档', q: 10, unit: 'kWh', price: '0.5500', fen: 550, bill: bill1 });
  await line(r3, T1 + 15 * 60_000, acc.a1, { method: 'ladder', label: '2026-11 第1档', q: 14, unit: 'kWh', price: '0.5000', fen: 700 });
  // 乙: an air-conditioning terminal 12.5 h × 1.20 = 15.00 (on the paid bill), a heat meter 2.5 GJ × 40.00 = 100.00
  await line(r1, u1, acc.a2, { device: thermostat, method: 'timeEquivalent', label: '乙空调', q: 12.5, unit: 'h', price: '1.2000', fen: 1_500, bill: bill2 });
  await line(r1, u1, acc.a2, { device: heat, method: 'heat', label: '乙热表', q: 2.5, unit: 'GJ', price: '40.0000', fen: 10_000 });
  await db.insertInto('billing_reading').values([
    { run_id: r1, device_id: heat, field_code: 'f60', start_ts: T0, start_value: 10, end_ts: u1, end_value: 12.5, use: 2.5 },
    // share teams' total meters in run 2: 100 kWh × 1.00 = 100.00 and 50 kWh × 1.00 = 50.00
    { run_id: r2, device_id: total1, field_code: 'f70', start_ts: u1, start_value: 1000, end_ts: T1, end_value: 1100, use: 100 },
    { run_id: r2, device_id: total2, field_code: 'f70', start_ts: u1, start_value: 500, end_ts: T1, end_value: 550, use: 50 },
  ]).execute();
  const team = async (name: string, members: number[], total: number) => {
    const id = (await db.insertInto('billing_share_team').values({ tenant_id: t, project_id: p, name, remark: null, updated_by: null, updated_at: T0, created_at: T0 }).returning('id').executeTakeFirstOrThrow()).id;
    for (const m of members) await db.insertInto('billing_share_member').values({ tenant_id: t, team_id: id, account_id: m }).execute();
    await db.insertInto('billing_device_relation').values({ tenant_id: t, team_id: id, device_id: total, role: 'total' }).execute();
  };
  await team('东区', [acc.a1, acc.a2], total1);
  await team('西区', [acc.a3], total2);
  const shareLabel = (name: string) => `${BILLING_METHODS.shareTime}（${name}）`;
  // 东区 100.00 shared 60.00 / 40.00 (equivalents 6 h and 4 h); 西区 50.00 but its line holds 49.99: one fen not placed
  await line(r2, T1, acc.a1, { method: 'shareTime', label: shareLabel('东区'), q: 6, unit: 'h', price: '10.0000', fen: 6_000, basis: { team: '东区', area: 80, equivalent: 6, deviceIds: [] } });
  await line(r2, T1, acc.a2, { method: 'shareTime', label: shareLabel('东区'), q: 4, unit: 'h', price: '10.0000', fen: 4_000, basis: { team: '东区', area: 60, equivalent: 4, deviceIds: [] } });
  await line(r2, T1, acc.a3, { method: 'shareTime', label: shareLabel('西区'), q: 4, unit: 'h', price: '12.4975', fen: 4_999, basis: { team: '西区', area: 60, equivalent: 4, deviceIds: [] } });
});
afterAll(async () => k?.close());

describe('money reports', () => {
  it('payReport_n: 期初 + 充值 − 扣费 − 退费 = 期末 per account, tied to the ledger', async () => {
    const p = await report('payReport_n');
    // 甲: 期初 100.00 + 充值 50.00 − 扣费 12.34 = 期末 137.66
    expect(byName(p, '甲')).toMatchObject({ openingFen: 10_000, topupFen: 5_000, topups: 1, chargeFen: 1_234, refundFen: 0, closingFen: 13_766, rooms: '1号楼 / 101' });
    // 乙: 期初 0 + 充值 30.00 + 20.00 (23:59:59.999 on 31 Oct) − 退费 10.00 = 期末 40.00; the 7.00 at 00:00 on 1 Nov is November's
    expect(byName(p, '乙')).toMatchObject({ openingFen: 0, topupFen: 5_000, topups: 2, chargeFen: 0, refundFen: 1_000, closingFen: 4_000 });
    expect(p.totals).toEqual({ openingFen: 10_000, topupFen: 10_000, topups: 3, chargeFen: 1_234, refundFen: 1_000, closingFen: 17_766 });
    expect(p.totals.topupFen).toBe(await ledger(['topup']));
    expect(-p.totals.chargeFen).toBe(await ledger(['charge']));
    expect(p.totals.closingFen - p.totals.openingFen).toBe(await ledger(['topup', 'charge', 'refund', 'settlement']));
    expect(p.totals.openingFen).toBe(await ledger(['topup', 'charge', 'refund', 'settlement'], 0, T0));
    // the chart: every day of October, top-ups on the 5th (80.00) and the 31st (20.00), the charge on the 6th
    expect(p.chart!.x).toHaveLength(31);
    expect(p.chart!.series.topupFen![4]).toBe(8_000);
    expect(p.chart!.series.topupFen![30]).toBe(2_000);
    expect(p.chart!.series.chargeFen![5]).toBe(1_234);
    // the keyword narrows rows, totals and chart alike
    const one = await report('payReport_n', `from=${T0}&to=${T1}&keyword=${encodeURIComponent('乙')}`);
    expect(one.rows.map((r) => r.accountName)).toEqual(['乙']);
    expect(one.totals.topupFen).toBe(5_000);
  });

  it('payReport: each day by method; the last millisecond of a day stays in it (roll-up and entries agree)', async () => {
    const p = await report('payReport');
    expect(p.rows).toEqual([
      { bucket: '2026-10-05', count: 2, cashFen: 0, bankFen: 5_000, onlineFen: 3_000, refundFen: 0, netFen: 8_000 },
      { bucket: '2026-10-10', count: 1, cashFen: 0, bankFen: 0, onlineFen: 0, refundFen: 1_000, netFen: -1_000 },
      { bucket: '2026-10-31', count: 1, cashFen: 2_000, bankFen: 0, onlineFen: 0, refundFen: 0, netFen: 2_000 },
    ]);
    expect(p.totals).toEqual({ count: 4, cashFen: 2_000, bankFen: 5_000, onlineFen: 3_000, refundFen: 1_000, netFen: 9_000 });
    expect(p.totals.netFen).toBe(await ledger(['topup', 'refund']));
    // a custom period from 31 Oct 12:00 to 1 Nov 12:00 (partial days, read from the entries): 20.00 on the 31st, 7.00 on the 1st
    const edge = await report('payReport', `from=${T1 - 12 * H}&to=${T1 + 12 * H}`);
    expect(edge.rows.map((r) => [r.bucket, r.cashFen])).toEqual([['2026-10-31', 2_000], ['2026-11-01', 700]]);
    // by month: October in one row
    const month = await report('payReport', `from=${T0}&to=${T1 + DAY}&grain=month`);
    expect(month.rows.map((r) => [r.bucket, r.netFen])).toEqual([['2026-10', 9_000], ['2026-11', 700]]);
    // by hour: the last hour of October holds the edge top-up
    const hour = await report('payReport', `from=${T1 - H}&to=${T1 + H}&grain=hour`);
    expect(hour.rows.map((r) => [r.bucket, r.cashFen])).toEqual([['2026-10-31 23:00', 2_000], ['2026-11-01 00:00', 700]]);
  });

  it('operateRecord lists the same top-ups and refunds as payReport adds up', async () => {
    const p = await report('operateRecord');
    expect(p.totals.amountFen).toBe(9_000);
  });

  it('refundTable and refundTable_n: the request with its decision; the money that left (balance refunds, deposits returned)', async () => {
    const r = await report('refundTable');
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]).toMatchObject({ accountName: '乙', amountFen: 1_000, status: '已退费', reason: '多充退回' });
    const n = await report('refundTable_n');
    // 退费 10.00 + 退还押金 50.00 = 60.00
    expect(n.rows.map((x) => [x.accountName, x.kind, x.amountFen])).toEqual([['乙', '退费', 1_000], ['甲', '退还押金', 5_000]]);
    expect(n.totals.amountFen).toBe(6_000);
    expect(n.totals.amountFen).toBe(-(await ledger(['refund', 'deposit_refund'])));
  });

  it('depositdata and depositreport: 收取 200.00 − 扣除 30.00 − 退还 50.00 = 120.00', async () => {
    const d = await report('depositdata', `from=${T0}&to=${T1}`);
    expect(d.rows).toEqual([expect.objectContaining({ accountName: '甲', collectFen: 20_000, deductFen: 3_000, refundFen: 5_000, depositFen: 12_000, status: '在用' })]);
    const r = await report('depositreport');
    expect(r.rows.map((x) => [x.bucket, x.count, x.netFen])).toEqual([['2026-10-02', 1, 20_000], ['2026-10-03', 1, -3_000], ['2026-10-04', 1, -5_000]]);
    expect(r.totals).toEqual({ count: 3, collectFen: 20_000, deductFen: 3_000, refundFen: 5_000, netFen: 12_000 });
    expect(r.totals.netFen).toBe(await ledger(['deposit_collect', 'deposit_deduct', 'deposit_refund']));
  });

  it('expensebilldata: bills of the year with their state, the pie by state', async () => {
    const p = await report('expensebilldata', `from=${localMidnight('2026-01-01')}&to=${localMidnight('2027-01-01')}`);
    expect(p.rows.map((r) => [r.accountName, r.amountFen, r.status, r.payMethod])).toEqual(expect.arrayContaining([['甲', 6_650, '待缴费', ''], ['乙', 1_500, '已缴费', '现金']]));
    expect(p.totals.amountFen).toBe(8_150);
    expect(p.chart).toEqual({ x: ['待缴费', '已缴费'], series: { amountFen: [6_650, 1_500] } });
  });

  it('dataDetails_n and summaryReport_n: lines whose run ended in October (one ending 00:00 on 1 Nov is October\'s)', async () => {
    const d = await report('dataDetails_n');
    // 50.00 + 11.00 + 5.50 + 15.00 + 100.00 + 60.00 + 40.00 + 49.99 = 331.49
    expect(d.total).toBe(8);
    expect(d.totals.amountFen).toBe(33_149);
    const s = await report('summaryReport_n');
    // 甲: 50.00 + 11.00 + 5.50 + 60.00 = 126.50, top-ups 50.00, balance now 100.00 + 50.00 − 12.34 = 137.66
    expect(byName(s, '甲')).toMatchObject({ amountFen: 12_650, topupFen: 5_000, balanceFen: 13_766 });
    // 乙: 15.00 + 100.00 + 40.00 = 155.00, top-ups 50.00, balance now 30 + 20 + 7 − 10 = 47.00; 丙: its share 49.99
    expect(byName(s, '乙')).toMatchObject({ amountFen: 15_500, topupFen: 5_000, balanceFen: 4_700 });
    expect(byName(s, '丙')).toMatchObject({ amountFen: 4_999, topupFen: 0, balanceFen: 0 });
    expect(s.totals.amountFen).toBe(d.totals.amountFen);
    expect(s.totals.topupFen).toBe(await ledger(['topup']));
    // the chart puts each line on the day before its run ended: 15 Oct (the run ending 16 Oct 00:00) and 31 Oct
    expect(s.chart!.series.amountFen![14]).toBe(5_000 + 1_100 + 1_500 + 10_000);
    expect(s.chart!.series.amountFen![30]).toBe(550 + 6_000 + 4_000 + 4_999);
  });

  it('accountingPeriod_n and ladderReport_n: per account and period, tier by tier', async () => {
    const a2 = await report('accountingPeriod_n');
    // 甲 2026-10: 130 kWh (ladder), 126.50 元; the ladder lines are on an issued bill, the share line is not on a bill
    expect(byName(a2, '甲')).toMatchObject({ period: '2026-10', quantity: 130, amountFen: 12_650, billStatus: '待缴费、未出账' });
    expect(byName(a2, '乙')).toMatchObject({ period: '2026-10', quantity: 0, amountFen: 15_500, billStatus: '已缴费、未出账' });
    expect(byName(a2, '丙')).toMatchObject({ period: '2026-10', amountFen: 4_999, billStatus: '未出账' });
    expect(a2.totals.amountFen).toBe(33_149);
    const l = await report('ladderReport_n');
    expect(l.rows).toEqual([expect.objectContaining({ accountName: '甲', period: '2026-10', tier1: 100, tier1Fen: 5_000, tier2: 30, tier2Fen: 1_650, tier3: 0, tier3Fen: 0, amountFen: 6_650 })]);
    expect(l.totals).toMatchObject({ tier1: 100, tier1Fen: 5_000, tier2: 30, tier2Fen: 1_650, amountFen: 6_650 });
  });

  it('shareReport_n: the shares add up to the cost (差额 0), and a fen not placed shows', async () => {
    const p = await report('shareReport_n');
    const east = p.rows.find((r) => r.teamName === '东区')!;
    const west = p.rows.find((r) => r.teamName === '西区')!;
    // 东区: 100 kWh × 1.00 = 100.00 = 60.00 + 40.00
    expect(east).toMatchObject({ members: 2, totalUse: 100, costFen: 10_000, publicFen: 0, sharedFen: 10_000, differenceFen: 0, check: '一致' });
    // 西区: 50 kWh × 1.00 = 50.00, shared 49.99 → 差额 −0.01
    expect(west).toMatchObject({ members: 1, totalUse: 50, costFen: 5_000, sharedFen: 4_999, differenceFen: -1, check: '不符' });
    expect(p.totals).toMatchObject({ costFen: 15_000, sharedFen: 14_999, differenceFen: -1 });
    const alloc = await report('billingDataAllocation_n');
    expect(alloc.rows.map((r) => [r.teamName, r.accountName, r.ratio, r.amountFen]).sort()).toEqual([['东区', '乙', 0.4, 4_000], ['东区', '甲', 0.6, 6_000], ['西区', '丙', 1, 4_999]].sort());
    expect(alloc.totals.amountFen).toBe(14_999);
    expect(alloc.rows.find((r) => r.accountName === '甲')!.basis).toBe('面积 80.00 m²，当量 6 h');
  });

  it('charges per device type: the air-conditioning terminal, the heat meter with its readings', async () => {
    const air = await report('airconcostdata');
    expect(air.rows.map((r) => [r.deviceName, r.accountName, r.quantity, r.unit, r.amountFen])).toEqual([['乙空调', '乙', 12.5, 'h', 1_500]]);
    const heat = await report('calorimeterchargedata');
    expect(heat.rows.map((r) => [r.deviceName, r.startValue, r.endValue, r.quantity, r.amountFen])).toEqual([['乙热表', 10, 12.5, 2.5, 10_000]]);
    const ag = await report('ag2420chargedata');
    expect(ag.rows).toEqual([]);
  });

  it('export: the .xlsx holds the on-screen rows and totals of the same filter', async () => {
    const screen = await report('payReport_n');
    const file = await download(k, `/api/v1/datacenter/payReport_n/export?projectId=${a.projectId}&from=${T0}&to=${T1}`, token);
    expect(file.status).toBe(200);
    const lines = await xlsxText(file.raw as Buffer);
    const yuan = (fen: number) => String(Number(fenToYuan(fen)));
    for (const r of screen.rows) {
      const cells = [r.accountName, r.rooms, ...(['openingFen', 'topupFen'] as const).map((key) => yuan(Number(r[key]))), String(r.topups), ...(['chargeFen', 'refundFen', 'closingFen'] as const).map((key) => yuan(Number(r[key])))];
      expect(lines).toContain(cells.join('|'));
    }
    expect(lines.find((l) => l.startsWith('合计（2 条）'))).toBe(`合计（2 条）||100|100|3|12.34|10|177.66`);
  });

  it('ledger_day equals the entries (核对账目), and a tampered day is reported', async () => {
    const ok = await data('GET', `/api/v1/account/reconcile?projectId=${a.projectId}`);
    expect(ok.rows).toEqual([]);
    const days = await k.db.selectFrom('ledger_day').selectAll().where('account_id', '=', acc.a2).where('kind', '=', 'topup').where('method', '=', 'cash').orderBy('day').execute();
    // 31 Oct (20.00) and 1 Nov (7.00): the edge entries are two CST days apart in the roll-up
    expect(days.map((d) => [Number(d.day), Number(d.count), Number(d.sum_fen)])).toEqual([[localMidnight('2026-10-31'), 1, 2_000], [T1, 1, 700]]);
    await k.db.updateTable('ledger_day').set({ sum_fen: 2_001 }).where('id', '=', days[0]!.id).execute();
    const bad = await data('GET', `/api/v1/account/reconcile?projectId=${a.projectId}`);
    expect(bad.rows).toEqual([expect.objectContaining({ issue: 'day_rollup_mismatch', accountId: acc.a2, expectedFen: 2_000, actualFen: 2_001 })]);
    await k.db.updateTable('ledger_day').set({ sum_fen: 2_000 }).where('id', '=', days[0]!.id).execute();
  });

  it('another tenant cannot read the project\'s money reports', async () => {
    const res = await k.call('GET', `/api/v1/datacenter/payReport_n?projectId=${a.projectId}`, { token: tokenB });
    expect(res.body.code).toBe(40400);
  });
});
