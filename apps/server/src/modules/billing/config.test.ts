import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TARIFF, type TariffBody } from '@kelvin/contracts';
import { tenantWithAdmin, type TenantFixture } from '../admin/fixtures.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';
import { createArea, startTestKelvin, type TestClient } from '../../test/harness.ts';
import type { BillingConfig } from './config.ts';

let k: TestClient;
let A: TenantFixture;
let B: TenantFixture;
let engine: BillingConfig;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, body?: unknown, token = A.token) => k.call(method, url, { token, body });
async function data(method: Method, url: string, body?: unknown, token = A.token) {
  const res = await call(method, url, body, token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
/** A refused call: the code, the message, and not a row changed in the billing tables. */
async function refused(method: Method, url: string, body: unknown, code: number, msg?: string | RegExp, token = A.token) {
  const before = await billingRows();
  const res = await call(method, url, body, token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(code);
  if (msg) expect(res.body.msg).toMatch(msg);
  expect(await billingRows()).toEqual(before);
  return res.body;
}
const BILLING_TABLES = ['billing_tariff', 'billing_device_param', 'billing_share_team', 'billing_share_member', 'billing_device_relation', 'billing_project_plan', 'billing_device_plan'] as const;
async function billingRows() {
  const out: Record<string, unknown[]> = {};
  for (const t of BILLING_TABLES) out[t] = await k.db.selectFrom(t).selectAll().orderBy('id').execute();
  out.area = await k.db.selectFrom('area').select(['id', 'billing_scheme']).orderBy('id').execute();
  return out;
}

let seq = 0;
const newProject = async (billingScheme?: number) =>
  createArea(k.db, { tenantId: A.tenantId, parentId: A.regionId, level: 'project', name: `计费项目${++seq}`, projectType: 'PT2010', projectType2: 102, billingScheme });
const tariff = (over: Partial<TariffBody> & { effectiveFrom: number }): TariffBody => ({ ...structuredClone(DEFAULT_TARIFF), remark: '', ...over });
const saveTariff = (projectId: number, body: TariffBody, token = A.token) => data('POST', `/api/v1/billing/tariff/${projectId}`, body, token);
const device = async (projectId: number, name = `计费设备${++seq}`, type = 'device20030') => (await createTestDevice(k, { tenantId: A.tenantId, projectId, type, name })).id;
async function account(projectId: number, floorArea: number) {
  const building = await createArea(k.db, { tenantId: A.tenantId, parentId: projectId, level: 'building', name: `楼${++seq}` });
  const room = await createArea(k.db, { tenantId: A.tenantId, parentId: building, level: 'room', name: `${seq}01` });
  await k.db.updateTable('area').set({ floor_area: floorArea }).where('id', '=', room).execute();
  return (await data('POST', '/api/v1/account', { projectId, name: `住户${++seq}`, phone: '13800138000', roomIds: [room] })).id as number;
}

beforeAll(async () => {
  k = await startTestKelvin();
  A = await tenantWithAdmin(k, 'cfga');
  B = await tenantWithAdmin(k, 'cfgb');
  engine = k.kelvin.billing.config;
});
afterAll(() => k?.close());

describe('计费配置的版本', () => {
  it('a price change mid-period: the range holds both versions, each in force from its moment; the later save wins a tie', async () => {
    const p = await newProject(3);
    const now = Date.now();
    const t0 = now - 10 * DAY;
    const t1 = now - 5 * DAY;
    const v1 = await saveTariff(p, tariff({ scheme: 3, price: '1.0000', effectiveFrom: t0, remark: '初始' }));
    const v2 = await saveTariff(p, tariff({ scheme: 3, price: '2.0000', effectiveFrom: t1 }));
    expect(v1).toMatchObject({ projectId: p, scheme: 3, price: '1.0000', effectiveFrom: t0, remark: '初始', createdBy: A.username });
    expect(v2.id).toBeGreaterThan(v1.id);

    const range = await engine.tariffVersions(p, now - 7 * DAY, now);
    expect(range.map((v) => [v.id, v.effectiveFrom, v.doc.price])).toEqual([[v1.id, t0, '1.0000'], [v2.id, t1, '2.0000']]);
    // before anything was saved the project's default document is in force (its scheme from the project)
    const wide = await engine.tariffVersions(p, now - 20 * DAY, now);
    expect(wide.map((v) => v.id)).toEqual([0, v1.id, v2.id]);
    expect(wide[0]).toEqual({ id: 0, effectiveFrom: 0, doc: { ...DEFAULT_TARIFF, scheme: 3 } });
    // a version effective exactly at `from` is the one in force then, and not a change inside the range
    expect((await engine.tariffVersions(p, t1, now)).map((v) => v.id)).toEqual([v2.id]);

    expect((await engine.tariffAt(p, t1 - 1)).doc.price).toBe('1.0000');
    expect((await engine.tariffAt(p, t1)).doc.price).toBe('2.0000');
    expect((await engine.tariffAt(p, t0 - 1)).id).toBe(0);

    // saved again for the same moment: only the later save is ever in force
    const v3 = await saveTariff(p, tariff({ scheme: 3, price: '2.5000', effectiveFrom: t1 }));
    expect((await engine.tariffVersions(p, now - 7 * DAY, now)).map((v) => v.id)).toEqual([v1.id, v3.id]);
    expect((await engine.tariffAt(p, t1)).id).toBe(v3.id);

    expect(await data('GET', `/api/v1/billing/tariff/${p}`)).toMatchObject({ id: v3.id, price: '2.5000', createdBy: A.username });
    const history = await data('GET', `/api/v1/billing/tariff/${p}/versions`);
    expect(history.map((v: { id: number }) => v.id)).toEqual([v3.id, v2.id, v1.id]);
    expect(history[2]).toMatchObject({ remark: '初始', k: DEFAULT_TARIFF.k, tou: DEFAULT_TARIFF.tou, ladder: DEFAULT_TARIFF.ladder });
  });

  it('a project with nothing saved answers the default document with id 0', async () => {
    const p = await newProject(5);
    expect(await data('GET', `/api/v1/billing/tariff/${p}`)).toMatchObject({ ...DEFAULT_TARIFF, scheme: 5, id: 0, projectId: p, effectiveFrom: 0, createdBy: null });
    expect(await data('GET', `/api/v1/billing/tariff/${p}/versions`)).toEqual([]);
    const bare = await newProject();
    expect((await engine.tariffAt(bare, Date.now())).doc.scheme).toBe(1);
  });

  it('refuses a change earlier than the end of the last finished run, and accepts one from that moment', async () => {
    const p = await newProject(1);
    const until = Date.parse('2026-01-01T00:00:00+08:00');
    const now = Date.now();
    await k.db.insertInto('billing_run').values([
      { tenant_id: A.tenantId, project_id: p, scheme: 1, period_from: until - 30 * DAY, period_until: until, state: 'done', accounts: 0, lines: 0, total_fen: 0, gaps: '[]', trigger: 'test', started_at: now, finished_at: now },
      // a run still going does not fix its period yet
      { tenant_id: A.tenantId, project_id: p, scheme: 1, period_from: until, period_until: until + 30 * DAY, state: 'running', accounts: 0, lines: 0, total_fen: 0, gaps: '[]', trigger: 'test', started_at: now, finished_at: null },
    ]).execute();
    await refused('POST', `/api/v1/billing/tariff/${p}`, tariff({ effectiveFrom: until - 1 }), 40000, '生效时间不能早于已出账的截止时间 2026-01-01 00:00');
    const ok = await saveTariff(p, tariff({ scheme: 2, effectiveFrom: until }));
    expect(ok.effectiveFrom).toBe(until);
    // the same rule for device parameters and plans
    const d = await device(p);
    await refused('POST', '/api/v1/billing/deviceparams', { deviceIds: [d], chargeRate: '2', effectiveFrom: until - DAY }, 40000, '已出账的截止时间 2026-01-01 00:00');
    await refused('POST', '/api/v1/billing/projectplan', { projectId: p, name: '旧方案', meteringMethodType: 'heat', price: '80', effectiveFrom: until - DAY }, 40000, '已出账');
  });

  it('time-of-use periods and ladder tiers are checked with clear messages, and nothing is saved', async () => {
    const p = await newProject();
    const url = `/api/v1/billing/tariff/${p}`;
    const now = Date.now();
    const tou = (periods: TariffBody['tou']['periods'], enabled = true) => tariff({ effectiveFrom: now, tou: { ...DEFAULT_TARIFF.tou, enabled, periods } });
    await refused('POST', url, tou([{ start: '00:00', end: '12:00', kind: 'flat' }, { start: '11:00', end: '00:00', kind: 'peak' }]), 40000, '时段 1（00:00–12:00）与时段 2（11:00–00:00）重叠');
    // across midnight
    await refused('POST', url, tou([{ start: '22:00', end: '06:00', kind: 'valley' }, { start: '05:00', end: '22:00', kind: 'flat' }]), 40000, '重叠');
    await refused('POST', url, tou([{ start: '22:00', end: '06:00', kind: 'valley' }, { start: '08:00', end: '22:00', kind: 'flat' }]), 40000, '峰平谷时段须覆盖全天 24 小时，缺少 06:00–08:00');
    await refused('POST', url, tou([]), 40000, '启用峰平谷计价时请设置时段');
    await refused('POST', url, tou([{ start: '08:00', end: '08:00', kind: 'flat' }]), 40000, '时段 1（08:00–08:00）的开始时间与结束时间不能相同');
    // not enabled: gaps are fine, overlaps are not
    await saveTariff(p, tou([{ start: '08:00', end: '10:00', kind: 'peak' }], false));
    await refused('POST', url, tou([{ start: '08:00', end: '10:00', kind: 'peak' }, { start: '09:00', end: '11:00', kind: 'flat' }], false), 40000, '重叠');
    // enabled and whole: saved
    await saveTariff(p, tou([{ start: '22:00', end: '06:00', kind: 'valley' }, { start: '06:00', end: '22:00', kind: 'flat' }]));

    const ladder = (tiers: TariffBody['ladder']['tiers']) => tariff({ effectiveFrom: now, ladder: { cycle: 'year', startMonth: 1, tiers } });
    await refused('POST', url, ladder([{ upTo: 4800, add: '0' }, { upTo: 2880, add: '0.05' }, { upTo: null, add: '0.3' }]), 40000, '第 2 档阶梯上限（2880）须大于第 1 档（4800）');
    await refused('POST', url, ladder([{ upTo: null, add: '0' }, { upTo: null, add: '0.3' }]), 40000, '只有最后一档阶梯可以不设上限，请填写第 1 档的上限');
    await refused('POST', url, ladder([{ upTo: 2880, add: '0' }, { upTo: 4800, add: '0.3' }]), 40000, '最后一档阶梯不设上限');
    await saveTariff(p, ladder([{ upTo: null, add: '0' }]));
    // the contract's own checks answer in Chinese too
    await refused('POST', url, tariff({ effectiveFrom: now, price: '1.23456' }), 40000, '单价须为不超过 4 位小数的非负金额（元）');
  });

  it('projectBillingScheme reads the tariff in force: scheme 7 saved now answers 7 at once, a version for later changes nothing yet', async () => {
    const p = await newProject(1);
    const url = `/api/v1/area/projectpara/getpara/${p}/projectBillingScheme`;
    expect(await data('GET', url)).toEqual({ paraValue: 1 });
    await saveTariff(p, tariff({ scheme: 7, effectiveFrom: Date.now() }));
    expect(await data('GET', url)).toEqual({ paraValue: 7 });
    expect((await data('GET', `/api/v1/area/getproject/${p}`)).billingScheme).toBe(7);

    const later = await saveTariff(p, tariff({ scheme: 9, effectiveFrom: Date.now() + HOUR }));
    expect(await data('GET', url)).toEqual({ paraValue: 7 });
    expect((await data('GET', `/api/v1/area/getproject/${p}`)).billingScheme).toBe(7);
    expect((await data('GET', `/api/v1/billing/tariff/${p}`)).scheme).toBe(7);
    expect((await engine.tariffAt(p, Date.now() + 2 * HOUR)).id).toBe(later.id);

    // neither a tariff nor a scheme on the project: null
    expect(await data('GET', `/api/v1/area/projectpara/getpara/${await newProject()}/projectBillingScheme`)).toEqual({ paraValue: null });
  });
});

describe('设备计费参数', () => {
  it('each save is a version per device; fields not given carry forward; history newest first; defaults without any', async () => {
    const p = await newProject();
    const [d1, d2, d3] = [await device(p, '一号风盘'), await device(p, '二号风盘'), await device(p, '三号风机', 'device20020')];
    const now = Date.now();
    const t0 = now - 2 * DAY;
    const t1 = now - DAY;
    expect(await data('POST', '/api/v1/billing/deviceparams', { deviceIds: [d1, d2], chargeRate: '1.2', effectiveFrom: t0 })).toEqual({ updated: 2 });
    await data('POST', '/api/v1/billing/deviceparams', { deviceIds: [d1], ratedPower: '5', baseFeeFen: 1500, effectiveFrom: t1 });

    const at = await engine.deviceParamsAt([d1, d2, d3], now);
    expect(at.get(d1)).toEqual({ chargeRate: '1.2', ratedPower: '5', baseFeeFen: 1500 });
    expect(at.get(d2)).toEqual({ chargeRate: '1.2', ratedPower: '3.5', baseFeeFen: 0 });
    expect(at.get(d3)).toEqual({ chargeRate: '1', ratedPower: '3.5', baseFeeFen: 0 });
    expect((await engine.deviceParamsAt([d1], t1 - 1)).get(d1)).toEqual({ chargeRate: '1.2', ratedPower: '3.5', baseFeeFen: 0 });
    expect((await engine.deviceParamsAt([d1], t0 - 1)).get(d1)).toEqual({ chargeRate: '1', ratedPower: '3.5', baseFeeFen: 0 });

    const list = await data('GET', `/api/v1/billing/deviceparams?projectId=${p}&deviceType=device20030`);
    expect(list.total).toBe(2);
    expect(list.rows.find((r: { deviceId: number }) => r.deviceId === d1)).toMatchObject({ deviceName: '一号风盘', chargeRate: '1.2', ratedPower: '5', baseFeeFen: 1500, effectiveFrom: t1, updatedBy: A.username });
    const byKeyword = await data('GET', `/api/v1/billing/deviceparams?projectId=${p}&keyword=${encodeURIComponent('风机')}`);
    expect(byKeyword.rows.map((r: { deviceId: number }) => r.deviceId)).toEqual([d3]);
    expect(byKeyword.rows[0]).toMatchObject({ chargeRate: '1', effectiveFrom: null, updatedBy: null });

    const history = await data('GET', `/api/v1/billing/deviceparams/${d1}/history`);
    expect(history.rows.map((r: { effectiveFrom: number; ratedPower: string }) => [r.effectiveFrom, r.ratedPower])).toEqual([[t1, '5'], [t0, '3.5']]);

    // spec §7.3 aliases: tenantId is ignored, effective now, the other fields carry forward
    await data('POST', '/api/v1/device/updatechrgrate', { tenantId: B.tenantId, deviceIds: [d2], chargeRate: 1.5 });
    await data('POST', '/api/v1/device/updatepower', { deviceIds: [d2], ratedPower: '7.5' });
    expect((await engine.deviceParamsAt([d2], Date.now())).get(d2)).toEqual({ chargeRate: '1.5', ratedPower: '7.5', baseFeeFen: 0 });
  });

  it("each row names the device's place below the project (楼栋 / 楼层 / 房间), null where it has none", async () => {
    const p = await newProject();
    const building = await createArea(k.db, { tenantId: A.tenantId, parentId: p, level: 'building', name: '计费楼' });
    const floor = await createArea(k.db, { tenantId: A.tenantId, parentId: building, level: 'floor', name: '3层' });
    const room = await createArea(k.db, { tenantId: A.tenantId, parentId: floor, level: 'room', name: '301' });
    const placed = (await createTestDevice(k, { tenantId: A.tenantId, projectId: p, type: 'device20030', areaId: room, name: '有位置的风盘' })).id;
    const loose = await device(p, '无位置的风盘');
    const list = await data('GET', `/api/v1/billing/deviceparams?projectId=${p}`);
    expect(Object.fromEntries(list.rows.map((r: { deviceId: number; areaName: string | null }) => [r.deviceId, r.areaName]))).toEqual({ [placed]: '计费楼 / 3层 / 301', [loose]: null });
    expect((await data('GET', `/api/v1/billing/deviceparams/${placed}/history`)).rows).toEqual([]);
    await data('POST', '/api/v1/billing/deviceparams', { deviceIds: [placed, loose], chargeRate: '1.3', effectiveFrom: Date.now() - DAY });
    expect((await data('GET', `/api/v1/billing/deviceparams/${placed}/history`)).rows[0].areaName).toBe('计费楼 / 3层 / 301');
    expect((await data('GET', `/api/v1/billing/deviceparams/${loose}/history`)).rows[0].areaName).toBeNull();
  });

  it('devices must be visible and of one project', async () => {
    const [p, q] = [await newProject(), await newProject()];
    const [d1, d2] = [await device(p), await device(q)];
    await refused('POST', '/api/v1/billing/deviceparams', { deviceIds: [d1, d2], chargeRate: '1.1', effectiveFrom: Date.now() }, 40000, '所选设备须属于同一项目');
    await refused('POST', '/api/v1/billing/deviceparams', { deviceIds: [d1], effectiveFrom: Date.now() }, 40000, '请至少填写一项参数');
    await refused('POST', '/api/v1/device/updatepower', { deviceIds: [d1], ratedPower: '-1' }, 40000, '额定功率');
  });
});

describe('分摊组', () => {
  it('members: accounts of the project, one team each; move within the project; area from their rooms; meters in roles; the engine read', async () => {
    const p = await newProject();
    const other = await newProject();
    const t1 = (await data('POST', '/api/v1/billing/shareteam', { projectId: p, name: '一单元' })).id;
    const t2 = (await data('POST', '/api/v1/billing/shareteam', { projectId: p, name: '二单元' })).id;
    const elsewhere = (await data('POST', '/api/v1/billing/shareteam', { projectId: other, name: '别处' })).id;
    await refused('POST', '/api/v1/billing/shareteam', { projectId: p, name: '一单元' }, 40000, '该项目已有名为「一单元」的分摊组');

    const [a1, a2] = [await account(p, 80.5), await account(p, 100)];
    const stranger = await account(other, 50);
    expect(await data('POST', '/api/v1/billing/sharegroup', { shareTeamId: t1, accountIds: [a1, a2] })).toEqual({ added: 2 });
    const a1Name = (await data('GET', `/api/v1/account/${a1}`)).name;
    await refused('POST', '/api/v1/billing/sharegroup', { shareTeamId: t2, accountIds: [a1] }, 40000, `账户「${a1Name}」已在分摊组「一单元」中`);
    await refused('POST', '/api/v1/billing/sharegroup', { shareTeamId: t1, accountIds: [stranger] }, 40000, '不属于该分摊组的项目');
    // adding a member again changes nothing
    expect(await data('POST', '/api/v1/billing/sharegroup', { shareTeamId: t1, accountIds: [a1] })).toEqual({ added: 0 });

    const members = await data('GET', `/api/v1/billing/sharegroup?shareTeamId=${t1}`);
    expect(members.total).toBe(2);
    expect(members.rows.find((m: { accountId: number }) => m.accountId === a1)).toMatchObject({ shareTeamId: t1, accountName: a1Name, area: 80.5 });
    expect(members.rows[0].rooms).toMatch(/^楼\d+\/\d+01$/);

    const [plant, hall] = [await device(p, '冷站总表'), await device(p, '大堂表')];
    await data('POST', '/api/v1/billing/devicerelation', { shareTeamId: t1, deviceIds: [plant], role: 'total' });
    expect(await data('POST', '/api/v1/billing/devicerelation', { shareTeamId: t1, deviceIds: [hall, plant], role: 'public' })).toEqual({ added: 1, updated: 1 });
    await data('POST', '/api/v1/billing/devicerelation', { shareTeamId: t1, deviceIds: [plant], role: 'total' });
    await refused('POST', '/api/v1/billing/devicerelation', { shareTeamId: elsewhere, deviceIds: [plant], role: 'total' }, 40000, '设备「冷站总表」不属于该分摊组的项目');
    const relations = await data('GET', `/api/v1/billing/devicerelation?projectId=${p}`);
    expect(relations.rows.map((r: { deviceName: string; role: string }) => [r.deviceName, r.role]).sort()).toEqual([['冷站总表', 'total'], ['大堂表', 'public']]);

    let teams = await data('GET', `/api/v1/billing/shareteam?projectId=${p}`);
    expect(teams.rows.find((t: { shareTeamId: number }) => t.shareTeamId === t1)).toMatchObject({ name: '一单元', members: 2, totalDevices: 1, publicDevices: 1, memberArea: 180.5 });
    expect(await engine.shareTeams(p)).toEqual([
      { id: t1, name: '一单元', accountIds: [a1, a2], totalDeviceIds: [plant], publicDeviceIds: [hall] },
      { id: t2, name: '二单元', accountIds: [], totalDeviceIds: [], publicDeviceIds: [] },
    ]);

    // move a member to another team of the project, not to another project's
    const m2 = members.rows.find((m: { accountId: number }) => m.accountId === a2).id;
    await refused('PUT', `/api/v1/billing/sharegroup/${m2}`, { shareTeamId: elsewhere }, 40000, '只能移到同一项目的分摊组');
    await data('PUT', `/api/v1/billing/sharegroup/${m2}`, { shareTeamId: t2 });
    expect((await engine.shareTeams(p)).map((t) => t.accountIds)).toEqual([[a1], [a2]]);
    await refused('PUT', `/api/v1/billing/shareteam/${t2}`, { projectId: other, name: '二单元' }, 40000, '分摊组不能换项目');
    await data('PUT', `/api/v1/billing/shareteam/${t2}`, { projectId: p, name: '二单元（改）', remark: '备注' });
    teams = await data('GET', `/api/v1/billing/shareteam?projectId=${p}`);
    expect(teams.rows.find((t: { shareTeamId: number }) => t.shareTeamId === t2)).toMatchObject({ name: '二单元（改）', remark: '备注', members: 1, memberArea: 100 });

    // deleting a team takes its members and meters with it; its accounts may join another team again
    await data('POST', '/api/v1/billing/shareteam/delete', { ids: [t1] });
    expect(await k.db.selectFrom('billing_share_member').select('id').where('team_id', '=', t1).execute()).toEqual([]);
    expect(await k.db.selectFrom('billing_device_relation').select('id').where('team_id', '=', t1).execute()).toEqual([]);
    expect((await engine.shareTeams(p)).map((t) => t.id)).toEqual([t2]);
    await data('POST', '/api/v1/billing/sharegroup', { shareTeamId: t2, accountIds: [a1] });
    const left = await data('GET', `/api/v1/billing/sharegroup?shareTeamId=${t2}`);
    await data('POST', '/api/v1/billing/sharegroup/delete', { ids: left.rows.map((m: { id: number }) => m.id) });
    expect((await engine.shareTeams(p))[0]!.accountIds).toEqual([]);
  });
});

describe('计费方案', () => {
  it('devices move between plans from their effective time; a plan with devices cannot be deleted; removal ends a plan now', async () => {
    const p = await newProject();
    const now = Date.now();
    const plan = (name: string, price: string, effectiveFrom = now - 10 * DAY) =>
      data('POST', '/api/v1/billing/projectplan', { projectId: p, name, meteringMethodType: 'timeEquivalent', price, effectiveFrom }).then((r) => r.id as number);
    const [p1, p2] = [await plan('标准方案', '1.2'), await plan('优惠方案', '0.9')];
    const [d1, d2, d3] = [await device(p, '设备甲'), await device(p, '设备乙'), await device(p, '设备丙')];

    await refused('POST', '/api/v1/billing/deviceplan', { projectPlanId: p1, deviceIds: [d1], effectiveFrom: now - 11 * DAY }, 40000, '设备的生效时间不能早于方案的生效时间');
    expect(await data('POST', '/api/v1/billing/deviceplan', { projectPlanId: p1, deviceIds: [d1, d2], effectiveFrom: now - 5 * DAY })).toEqual({ added: 2 });
    // d1 moves to p2 an hour from now: until then it stays on p1
    await data('POST', '/api/v1/billing/deviceplan', { projectPlanId: p2, deviceIds: [d1], effectiveFrom: now + HOUR });

    const at = await engine.devicePlansAt([d1, d2, d3], now);
    expect(at.get(d1)).toEqual({ planId: p1, name: '标准方案', method: 'timeEquivalent', price: '1.2' });
    expect(at.get(d2)?.planId).toBe(p1);
    expect(at.has(d3)).toBe(false);
    expect((await engine.devicePlansAt([d1], now + 2 * HOUR)).get(d1)?.planId).toBe(p2);
    expect((await engine.devicePlansAt([d1], now - 6 * DAY)).has(d1)).toBe(false);

    const onP1 = await data('GET', `/api/v1/billing/deviceplan?projectPlanId=${p1}`);
    expect(onP1.rows.map((r: { deviceName: string }) => r.deviceName).sort()).toEqual(['设备乙', '设备甲']);
    const onP2 = await data('GET', `/api/v1/billing/deviceplan?projectPlanId=${p2}`);
    expect(onP2.rows).toEqual([expect.objectContaining({ deviceId: d1, deviceName: '设备甲', effectiveFrom: now + HOUR })]);
    const plans = await data('GET', `/api/v1/billing/projectplan?projectId=${p}`);
    expect(plans.rows.map((r: { name: string; devices: number }) => [r.name, r.devices])).toEqual([['优惠方案', 1], ['标准方案', 2]]);

    await refused('POST', '/api/v1/billing/projectplan/delete', { ids: [p1] }, 40000, '方案「标准方案」中还有 2 台设备，请先移除方案中的设备');

    // taking d2 off p1 ends its plan now: the past stays on p1
    await data('POST', '/api/v1/billing/deviceplan/delete', { ids: [onP1.rows.find((r: { deviceId: number }) => r.deviceId === d2).id] });
    expect((await engine.devicePlansAt([d2], Date.now() + 1)).has(d2)).toBe(false);
    expect((await engine.devicePlansAt([d2], now - DAY)).get(d2)?.planId).toBe(p1);
    // taking d1 off p1 leaves its move to p2 in place
    await data('POST', '/api/v1/billing/deviceplan/delete', { ids: [onP1.rows.find((r: { deviceId: number }) => r.deviceId === d1).id] });
    expect((await data('GET', `/api/v1/billing/deviceplan?projectPlanId=${p1}`)).total).toBe(0);
    expect((await engine.devicePlansAt([d1], now + 2 * HOUR)).get(d1)?.planId).toBe(p2);
    // a move not yet in force is simply withdrawn
    await data('POST', '/api/v1/billing/deviceplan/delete', { ids: [onP2.rows[0].id] });
    expect((await engine.devicePlansAt([d1], now + 2 * HOUR)).has(d1)).toBe(false);

    await data('POST', '/api/v1/billing/projectplan/delete', { ids: [p1, p2] });
    expect((await data('GET', `/api/v1/billing/projectplan?projectId=${p}`)).total).toBe(0);
  });

  it('plan edits: name unique in the project, project fixed', async () => {
    const p = await newProject();
    const body = { projectId: p, name: '方案一', meteringMethodType: 'heat', price: '85', effectiveFrom: Date.now() };
    const id = (await data('POST', '/api/v1/billing/projectplan', body)).id;
    await data('POST', '/api/v1/billing/projectplan', { ...body, name: '方案二' });
    await refused('PUT', `/api/v1/billing/projectplan/${id}`, { ...body, name: '方案二' }, 40000, '该项目已有名为「方案二」的计费方案');
    await refused('PUT', `/api/v1/billing/projectplan/${id}`, { ...body, projectId: await newProject() }, 40000, '计费方案不能换项目');
    await data('PUT', `/api/v1/billing/projectplan/${id}`, { ...body, price: '90.5' });
    expect((await data('GET', `/api/v1/billing/projectplan?projectId=${p}`)).rows.find((r: { projectPlanId: number }) => r.projectPlanId === id))
      .toMatchObject({ name: '方案一', meteringMethodType: 'heat', price: '90.5', updatedBy: A.username });
  });
});

describe('租户隔离', () => {
  it('another tenant\'s project, device, account, team and plan are 40400 on every group of endpoints', async () => {
    const p = A.projectId;
    const d = await device(p);
    const acc = await account(p, 60);
    const team = (await data('POST', '/api/v1/billing/shareteam', { projectId: p, name: '隔离组' })).id;
    await data('POST', '/api/v1/billing/sharegroup', { shareTeamId: team, accountIds: [acc] });
    const member = (await data('GET', `/api/v1/billing/sharegroup?shareTeamId=${team}`)).rows[0].id;
    const plan = (await data('POST', '/api/v1/billing/projectplan', { projectId: p, name: '隔离方案', meteringMethodType: 'flat', price: '100', effectiveFrom: Date.now() - DAY })).id;
    const bTeam = (await data('POST', '/api/v1/billing/shareteam', { projectId: B.projectId, name: 'B 组' }, B.token)).id;
    const bPlan = (await data('POST', '/api/v1/billing/projectplan', { projectId: B.projectId, name: 'B 方案', meteringMethodType: 'flat', price: '1', effectiveFrom: Date.now() - DAY }, B.token)).id;

    const reads = [
      `/api/v1/billing/tariff/${p}`, `/api/v1/billing/tariff/${p}/versions`, `/api/v1/area/projectpara/getpara/${p}/projectBillingScheme`,
      `/api/v1/billing/deviceparams?projectId=${p}`, `/api/v1/billing/deviceparams/${d}/history`,
      `/api/v1/billing/shareteam?projectId=${p}`, `/api/v1/billing/sharegroup?shareTeamId=${team}`, `/api/v1/billing/devicerelation?shareTeamId=${team}`,
      `/api/v1/billing/devicerelation?projectId=${p}`, `/api/v1/billing/projectplan?projectId=${p}`, `/api/v1/billing/deviceplan?projectPlanId=${plan}`,
    ];
    for (const url of reads) {
      const res = await call('GET', url, undefined, B.token);
      expect(res.body.code, url).toBe(40400);
    }
    const writes: [Method, string, unknown][] = [
      ['POST', `/api/v1/billing/tariff/${p}`, tariff({ effectiveFrom: Date.now() })],
      ['POST', '/api/v1/billing/deviceparams', { deviceIds: [d], chargeRate: '2', effectiveFrom: Date.now() }],
      ['POST', '/api/v1/device/updatechrgrate', { tenantId: A.tenantId, deviceIds: [d], chargeRate: '2' }],
      ['POST', '/api/v1/billing/shareteam', { projectId: p, name: 'B 的组' }],
      ['PUT', `/api/v1/billing/shareteam/${team}`, { projectId: p, name: '改名' }],
      ['POST', '/api/v1/billing/shareteam/delete', { ids: [team] }],
      ['POST', '/api/v1/billing/sharegroup', { shareTeamId: team, accountIds: [acc] }],
      // B's own team, A's account or device: still not found
      ['POST', '/api/v1/billing/sharegroup', { shareTeamId: bTeam, accountIds: [acc] }],
      ['POST', '/api/v1/billing/devicerelation', { shareTeamId: bTeam, deviceIds: [d], role: 'total' }],
      ['PUT', `/api/v1/billing/sharegroup/${member}`, { shareTeamId: bTeam }],
      ['POST', '/api/v1/billing/sharegroup/delete', { ids: [member] }],
      ['POST', '/api/v1/billing/projectplan', { projectId: p, name: 'B 方案', meteringMethodType: 'flat', price: '1', effectiveFrom: Date.now() }],
      ['POST', '/api/v1/billing/projectplan/delete', { ids: [plan] }],
      ['POST', '/api/v1/billing/deviceplan', { projectPlanId: bPlan, deviceIds: [d], effectiveFrom: Date.now() }],
    ];
    for (const [method, url, body] of writes) await refused(method, url, body, 40400, undefined, B.token);
  });
});
