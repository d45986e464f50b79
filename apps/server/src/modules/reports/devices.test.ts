import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xlsxText } from '../admin/fixtures.ts';
import { createArea, createTenantWithProject, createUser, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';

/**
 * The device reports (balancetable, balancetableAF900, deviceStatus_n) over hand-built devices with state and
 * history rows whose expected figures are worked out below.
 */

const DAY = 86_400_000;
const CST = 8 * 3600_000;
const HOUR = 3600_000;

let k: TestClient;
let token: string;
let tenantId: number;
let balanceProject: number;
let building1: number;
let building2: number;
let af900Project: number;
let statusProject: number;
const now = Date.now();
const dayStart = Math.floor((now + CST) / DAY) * DAY - CST;

async function device(projectId: number, areaId: number, type: string, code: string, opts: { online?: boolean; state?: Record<string, number>; history?: [string, number, number][] } = {}) {
  const d = await createTestDevice(k, { tenantId, projectId, areaId, type, code, name: `${code}名` });
  await k.db.updateTable('device').set({ online_until: opts.online ? now + HOUR : now - HOUR, last_report_at: now - 2 * HOUR }).where('id', '=', d.id).execute();
  const state = Object.entries(opts.state ?? {});
  if (state.length) await k.db.insertInto('device_state').values(state.map(([field_code, num]) => ({ device_id: d.id, field_code, num, txt: null, ts: now - 2 * HOUR }))).execute();
  const history = opts.history ?? [];
  if (history.length) await k.db.insertInto('device_history').values(history.map(([field_code, ts, num]) => ({ device_id: d.id, field_code, ts, num, txt: null }))).execute();
  return d.id;
}

const get = async (code: string, q: string) => {
  const res = await k.call('GET', `/api/v1/datacenter/${code}?${q}`, { token });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const byCode = (rows: Record<string, unknown>[]) => Object.fromEntries(rows.map((r) => [r.deviceCode as string, r]));

beforeAll(async () => {
  k = await startTestKelvin();
  const codes = ['balancetable', 'balancetable:export', 'balancetableAF900', 'deviceStatus_n', 'deviceStatus_n:export'];
  const t = await createTenantWithProject(k.db, 'devrep', codes, 'PT2014');
  tenantId = t.tenantId;
  balanceProject = t.projectId;
  building1 = t.buildingId;
  building2 = await createArea(k.db, { tenantId, parentId: balanceProject, level: 'building', name: '2号楼' });
  af900Project = await createArea(k.db, { tenantId, parentId: t.regionId, level: 'project', name: '水力平衡项目', projectType: 'PT4020' });
  statusProject = await createArea(k.db, { tenantId, parentId: t.regionId, level: 'project', name: '电能计量项目', projectType: 'PT5010' });
  const af900Building = await createArea(k.db, { tenantId, parentId: af900Project, level: 'building', name: 'A 栋' });
  const statusBuilding = await createArea(k.db, { tenantId, parentId: statusProject, level: 'building', name: '配电房' });
  await createUser(k.db, { tenantId, username: 'devrep_reader', password: 'devrep-Pass#2026', codes });
  token = await k.login('devrep_reader', 'devrep-Pass#2026');

  // balance valves: Δt 10, 6, 14 and one without readings → target (project mean) 10
  await device(balanceProject, building1, 'balanceValve', 'BV-1', { state: { f61: 1.2, f63: 50, f64: 40, f81: 60 } });
  await device(balanceProject, building1, 'balanceValve', 'BV-2', { state: { f61: 2, f63: 48, f64: 42, f81: 80 } });
  await device(balanceProject, building2, 'balanceValve', 'BV-3', { state: { f61: 0.8, f63: 52, f64: 38, f81: 40 } });
  await device(balanceProject, building2, 'balanceValve', 'BV-4');

  // AF900 valves, one per control mode, and one whose target is 0
  await device(af900Project, af900Building, 'device20120', 'AF-FLOW', { state: { f82: 1, f83: 2, f61: 2.5, f63: 50, f64: 40 } });
  await device(af900Project, af900Building, 'device20120', 'AF-RET', { state: { f82: 2, f83: 40, f61: 1, f64: 38 } });
  await device(af900Project, af900Building, 'device20120', 'AF-DT', { state: { f82: 3, f83: 10, f61: 0.5, f63: 50, f64: 38 } });
  await device(af900Project, af900Building, 'device20120', 'AF-MAN', { state: { f82: 0, f80: 50, f81: 45 } });
  await device(af900Project, af900Building, 'device20120', 'AF-ZERO', { state: { f82: 1, f83: 0, f61: 1 } });

  // device status: today's use = now − the last reading at or before today's start (China Standard Time)
  await device(statusProject, statusBuilding, 'device24201_n', 'M-1', { online: true, state: { f70: 112.25, f71: 1.5 }, history: [['f70', dayStart - 2 * HOUR, 100], ['f70', dayStart - 5 * HOUR, 90]] });
  await device(statusProject, statusBuilding, 'device4gElectric', 'M-2', { state: { f70: 58 }, history: [['f70', dayStart - 3 * DAY, 50]] });
  // first heard today: from its first reading of today
  await device(statusProject, statusBuilding, 'device24202_n', 'M-3', { online: true, state: { f70: 15 }, history: [['f70', dayStart + 1, 10]] });
  // replaced meter: the counter went back, no figure
  await device(statusProject, statusBuilding, 'device24201_n', 'M-4', { state: { f70: 3 }, history: [['f70', dayStart - HOUR, 500]] });
  await device(statusProject, statusBuilding, 'deviceSolar_n', 'S-1', { online: true, state: { f90: 12.5, f92: 52030.5 }, history: [['f92', dayStart - HOUR, 52000]] });
  await device(statusProject, statusBuilding, 'device20050', 'H-1', { state: { f48: 3210 }, history: [['f48', dayStart - HOUR, 3200]] });
  await device(statusProject, statusBuilding, 'gateway', 'G-1');
});
afterAll(() => k?.close());

describe('平衡表 balancetable', () => {
  it('Δt per valve against the project mean Δt, deviation = (Δt − target) / target, flow totalled', async () => {
    const page = await get('balancetable', `projectId=${balanceProject}&pageSize=50`);
    expect(page.total).toBe(4);
    const rows = byCode(page.rows);
    expect(rows['BV-1']).toMatchObject({ flow: 1.2, supply: 50, return: 40, deltaT: 10, opening: 60, target: 10, deviation: 0, location: '1号楼' });
    expect(rows['BV-2']).toMatchObject({ deltaT: 6, target: 10, deviation: -0.4 });
    expect(rows['BV-3']).toMatchObject({ deltaT: 14, target: 10, deviation: 0.4, location: '2号楼' });
    expect(rows['BV-4']).toMatchObject({ deltaT: null, target: 10, deviation: null, readAt: null });
    expect(page.totals.flow).toBe(4);
    // default sort: deviation descending, empty last
    expect(page.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['BV-3', 'BV-1', 'BV-2', 'BV-4']);
    expect(page.notes.join('\n')).toContain('平均值 10.0 °C');
    expect(page.notes.join('\n')).toContain('1 台平衡阀没有供回水温度读数');
    expect(page.chart.series.target).toEqual([10, 10, 10, 10]);
  });

  it('one building: its valves, still against the whole project\'s mean', async () => {
    const page = await get('balancetable', `projectId=${balanceProject}&areaId=${building2}`);
    expect(page.rows.map((r: { deviceCode: string }) => r.deviceCode).sort()).toEqual(['BV-3', 'BV-4']);
    expect(byCode(page.rows)['BV-3']).toMatchObject({ target: 10, deviation: 0.4 });
    expect(page.totals.flow).toBe(0.8);
  });

  it('exports the same rows', async () => {
    const res = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/datacenter/balancetable/export?projectId=${balanceProject}`, headers: { authorization: token } });
    expect(res.statusCode).toBe(200);
    const text = (await xlsxText(res.rawPayload)).join('\n');
    expect(text).toContain('BV-3');
    expect(text).toContain('BV-4');
  });

  it('is refused for a project of another type (spec §6)', async () => {
    const res = await k.call('GET', `/api/v1/datacenter/balancetable?projectId=${af900Project}`, { token });
    expect(res.body.code).toBe(40300);
  });
});

describe('AF900 平衡表 balancetableAF900', () => {
  it('compares each valve with the target of its control mode', async () => {
    const page = await get('balancetableAF900', `projectId=${af900Project}`);
    const rows = byCode(page.rows);
    expect(rows['AF-FLOW']).toMatchObject({ mode: '恒流量', target: 2, actual: 2.5, unit: 'm³/h', deviation: 0.25, deltaT: 10 });
    expect(rows['AF-RET']).toMatchObject({ mode: '恒回水温度', target: 40, actual: 38, unit: '°C', deviation: -0.05 });
    expect(rows['AF-DT']).toMatchObject({ mode: '恒温差', target: 10, actual: 12, unit: '°C', deviation: 0.2 });
    expect(rows['AF-MAN']).toMatchObject({ mode: '手动开度', target: 50, actual: 45, unit: '%', deviation: -0.1 });
    expect(rows['AF-ZERO']).toMatchObject({ target: 0, deviation: null });
    expect(page.totals.flow).toBe(5);
    expect(page.notes.join()).toContain('1 台阀门');
    expect(Object.fromEntries(page.chart.x.map((x: string, i: number) => [x, page.chart.series.deviationPct[i]]))).toEqual({ 'AF-FLOW': 25, 'AF-RET': -5, 'AF-DT': 20, 'AF-MAN': -10 });
  });
});

describe('设备状态 deviceStatus_n', () => {
  it('online from online_until, today = now − the reading at the day start, totals and the online pie', async () => {
    const page = await get('deviceStatus_n', `projectId=${statusProject}&pageSize=50`);
    expect(page.total).toBe(7);
    const rows = byCode(page.rows);
    expect(rows['M-1']).toMatchObject({ online: '在线', power: 1.5, energy: 112.25, today: 12.25, deviceType: '24201 单相电能表', location: '配电房' });
    expect(rows['M-2']).toMatchObject({ online: '离线', energy: 58, today: 8 });
    expect(rows['M-3']).toMatchObject({ online: '在线', today: 5 });
    expect(rows['M-4']).toMatchObject({ energy: 3, today: null });
    expect(rows['S-1']).toMatchObject({ genPower: 12.5, genToday: 30.5, today: null, energy: null });
    expect(rows['H-1']).toMatchObject({ energy: 3210, today: 10 });
    expect(rows['G-1']).toMatchObject({ energy: null, today: null, online: '离线' });
    expect(page.totals).toEqual({ today: 35.25, genToday: 30.5 });
    expect(page.chart).toEqual({ x: ['在线', '离线'], series: { count: [3, 4] } });
    expect(page.notes.join()).toContain('1 台设备的累计读数今日回退');
  });

  it('filters by status, type and keyword', async () => {
    const codes = async (q: string) => (await get('deviceStatus_n', `projectId=${statusProject}&${q}`)).rows.map((r: { deviceCode: string }) => r.deviceCode).sort();
    expect(await codes('status=online')).toEqual(['M-1', 'M-3', 'S-1']);
    expect(await codes('status=offline')).toEqual(['G-1', 'H-1', 'M-2', 'M-4']);
    expect(await codes('deviceType=device24201_n')).toEqual(['M-1', 'M-4']);
    expect(await codes('keyword=m-')).toEqual(['M-1', 'M-2', 'M-3', 'M-4']);
    const online = await get('deviceStatus_n', `projectId=${statusProject}&status=online`);
    expect(online.totals.today).toBe(17.25);
  });
});

describe('数据示例 datademo', () => {
  let thermo: number;
  const base = dayStart - 3 * DAY;
  beforeAll(async () => {
    await k.db.insertInto('role_grant').values({ role_id: (await k.db.selectFrom('role').select('id').where('code', '=', 'role_devrep_reader').executeTakeFirstOrThrow()).id, code: 'datademo' }).execute();
    token = await k.login('devrep_reader', 'devrep-Pass#2026');
    // 30 readings of f03 an hour apart from `base`, value 18 + i / 10; one f04 reading that must not show
    thermo = await device(balanceProject, building1, 'device20020', 'DEMO-T', {
      history: [...Array.from({ length: 30 }, (_, i) => ['f03', base + i * HOUR, 18 + i / 10] as [string, number, number]), ['f04', base, 22]],
    });
  });
  const demo = async (path: string, q: string) => k.call('GET', `/api/v1/datacenter/datademo/${path}?${q}`, { token }).then((r) => r.body);

  it('lists the project\'s devices with their numeric fields, searchable', async () => {
    const body = await demo('devices', `projectId=${balanceProject}&keyword=demo`);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ id: thermo, deviceCode: 'DEMO-T', typeName: '地暖温控器', location: '1号楼' });
    expect(body.data[0].fields).toContainEqual({ code: 'f03', label: '室内温度', unit: '°C' });
    expect(body.data[0].fields.some((f: { code: string }) => f.code === 'f00')).toBe(false);
  });

  it('answers the readings of [from, to): all for the chart, newest first by page for the table', async () => {
    const range = `deviceId=${thermo}&field=f03&from=${base + 10 * HOUR}&to=${base + 20 * HOUR}`;
    const series = (await demo('series', range)).data;
    expect(series).toMatchObject({ field: 'f03', label: '室内温度', unit: '°C', resolution: 'raw' });
    expect(series.points).toHaveLength(10);
    expect(series.points[0]).toEqual([base + 10 * HOUR, 19]);
    expect(series.points[9]).toEqual([base + 19 * HOUR, 19.9]);
    const page2 = (await demo('readings', `${range}&pageNo=2&pageSize=4`)).data;
    expect(page2.total).toBe(10);
    expect(page2.rows).toEqual([15, 14, 13, 12].map((i) => ({ ts: base + i * HOUR, value: 18 + i / 10 })));
    expect((await demo('readings', `${range}&pageNo=3&pageSize=4`)).data.rows.map((r: { value: number }) => r.value)).toEqual([19.1, 19]);
  });

  it('answers longer periods from the roll-ups (hourly, then daily means); refuses more than two years, a field the device lacks, another tenant\'s device', async () => {
    // these readings went straight into history (no ingest): the roll-ups hold nothing for them, and say so honestly
    expect((await demo('series', `deviceId=${thermo}&field=f03&from=${base - 8 * DAY}&to=${base}`)).data).toMatchObject({ resolution: 'hour', points: [] });
    expect((await demo('series', `deviceId=${thermo}&field=f03&from=${base - 100 * DAY}&to=${base}`)).data).toMatchObject({ resolution: 'day' });
    expect((await demo('series', `deviceId=${thermo}&field=f03&from=${base - 3 * 366 * DAY}&to=${base}`)).msg).toContain('两年');
    expect((await demo('series', `deviceId=${thermo}&field=f70&from=${base}&to=${base + DAY}`)).code).toBe(40000);
    expect((await demo('series', `deviceId=999999&field=f03&from=${base}&to=${base + DAY}`)).code).toBe(40400);
  });
});
