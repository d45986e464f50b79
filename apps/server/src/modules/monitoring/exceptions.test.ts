import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts';
import { createTenantWithProject, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { connectDevice, createTestDevice, upPayload, type TestDevice } from '../devices/test-fixtures.ts';
import { DeviceModel } from '../../simulator/model.ts';
import { judge, watchesOf } from './exceptions.ts';

let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;
let b: Awaited<ReturnType<typeof createTenantWithProject>>;
let token: string;
let tokenB: string;
const clients: MqttClient[] = [];

const CODES = ['projectlist', 'exceptiondata', 'exceptiondata:btn_edit', 'exceptiondata:export', 'projectFaultDeviceList', 'projectFaultDeviceList:export', 'monitor', 'monitorrules', 'monitorrules:btn_add'];
const MIN = 60_000;
const DAY = 86_400_000;

async function device(type: string) {
  const d = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type });
  const c = await connectDevice(k, d);
  clients.push(c);
  return { d, c };
}

async function report(d: TestDevice, c: MqttClient, fields: Record<string, number>, ts: number) {
  await c.publishAsync(d.topics.up, upPayload(fields, ts), { qos: 1 });
  await k.kelvin.devices.ingest.writer.flush();
  await k.kelvin.monitoring.engine.idle();
  await k.kelvin.monitoring.exceptions.idle();
}

const list = async (q = '') => (await k.call('GET', `/api/v1/device/exceptiondata?projectId=${a.projectId}&pageSize=100${q}`, { token })).body.data;

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  a = await createTenantWithProject(k.db, 'exa', CODES);
  b = await createTenantWithProject(k.db, 'exb', CODES);
  token = await k.login(a.username, a.password);
  tokenB = await k.login(b.username, b.password);
});
afterAll(async () => {
  for (const c of clients) await c.endAsync();
  await k?.close();
});

describe('异常数据的判定（手算的例子）', () => {
  const meter = watchesOf(DEVICE_TYPE_BY_CODE.get('device20090')!).get('f70')!; // 累计电能, usually 1.2 kWh per hour, step 0.01
  const room = watchesOf(DEVICE_TYPE_BY_CODE.get('device20020')!).get('f03')!; // 室内温度, sensor -10 … 50 °C
  const t = 1_700_000_000_000;

  it('knows which fields are meters and which are temperature sensors', () => {
    expect(meter).toEqual({ kind: 'counter', perHour: 1.2, step: 0.01 });
    expect(room).toEqual({ kind: 'temp', range: [-10, 50] });
    expect(watchesOf(DEVICE_TYPE_BY_CODE.get('device20020')!).has('f04')).toBe(false); // a set point is not watched
  });

  it('a meter: lower than before runs backwards; a rise over 20 × 1.2 kWh × max(hours, ¼) jumps', () => {
    expect(judge(meter, undefined, { num: 1, ts: t })).toBeNull();
    expect(judge(meter, { num: 1520, ts: t }, { num: 1519.5, ts: t + 5 * MIN })?.kind).toBe('backwards');
    expect(judge(meter, { num: 1520, ts: t }, { num: 1519.996, ts: t + 5 * MIN })).toBeNull(); // within half a step
    // 5 minutes count as a quarter hour: 1.2 × 20 × 0.25 = 6 kWh
    expect(judge(meter, { num: 1520, ts: t }, { num: 1525.9, ts: t + 5 * MIN })).toBeNull();
    expect(judge(meter, { num: 1520, ts: t }, { num: 1527, ts: t + 5 * MIN })).toEqual({ kind: 'jump', detail: '0.083 小时内增加 7，超过可能的上限 6' });
    // two hours: 1.2 × 20 × 2 = 48 kWh
    expect(judge(meter, { num: 1520, ts: t }, { num: 1567, ts: t + 120 * MIN })).toBeNull();
    expect(judge(meter, { num: 1520, ts: t }, { num: 1569, ts: t + 120 * MIN })?.kind).toBe('jump');
  });

  it('a temperature: outside the sensor range, or more than 10 °C within half an hour', () => {
    expect(judge(room, undefined, { num: 50, ts: t })).toBeNull();
    expect(judge(room, undefined, { num: 55, ts: t })).toEqual({ kind: 'range', detail: '读数 55 超出传感器量程 -10～50' });
    expect(judge(room, undefined, { num: -10.1, ts: t })?.kind).toBe('range');
    expect(judge(room, { num: 20, ts: t }, { num: 29.9, ts: t + 10 * MIN })).toBeNull();
    expect(judge(room, { num: 20, ts: t }, { num: 31, ts: t + 10 * MIN })).toEqual({ kind: 'jump', detail: '10 分钟内由 20 变为 31，超过 10' });
    expect(judge(room, { num: 20, ts: t }, { num: 31, ts: t + 40 * MIN })).toBeNull(); // slow enough to be real
  });

  it('the simulator\'s misreads (its exception-data knob) are what the detector flags; its true readings are not', () => {
    const m = new DeviceModel(DEVICE_TYPE_BY_CODE.get('device20090')!, 'MISREAD-METER', t);
    const before = m.report(t + 60 * MIN);
    const after = m.report(t + 65 * MIN);
    const seen = (p: { ts: number; fields: Record<string, unknown> }) => ({ num: p.fields.f70 as number, ts: p.ts });
    expect(judge(meter, seen(before), seen(after))).toBeNull();
    expect(judge(meter, seen(before), seen(m.misread(after, 0.5)!))?.kind).toBe('backwards');
    const thermostat = new DeviceModel(DEVICE_TYPE_BY_CODE.get('device20020')!, 'MISREAD-ROOM', t);
    const spiked = thermostat.misread(thermostat.report(t + MIN), 0.99)!;
    expect(judge(room, undefined, { num: spiked.fields.f03 as number, ts: t + MIN })?.kind).toBe('range');
  });
});

describe('异常数据、故障设备与运行监控', () => {
  it('a meter running backwards is flagged once with its reading until handled; handling records who, when and the note', async () => {
    const { d, c } = await device('device20090');
    const t0 = Date.now() - 30 * MIN;
    await report(d, c, { f70: 1520 }, t0);
    await report(d, c, { f70: 1520.5 }, t0 + 5 * MIN);
    expect((await list(`&deviceId=${d.id}`)).total).toBe(0);
    await report(d, c, { f70: 1519.8 }, t0 + 10 * MIN);
    await report(d, c, { f70: 1519.1 }, t0 + 15 * MIN); // still backwards: the same open record
    const flagged = await list(`&deviceId=${d.id}`);
    expect(flagged.total).toBe(1);
    expect(flagged.rows[0]).toMatchObject({
      deviceId: d.id, fieldCode: 'f70', fieldLabel: '累计电能', kind: 'backwards', kindLabel: '读数倒走', value: '1519.80 kWh', previous: '1520.50 kWh',
      description: '累计电能读数倒走：读数由 1520.5 倒走到 1519.8', readingAt: t0 + 10 * MIN, handled: false,
    });
    const devices = (await k.call('GET', `/api/v1/device/exceptiondevice?projectId=${a.projectId}`, { token })).body.data;
    expect(devices.find((x: { deviceId: number }) => x.deviceId === d.id)).toMatchObject({ open: 1, kinds: ['读数倒走'], lastAt: t0 + 10 * MIN });

    const id = flagged.rows[0].id;
    expect((await k.call('POST', '/api/v1/device/exceptiondevicehandle', { token, body: { ids: [id], note: '' } })).body.code).toBe(40000);
    const done = await k.call('POST', '/api/v1/device/exceptiondevicehandle', { token, body: { ids: [id], note: '换表后读数归零前的抄读误差' } });
    expect(done.body).toMatchObject({ code: 200, data: { updated: 1 } });
    const one = (await k.call('GET', `/api/v1/device/exceptiondata/${id}`, { token })).body.data;
    expect(one).toMatchObject({ handled: true, handledBy: a.username, note: '换表后读数归零前的抄读误差' });
    expect(Math.abs(one.handledAt - Date.now())).toBeLessThan(10_000);
    // handling again changes nothing
    expect((await k.call('POST', '/api/v1/device/exceptiondevicehandle', { token, body: { ids: [id], note: '再次' } })).body.data.updated).toBe(0);
    expect((await list(`&handled=0&deviceId=${d.id}`)).total).toBe(0);
    // after handling, the next backwards reading is a new record
    await report(d, c, { f70: 1518 }, t0 + 20 * MIN);
    expect((await list(`&handled=0&deviceId=${d.id}`)).rows[0]).toMatchObject({ kind: 'backwards', value: '1518.00 kWh' });
    // another tenant sees none of it and cannot handle it
    expect((await k.call('GET', `/api/v1/device/exceptiondata/${id}`, { token: tokenB })).body.code).toBe(40400);
    expect((await k.call('POST', '/api/v1/device/exceptiondevicehandle', { token: tokenB, body: { ids: [id], note: '越权' } })).body.code).toBe(40400);
  });

  it('a room sensor reading 55 °C is out of its range; a 11 °C jump in ten minutes is a jump; filters by kind', async () => {
    const { d, c } = await device('device20020');
    const t0 = Date.now() - 30 * MIN;
    await report(d, c, { f03: 20 }, t0);
    await report(d, c, { f03: 31 }, t0 + 10 * MIN);
    await report(d, c, { f03: 55 }, t0 + 20 * MIN);
    expect((await list(`&deviceId=${d.id}&kind=jump`)).rows.map((r: { value: string; previous: string }) => [r.value, r.previous])).toEqual([['31.0 °C', '20.0 °C']]);
    expect((await list(`&deviceId=${d.id}&kind=range`)).rows.map((r: { value: string }) => r.value)).toEqual(['55.0 °C']);
    expect((await list(`&deviceId=${d.id}&readingFrom=${t0 + 15 * MIN}`)).total).toBe(1);
    const bad = await k.call('GET', `/api/v1/device/exceptiondata?projectId=${a.projectId}&kind=weird`, { token });
    expect(bad.body.code).toBe(40000);
  });

  it('the daily sweep flags a temperature that read the same for three days', async () => {
    const still = await device('device20020');
    const moving = await device('device20020');
    const now = Date.now();
    for (const ago of [3.5 * DAY, 2 * DAY, DAY, 60 * MIN]) {
      await report(still.d, still.c, { f03: 21.3 }, now - ago);
      await report(moving.d, moving.c, { f03: ago === DAY ? 21.4 : 21.3 }, now - ago);
    }
    await k.kelvin.monitoring.exceptions.sweepFrozen(now);
    expect((await list(`&deviceId=${still.d.id}&kind=frozen`)).rows[0]).toMatchObject({ kindLabel: '数值冻结', value: '21.3 °C', description: '室内温度数值冻结：3 天内读数一直是 21.3' });
    expect((await list(`&deviceId=${moving.d.id}&kind=frozen`)).total).toBe(0);
    // a second sweep adds nothing while the record is open
    await k.kelvin.monitoring.exceptions.sweepFrozen(now);
    expect((await list(`&deviceId=${still.d.id}&kind=frozen`)).total).toBe(1);
  });

  it('the fault list: devices with an active alarm (worst first), open exception data, or offline; the overview counts them', async () => {
    const p = await createTenantWithProject(k.db, 'exc', CODES);
    const t = await k.login(p.username, p.password);
    const mk = async (name: string, type = 'device20020') => {
      const d = await createTestDevice(k, { tenantId: p.tenantId, projectId: p.projectId, type, name });
      const c = await connectDevice(k, d);
      clients.push(c);
      return { d, c };
    };
    const hot = await mk('甲 过热');
    const odd = await mk('乙 异常');
    const fine = await mk('丙 正常');
    const silent = await createTestDevice(k, { tenantId: p.tenantId, projectId: p.projectId, type: 'device20020', name: '丁 离线' });
    await k.call('POST', '/api/v1/monitorrule', { token: t, body: { projectId: p.projectId, name: '过热', deviceType: 'device20020', fieldCode: 'f03', operator: 'gt', threshold: 30, severity: 'critical' } });
    const now = Date.now();
    await report(hot.d, hot.c, { f03: 33 }, now - 1000);
    await report(odd.d, odd.c, { f03: -15 }, now - 1000); // below the sensor's -10
    await report(fine.d, fine.c, { f03: 22 }, now - 1000);
    const faults = (await k.call('GET', `/api/v1/device/faultdevice?projectId=${p.projectId}`, { token: t })).body.data;
    expect(faults.rows.map((r: { deviceName: string; faults: string[] }) => [r.deviceName, r.faults.join('、')])).toEqual([
      ['甲 过热', '告警'], ['乙 异常', '异常数据'], ['丁 离线', '离线'],
    ]);
    expect(faults.rows[0]).toMatchObject({ deviceId: hot.d.id, worstSeverity: 'critical', activeAlarms: 1, online: true });
    expect((await k.call('GET', `/api/v1/device/faultdevice?projectId=${p.projectId}&fault=offline`, { token: t })).body.data.rows.map((r: { deviceId: number }) => r.deviceId)).toEqual([silent.id]);
    const overview = (await k.call('GET', `/api/v1/device/monitoroverview/${p.projectId}`, { token: t })).body.data;
    expect(overview).toEqual({
      projectId: p.projectId, devices: 4, online: 3, offline: 1, activeAlarms: { critical: 1, major: 0, minor: 0, info: 0 }, unreadAlarms: 1, openExceptions: 1, faultDevices: 3,
    });
    expect((await k.call('GET', `/api/v1/device/monitoroverview/${p.projectId}`, { token: tokenB })).body.code).toBe(40400);
    const file = await k.call('GET', `/api/v1/device/faultdevice/export?projectId=${p.projectId}`, { token: t });
    expect(file.status).toBe(200);
  });
});
