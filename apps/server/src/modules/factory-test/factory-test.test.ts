import ExcelJS from 'exceljs';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACTORY_BENCH_BY_CODE, DEVICE_TYPE_BY_CODE } from '@kelvin/contracts';
import { startTestKelvin, type TestClient } from '../../test/harness.ts';
import { twoTenantsWithRoom } from '../device-management/test-fixtures.ts';
import { connectDevice, createTestDevice, upPayload, waitFor, type TestDevice } from '../devices/test-fixtures.ts';

let k: TestClient;
let a: Awaited<ReturnType<typeof twoTenantsWithRoom>>['a'];
let tokenA: string;
let tokenB: string;
let roomA: number;
const clients: MqttClient[] = [];

const CODES = ['testEquipment_n', 'testEquipment_n:control', 'equipmentRecords_n', 'equipmentRecords_n:export', 'testDeviceStatus', 'testBLDCXEquipment', 'testSolarEquipment', 'testSolarEquipment:control'];

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  ({ a, tokenA, tokenB, roomA } = await twoTenantsWithRoom(k, CODES, { a: 'fta', b: 'ftb', projectType: 'PT5000', floor: '测试台', room: '工位1' }));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await k?.close();
});

/**
 * A device on the bench: reports its state, obeys writes and refreshes (acknowledging, then reporting the new state),
 * refuses what `refuse` names, and says nothing at all when `silent`.
 */
async function benchDevice(dev: TestDevice, state: Record<string, number>, opts: { refuse?: (fields: Record<string, number>) => string | null; silent?: boolean } = {}) {
  const client = await connectDevice(k, dev);
  clients.push(client);
  client.on('message', (_t, payload) => {
    if (opts.silent) return;
    const msg = JSON.parse(payload.toString()) as { id: number; fields?: Record<string, number>; action?: string };
    const refused = msg.fields && opts.refuse?.(msg.fields);
    if (refused) {
      client.publish(dev.topics.ack, JSON.stringify({ id: msg.id, ok: false, error: refused }), { qos: 1 });
      return;
    }
    Object.assign(state, msg.fields ?? {});
    client.publish(dev.topics.ack, JSON.stringify({ id: msg.id, ok: true }), { qos: 1 });
    client.publish(dev.topics.up, upPayload(state), { qos: 1 });
  });
  await client.publishAsync(dev.topics.up, upPayload(state), { qos: 1 });
  await waitFor(async () => ((await k.db.selectFrom('device').select('online_until').where('id', '=', dev.id).executeTakeFirst())?.online_until ?? 0) > Date.now());
  return client;
}

const start = (token: string, body: unknown) => k.call('POST', '/api/v1/device/factorytest/run', { token, body });
const run = async (id: number, token = tokenA) => (await k.call('GET', `/api/v1/device/factorytest/runs/${id}`, { token })).body;
const finished = (id: number, timeoutMs = 20_000) => waitFor(async () => {
  const r = (await run(id)).data;
  return r.status !== 'running' ? r : undefined;
}, timeoutMs);

const THERMOSTAT = { f00: 0, f01: 1, f02: 0, f03: 21.5, f04: 22, f05: 0, f06: 0, f10: 0, f12: 5, f13: 35, f14: 0, f18: 1, f45: 1 };

describe('出厂测试', () => {
  it('runs the scripted check through real commands and passes when the device obeys and reports back', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20000' });
    const state = { ...THERMOSTAT };
    await benchDevice(dev, state);
    const res = await start(tokenA, { bench: 'testEquipment_n', deviceIds: [dev.id], stepTimeoutSeconds: 10 });
    expect(res.body.code).toBe(200);
    const done = await finished(res.body.data[0].id);
    const script = FACTORY_BENCH_BY_CODE.get('testEquipment_n')!.script(DEVICE_TYPE_BY_CODE.get('device20000')!);
    expect(done.steps.map((s: { label: string }) => s.label)).toEqual(script.map((s) => s.label));
    expect(done.steps.map((s: { label: string }) => s.label)).toEqual([
      '在线检查', '电源：开机', '运行模式：制冷', '运行模式：制热（空调）', '运行模式：通风', '运行模式：地暖制热', '运行模式：节能', '运行模式：循环',
      '设定温度：25.0 °C', '刷新数据', '数据上报：室内温度、阀门状态', '电源：关机',
    ]);
    expect(done).toMatchObject({ status: 'passed', statusLabel: '通过', passed: 12, failed: 0, stepCount: 12, username: a.username });
    expect(done.steps.every((s: { status: string }) => s.status === 'passed')).toBe(true);
    expect(done.steps[8].message).toBe('设备已执行并回报 25.0 °C');
    // each write went out as a command and is in the device's operation log
    const commands = await k.db.selectFrom('device_command').select(['field_code', 'value', 'status']).where('device_id', '=', dev.id).orderBy('id').execute();
    expect(commands.map((c) => `${c.field_code ?? 'refresh'}=${c.value ?? ''}:${c.status}`)).toEqual([
      'f00=1:acked', 'f01=0:acked', 'f01=1:acked', 'f01=2:acked', 'f01=3:acked', 'f01=4:acked', 'f01=5:acked', 'f04=25:acked', 'refresh=:acked', 'f00=0:acked',
    ]);
    expect(state).toMatchObject({ f00: 0, f01: 5, f04: 25 });
    const log = await k.db.selectFrom('device_operation_log').select('result').where('device_id', '=', dev.id).execute();
    expect(log).toHaveLength(10);
  });

  it('a refused step fails with the device\'s reason while the others still run; the run does not pass', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20000' });
    await benchDevice(dev, { ...THERMOSTAT }, { refuse: (f) => (f.f01 === 2 ? '风机故障，不能通风' : null) });
    const res = await start(tokenA, { bench: 'testEquipment_n', deviceIds: [dev.id], stepTimeoutSeconds: 10 });
    const done = await finished(res.body.data[0].id);
    expect(done).toMatchObject({ status: 'failed', statusLabel: '未通过', passed: 11, failed: 1 });
    expect(done.steps.find((s: { status: string }) => s.status === 'failed')).toMatchObject({ label: '运行模式：通风', message: '设备拒绝：风机故障，不能通风' });
    const failedOnly = await k.call('GET', `/api/v1/device/factorytest/runs?projectId=${a.projectId}&status=failed&keyword=${dev.code}`, { token: tokenA });
    expect(failedOnly.body.data.rows.map((r: { id: number }) => r.id)).toEqual([done.id]);
  });

  it('a device that does not come online fails the online step after the timeout; the rest is not executed', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'deviceSolar_n' });
    const res = await start(tokenA, { bench: 'testSolarEquipment', deviceIds: [dev.id], stepTimeoutSeconds: 5 });
    expect(res.body.data[0]).toMatchObject({ status: 'running', benchTitle: '光伏设备测试' });
    const busy = await start(tokenA, { bench: 'testSolarEquipment', deviceIds: [dev.id], stepTimeoutSeconds: 5 });
    expect(busy.body).toMatchObject({ code: 40900, msg: `设备「${dev.code}」正在测试中，请等待本轮结束或先停止` });
    const done = await finished(res.body.data[0].id);
    expect(done).toMatchObject({ status: 'failed', passed: 0, failed: 1 });
    expect(done.steps[0]).toMatchObject({ status: 'failed', message: '设备在 5 秒内未上线' });
    expect(done.steps.slice(1).every((s: { status: string; message: string }) => s.status === 'skipped' && s.message === '设备不在线，未执行')).toBe(true);
    expect(await k.db.selectFrom('device_command').select('id').where('device_id', '=', dev.id).execute()).toEqual([]);
  }, 20_000);

  it('an operator stops a run whose device never answers; a run left by a dead process is marked interrupted', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20000' });
    await benchDevice(dev, { ...THERMOSTAT }, { silent: true });
    const res = await start(tokenA, { bench: 'testEquipment_n', deviceIds: [dev.id], stepTimeoutSeconds: 60 });
    const id = res.body.data[0].id;
    await waitFor(async () => (await run(id)).data.steps[1].status === 'running');
    const stopped = await k.call('POST', `/api/v1/device/factorytest/runs/${id}/stop`, { token: tokenA });
    expect(stopped.body.data).toMatchObject({ status: 'aborted', statusLabel: '已中断' });
    expect(stopped.body.data.steps.slice(2).every((s: { status: string; message: string }) => s.status === 'skipped' && s.message === '已手动停止')).toBe(true);
    expect((await k.call('POST', `/api/v1/device/factorytest/runs/${id}/stop`, { token: tokenA })).body.code).toBe(40900);

    const now = Date.now();
    const ghost = await k.db.insertInto('factory_test_run').values({
      tenant_id: a.tenantId, project_id: a.projectId, device_id: dev.id, device_code: dev.code, device_name: 'x', device_type: 'device20000',
      bench: 'testEquipment_n', status: 'running', step_count: 1, passed: 0, failed: 0, step_timeout_s: 30, user_id: null, username: null,
      started_at: now - 3_600_000, finished_at: null, heartbeat_at: now - 3_600_000,
    }).returning('id').executeTakeFirstOrThrow();
    await k.db.insertInto('factory_test_step').values({ run_id: ghost.id, seq: 0, kind: 'online', label: '在线检查', field_code: null, value: null, status: 'running', message: null, command_id: null, started_at: now - 3_600_000, finished_at: null }).execute();
    const reaped = (await run(ghost.id)).data;
    expect(reaped).toMatchObject({ status: 'aborted' });
    expect(reaped.steps[0]).toMatchObject({ status: 'skipped', message: '测试中断（服务重启或停止）' });
  });

  it('refuses a bench without its control element, a type the bench cannot test, and another tenant\'s device', async () => {
    const fan = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20040' });
    const meter = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20090' });
    expect((await start(tokenA, { bench: 'testBLDCXEquipment', deviceIds: [fan.id] })).body.code).toBe(40301);
    const wrongType = await start(tokenA, { bench: 'testSolarEquipment', deviceIds: [meter.id] });
    expect(wrongType.body).toMatchObject({ code: 40000, msg: `电能表「${meter.code}」不能在「光伏设备测试」上测试` });
    expect((await start(tokenB, { bench: 'testEquipment_n', deviceIds: [fan.id] })).body).toMatchObject({ code: 40000, msg: `设备 ${fan.id} 不存在` });
    expect((await start(tokenA, { bench: 'testEquipment_n', deviceIds: [fan.id], stepTimeoutSeconds: 2 })).body.code).toBe(40000);
    expect((await start(tokenA, { bench: 'nosuch', deviceIds: [fan.id] })).body.code).toBe(40000);
  });

  it('records, device status and the export stay within the tenant', async () => {
    const list = await k.call('GET', `/api/v1/device/factorytest/runs?projectId=${a.projectId}`, { token: tokenA });
    expect(list.body.data.total).toBeGreaterThanOrEqual(4);
    const future = await k.call('GET', `/api/v1/device/factorytest/runs?projectId=${a.projectId}&startedFrom=${Date.now() + 3_600_000}`, { token: tokenA });
    expect(future.body.data.total).toBe(0);
    const past = await k.call('GET', `/api/v1/device/factorytest/runs?projectId=${a.projectId}&startedTo=${Date.now() - 3_600_000}`, { token: tokenA });
    expect(past.body.data.rows.map((r: { deviceName: string }) => r.deviceName)).toEqual(['x']); // only the run left by a dead process
    const anyRun = list.body.data.rows[0];
    expect((await run(anyRun.id, tokenB)).code).toBe(40400);
    expect((await k.call('GET', `/api/v1/device/factorytest/runs?projectId=${a.projectId}`, { token: tokenB })).body.code).toBe(40400);

    const status = await k.call('GET', `/api/v1/device/factorytest/devices?projectId=${a.projectId}&bench=testSolarEquipment`, { token: tokenA });
    expect(status.body.data.rows).toHaveLength(1);
    expect(status.body.data.rows[0]).toMatchObject({ deviceType: 'deviceSolar_n', lastRun: { status: 'failed', bench: 'testSolarEquipment' } });

    const file = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/device/factorytest/export?projectId=${a.projectId}&status=failed`, headers: { authorization: tokenA } });
    expect(file.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('测试记录')!;
    expect(sheet.getRow(1).getCell(9).value).toBe('失败项');
    const failures = sheet.getColumn(9).values.slice(2).map(String);
    expect(failures).toContain('运行模式：通风（设备拒绝：风机故障，不能通风）');
    expect(failures).toContain('在线检查（设备在 5 秒内未上线）');
  });
});
