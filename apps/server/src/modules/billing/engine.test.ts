import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TARIFF, localMidnight, type BillLineRow, type TariffBody } from '@kelvin/contracts';
import { createArea, startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../../test/harness.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';

/**
 * The engine end to end on real tables: readings in device history → runs → lines with their readings → ledger
 * charges (prepaid) or expense bills (postpaid). Every expected figure is worked out by hand next to the case.
 */

const CODES = [
  'equipmentBilling_n', 'equipmentBilling_n:btn_add', 'equipmentBilling_n:btn_edit', 'equipmentBilling_n:export', 'expensebill', 'expensebill:btn_add', 'expensebill:btn_edit',
  'projectpara', 'projectpara:btn_edit', 'groupexpsshare', 'groupexpsshare:btn_add', 'groupexpsshare:btn_edit', 'devicerelation', 'devicerelation:btn_add',
  'userRegister_n', 'userRegister_n:btn_add', 'userRegister_n:topup', 'userRegister_n:settle', 'userPayFeeUpper', 'userPayFeeUpper:btn_edit',
];
const H = 3_600_000;
/** 2026-10-01 00:00 in Shanghai: a Thursday, in a period that has ended */
const T0 = localMidnight('2026-10-01');

let k: TestClient;
let a: TenantWithProject;
let b: TenantWithProject;
let token: string;
let tokenB: string;
let seq = 0;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, t = token, headers: Record<string, string> = {}) => k.call(method, url, { token: t, body, headers });
async function data(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, t = token, headers: Record<string, string> = {}) {
  const res = await call(method, url, body, t, headers);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const key = () => ({ 'idempotency-key': `engine-${crypto.randomUUID()}` });

/** a fresh project of tenant A with the given tariff (effective a day before T0) */
async function project(tariff: Partial<TariffBody>, projectType = 'PT2010') {
  const projectId = await createArea(k.db, { tenantId: a.tenantId, parentId: a.regionId, level: 'project', name: `计费项目${++seq}`, projectType, projectType2: 101 });
  const buildingId = await createArea(k.db, { tenantId: a.tenantId, parentId: projectId, level: 'building', name: '1号楼' });
  await data('POST', `/api/v1/billing/tariff/${projectId}`, { ...DEFAULT_TARIFF, effectiveFrom: T0 - 24 * H, remark: '', ...tariff });
  return { projectId, buildingId };
}
/** a room with a device and an account opened at `openedAt`, topped up with `balanceFen` */
async function resident(p: { projectId: number; buildingId: number }, type: string, opts: { balanceFen?: number; area?: number; openedAt?: number } = {}) {
  const room = await createArea(k.db, { tenantId: a.tenantId, parentId: p.buildingId, level: 'room', name: `${++seq}室` });
  if (opts.area) await k.db.updateTable('area').set({ floor_area: opts.area }).where('id', '=', room).execute();
  const device = await createTestDevice(k, { tenantId: a.tenantId, projectId: p.projectId, areaId: room, type, name: `设备${seq}` });
  const acc = await data('POST', '/api/v1/account', { projectId: p.projectId, name: `住户${seq}`, phone: '13800138000', roomIds: [room] });
  await k.db.updateTable('account').set({ created_at: opts.openedAt ?? T0 }).where('id', '=', acc.id).execute();
  if (opts.balanceFen) await data('POST', `/api/v1/account/${acc.id}/topup`, { amountFen: opts.balanceFen, method: 'cash' }, token, key());
  return { accountId: acc.id as number, deviceId: device.id, device, room };
}
/** readings straight into the history (what the ingest would have stored) */
async function readings(deviceId: number, rows: [ts: number, fields: Record<string, number>][]) {
  const values = rows.flatMap(([ts, fields]) => Object.entries(fields).map(([field_code, num]) => ({ device_id: deviceId, field_code, ts, num, txt: null })));
  await k.db.insertInto('device_history').values(values).execute();
}
const balance = async (id: number) => Number((await k.db.selectFrom('account').select('balance_fen').where('id', '=', id).executeTakeFirstOrThrow()).balance_fen);
const run = (projectId: number, until: number) => data('POST', '/api/v1/billing/run', { projectId, until });
const lines = async (q: string) => (await data('GET', `/api/v1/billing/lines?pageSize=200&${q}`)).rows as BillLineRow[];

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, b, tokenA: token, tokenB } = await twoTenants(k, 'bill', CODES, ['PT2010', 'PT2010']));
});
afterAll(async () => k?.close());

describe('billing engine', () => {
  it('prepaid time equivalent: T_eq = Σ k × t from the run-time counters, charged once per run', async () => {
    const p = await project({ scheme: 1, price: '1.2000', k: { low: '0.6', mid: '0.8', high: '1' } });
    const r1 = await resident(p, 'device20030', { balanceFen: 500_000 });
    const r2 = await resident(p, 'device20030', { balanceFen: 300 });
    // r1: low 100→110 (10 h), mid 200→205 (5 h), high 50→52.5 (2.5 h): 0.6×10 + 0.8×5 + 1×2.5 = 6 + 4 + 2.5 = 12.5 h × 1.20 = 15.00 元 = 1500 fen
    await readings(r1.deviceId, [[T0 - 60_000, { f20: 100, f21: 200, f22: 50 }], [T0 + H / 2, { f20: 104, f21: 201, f22: 51 }], [T0 + H, { f20: 110, f21: 205, f22: 52.5 }]]);
    // r2: low 0→2, mid 0→1: 0.6×2 + 0.8×1 = 1.2 + 0.8 = 2 h × 1.20 = 2.40 元 = 240 fen (balance 300 → 60)
    await readings(r2.deviceId, [[T0 - 60_000, { f20: 0, f21: 0, f22: 0 }], [T0 + H, { f20: 2, f21: 1, f22: 0 }]]);

    const first = await run(p.projectId, T0 + H);
    expect(first).toMatchObject({ accounts: 2, lines: 2, totalFen: 1740 });
    expect(await balance(r1.accountId)).toBe(498_500);
    expect(await balance(r2.accountId)).toBe(60);
    const [line] = await lines(`runId=${first.runId}&accountId=${r1.accountId}`);
    expect(line).toMatchObject({ quantity: 12.5, unitPrice: '1.2000', amountFen: 1500, deviceId: r1.deviceId });
    expect(line!.readings.find((x) => x.fieldCode === 'f20')).toMatchObject({ startValue: 100, startTs: T0 - 60_000, endValue: 110, endTs: T0 + H });

    // the same period again adds nothing; the next period starts from this run's end readings
    expect(await run(p.projectId, T0 + H)).toEqual(first);
    expect(await balance(r1.accountId)).toBe(498_500);
    await readings(r1.deviceId, [[T0 + 2 * H, { f20: 111, f21: 205, f22: 52.5 }]]);
    // 1 h low: 0.6 × 1 = 0.6 h × 1.20 = 0.72 元
    const second = await run(p.projectId, T0 + 2 * H);
    expect(second.runId).not.toBe(first.runId);
    expect(await lines(`runId=${second.runId}`)).toMatchObject([{ quantity: 0.6, amountFen: 72 }]);
    // r2 sent nothing in the second hour: reported on the run, not billed as zero silently
    const detail = await data('GET', `/api/v1/billing/runs/${second.runId}`);
    expect(detail.gaps.some((g: { deviceId: number; kind: string }) => g.deviceId === r2.deviceId && g.kind === 'noReading')).toBe(true);
    // the ledger names the engine and the run
    const entry = await k.db.selectFrom('ledger_entry').selectAll().where('account_id', '=', r1.accountId).where('kind', '=', 'charge').orderBy('id').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ amount_fen: -1500, actor_name: '计费引擎', cause_type: 'billing_run', cause_id: String(first.runId) });
  });

  it('TOU across midnight and a price change mid-period: each hour at the price of its period and version', async () => {
    const tou = {
      enabled: true, holidayKind: null,
      periods: [{ start: '08:00', end: '22:00', kind: 'peak' as const }, { start: '22:00', end: '08:00', kind: 'valley' as const }],
      prices: { peak: '2.0000', flat: '1.0000', valley: '0.5000' },
    };
    const p = await project({ scheme: 1, k: { low: '1', mid: '1', high: '1' }, tou });
    const r = await resident(p, 'device20030', { balanceFen: 100_000, openedAt: T0 });
    // from 00:00 on 10-02 the valley price is 1.00
    await data('POST', `/api/v1/billing/tariff/${p.projectId}`, { ...DEFAULT_TARIFF, scheme: 1, k: { low: '1', mid: '1', high: '1' }, tou: { ...tou, prices: { ...tou.prices, valley: '1.0000' } }, effectiveFrom: T0 + 24 * H, remark: '谷价调整' });
    // one mid-speed hour per hour from 21:00 to 01:00
    const at = (h: number) => T0 + h * H;
    await readings(r.deviceId, [[at(21), { f20: 0, f21: 0, f22: 0 }], [at(22), { f21: 1 }], [at(23), { f21: 2 }], [at(24), { f21: 3 }], [at(25), { f21: 4 }]]);
    const res = await run(p.projectId, at(25));
    // 21–22 peak 1 h × 2.00 = 200; 22–24 valley 2 h × 0.50 = 100 (old version); 00–01 valley 1 h × 1.00 = 100 (new version) → 400
    expect(res.totalFen).toBe(400);
    const ls = await lines(`runId=${res.runId}`);
    expect(ls.map((l) => [l.quantity, l.unitPrice, l.amountFen]).sort()).toEqual([[1, '1.0000', 100], [1, '2.0000', 200], [2, '0.5000', 100]].sort());
  });

  it('metered heat: a replaced meter counts from its first reading, a silence is reported, a silent meter is not billed', async () => {
    const p = await project({ scheme: 5, price: '85.0000' }, 'PT4010');
    const r = await resident(p, 'calorimeter', { balanceFen: 100_000 });
    const quiet = await resident(p, 'calorimeter', { balanceFen: 100_000 });
    // 12.500 → 12.600 (0.1), replaced: 0.010 (not counted), → 0.060 (0.05), silence 3 h → 8 h, → 0.160 (0.1): 0.25 GJ × 85 = 21.25 元 = 2125 fen
    await readings(r.deviceId, [[T0, { f60: 12.5 }], [T0 + H, { f60: 12.6 }], [T0 + 2 * H, { f60: 0.01 }], [T0 + 3 * H, { f60: 0.06 }], [T0 + 8 * H, { f60: 0.16 }]]);
    const res = await run(p.projectId, T0 + 8 * H);
    expect(res).toMatchObject({ accounts: 1, lines: 1, totalFen: 2125 });
    const detail = await data('GET', `/api/v1/billing/runs/${res.runId}`);
    const kinds = detail.gaps.map((g: { deviceId: number; kind: string; from: number; to: number }) => [g.deviceId, g.kind, g.from, g.to]);
    expect(kinds).toContainEqual([r.deviceId, 'reset', T0 + 2 * H, T0 + 2 * H]);
    expect(kinds).toContainEqual([r.deviceId, 'stale', T0 + 3 * H, T0 + 8 * H]);
    expect(kinds).toContainEqual([quiet.deviceId, 'noReading', T0, T0 + 8 * H]);
    expect(await balance(quiet.accountId)).toBe(100_000);
  });

  it('postpaid ladder: a reading across the tier boundary is split; the period closes into bills that are paid', async () => {
    const p = await project({ scheme: 8, price: '0.5283' }, 'PT5010');
    const r = await resident(p, 'device20090', { balanceFen: 200_000 });
    await readings(r.deviceId, [[T0, { f70: 1000 }], [T0 + H, { f70: 3800 }], [T0 + 2 * H, { f70: 4000 }]]);
    // hour 1: 2800 kWh in tier 1 × 0.5283 = 1479.24 元 = 147924 fen (postpaid: nothing leaves the balance)
    expect((await run(p.projectId, T0 + H)).totalFen).toBe(147_924);
    // hour 2: 200 kWh after 2800: 80 × 0.5283 = 42.264 → 4226; 120 × 0.5783 = 69.396 → 6940; 11166 fen
    const second = await run(p.projectId, T0 + 2 * H);
    expect(second.totalFen).toBe(11_166);
    expect((await lines(`runId=${second.runId}`)).map((l) => [l.label, l.quantity, l.unitPrice, l.amountFen])).toEqual([['2026 第1档', 80, '0.5283', 4226], ['2026 第2档', 120, '0.5783', 6940]]);
    expect(await balance(r.accountId)).toBe(200_000);

    // close October: one bill of 147924 + 11166 = 159090 fen; issuing again adds nothing
    expect(await data('POST', '/api/v1/billing/bills/issue', { projectId: p.projectId, period: '2026-10' })).toEqual({ issued: 1, totalFen: 159_090 });
    expect(await data('POST', '/api/v1/billing/bills/issue', { projectId: p.projectId, period: '2026-10' })).toEqual({ issued: 0, totalFen: 0 });
    const bills = await data('GET', `/api/v1/billing/bills?projectId=${p.projectId}`);
    expect(bills.rows).toMatchObject([{ accountId: r.accountId, period: '2026-10', amountFen: 159_090, status: 'issued' }]);
    // the bill's lines: both runs' (its detail drawer)
    expect((await lines(`billId=${bills.rows[0].id}`)).map((l) => l.amountFen).sort()).toEqual([147_924, 4226, 6940].sort());
    // paid from the balance: one charge however often the request is retried
    const k1 = key();
    await data('POST', `/api/v1/billing/bills/${bills.rows[0].id}/pay`, { method: 'balance' }, token, k1);
    await data('POST', `/api/v1/billing/bills/${bills.rows[0].id}/pay`, { method: 'balance' }, token, k1);
    expect(await balance(r.accountId)).toBe(200_000 - 159_090);
    expect((await data('GET', `/api/v1/billing/bills?projectId=${p.projectId}&status=paid`)).total).toBe(1);
    // the schedule issues a closed period by itself (here nothing is left: October was issued by hand)
    expect(await k.kelvin.billing.service.issueClosedPeriod(p.projectId)).toEqual({ issued: 0, totalFen: 0 });
    // a prepaid project does not issue bills
    const prepaid = await project({ scheme: 1 });
    expect((await call('POST', '/api/v1/billing/bills/issue', { projectId: prepaid.projectId, period: '2026-10' })).body.code).toBe(40000);
  });

  it('move-out of a postpaid account: the settlement bills up to now and collects the use not yet on a paid bill', async () => {
    const p = await project({ scheme: 2, price: '1.0000', k: { low: '1', mid: '1', high: '1' } });
    const r = await resident(p, 'device20030', { balanceFen: 10_000 });
    // 12 h × 1.00 = 12.00 元 of postpaid use, not billed yet
    await readings(r.deviceId, [[T0, { f20: 0, f21: 0, f22: 0 }], [T0 + H, { f21: 12 }]]);
    const preview = await data('GET', `/api/v1/account/${r.accountId}/leave/check`);
    expect(preview).toMatchObject({ balanceFen: 10_000, unbilledFen: 1200, netFen: 8800 });
    expect(preview.unbilledNote).toMatch(/后付费/);
    const done = await data('POST', `/api/v1/account/${r.accountId}/leave/clean`, { depositDeductFen: 0, reason: '退租', expectedNetFen: 8800 }, token, key());
    expect(done).toMatchObject({ refundedBalanceFen: 8800, status: 'closed' });
    // the lines carry the settlement's charge: closing October later bills nothing twice
    const open = await k.db.selectFrom('billing_line').select('id').where('account_id', '=', r.accountId).where('entry_id', 'is', null).execute();
    expect(open).toEqual([]);
    expect(await data('POST', '/api/v1/billing/bills/issue', { projectId: p.projectId, period: '2026-10' })).toEqual({ issued: 0, totalFen: 0 });
  });

  it('the schedule issues the bills of a postpaid period once it has closed', async () => {
    const p = await project({ scheme: 2, price: '1.0000', k: { low: '1', mid: '1', high: '1' } });
    const r = await resident(p, 'device20030');
    // 3 h × 1.00 in October → 3.00 元 on the October bill, issued by the schedule (November is still open)
    await readings(r.deviceId, [[T0, { f20: 0, f21: 0, f22: 0 }], [T0 + H, { f21: 3 }]]);
    expect(await k.kelvin.billing.service.issueClosedPeriod(p.projectId)).toEqual({ issued: 1, totalFen: 300 });
    expect(await k.kelvin.billing.service.issueClosedPeriod(p.projectId)).toEqual({ issued: 0, totalFen: 0 });
    expect((await data('GET', `/api/v1/billing/bills?projectId=${p.projectId}`)).rows).toMatchObject([{ period: '2026-10', amountFen: 300, status: 'issued' }]);
  });

  it('cost share by time equivalent: (C − C_public) by equivalent, C_public by area, shares adding up to the fen', async () => {
    const p = await project({ scheme: 9, price: '1.0000', k: { low: '1', mid: '1', high: '1' } });
    const members = [await resident(p, 'device20030', { balanceFen: 100_000, area: 1 }), await resident(p, 'device20030', { balanceFen: 100_000, area: 1 }), await resident(p, 'device20030', { balanceFen: 100_000, area: 1 })];
    const total = await createTestDevice(k, { tenantId: a.tenantId, projectId: p.projectId, areaId: p.buildingId, type: 'device20090', name: '冷站总表' });
    const pub = await createTestDevice(k, { tenantId: a.tenantId, projectId: p.projectId, areaId: p.buildingId, type: 'device20090', name: '公区表' });
    const team = await data('POST', '/api/v1/billing/shareteam', { projectId: p.projectId, name: '1号楼分摊', remark: '' });
    await data('POST', '/api/v1/billing/sharegroup', { shareTeamId: team.id, accountIds: members.map((m) => m.accountId) });
    await data('POST', '/api/v1/billing/devicerelation', { shareTeamId: team.id, deviceIds: [total.id], role: 'total' });
    await data('POST', '/api/v1/billing/devicerelation', { shareTeamId: team.id, deviceIds: [pub.id], role: 'public' });
    // plant: 100 kWh × 1.00 = 10000 fen; public area: 10 kWh = 1000 fen; members 1 h each, 1 m² each
    await readings(total.id, [[T0, { f70: 500 }], [T0 + H, { f70: 600 }]]);
    await readings(pub.id, [[T0, { f70: 50 }], [T0 + H, { f70: 60 }]]);
    for (const m of members) await readings(m.deviceId, [[T0, { f20: 0, f21: 0, f22: 0 }], [T0 + H, { f21: 1 }]]);
    const res = await run(p.projectId, T0 + H);
    // 9000 by equivalent 1:1:1 → 3000 each; 1000 by area 1:1:1 → 334/333/333 (largest remainder, input order) → 3334 + 3333 + 3333 = 10000
    expect(res.totalFen).toBe(10_000);
    expect((await lines(`runId=${res.runId}`)).map((l) => [l.accountId, l.amountFen]).sort()).toEqual(
      [[members[0]!.accountId, 3334], [members[1]!.accountId, 3333], [members[2]!.accountId, 3333]].sort(),
    );
    // each line keeps what its share was computed from, and the readings of the member's own device
    const first = (await lines(`runId=${res.runId}&accountId=${members[0]!.accountId}`))[0]!;
    expect(first.basis).toEqual({ team: '1号楼分摊', area: 1, equivalent: 1, deviceIds: [members[0]!.deviceId] });
    expect(first.readings.find((x) => x.fieldCode === 'f21')).toMatchObject({ deviceId: members[0]!.deviceId, startValue: 0, endValue: 1 });
  });

  it('on/off-time-area: the building heat placed by area × valve-open hours; each line keeps its area, hours and readings', async () => {
    const p = await project({ scheme: 18, price: '85.0000' }, 'PT1013');
    const big = await resident(p, 'deviceAG2410', { area: 50 });
    const small = await resident(p, 'deviceAG2410', { area: 100 });
    const meter = await createTestDevice(k, { tenantId: a.tenantId, projectId: p.projectId, areaId: p.buildingId, type: 'calorimeter', name: '楼栋热表' });
    const team = await data('POST', '/api/v1/billing/shareteam', { projectId: p.projectId, name: '楼栋分摊', remark: '' });
    await data('POST', '/api/v1/billing/sharegroup', { shareTeamId: team.id, accountIds: [big.accountId, small.accountId] });
    await data('POST', '/api/v1/billing/devicerelation', { shareTeamId: team.id, deviceIds: [meter.id], role: 'total' });
    // Q = 10 GJ; A × t: 50 × 2 = 100 and 100 × 1 = 100 → 5 GJ each × 85.00 = 425.00 元
    await readings(meter.id, [[T0, { f60: 100 }], [T0 + 2 * H, { f60: 110 }]]);
    await readings(big.deviceId, [[T0, { f30: 10 }], [T0 + 2 * H, { f30: 12 }]]);
    await readings(small.deviceId, [[T0, { f30: 20 }], [T0 + 2 * H, { f30: 21 }]]);
    const res = await run(p.projectId, T0 + 2 * H);
    expect(res.totalFen).toBe(85_000);
    const rows = await lines(`runId=${res.runId}&accountId=${big.accountId}`);
    expect(rows.map((l) => [l.quantity, l.unitPrice, l.amountFen])).toEqual([[5, '85.0000', 42_500]]);
    expect(rows[0]!.basis).toEqual({ team: '楼栋分摊', area: 50, hours: 2, deviceIds: [big.deviceId] });
    expect(rows[0]!.readings).toEqual([{ deviceId: big.deviceId, fieldCode: 'f30', startTs: T0, startValue: 10, endTs: T0 + 2 * H, endValue: 12 }]);

    // the next hour no valve opens but the building takes 1.5 GJ: split by area 50 : 100 → 0.5 / 1 GJ × 85.00 =
    // 42.50 + 85.00 = 127.50 元 (not dropped), and the run says so
    await readings(meter.id, [[T0 + 3 * H, { f60: 111.5 }]]);
    await readings(big.deviceId, [[T0 + 3 * H, { f30: 12 }]]);
    await readings(small.deviceId, [[T0 + 3 * H, { f30: 21 }]]);
    const idle = await run(p.projectId, T0 + 3 * H);
    expect(idle.totalFen).toBe(12_750);
    expect((await lines(`runId=${idle.runId}`)).map((l) => [l.accountId, l.quantity, l.amountFen]).sort()).toEqual([[big.accountId, 0.5, 4250], [small.accountId, 1, 8500]].sort());
    expect((await data('GET', `/api/v1/billing/runs/${idle.runId}`)).gaps.map((g: { kind: string }) => g.kind)).toContain('byArea');
  });

  it('the prepaid loop: warnings, cut-off through the device core, reconnect after a top-up', async () => {
    const p = await project({ scheme: 1, price: '1.0000', k: { low: '1', mid: '1', high: '1' } });
    const r = await resident(p, 'device20030', { balanceFen: 6000 });
    await data('PUT', `/api/v1/account/settings/${p.projectId}`, { topupMaxFen: null, balanceMaxFen: null, refundApprovalFen: 10_000, warning1Fen: 5000, warning2Fen: 2000, overdraftFen: 0 });
    // 70 h × 1.00 = 70.00 元: 60.00 → −10.00: warning 1, warning 2 and cut-off in one posting
    await readings(r.deviceId, [[T0, { f20: 0, f21: 0, f22: 0 }], [T0 + H, { f21: 70 }]]);
    await run(p.projectId, T0 + H);
    expect(await balance(r.accountId)).toBe(-1000);
    // the loop runs after the charge committed (or, had this process died, the sweep would pick the events up)
    await k.kelvin.billing.prepaid.sweep(Date.now() + 10_000);
    await expect.poll(async () => (await data('GET', `/api/v1/billing/supply?accountId=${r.accountId}`)).rows[0]?.commandId ?? null).not.toBeNull();
    const supply = await data('GET', `/api/v1/billing/supply?accountId=${r.accountId}`);
    expect(supply.rows).toMatchObject([{ deviceId: r.deviceId, action: 'cutoff', status: 'pending', attempts: 1 }]);
    const cmd = await k.db.selectFrom('device_command').selectAll().where('id', '=', supply.rows[0].commandId).executeTakeFirstOrThrow();
    expect(cmd).toMatchObject({ device_id: r.deviceId, field_code: 'f00', value: '0' });
    const sms = async () => (await k.db.selectFrom('sms_record').select('kind').where('tenant_id', '=', a.tenantId).where('project_id', '=', p.projectId).execute()).map((x) => x.kind).sort();
    await expect.poll(sms).toEqual(['cut_off', 'low_balance', 'low_balance']);
    // the device acknowledges: the action is done
    await k.kelvin.devices.commands.acknowledge(r.deviceId, { id: cmd.id, ok: true, error: null });
    await expect.poll(async () => (await data('GET', `/api/v1/billing/supply?accountId=${r.accountId}`)).rows[0].status).toBe('acked');
    // switched on at the wall while in arrears: switched off again, and the action says why
    k.kelvin.billing.prepaid.onReport({ deviceId: r.deviceId, deviceType: 'device20030', points: [{ code: 'f00', num: 1 }] });
    await expect.poll(async () => (await data('GET', `/api/v1/billing/supply?accountId=${r.accountId}`)).rows[0]).toMatchObject({ status: 'pending', attempts: 2, lastError: expect.stringMatching(/本地开启/) });
    const again = await k.db.selectFrom('device_command').selectAll().where('device_id', '=', r.deviceId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(again).toMatchObject({ field_code: 'f00', value: '0' });
    expect(again.id).not.toBe(cmd.id);
    // a top-up back above the line switches it on again
    await data('POST', `/api/v1/account/${r.accountId}/topup`, { amountFen: 5000, method: 'cash' }, token, key());
    await k.kelvin.billing.prepaid.sweep(Date.now() + 10_000);
    await expect.poll(async () => {
      const rows = (await data('GET', `/api/v1/billing/supply?accountId=${r.accountId}`)).rows;
      return rows.length === 2 && rows[0].commandId !== null;
    }).toBe(true);
    const after = await data('GET', `/api/v1/billing/supply?accountId=${r.accountId}`);
    expect(after.rows[0]).toMatchObject({ action: 'reconnect', status: 'pending' });
    const on = await k.db.selectFrom('device_command').selectAll().where('id', '=', after.rows[0].commandId).executeTakeFirstOrThrow();
    expect(on).toMatchObject({ field_code: 'f00', value: '1' });
    // a device that rejects is retried later, and listed
    await k.kelvin.devices.commands.acknowledge(r.deviceId, { id: on.id, ok: false, error: '设备忙' });
    await expect.poll(async () => (await data('GET', `/api/v1/billing/supply?accountId=${r.accountId}&status=failed`)).total).toBe(1);
    // sent again; its acknowledgement reaches the database unseen by this process (another process took it, or it came
    // before the action named its command): the sweep settles the action from the command's own status
    await k.kelvin.billing.prepaid.retry(after.rows[0].id);
    const retried = (await data('GET', `/api/v1/billing/supply?accountId=${r.accountId}`)).rows[0];
    expect(retried).toMatchObject({ action: 'reconnect', status: 'pending', attempts: 2 });
    expect(retried.commandId).not.toBe(on.id);
    await k.db.updateTable('device_command').set({ status: 'acked', finished_at: Date.now() }).where('id', '=', retried.commandId).execute();
    await k.kelvin.billing.prepaid.sweep();
    expect((await data('GET', `/api/v1/billing/supply?accountId=${r.accountId}`)).rows[0]).toMatchObject({ id: retried.id, status: 'acked', lastError: null });
  });

  it('tenancy and bad input: another tenant sees nothing, a bad quote changes nothing', async () => {
    const p = await project({ scheme: 1 });
    expect((await call('POST', '/api/v1/billing/run', { projectId: p.projectId }, tokenB)).body.code).toBe(40400);
    expect((await call('GET', `/api/v1/billing/lines?projectId=${p.projectId}`, undefined, tokenB)).body.code).toBe(40400);
    expect((await call('GET', '/api/v1/billing/lines', undefined, tokenB)).body.data.total).toBe(0);
    const bad = await call('POST', '/api/v1/billing/quote', { method: 'ladder', params: { price: '0.12345', tiers: [] }, inputs: { usedBefore: 0, use: 1 } });
    expect(bad.body.code).toBe(40000);
    expect(bad.body.msg).toMatch(/电价须为不超过 4 位小数/);
    expect((await data('POST', '/api/v1/billing/quote', { method: 'timeEquivalent', params: { price: '1.20', k: { low: '0.6', mid: '0.8', high: '1' } }, inputs: { hours: { low: 10, mid: 5, high: 2.5 } } })).totalFen).toBe(1500);
    void b;
  });
});
