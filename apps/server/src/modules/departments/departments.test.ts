import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetState } from '@kelvin/contracts';
import { xlsxText } from '../admin/fixtures.ts';
import { createArea, createTenantWithProject, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { createTestDevice, ingestKwh } from '../devices/test-fixtures.ts';
import type { Actor } from '../../lib/scope.ts';

/**
 * Worked by hand. Electric meters (f70, kWh) written through the real ingest, so the roll-ups are production's.
 *
 * Departments: 机关 (parent, 10 人, 200 m², budget 1000) with 财务处 (4 人, 100 m², budget 25) and 后勤处 (5 人, budget 5).
 * Meter A: assigned to 财务处 from 2025-03-01, moved to 后勤处 on 2025-04-16.
 *   readings 03-30 12:00 → 90, 03-31 12:00 → 100, 04-01 12:00 → 110, 04-15 12:00 → 130, 04-16 12:00 → 135, 04-20 12:00 → 141
 *   day use: 03-30 0 (first reading), 03-31 10, 04-01 10, 04-15 20, 04-16 5, 04-20 6.
 *   财务处: March 10; April 10 + 20 = 30 (04-16 on is 后勤处's). 后勤处 from A: 5 + 6 = 11.
 * Meter B sits in room 101, which is 后勤处's from 2025-04-01 (B counts through its room):
 *   readings 04-01 00:00 → 50, 04-02 00:00 → 58: day use 04-01 0 (first reading), 04-02 8. 后勤处 April = 11 + 8 = 19.
 * Meter C sits in room 101 too but is named directly for 财务处 from 2025-04-01 (a meter's own assignment wins):
 *   readings 04-01 00:00 → 0, 04-03 00:00 → 4: 04-03 use 4 → 财务处 April = 34.
 * 机关 (no meters of its own) = 财务处 + 后勤处: April 53, March 10.
 * Per person: 机关 53 / 10 = 5.3; 财务处 34 / 4 = 8.5. Per m²: 机关 53 / 200 = 0.265; 财务处 34 / 100 = 0.34.
 * Budget on 2025-04-10 (day 10 of a 30-day April): 财务处 used 10 (04-01) + 4 (04-03) = 14 ≤ 25, projected 14 / 10 × 30 = 42 > 25
 *   → warning; 后勤处 used 8 > 5 → exceeded; 机关 22 → projected 66 ≤ 1000 → ok.
 */

let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;
let token: string;
let actor: Actor;
const ids: Record<string, number> = {};
const cst = (iso: string) => Date.parse(`${iso}+08:00`);

const batch = (readings: [number, string, number][]) => ingestKwh(k, a, readings);

const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object) => (await k.call(method, url, { token, body })).body;
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object) => {
  const res = await call(method, url, body);
  expect(res.code, JSON.stringify(res)).toBe(200);
  return res.data;
};

beforeAll(async () => {
  k = await startTestKelvin();
  a = await createTenantWithProject(k.db, 'depta', ['departmentEnergy', 'departmentMain', 'departmentMain:btn_add', 'departmentMain:btn_edit', 'departmentMain:btn_del', 'departmentStaticEnergy', 'departmentStaticEnergy:export', 'departmentEnergyCompare', 'departmentEnergyCompare:export']);
  token = await k.login(a.username, a.password);
  const floor = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: '1层' });
  ids.room = await createArea(k.db, { tenantId: a.tenantId, parentId: floor, level: 'room', name: '101室' });
  ids.A = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20090', areaId: a.buildingId, name: '电表A' })).id;
  ids.B = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20090', areaId: ids.room, name: '电表B' })).id;
  ids.C = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20090', areaId: ids.room, name: '电表C' })).id;
  ids.thermostat = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20020', areaId: ids.room })).id;
  await batch([[ids.A, '2025-03-30T12:00:00', 90], [ids.A, '2025-03-31T12:00:00', 100], [ids.A, '2025-04-01T12:00:00', 110], [ids.B, '2025-04-01T00:00:00', 50], [ids.C, '2025-04-01T00:00:00', 0]]);
  await batch([[ids.A, '2025-04-15T12:00:00', 130], [ids.A, '2025-04-16T12:00:00', 135], [ids.A, '2025-04-20T12:00:00', 141], [ids.B, '2025-04-02T00:00:00', 58], [ids.C, '2025-04-03T00:00:00', 4]]);
  const user = await k.db.selectFrom('app_user').select(['id', 'name']).where('id', '=', a.userId).executeTakeFirstOrThrow();
  actor = {
    user: { id: user.id, tenantId: a.tenantId, username: a.username, name: user.name, isPlatform: false, allProjects: true, sessionId: 't', codes: new Set() },
    scope: { userId: user.id, tenantId: a.tenantId, isPlatform: false, projectIds: null },
  };
});
afterAll(() => k?.close());

describe('部门与分配', () => {
  it('builds the tree, assigns meters and a room, moves a meter on a date', async () => {
    const p = a.projectId;
    ids.org = (await ok('POST', '/api/v1/department', { projectId: p, name: '机关', headcount: 10, area: 200, budgetKwh: 1000 })).id;
    ids.fin = (await ok('POST', '/api/v1/department', { projectId: p, parentId: ids.org, name: '财务处', headcount: 4, area: 100, budgetKwh: 25, sortNo: 1 })).id;
    ids.ops = (await ok('POST', '/api/v1/department', { projectId: p, parentId: ids.org, name: '后勤处', headcount: 5, budgetKwh: 5, sortNo: 2 })).id;
    const a1 = await ok('POST', '/api/v1/department/assignment', { departmentId: ids.fin, kind: 'device', deviceId: ids.A, from: '2025-03-01' });
    const moved = await ok('POST', `/api/v1/department/assignment/${a1.id}/move`, { departmentId: ids.ops, date: '2025-04-16' });
    expect(moved).toMatchObject({ departmentName: '后勤处', from: '2025-04-16', to: null, deviceName: '电表A' });
    await ok('POST', '/api/v1/department/assignment', { departmentId: ids.ops, kind: 'room', areaId: ids.room, from: '2025-04-01' });
    await ok('POST', '/api/v1/department/assignment', { departmentId: ids.fin, kind: 'device', deviceId: ids.C, from: '2025-04-01' });

    const history = await ok('GET', `/api/v1/department/assignment?projectId=${p}&departmentId=${ids.fin}`);
    expect(history.rows.map((r: { deviceName: string; from: string; to: string | null }) => [r.deviceName, r.from, r.to]))
      .toEqual([['电表C', '2025-04-01', null], ['电表A', '2025-03-01', '2025-04-16']]);
    const tree = await ok('GET', `/api/v1/department/tree?projectId=${p}`);
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ name: '机关', headcount: 10, area: 200, budgetKwh: 1000 });
    expect(tree[0].children.map((c: { name: string; meters: number; rooms: number }) => [c.name, c.meters, c.rooms])).toEqual([['财务处', 1, 0], ['后勤处', 1, 1]]);
  });

  it('refuses overlaps, bad input and deletions that would orphan use, in Chinese, changing nothing', async () => {
    const clash = await call('POST', '/api/v1/department/assignment', { departmentId: ids.org, kind: 'device', deviceId: ids.A, from: '2025-05-01' });
    expect(clash.code).toBe(40900);
    expect(clash.msg).toBe('表计「电表A（' + (await k.db.selectFrom('device').select('device_code').where('id', '=', ids.A).executeTakeFirstOrThrow()).device_code + '）」在 2025-04-16 至今 已分配给「后勤处」，分配时间不能重叠');
    const early = await call('POST', '/api/v1/department/assignment', { departmentId: ids.org, kind: 'device', deviceId: ids.A, from: '2025-01-01', to: '2025-03-02' });
    expect(early.msg).toContain('在 2025-03-01 至 2025-04-15 已分配给「财务处」');
    expect((await call('POST', '/api/v1/department/assignment', { departmentId: ids.org, kind: 'device', deviceId: ids.A, from: '2025-02-01', to: '2025-03-01' })).code).toBe(200);
    expect((await call('POST', '/api/v1/department/assignment', { departmentId: ids.org, kind: 'device', deviceId: ids.thermostat, from: '2025-01-01' })).msg).toContain('不是电表或热量表');
    expect((await call('POST', '/api/v1/department/assignment', { departmentId: ids.org, kind: 'room', areaId: a.buildingId, from: '2025-01-01' })).msg).toContain('不是房间');
    const bad = await call('POST', '/api/v1/department/assignment', { departmentId: ids.org, kind: 'device', deviceId: ids.A, from: '2025-05-01', to: '2025-04-01' });
    expect(bad.code).toBe(40000);
    expect(bad.msg).toBe('截止日期必须晚于生效日期');
    expect((await call('POST', '/api/v1/department', { projectId: a.projectId, name: '  ' })).msg).toBe('请填写部门名称');
    expect((await call('POST', '/api/v1/department', { projectId: a.projectId, name: '新部门', headcount: -1 })).msg).toBe('人数不能为负');
    expect((await call('POST', '/api/v1/department', { projectId: a.projectId, name: '财务处', parentId: ids.org })).msg).toBe('同一上级下已有名为「财务处」的部门');
    expect((await call('PUT', `/api/v1/department/${ids.org}`, { name: '机关', parentId: ids.fin })).msg).toBe('上级部门不能是本部门或其下级部门');
    expect((await call('DELETE', `/api/v1/department/${ids.org}`)).msg).toBe('部门「机关」下有 2 个下级部门，请先删除或移走下级部门');
    expect((await call('DELETE', `/api/v1/department/${ids.fin}`)).msg).toBe('部门「财务处」有 2 条表计或房间分配记录（含历史），请先删除分配记录');
    expect((await call('GET', `/api/v1/department/compare?projectId=${a.projectId}&departmentIds=${ids.fin}`)).msg).toBe('请选择 2～6 个部门对比');
    // the extra February assignment of 机关 goes again (it would add use to 机关 itself)
    const extra = (await ok('GET', `/api/v1/department/assignment?projectId=${a.projectId}&departmentId=${ids.org}`)).rows[0];
    await ok('DELETE', `/api/v1/department/assignment/${extra.id}`);
  });
});

describe('部门能耗', () => {
  it('by day in April: the move, the room, the parent rolled up, per person and per m²', async () => {
    const page = await ok('GET', `/api/v1/department/energy?projectId=${a.projectId}&grain=day&month=2025-04`);
    expect(page.buckets).toHaveLength(30);
    const row = (name: string) => page.rows.find((r: { name: string }) => r.name === name);
    const day = (name: string, d: number) => row(name).values[d - 1];
    expect(page.rows.map((r: { path: string; depth: number }) => [r.path, r.depth])).toEqual([['机关', 0], ['机关 / 财务处', 1], ['机关 / 后勤处', 1]]);
    expect([day('财务处', 1), day('财务处', 3), day('财务处', 15), day('财务处', 16)]).toEqual([10, 4, 20, null]);
    expect([day('后勤处', 1), day('后勤处', 2), day('后勤处', 16), day('后勤处', 20)]).toEqual([0, 8, 5, 6]);
    expect(row('财务处')).toMatchObject({ total: 34, perPerson: 8.5, perArea: 0.34 });
    expect(row('后勤处')).toMatchObject({ total: 19, perPerson: 3.8, perArea: null });
    expect(row('机关')).toMatchObject({ total: 53, perPerson: 5.3, perArea: 0.265 });
    expect(page.totals.total).toBe(53);
  });

  it('by month, and the export holds the same figures', async () => {
    const page = await ok('GET', `/api/v1/department/energy?projectId=${a.projectId}&grain=month&year=2025`);
    const org = page.rows.find((r: { name: string }) => r.name === '机关');
    expect(org.values.slice(0, 5)).toEqual([null, null, 10, 53, null]); // January … May
    const res = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/department/energy/export?projectId=${a.projectId}&grain=month&year=2025`, headers: { authorization: token } });
    expect(res.statusCode).toBe(200);
    const cells = await xlsxText(res.rawPayload);
    expect(cells[0]).toContain('|2025-04（kWh）|');
    expect(cells.slice(1)).toEqual([
      '机关|10|200|||10|53|||||||||63|6.3|0.315',
      '机关 / 财务处|4|100|||10|34|||||||||44|11|0.44',
      '机关 / 后勤处|5|||||19|||||||||19|3.8',
      '合计（一级部门之和）|||||10|53|||||||||63',
    ]);
  });

  it('compares two departments with the month before and the year before', async () => {
    const c = await ok('GET', `/api/v1/department/compare?projectId=${a.projectId}&departmentIds=${ids.fin},${ids.ops}&grain=day&month=2025-04`);
    expect(c.items.map((i: { name: string; total: number; previous: number | null; mom: number | null; lastYear: number | null }) => [i.name, i.total, i.previous, i.mom, i.lastYear]))
      .toEqual([['财务处', 34, 10, 2.4, null], ['后勤处', 19, null, null, null]]);
  });

  it('budgets on day 10 of a 30-day month: warning, exceeded, ok', async () => {
    const o = await k.kelvin.departments.departments.overview(actor, { projectId: a.projectId, counter: 'f70' }, cst('2025-04-10T15:00:00'));
    expect(o.month).toBe('2025-04');
    expect(o.thisMonth).toBe(22); // 财务处 14 + 后勤处 8
    expect(o.lastMonth).toBe(10);
    const state = Object.fromEntries(o.budgets.map((b) => [b.name, [b.used, b.projected, b.state]]));
    expect(state).toEqual({ 财务处: [14, 42, 'warning'], 后勤处: [8, 24, 'exceeded'], 机关: [22, 66, 'ok'] });
    expect(budgetState(10, 30, 10, 30)).toEqual({ projected: 30, state: 'ok' });
    expect(budgetState(10.01, 30, 10, 30).state).toBe('warning');
  });

  it('a room counts the meters that were in it on each day (a meter moved between rooms)', async () => {
    // meter D hangs in room 101 (后勤处's) until it is moved to room 102 on 04-10 at 10:00; room 102 is 档案室's
    const floor = (await k.db.selectFrom('area').select('parent_id').where('id', '=', ids.room).executeTakeFirstOrThrow()).parent_id!;
    const room102 = await createArea(k.db, { tenantId: a.tenantId, parentId: floor, level: 'room', name: '102室' });
    const d = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20090', areaId: room102, name: '电表D' })).id;
    await k.db.insertInto('device_bind_record').values({
      tenant_id: a.tenantId, project_id: a.projectId, device_id: d, device_type: 'device20090', action: 'move', old_device_code: null, new_device_code: null,
      from_area_id: ids.room, to_area_id: room102, area_path: null, detail: '移至 102室', user_id: null, username: null, at: cst('2025-04-10T10:00:00'),
    }).execute();
    const archive = (await ok('POST', '/api/v1/department', { projectId: a.projectId, name: '档案室', headcount: 2 })).id;
    await ok('POST', '/api/v1/department/assignment', { departmentId: archive, kind: 'room', areaId: room102, from: '2025-04-01' });
    // 04-06 +3 in room 101; 04-10 +1 (the day began in room 101); 04-12 +7 in room 102
    await batch([[d, '2025-04-05T12:00:00', 0], [d, '2025-04-06T12:00:00', 3], [d, '2025-04-10T18:00:00', 4], [d, '2025-04-12T12:00:00', 11]]);
    const page = await ok('GET', `/api/v1/department/energy?projectId=${a.projectId}&grain=day&month=2025-04`);
    const row = (name: string) => page.rows.find((r: { name: string }) => r.name === name);
    expect(row('档案室')).toMatchObject({ total: 7 });
    expect(row('后勤处').total).toBe(23); // 19 + 3 + 1
    expect([row('后勤处').values[5], row('后勤处').values[9], row('档案室').values[11]]).toEqual([3, 1, 7]);
  });
});
