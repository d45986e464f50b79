import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../../test/harness.ts';
import { connectDevice, createTestDevice, upPayload, type TestDevice } from '../devices/test-fixtures.ts';

let k: TestClient;
let a: TenantWithProject, token: string, tokenB: string;
let dev: TestDevice;
let client: MqttClient;

const CODES = ['projectlist', 'monitorrules', 'monitorrules:btn_add', 'monitorrules:btn_edit', 'monitorrules:btn_del', 'defaultSmsSetting', 'defaultSmsSetting:btn_edit', 'smsRecordList', 'smsRecordList:view'];

/** Publishes a report with its own timestamp and waits until it is stored and evaluated. */
async function report(d: TestDevice, c: MqttClient, fields: Record<string, number>, ts: number) {
  await c.publishAsync(d.topics.up, upPayload(fields, ts), { qos: 1 });
  await k.kelvin.devices.ingest.writer.flush();
  await k.kelvin.monitoring.engine.idle();
}

const messages = async (q = '') => (await k.call('GET', `/api/v1/device/monitormessage?projectId=${a.projectId}${q}`, { token })).body.data;
const bell = async () => (await k.call('GET', `/api/v1/device/monitormessageqty/${a.projectId}`, { token })).body.data;
const newRule = async (body: Record<string, unknown>) => {
  const res = await k.call('POST', '/api/v1/monitorrule', { token, body: { projectId: a.projectId, severity: 'major', notifySms: false, enabled: true, forSeconds: 0, ...body } });
  expect(res.body).toMatchObject({ code: 200, data: { id: expect.any(Number) } });
  return res.body.data.id as number;
};

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  ({ a, tokenA: token, tokenB } = await twoTenants(k, 'mon', CODES));
  dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20020' });
  client = await connectDevice(k, dev);
});
afterAll(async () => {
  await client?.endAsync();
  await k?.close();
});

describe('监控规则与告警', () => {
  it('a report over the threshold raises one alarm per device and rule, a normal one clears it, a new breach raises again', async () => {
    const ruleId = await newRule({ name: '房间过热', deviceType: 'device20020', fieldCode: 'f03', operator: 'gt', threshold: 30 });
    const list = await k.call('GET', `/api/v1/monitorrule?projectId=${a.projectId}&pageNo=1&pageSize=20`, { token });
    expect(list.body.data.rows[0]).toMatchObject({ id: ruleId, operator: 'gt', threshold: 30, severityLabel: '重要', description: '室内温度 > 30.0 °C' });
    const t0 = Date.now() - 60_000;
    await report(dev, client, { f03: 28 }, t0);
    expect(await bell()).toBe(0);
    await report(dev, client, { f03: 35 }, t0 + 1000);
    await report(dev, client, { f03: 36 }, t0 + 2000);
    const raised = await messages('&status=active');
    expect(raised.total).toBe(1);
    expect(raised.rows[0]).toMatchObject({ ruleId, deviceId: dev.id, fieldCode: 'f03', value: '35.0 °C', severity: 'major', status: 'active', read: false, createdAt: t0 + 1000 });
    expect(await bell()).toBe(1);
    // the project's figures (project list, map status) count today's alarms
    const projectsPage = await k.call('GET', '/api/v1/area/project/list?pageNo=1&pageSize=20', { token });
    expect(projectsPage.body.data.rows.find((p: { id: number }) => p.id === a.projectId)).toMatchObject({ counts: { alarmsToday: 1 } });
    await report(dev, client, { f03: 26 }, t0 + 3000);
    expect((await messages('&status=active')).total).toBe(0);
    expect((await messages('&status=cleared')).rows[0]).toMatchObject({ id: raised.rows[0].id, clearedAt: t0 + 3000 });
    await report(dev, client, { f03: 31 }, t0 + 4000);
    expect((await messages('&status=active')).total).toBe(1);
    expect(await bell()).toBe(2);
  });

  it('"for N seconds": the breach must hold that long (by the reports\' own times) before it raises', async () => {
    await newRule({ name: '房间过冷', deviceType: 'device20020', fieldCode: 'f03', operator: 'lt', threshold: 16, forSeconds: 60 });
    const t0 = Date.now() - 50_000;
    const before = (await messages()).total;
    await report(dev, client, { f03: 15 }, t0);
    await report(dev, client, { f03: 14 }, t0 + 30_000);
    expect((await messages()).total).toBe(before);
    await report(dev, client, { f03: 14.5 }, t0 + 61_000);
    expect((await messages('&status=active')).rows.map((r: { ruleName: string }) => r.ruleName)).toContain('房间过冷');
    // a breach that is interrupted starts over
    await report(dev, client, { f03: 20 }, t0 + 62_000);
  });

  it('every value operator: gte, lte, ne, outside a range, changed by more than X, N reports in a row (worked by hand)', async () => {
    const d = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20020' });
    const c = await connectDevice(k, d);
    const ids = {
      gte: await newRule({ name: '设定≥28', deviceType: 'device20020', fieldCode: 'f04', operator: 'gte', threshold: 28 }),
      lte: await newRule({ name: '设定≤10', deviceType: 'device20020', fieldCode: 'f04', operator: 'lte', threshold: 10 }),
      ne: await newRule({ name: '模式不是制热', deviceType: 'device20020', fieldCode: 'f01', operator: 'ne', threshold: 1 }),
      outside: await newRule({ name: '地温超范围', deviceType: 'device20020', fieldCode: 'f08', operator: 'outside', threshold: 15, thresholdHigh: 35 }),
      delta: await newRule({ name: '室温突变', deviceType: 'device20020', fieldCode: 'f03', operator: 'delta', threshold: 5 }),
      rows: await newRule({ name: '连续三次偏高', deviceType: 'device20020', fieldCode: 'f03', operator: 'gt', threshold: 25, forReports: 3 }),
    };
    const rules = (await k.call('GET', `/api/v1/monitorrule?projectId=${a.projectId}&pageSize=100`, { token })).body.data.rows as { id: number; description: string; thresholdHigh: number | null; forReports: number }[];
    expect(rules.find((r) => r.id === ids.outside)).toMatchObject({ thresholdHigh: 35, description: '地面温度 超出 15.0 °C～35.0 °C' });
    expect(rules.find((r) => r.id === ids.delta)?.description).toBe('室内温度 两次上报之间变化超过 5.0 °C');
    expect(rules.find((r) => r.id === ids.rows)).toMatchObject({ forReports: 3, description: '室内温度 > 25.0 °C，连续 3 次' });
    const open = async () => {
      const rows = (await messages(`&status=active&deviceId=${d.id}&pageSize=100`)).rows as { ruleId: number; value: string }[];
      return Object.fromEntries(Object.entries(ids).filter(([, id]) => rows.some((m) => m.ruleId === id)).map(([op, id]) => [op, rows.find((m) => m.ruleId === id)!.value]));
    };
    const t0 = Date.now() - 120_000;
    // 20 °C set, heating, floor 25 °C, room 20 °C: nothing breaks
    await report(d, c, { f04: 20, f01: 1, f08: 25, f03: 20 }, t0);
    expect(await open()).toEqual({});
    // set 28 (≥ 28), cooling (≠ 1), floor 14.9 (< 15), room 20 → 26 (+6 > 5; first of three > 25)
    await report(d, c, { f04: 28, f01: 0, f08: 14.9, f03: 26 }, t0 + 1000);
    expect(await open()).toEqual({ gte: '28.0 °C', ne: '制冷', outside: '14.9 °C', delta: '26.0 °C' });
    // set 27.5 (< 28 clears), heating again, floor 35 (inside, clears), room 26 → 27 (+1 clears; second > 25)
    await report(d, c, { f04: 27.5, f01: 1, f08: 35, f03: 27 }, t0 + 2000);
    expect(await open()).toEqual({});
    // set 10 (≤ 10), floor 35.1 (> 35), room 27 → 26.5 (third > 25 in a row)
    await report(d, c, { f04: 10, f08: 35.1, f03: 26.5 }, t0 + 3000);
    expect(await open()).toEqual({ lte: '10.0 °C', outside: '35.1 °C', rows: '26.5 °C' });
    // room 26.5 → 20: the row clears; the drop of 6.5 is a delta breach again
    await report(d, c, { f04: 20, f08: 25, f03: 20 }, t0 + 4000);
    expect(await open()).toEqual({ delta: '20.0 °C' });
    // a row interrupted starts over: > 25 twice, 24, > 25 twice → nothing
    for (const [i, v] of [26, 26.2, 24, 26, 26.1].entries()) await report(d, c, { f03: v }, t0 + 5000 + i * 1000);
    expect((await open()).rows).toBeUndefined();
    await report(d, c, { f03: 26.3 }, t0 + 10_000);
    expect((await open()).rows).toBe('26.3 °C');
    await c.endAsync();
    // deleting the rules ends their open alarms (the other tests count on a quiet project)
    await k.call('POST', '/api/v1/monitorrule/delete', { token, body: { ids: Object.values(ids) } });
    expect(await open()).toEqual({});
  });

  it('an outside rule needs an upper end above the lower; a delta rule a positive change', async () => {
    for (const body of [
      { operator: 'outside', threshold: 15 },
      { operator: 'outside', threshold: 15, thresholdHigh: 15 },
      { operator: 'delta', threshold: 0 },
      { operator: 'gt', threshold: 1, forReports: -1 },
    ]) {
      const res = await k.call('POST', '/api/v1/monitorrule', { token, body: { projectId: a.projectId, name: '坏', deviceType: 'device20020', fieldCode: 'f03', severity: 'major', ...body } });
      expect(res.body.code).toBe(40000);
      expect(res.body.msg).toMatch(/上限|变化量|连续次数/);
    }
  });

  it('acknowledging marks read with who and a comment; closing ends an active alarm; the bell counts unread only', async () => {
    const unread = await messages('&read=0');
    expect(unread.total).toBeGreaterThan(0);
    const ids = unread.rows.map((r: { id: number }) => r.id);
    const ack = await k.call('POST', '/api/v1/device/monitormessage/ack', { token, body: { ids: [ids[0]], comment: '已通知物业上门查看' } });
    expect(ack.body.code).toBe(200);
    const one = (await k.call('GET', `/api/v1/device/monitormessage/${ids[0]}`, { token })).body.data;
    expect(one).toMatchObject({ read: true, readBy: a.username, comment: '已通知物业上门查看', readAt: expect.any(Number) });
    expect(await bell()).toBe(unread.total - 1);
    await report(dev, client, { f03: 33 }, Date.now() - 1000);
    const active = await messages('&status=active');
    expect(active.total).toBe(1);
    const close = await k.call('POST', '/api/v1/device/closemessage', { token, body: { ids: active.rows.map((r: { id: number }) => r.id) } });
    expect(close.body.data.updated).toBe(active.total);
    expect((await messages('&status=active')).total).toBe(0);
  });

  it('offline rules: a device silent longer than the threshold raises at the sweep, a report clears it', async () => {
    const silent = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20090' });
    await newRule({ name: '电表离线', deviceType: 'device20090', fieldCode: '', operator: 'offline', threshold: 10, severity: 'critical' });
    await k.kelvin.monitoring.engine.sweep(Date.now() + 11 * 60_000);
    const raised = await messages(`&status=active&deviceId=${silent.id}`);
    expect(raised.rows[0]).toMatchObject({ deviceId: silent.id, severityLabel: '紧急', value: expect.stringMatching(/^1[01] 分钟未上报$/), description: '超过 10 分钟没有上报' });
    const c = await connectDevice(k, silent);
    await c.publishAsync(silent.topics.up, upPayload({ f01: 1 }), { qos: 1 });
    await k.kelvin.devices.ingest.writer.flush();
    await k.kelvin.monitoring.engine.sweep();
    expect((await messages(`&status=active&deviceId=${silent.id}`)).total).toBe(0);
    await c.endAsync();
  });

  it('an alarm of a rule with SMS on is sent to the tenant\'s alarm phones (recorded by the default provider)', async () => {
    const set = await k.call('PUT', '/api/v1/sms/setting', { token, body: { alarm: true, enabled: true, alarmPhones: ['13800138000'] } });
    expect(set.body.code).toBe(200);
    await newRule({ name: '锁定告警', deviceType: 'device20020', fieldCode: 'f10', operator: 'eq', threshold: 2, notifySms: true, severity: 'minor' });
    await report(dev, client, { f10: 2 }, Date.now() - 1000);
    const records = await k.call('GET', '/api/v1/sms/record/page?pageNo=1&pageSize=20', { token });
    expect(records.body.data.rows[0]).toMatchObject({ phone: '13800138000', kind: 'alarm' });
    expect(records.body.data.rows[0].content).toContain('锁定告警');
  });

  it('bad input is refused in Chinese and changes nothing; another tenant sees nothing and cannot act', async () => {
    const before = (await k.call('GET', `/api/v1/monitorrule?projectId=${a.projectId}`, { token })).body.data.total;
    for (const body of [
      { name: '坏', deviceType: 'device20020', fieldCode: 'f03', operator: 'between', threshold: 1 },
      { name: '坏', deviceType: 'device20020', fieldCode: 'zz99', operator: 'gt', threshold: 1 },
      { name: '坏', deviceType: 'device20020', fieldCode: 'f03', operator: 'gt', threshold: 'x' },
      { name: '坏', deviceType: 'device20090', fieldCode: '', operator: 'offline', threshold: 0 },
    ]) {
      const res = await k.call('POST', '/api/v1/monitorrule', { token, body: { projectId: a.projectId, severity: 'major', ...body } });
      expect(res.body.code).toBe(40000);
      expect(res.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await k.call('GET', `/api/v1/monitorrule?projectId=${a.projectId}`, { token })).body.data.total).toBe(before);
    expect((await k.call('GET', `/api/v1/monitorrule?projectId=${a.projectId}`, { token: tokenB })).body.code).toBe(40400);
    expect((await k.call('GET', `/api/v1/device/monitormessageqty/${a.projectId}`, { token: tokenB })).body.code).toBe(40400);
    const mine = (await messages()).rows[0].id;
    expect((await k.call('GET', `/api/v1/device/monitormessage/${mine}`, { token: tokenB })).body.code).toBe(40400);
    expect((await k.call('POST', '/api/v1/device/closemessage', { token: tokenB, body: { ids: [mine] } })).body.code).toBe(40400);
    const withoutCode = await k.call('POST', '/api/v1/monitorrule', { token: tokenB, body: {} });
    expect(withoutCode.body.code).toBe(40000);
  });
});
