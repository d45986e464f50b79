import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xlsxText } from '../admin/fixtures.ts';
import { createArea, createTenantWithProject, createUser, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { createTestDevice } from './test-fixtures.ts';

/** The device monitor's extras (spec §7.5): statistic with the average room temperature, offline messages, export. */

const HOUR = 3600_000;
const DAY = 24 * HOUR;
let k: TestClient;
let token: string;
let noExport: string;
let otherExport: string;
let projectId: number;
let floor2: number;
const now = Date.now();
const ids: Record<string, number> = {};

async function thermostat(code: string, areaId: number, onlineUntil: number | null, state: Record<string, number>, type = 'device20020') {
  const t = (await k.db.selectFrom('area').select('tenant_id').where('id', '=', projectId).executeTakeFirstOrThrow()).tenant_id;
  const d = await createTestDevice(k, { tenantId: t, projectId, areaId, type, code, name: `${code}温控器` });
  await k.db.updateTable('device').set({ online_until: onlineUntil, last_report_at: onlineUntil === null ? null : onlineUntil - 600_000 }).where('id', '=', d.id).execute();
  const rows = Object.entries(state).map(([field_code, num]) => ({ device_id: d.id, field_code, num, txt: null, ts: now - HOUR }));
  if (rows.length) await k.db.insertInto('device_state').values(rows).execute();
  ids[code] = d.id;
  return d.id;
}

beforeAll(async () => {
  k = await startTestKelvin();
  const t = await createTenantWithProject(k.db, 'monx', ['device20020', 'device20020:export']);
  projectId = t.projectId;
  token = await k.login(t.username, t.password);
  await createUser(k.db, { tenantId: t.tenantId, username: 'monx_view', password: 'monx-Pass#2026', codes: ['device20020'] });
  noExport = await k.login('monx_view', 'monx-Pass#2026');
  await createUser(k.db, { tenantId: t.tenantId, username: 'monx_other', password: 'monx-Pass#2026', codes: ['device20020', 'device20090:export'] });
  otherExport = await k.login('monx_other', 'monx-Pass#2026');
  const floor1 = await createArea(k.db, { tenantId: t.tenantId, parentId: t.buildingId, level: 'floor', name: '1层' });
  floor2 = await createArea(k.db, { tenantId: t.tenantId, parentId: t.buildingId, level: 'floor', name: '2层' });
  await thermostat('T-1', floor1, now + HOUR, { f00: 1, f03: 20.5, f04: 22 });
  await thermostat('T-2', floor1, now + HOUR, { f00: 0, f03: 22.5 });
  // offline 2 h ago: its stale temperature and power do not count
  await thermostat('T-3', floor2, now - 2 * HOUR, { f00: 1, f03: 30 });
  // offline 10 days ago: not a recent offline message (7 days)
  await thermostat('T-4', floor2, now - 10 * DAY, {});
  // never reported: never went offline
  await thermostat('T-5', floor2, null, {});
  // another type: not on this page
  await thermostat('M-1', floor1, now + HOUR, { f70: 10 }, 'device20090');
  // two active alarms on T-1, a cleared one on T-2
  for (const [i, device, status] of [[1, 'T-1', 'active'], [2, 'T-1', 'active'], [3, 'T-2', 'cleared']] as const) {
    const rule = await k.db.insertInto('monitor_rule').values({
      tenant_id: t.tenantId, project_id: projectId, name: `规则${i}`, device_type: 'device20020', field_code: 'f03', operator: '>', threshold: 28, threshold_high: null,
      for_seconds: 0, severity: 'warning', notify_sms: 0, enabled: 0, active_from: null, active_to: null, updated_by: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    await k.db.insertInto('monitor_message').values({
      tenant_id: t.tenantId, project_id: projectId, rule_id: rule.id, device_id: ids[device], device_code: device, device_name: device, device_type: 'device20020',
      rule_name: `规则${i}`, field_code: 'f03', description: '室温过高', value: '30', severity: 'warning', status, read: 0, read_by: null, read_at: null, comment: null,
      created_at: now, cleared_at: status === 'cleared' ? now : null,
    }).execute();
  }
});
afterAll(() => k?.close());

const data = async (url: string, as = token) => {
  const res = await k.call('GET', url, { token: as });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

describe('设备监控：统计、平均温度、离线消息、导出', () => {
  it('statistic over the devices shown: power and the mean room temperature of the online ones, active alarms', async () => {
    expect(await data(`/api/v1/device/monitor/statistic?projectId=${projectId}&deviceType=device20020`)).toEqual({
      total: 5, online: 2, offline: 3, poweredOn: 1, alarms: 2, avgRoomTemp: 21.5, tempDevices: 2,
    });
    // the table's filters apply: floor 2 only holds offline devices
    expect(await data(`/api/v1/device/monitor/statistic?projectId=${projectId}&deviceType=device20020&areaId=${floor2}`)).toEqual({
      total: 3, online: 0, offline: 3, poweredOn: 0, alarms: 0, avgRoomTemp: null, tempDevices: 0,
    });
    expect((await data(`/api/v1/device/monitor/statistic?projectId=${projectId}&deviceType=device20020&keyword=t-2`)).total).toBe(1);
  });

  it('offline messages: went offline in the last days, most recent first, with how long', async () => {
    const page = await data(`/api/v1/device/monitor/offlinemessage?projectId=${projectId}&deviceType=device20020`);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ deviceCode: 'T-3', areaPath: '1号楼 / 2层', offlineSince: now - 2 * HOUR, lastReportAt: now - 2 * HOUR - 600_000 });
    expect(page.rows[0].offlineMs).toBeGreaterThanOrEqual(2 * HOUR);
    const month = await data(`/api/v1/device/monitor/offlinemessage?projectId=${projectId}&deviceType=device20020&days=30`);
    expect(month.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['T-3', 'T-4']);
  });

  it('exports the rows of the same filters with the type\'s list fields', async () => {
    const res = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/device/monitor/export?projectId=${projectId}&deviceType=device20020&online=1`, headers: { authorization: token } });
    expect(res.statusCode).toBe(200);
    const lines = await xlsxText(res.rawPayload);
    expect(lines[0]).toContain('室内温度（°C）');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('T-1');
    expect(lines[1]).toContain('开机');
    expect(lines[1]).toContain('20.5');
    expect(lines[2]).toContain('T-2');
  });

  it('export needs the page\'s export element for that type', async () => {
    const url = `/api/v1/device/monitor/export?projectId=${projectId}&deviceType=device20020`;
    expect((await k.call('GET', url, { token: noExport })).body.code).toBe(40301);
    expect((await k.call('GET', url, { token: otherExport })).body.code).toBe(40301);
    // and viewing needs the type's page
    expect((await k.call('GET', `/api/v1/device/monitor/statistic?projectId=${projectId}&deviceType=device20090`, { token: noExport })).body.code).toBe(40301);
  });
});
