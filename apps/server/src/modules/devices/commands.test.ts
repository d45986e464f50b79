import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { createTenantWithProject, createUser, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { connectDevice, createTestDevice, nextMessage, upPayload, waitFor, type TestDevice } from './test-fixtures.ts';

let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;
let token: string;

const command = async (id: number) => (await k.call('GET', `/api/v1/device/command/${id}`, { token })).body.data;
const commandRows = (deviceId: number) => k.db.selectFrom('device_command').selectAll().where('device_id', '=', deviceId).execute();

/** A device that acknowledges every command it receives (or refuses with `refuse`). */
function obey(client: MqttClient, dev: TestDevice, refuse?: string) {
  client.on('message', (_t, payload) => {
    const { id } = JSON.parse(payload.toString());
    client.publish(dev.topics.ack, JSON.stringify(refuse ? { id, ok: false, error: refuse } : { id, ok: true }), { qos: 1 });
  });
}

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  a = await createTenantWithProject(k.db, 'cmda', ['devicemonitor', 'devicemonitor:control', 'deviceoperationlog']);
  token = await k.login(a.username, a.password);
});
afterAll(() => k?.close());

describe('写设备字段', () => {
  it('a command to a connected device is sent, acknowledged, and logged with who/what/result', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, dev);
    const received = nextMessage(client);
    obey(client, dev);
    const res = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f04/24.5`, { token });
    expect(res.body.code).toBe(200);
    // the device may acknowledge before the answer leaves
    expect(res.body.data).toMatchObject({ commandId: expect.any(Number), status: expect.stringMatching(/^(sent|acked)$/) });
    expect((await received).body).toEqual({ id: res.body.data.commandId, fields: { f04: 24.5 } });
    const done = await waitFor(async () => {
      const c = await command(res.body.data.commandId);
      return c.status === 'acked' ? c : undefined;
    });
    expect(done).toMatchObject({ deviceId: dev.id, fieldCode: 'f04', value: 24.5, description: '设定温度 → 24.5 °C', statusLabel: '已执行', username: a.username });
    expect(done.sentAt).toBeGreaterThanOrEqual(done.createdAt);
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.sentAt);
    // the log row follows the command's status in the statement after it
    const logged = await waitFor(async () => {
      const row = (await k.call('GET', `/api/v1/device/operationlog?deviceId=${dev.id}`, { token })).body.data.rows[0];
      return row?.result === '已执行' ? row : undefined;
    });
    expect(logged).toMatchObject({ commandId: done.id, operation: '写入参数', detail: '设定温度 → 24.5 °C', result: '已执行', username: a.username, deviceCode: dev.code });
    const flag = await k.db.selectFrom('device').select('command_pending_at').where('id', '=', dev.id).executeTakeFirstOrThrow();
    expect(flag.command_pending_at).toBeNull();
    await client.endAsync();
  });

  it('a device that refuses gets the command rejected with its reason', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, dev);
    obey(client, dev, '设定温度超出设备限值 5～35 °C');
    const res = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f04/36`, { token });
    const done = await waitFor(async () => {
      const c = await command(res.body.data.commandId);
      return c.status === 'rejected' ? c : undefined;
    });
    expect(done.error).toBe('设定温度超出设备限值 5～35 °C');
    const log = await k.call('GET', `/api/v1/device/operationlog?deviceId=${dev.id}`, { token });
    expect(log.body.data.rows[0].result).toBe('设备拒绝');
    await client.endAsync();
  });

  it('out-of-range and unknown writes are refused with 40000 naming the allowed range, and nothing is sent or stored', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, dev);
    const got: string[] = [];
    client.on('message', (_t, p) => got.push(p.toString()));
    for (const [url, msg] of [
      [`f04/41`, '「设定温度」取值范围为 10～40 °C，步长 0.5'],
      [`f04/abc`, '「设定温度」取值范围为 10～40 °C，步长 0.5'],
      [`f05/-10`, '「温度校正」取值范围为 -9～9 °C'],
      [`f01/9`, '「运行模式」只能取 0（制冷）、1（制热（空调））、2（通风）、3（地暖制热）、4（节能）、5（循环）、6（恢复上次）'],
      [`f28/25:00`, '「定时开机」应为 HH:MM（00:00～23:59）'],
      [`f03/20`, '「室内温度」是只读数据，不能写入'],
    ]) {
      const res = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/${url}`, { token });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toMatchObject({ code: 40000, msg });
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toEqual([]);
    expect(await commandRows(dev.id)).toEqual([]);
    await client.endAsync();
  });

  it('a command to an offline device waits, and is delivered when the device connects (each time it comes back)', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const res = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f00/0`, { token });
    expect(res.body.data.status).toBe('pending');
    expect(res.body.msg).toContain('上线后下发');
    // connect without subscribing: nothing can be delivered yet
    const client = await connectDevice(k, dev, { subscribe: false });
    const received = nextMessage(client);
    obey(client, dev);
    await client.subscribeAsync(dev.topics.down, { qos: 1 });
    expect((await received).body).toEqual({ id: res.body.data.commandId, fields: { f00: 0 } });
    await waitFor(async () => (await command(res.body.data.commandId)).status === 'acked');
    await client.endAsync();

    const second = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f00/1`, { token });
    expect(second.body.data.status).toBe('pending');
    const again = await connectDevice(k, dev, { subscribe: false });
    await again.subscribeAsync(dev.topics.down, { qos: 1 });
    const msg = await nextMessage(again);
    expect(msg.body.id).toBe(second.body.data.commandId);
    await again.endAsync();
  });

  it('a command not delivered within its TTL expires and is never sent afterwards', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const res = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f04/20?ttl=60`, { token });
    expect(res.body.data.status).toBe('pending');
    const expired = await k.kelvin.devices.commands.expireDue(Date.now() + 61_000);
    expect(expired).toBeGreaterThanOrEqual(1);
    const c = await command(res.body.data.commandId);
    expect(c).toMatchObject({ status: 'expired', statusLabel: '已过期', error: '设备不在线，有效期内未能下发' });
    const log = await k.call('GET', `/api/v1/device/operationlog?deviceId=${dev.id}`, { token });
    expect(log.body.data.rows[0].result).toBe('已过期');
    const client = await connectDevice(k, dev, { subscribe: false });
    const got: string[] = [];
    client.on('message', (_t, p) => got.push(p.toString()));
    await client.subscribeAsync(dev.topics.down, { qos: 1 });
    await client.publishAsync(dev.topics.up, upPayload({ f04: 21 }), { qos: 1 });
    await new Promise((r) => setTimeout(r, 300));
    expect(got).toEqual([]);
    // a late acknowledgement changes nothing
    await client.publishAsync(dev.topics.ack, JSON.stringify({ id: res.body.data.commandId, ok: true }), { qos: 1 });
    expect((await command(res.body.data.commandId)).status).toBe('expired');
    await client.endAsync();
  });

  it('a device cannot acknowledge another device\'s command', async () => {
    const target = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const other = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const res = await k.call('POST', `/api/v1/device/writedeviceattr/${target.id}/f04/22`, { token });
    const client = await connectDevice(k, other);
    await client.publishAsync(other.topics.ack, JSON.stringify({ id: res.body.data.commandId, ok: true }), { qos: 1 });
    expect((await command(res.body.data.commandId)).status).toBe('pending');
    await client.endAsync();
  });

  it('refresh and operations go to the device as actions; unsupported ones are refused', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, dev);
    const received = nextMessage(client);
    const res = await k.call('POST', `/api/v1/device/refreshdevice/${dev.id}`, { token });
    expect(res.body.data.status).toBe('sent'); // this device never acknowledges
    expect((await received).body).toEqual({ id: res.body.data.commandId, action: 'refresh', fields: {} });
    const reboot = await k.call('POST', `/api/v1/device/operation/${dev.id}?eventType=reboot`, { token });
    expect(reboot.body.data.command.description).toBe('重启设备');
    const bad = await k.call('POST', `/api/v1/device/operation/${dev.id}?eventType=resetAlarm`, { token });
    expect(bad.body).toMatchObject({ code: 40000, msg: '地暖温控器不支持「复位报警」' });
    await client.endAsync();
  });
});

describe('控制权限', () => {
  it('needs the page control element (device20020:control) or devicemonitor:control; viewing alone is not enough', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    await createUser(k.db, { tenantId: a.tenantId, username: 'cmd_viewer', password: 'Viewer#2026', codes: ['device20020'] });
    await createUser(k.db, { tenantId: a.tenantId, username: 'cmd_ctl', password: 'Control#2026', codes: ['device20020', 'device20020:control'] });
    await createUser(k.db, { tenantId: a.tenantId, username: 'cmd_other', password: 'Other#2026', codes: ['device20030', 'device20030:control'] });
    const viewer = await k.login('cmd_viewer', 'Viewer#2026');
    const denied = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f04/22`, { token: viewer });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(40301);
    expect((await k.call('GET', `/api/v1/device/detail/${dev.id}`, { token: viewer })).body.code).toBe(200);
    const ctl = await k.login('cmd_ctl', 'Control#2026');
    expect((await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f04/22`, { token: ctl })).body.code).toBe(200);
    const other = await k.login('cmd_other', 'Other#2026');
    expect((await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f04/22`, { token: other })).body.code).toBe(40301);
    expect((await k.call('GET', `/api/v1/device/detail/${dev.id}`, { token: other })).body.code).toBe(40301);
    expect((await k.call('GET', '/api/v1/device/operationlog', { token: viewer })).body.code).toBe(40301);
    const denials = await k.db.selectFrom('gate_log').select(['uri', 'status']).where('username', '=', 'cmd_viewer').where('status', '=', 403).execute();
    expect(denials.map((d) => d.uri)).toContain(`/api/v1/device/writedeviceattr/${dev.id}/f04/22`);
  });
});
