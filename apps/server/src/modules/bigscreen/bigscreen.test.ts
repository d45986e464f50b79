import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode, type BigScreenSummary } from '@kelvin/contracts';
import { snapshot } from '../admin/fixtures.ts';
import { startTestKelvin, twoTenants, type TestClient, type TenantWithProject } from '../../test/harness.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';
import { DATAVIEW_LIMITS } from './index.ts';

/**
 * Hand-built readings through the real ingest writer (so the roll-ups are the ones production keeps), relative to
 * T = today's Asia/Shanghai midnight:
 *   electric meter A (f70, 1号楼): T−24h+1h → 100, T−24h+10h → 110, T+1s → 112, T+2s → 118
 *     yesterday = 10 (its first reading counts from itself), today = (112 − 110) + (118 − 112) = 8
 *   heat pump (f48): T+1s → 50, T+4s → 53                         today = 3
 *   heat meter (f60, GJ): T−24h+2h → 5, T+3s → 5.5                 yesterday = 0, today = 0.5
 *   → electricity today 11, yesterday 10; heat today 0.5, yesterday 0; hour T: 11 kWh, 0.5 GJ
 * thermostat 1 reports f00 = 1 (running), thermostat 2 f00 = 0, thermostat 3 never reported (offline):
 *   6 devices, 5 online; units = 3 thermostats + the heat pump = 4, running 1.
 * Alarms: two active, one cleared.
 */

const CODES = ['monitoringCenterTose', 'monitorScreen', 'monitorScreen:btn_add', 'monitorScreen:btn_del'];
const HOUR = 3_600_000;
const DAY = 86_400_000;
const CST = 8 * HOUR;
const T = Math.floor((Date.now() + CST) / DAY) * DAY - CST;

let k: TestClient;
let a: TenantWithProject;
let b: TenantWithProject;
let tokenA: string;
let tokenB: string;
const ids: Record<string, number> = {};

const call = (method: 'GET' | 'POST', url: string, body?: unknown, token: string | undefined = tokenA) => k.call(method, url, { token, body });
async function data<T = any>(method: 'GET' | 'POST', url: string, body?: unknown, token: string | undefined = tokenA): Promise<T> {
  const res = await call(method, url, body, token);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data as T;
}

async function readings(type: string, deviceId: number, rows: [number, Record<string, number>][]) {
  const writer = k.kelvin.devices.ingest.writer;
  const done = rows.map(([ts, fields]) => writer.enqueue({
    deviceId, deviceType: type, tenantId: a.tenantId, projectId: a.projectId, heartbeatMs: 600_000, receivedAt: Date.now(), ts,
    points: Object.entries(fields).map(([code, num]) => ({ code, num, txt: null })),
  }));
  await writer.flush();
  await Promise.all(done);
}

async function alarm(deviceId: number, name: string, status: 'active' | 'cleared', ruleId: number) {
  await k.db.insertInto('monitor_message').values({
    tenant_id: a.tenantId, project_id: a.projectId, rule_id: ruleId, device_id: deviceId, device_code: `C${deviceId}`, device_name: name, device_type: 'device20020',
    rule_name: '室温过高', field_code: 'f03', description: '室温高于 28 °C', value: '29.5', severity: 'major', status, read: 0, read_by: null, read_at: null,
    comment: null, created_at: Date.now(), cleared_at: status === 'cleared' ? Date.now() : null,
  }).execute();
}

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, b, tokenA, tokenB } = await twoTenants(k, 'bsc', CODES));
  // contact details of the project: people, never on a public screen
  await k.db.updateTable('area').set({ contact: '赵联系人', phone: '13912345678' }).where('id', '=', a.projectId).execute();
  const dev = async (key: string, type: string, name: string) => {
    ids[key] = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: a.buildingId, type, name })).id;
  };
  await dev('meter', 'device20090', '总电表 A');
  await dev('pump', 'device20050', '热泵 1');
  await dev('heat', 'calorimeter', '热量表 1');
  await dev('t1', 'device20020', '温控器 101');
  await dev('t2', 'device20020', '温控器 102');
  await dev('t3', 'device20020', '温控器 103');
  await readings('device20090', ids.meter, [[T - DAY + HOUR, { f70: 100 }], [T - DAY + 10 * HOUR, { f70: 110 }]]);
  await readings('device20090', ids.meter, [[T + 1000, { f70: 112 }], [T + 2000, { f70: 118 }]]);
  await readings('device20050', ids.pump, [[T + 1000, { f48: 50 }], [T + 4000, { f48: 53 }]]);
  await readings('calorimeter', ids.heat, [[T - DAY + 2 * HOUR, { f60: 5 }], [T + 3000, { f60: 5.5 }]]);
  await readings('device20020', ids.t1, [[Date.now(), { f00: 1, f03: 22 }]]);
  await readings('device20020', ids.t2, [[Date.now(), { f00: 0, f03: 21 }]]);
  await alarm(ids.t1, '温控器 101', 'active', 1);
  await alarm(ids.t2, '温控器 102', 'active', 2);
  await alarm(ids.t2, '温控器 102', 'cleared', 3);
});
afterAll(() => k?.close());

function expectFigures(s: BigScreenSummary) {
  expect(s.devices).toEqual({ total: 6, online: 5, onlineRate: 83.3 });
  expect(s.units).toEqual({ total: 4, running: 1 });
  expect(s.electricity).toEqual({ today: 11, yesterday: 10, unit: 'kWh', meters: 2 });
  expect(s.heat).toEqual({ today: 0.5, yesterday: 0, unit: 'GJ', meters: 1 });
  expect(s.activeAlarms).toBe(2);
  expect(s.alarms.map((x) => x.deviceName)).toEqual(['温控器 102', '温控器 101']);
  expect(s.top).toEqual([
    { deviceId: ids.meter, deviceName: '总电表 A', place: '1号楼', usage: 8 },
    { deviceId: ids.pump, deviceName: '热泵 1', place: '1号楼', usage: 3 },
  ]);
  expect(s.trend).toHaveLength(24);
  expect(s.trend.find((h) => h.hour === T)).toEqual({ hour: T, electricity: 11, heat: 0.5 });
  expect(s.trend[23].hour).toBe(Math.floor(Date.now() / HOUR) * HOUR);
}

describe('大屏汇总', () => {
  it('项目大屏: figures equal the hand-computed sums of the seeded roll-ups and state', async () => {
    const s = await data<BigScreenSummary>('GET', `/api/v1/bigscreen/project/${a.projectId}`);
    expect(s.title).toBe('bsca项目');
    expectFigures(s);
    expect(s.projects).toEqual([{ id: a.projectId, name: 'bsca项目', lng: null, lat: null, devices: 6, online: 5, onlineRate: 83.3, activeAlarms: 2, status: 'alarm' }]);
  });

  it('energy=0 leaves out the roll-up reads (the live refresh) and keeps the live figures', async () => {
    const s = await data<BigScreenSummary>('GET', `/api/v1/bigscreen/project/${a.projectId}?energy=0`);
    expect(s.devices.online).toBe(5);
    expect(s.units.running).toBe(1);
    expect(s.electricity.today).toBeNull();
    expect(s.trend).toEqual([]);
  });

  it('综合大屏: every project of the caller, another tenant\'s never counted', async () => {
    const s = await data<BigScreenSummary>('GET', '/api/v1/bigscreen/overview');
    expectFigures(s);
    const sb = await data<BigScreenSummary>('GET', '/api/v1/bigscreen/overview', undefined, tokenB);
    expect(sb.devices.total).toBe(0);
    expect(sb.projects.map((p) => p.id)).toEqual([b.projectId]);
    expect(sb.alarms).toEqual([]);
  });

  it('another tenant\'s project is 404; a bad project id a Chinese 40000', async () => {
    expect((await call('GET', `/api/v1/bigscreen/project/${a.projectId}`, undefined, tokenB)).body.code).toBe(ResultCode.NOT_FOUND);
    const bad = await call('GET', '/api/v1/bigscreen/project/abc');
    expect(bad.body.code).toBe(ResultCode.VALIDATION);
    expect(bad.body.msg).toMatch(/项目编号/);
    expect((await call('GET', `/api/v1/bigscreen/project/${a.projectId}?energy=2`)).body.code).toBe(ResultCode.VALIDATION);
  });
});

describe('分享链接 /dataviews', () => {
  it('create → public read without login → revoke → refused', async () => {
    const made = await data('POST', '/api/v1/bigscreen/share', { projectId: a.projectId, days: 7, note: '大厅屏' });
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.path).toBe(`/dataviews?token=${made.token}`);
    expect(made.expiresAt - made.createdAt).toBe(7 * DAY);
    expect(made.status).toBe('active');
    // only the hash is stored
    const row = await k.db.selectFrom('dataview_share').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(made.token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const pub = await k.call('GET', `/api/v1/dataviews?token=${made.token}`);
    expect(pub.body.code).toBe(200);
    expectFigures(pub.body.data);
    expect(pub.body.data.expiresAt).toBe(made.expiresAt);

    const list = await data('GET', `/api/v1/bigscreen/share?projectId=${a.projectId}`);
    expect(list[0]).toMatchObject({ id: made.id, hint: made.token.slice(0, 6), note: '大厅屏', status: 'active' });
    expect(JSON.stringify(list)).not.toContain(made.token);

    // another tenant cannot list or revoke it
    expect((await call('GET', `/api/v1/bigscreen/share?projectId=${a.projectId}`, undefined, tokenB)).body.code).toBe(ResultCode.NOT_FOUND);
    expect((await call('POST', `/api/v1/bigscreen/share/${made.id}/revoke`, undefined, tokenB)).body.code).toBe(ResultCode.NOT_FOUND);

    const revoked = await data('POST', `/api/v1/bigscreen/share/${made.id}/revoke`);
    expect(revoked.status).toBe('revoked');
    const after = await k.call('GET', `/api/v1/dataviews?token=${made.token}`);
    expect(after.body.code).toBe(ResultCode.FORBIDDEN);
    expect(after.body.msg).toBe('链接已失效：分享已被撤销');
    expect(after.body.data).toBeNull();
    // both calls were audited
    const log = await k.db.selectFrom('gate_log').select('operation').where('uri', 'like', '/api/v1/bigscreen/share%').execute();
    const ops = log.map((l) => l.operation).join('\n');
    expect(ops).toContain('新建大屏分享链接');
    expect(ops).toContain(`撤销大屏分享链接（编号 ${made.id}）`);
  });

  it('an expired link and an unknown token are refused with 链接已失效', async () => {
    const made = await data('POST', '/api/v1/bigscreen/share', { projectId: a.projectId, days: 1 });
    await k.db.updateTable('dataview_share').set({ expires_at: Date.now() - 1 }).where('id', '=', made.id).execute();
    const res = await k.call('GET', `/api/v1/dataviews?token=${made.token}`);
    expect(res.body.code).toBe(ResultCode.FORBIDDEN);
    expect(res.body.msg).toBe('链接已失效：分享已过期');
    const unknown = await k.call('GET', `/api/v1/dataviews?token=${'x'.repeat(43)}`);
    expect(unknown.body.msg).toMatch(/^链接已失效/);
    const bad = await k.call('GET', '/api/v1/dataviews?token=%3Cscript%3E');
    expect(bad.body.code).toBe(ResultCode.VALIDATION);
    expect(bad.body.msg).toMatch(/链接无效/);
  });

  it('the public answer carries no personal data', async () => {
    const made = await data('POST', '/api/v1/bigscreen/share', { projectId: a.projectId, days: 30 });
    const text = JSON.stringify((await k.call('GET', `/api/v1/dataviews?token=${made.token}`)).body);
    for (const key of ['phone', 'contact', 'username', 'userName', 'createdBy', 'created_by', 'account', 'occupant', 'idNumber', 'address', 'email', 'token']) {
      expect(text, key).not.toMatch(new RegExp(`"${key}"`, 'i'));
    }
    for (const value of ['赵联系人', '13912345678', a.username, made.token]) expect(text).not.toContain(value);
  });

  it('bad input is a Chinese message and changes nothing', async () => {
    for (const body of [{ projectId: a.projectId }, { projectId: a.projectId, days: 0 }, { projectId: a.projectId, days: 400 }, { projectId: a.projectId, days: 1, expiresAt: Date.now() + DAY },
      { projectId: a.projectId, expiresAt: Date.now() - DAY }, { projectId: 'x', days: 1 }]) {
      const before = await snapshot(k.db);
      const res = await call('POST', '/api/v1/bigscreen/share', body);
      expect(res.body.code, JSON.stringify(body)).toBe(ResultCode.VALIDATION);
      expect(res.body.msg).toMatch(/[\u4e00-\u9fa5]/);
      expect(await snapshot(k.db)).toBe(before);
    }
    const custom = await data('POST', '/api/v1/bigscreen/share', { projectId: a.projectId, expiresAt: Date.now() + 3 * DAY });
    expect(custom.status).toBe('active');
  });

  it('is rate-limited per token', async () => {
    const made = await data('POST', '/api/v1/bigscreen/share', { projectId: a.projectId, days: 1 });
    const codes: number[] = [];
    for (let i = 0; i <= DATAVIEW_LIMITS.perToken; i++) codes.push((await k.call('GET', `/api/v1/dataviews?token=${made.token}`)).body.code);
    expect(codes.slice(0, DATAVIEW_LIMITS.perToken).every((c) => c === 200)).toBe(true);
    const last = await k.call('GET', `/api/v1/dataviews?token=${made.token}`);
    expect(last.body.code).toBe(ResultCode.TOO_MANY_REQUESTS);
    expect(last.status).toBe(429);
    expect(last.body.msg).toMatch(/频繁/);
  });
});
