import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createUser, startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../../test/harness.ts';
import { connectDevice, createTestDevice, tryConnect, upPayload, type TestDevice } from './test-fixtures.ts';

let k: TestClient;
let a: TenantWithProject, b: TenantWithProject, tokenA: string, tokenB: string;
let floor1: number;
let room101: number;
let room201: number;
let thermo: TestDevice;
let meter: TestDevice;
let idle: TestDevice;
let foreign: TestDevice;

const CODES = ['devicemonitor', 'devicemonitor:control', 'deviceoperationlog', 'deviceList_n', 'deviceList_n:btn_edit'];

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  ({ a, b, tokenA, tokenB } = await twoTenants(k, 'dev', CODES, ['PT1011', 'PT4010']));
  floor1 = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: '1层' });
  const floor2 = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: '2层' });
  room101 = await createArea(k.db, { tenantId: a.tenantId, parentId: floor1, level: 'room', name: '101室' });
  room201 = await createArea(k.db, { tenantId: a.tenantId, parentId: floor2, level: 'room', name: '201室' });
  thermo = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: room101, type: 'device20020', code: 'A-THERMO-1', name: '客厅温控器' });
  meter = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: room201, type: 'device20090', code: 'A-METER-1', name: '电表' });
  idle = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: room201, type: 'device20020', code: 'A-IDLE-1', name: '卧室温控器' });
  foreign = await createTestDevice(k, { tenantId: b.tenantId, projectId: b.projectId, type: 'calorimeter', code: 'B-HEAT-1' });
  const client = await connectDevice(k, thermo);
  await client.publishAsync(thermo.topics.up, upPayload({ f00: 1, f03: 20.5, f04: 22, f06: 1, f28: '07:30' }), { qos: 1 });
  await client.endAsync();
  const m = await connectDevice(k, meter);
  await m.publishAsync(meter.topics.up, upPayload({ f70: 100.5, f71: 1.2 }), { qos: 1 });
  await m.endAsync();
});
afterAll(() => k?.close());

describe('设备列表 (contract)', () => {
  it('devicelist answers { total, rows } with the contract fields, online derived from the heartbeat window', async () => {
    const res = await k.call('GET', `/api/v1/device/devicelist?projectId=${a.projectId}&pageNo=1&pageSize=10`, { token: tokenA });
    expect(res.body.code).toBe(200);
    expect(res.body.data.total).toBe(3);
    const row = res.body.data.rows.find((r: { deviceCode: string }) => r.deviceCode === 'A-THERMO-1');
    expect(row).toMatchObject({
      id: thermo.id, deviceCode: 'A-THERMO-1', deviceName: '客厅温控器', deviceType: 'device20020', typeName: '地暖温控器', online: true,
      lastReportAt: expect.any(Number), projectId: a.projectId, areaId: room101, areaPath: '1号楼 / 1层 / 101室',
      fields: { f00: 1, f03: 20.5, f04: 22, f06: 1, f28: '07:30' },
    });
    const idleRow = res.body.data.rows.find((r: { deviceCode: string }) => r.deviceCode === 'A-IDLE-1');
    expect(idleRow).toMatchObject({ online: false, lastReportAt: null, fields: {} });
  });

  it('filters by type, online, keyword and area (building/floor/room), and pages', async () => {
    const q = (s: string) => k.call('GET', `/api/v1/device/devicelist?projectId=${a.projectId}&${s}`, { token: tokenA }).then((r) => r.body.data.rows.map((x: { deviceCode: string }) => x.deviceCode).sort());
    expect(await q('deviceType=device20090')).toEqual(['A-METER-1']);
    expect(await q('online=1')).toEqual(['A-METER-1', 'A-THERMO-1']);
    expect(await q('online=0')).toEqual(['A-IDLE-1']);
    expect(await q('keyword=卧室')).toEqual(['A-IDLE-1']);
    expect(await q('keyword=a-thermo')).toEqual(['A-THERMO-1']);
    expect(await q(`areaId=${floor1}`)).toEqual(['A-THERMO-1']);
    expect(await q(`areaId=${room201}`)).toEqual(['A-IDLE-1', 'A-METER-1']);
    expect(await q(`areaId=${a.buildingId}`)).toHaveLength(3);
    const page = await k.call('GET', `/api/v1/device/devicelist?projectId=${a.projectId}&pageSize=2&pageNo=2`, { token: tokenA });
    expect(page.body.data).toMatchObject({ total: 3, rows: [expect.anything()] });
    const bad = await k.call('GET', '/api/v1/device/devicelist?deviceType=nosuch', { token: tokenA });
    expect(bad.body).toMatchObject({ code: 40000, msg: '设备类型不存在' });
  });

  it('a user holding only one device page sees only that type', async () => {
    await createUser(k.db, { tenantId: a.tenantId, username: 'dev_meter', password: 'Meter#2026', codes: ['device20090'] });
    const t = await k.login('dev_meter', 'Meter#2026');
    const res = await k.call('GET', `/api/v1/device/devicelist?projectId=${a.projectId}`, { token: t });
    expect(res.body.data.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['A-METER-1']);
    expect((await k.call('GET', `/api/v1/device/devicelist?deviceType=device20020`, { token: t })).body.code).toBe(40301);
  });
});

describe('详情、协议、类型、历史', () => {
  it('detail carries field times and open commands; protocollist gives the schema of a type or a device', async () => {
    const cmd = await k.call('POST', `/api/v1/device/writedeviceattr/${idle.id}/f04/23`, { token: tokenA });
    const d = await k.call('GET', `/api/v1/device/detail/${idle.id}`, { token: tokenA });
    expect(d.body.data).toMatchObject({ id: idle.id, projectName: 'deva项目', openCommands: [{ id: cmd.body.data.commandId, status: 'pending' }] });
    const t = await k.call('GET', `/api/v1/device/detail/${thermo.id}`, { token: tokenA });
    expect(Object.keys(t.body.data.fieldTimes).sort()).toEqual(['f00', 'f03', 'f04', 'f06', 'f28']);
    const p = await k.call('GET', `/api/v1/device/protocollist/${thermo.id}`, { token: tokenA });
    expect(p.body.data).toMatchObject({ code: 'device20020', name: '地暖温控器' });
    expect(p.body.data.fields.find((f: { code: string }) => f.code === 'f04')).toEqual(expect.objectContaining({ label: '设定温度', min: 10, max: 40, writable: true }));
    expect(p.body.data.fields[0].sim).toBeUndefined();
    const byType = await k.call('GET', '/api/v1/device/protocollist/calorimeter', { token: tokenA });
    expect(byType.body.data.fields.map((f: { code: string }) => f.code)).toContain('f60');
    expect((await k.call('GET', '/api/v1/device/protocollist/nosuch', { token: tokenA })).body.code).toBe(40400);
  });

  it('getdevicetypelist and devicetypebyproject come from the registry for the project type, with counts', async () => {
    const res = await k.call('GET', `/api/v1/device/getdevicetypelist/${a.projectId}`, { token: tokenA });
    const types = Object.fromEntries(res.body.data.map((t: { code: string; total: number; online: number }) => [t.code, [t.total, t.online]]));
    expect(types.device20020).toEqual([2, 1]);
    expect(types.device20090).toEqual([1, 1]); // not a PT1011 type, but the project holds one
    expect(types.gateway).toEqual([0, 0]);
    expect(types.device20030).toBeUndefined();
    const area = await k.call('GET', `/api/v1/area/devicetypebyproject/${a.projectId}`, { token: tokenA });
    // the per-project menu check reads these: planned types plus the types the project holds (device20090)
    expect(area.body.data.map((t: { code: string }) => t.code)).toEqual(expect.arrayContaining(['device20020', 'device618_n', 'gateway', 'manager', 'device20090']));
    expect(area.body.data.map((t: { code: string }) => t.code)).not.toContain('device20030');
    // the project figures (cards, map) count the same devices per project; a project without devices is left out
    const empty = await createArea(k.db, { tenantId: a.tenantId, parentId: a.regionId, level: 'project', name: '无设备项目' });
    expect(await k.kelvin.devices.devices.projectDeviceCounts([a.projectId, empty])).toEqual(new Map([[a.projectId, { devices: 3, online: 2 }]]));
  });

  it('thermostat monitor summarises the online thermostats of a project or an area', async () => {
    const res = await k.call('GET', `/api/v1/device/thermostat/monitor/${a.projectId}/-1`, { token: tokenA });
    expect(res.body.data).toEqual({ total: 2, online: 1, offline: 1, poweredOn: 1, valveOpen: 1, avgRoomTemp: 20.5, avgSetTemp: 22 });
    const floor = await k.call('GET', `/api/v1/device/thermostat/monitor/${a.projectId}/${room201}`, { token: tokenA });
    expect(floor.body.data).toMatchObject({ total: 1, online: 0, avgRoomTemp: null });
  });

  it('getviewbyarea groups devices by room', async () => {
    const res = await k.call('GET', `/api/v1/device/getviewbyarea/${a.buildingId}`, { token: tokenA });
    expect(res.body.data.map((g: { areaPath: string; devices: unknown[] }) => [g.areaPath, g.devices.length])).toEqual([['1号楼 / 1层 / 101室', 1], ['1号楼 / 2层 / 201室', 2]]);
    // own=1: only what sits on the area itself (项目视图 asks the project's own devices, then one building at a time)
    expect((await k.call('GET', `/api/v1/device/getviewbyarea/${a.buildingId}?own=1`, { token: tokenA })).body.data).toEqual([]);
    const room = await k.call('GET', `/api/v1/device/getviewbyarea/${room201}?own=1`, { token: tokenA });
    expect(room.body.data.map((g: { areaPath: string; devices: unknown[] }) => [g.areaPath, g.devices.length])).toEqual([['1号楼 / 2层 / 201室', 2]]);
    expect((await k.call('GET', `/api/v1/device/getviewbyarea/${a.buildingId}?own=yes`, { token: tokenA })).body).toMatchObject({ code: 40000, msg: expect.stringContaining('own 只能是 0 或 1') });
    // category: only that kind (the electric meter of 201室; none of the building's devices is a valve)
    const meters = await k.call('GET', `/api/v1/device/getviewbyarea/${a.buildingId}?category=electricMeter`, { token: tokenA });
    expect(meters.body.data.map((g: { areaPath: string; devices: { deviceCode: string }[] }) => [g.areaPath, g.devices.map((d) => d.deviceCode)])).toEqual([['1号楼 / 2层 / 201室', ['A-METER-1']]]);
    expect((await k.call('GET', `/api/v1/device/getviewbyarea/${a.buildingId}?category=valve`, { token: tokenA })).body.data).toEqual([]);
    expect((await k.call('GET', `/api/v1/device/getviewbyarea/${a.buildingId}?category=toaster`, { token: tokenA })).body).toMatchObject({ code: 40000, msg: expect.stringContaining('设备类别不存在') });
    expect((await k.call('GET', `/api/v1/device/getviewbyarea/${a.buildingId}?own=1`, { token: tokenB })).body.code).toBe(40400);
  });

  it('history is downsampled on the server to at most 500 points per field (counters keep their maximum)', async () => {
    const t0 = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: 2000 }, (_, i) => [
      { device_id: meter.id, field_code: 'f71', ts: t0 + i * 60_000, num: i % 2 ? 2 : 1, txt: null },
      { device_id: meter.id, field_code: 'f70', ts: t0 + i * 60_000, num: 1000 + i, txt: null },
    ]).flat();
    for (let i = 0; i < rows.length; i += 500) await k.db.insertInto('device_history').values(rows.slice(i, i + 500)).execute();
    const res = await k.call('GET', `/api/v1/device/history?deviceId=${meter.id}&fields=f70,f71&from=${t0}&to=${t0 + 2000 * 60_000}`, { token: tokenA });
    expect(res.body.code).toBe(200);
    const [energy, power] = res.body.data.series;
    expect(energy).toMatchObject({ field: 'f70', label: '累计电能', unit: 'kWh' });
    expect(energy.points.length).toBeLessThanOrEqual(500);
    expect(energy.points.length).toBeGreaterThanOrEqual(400);
    expect(energy.points.at(-1)[1]).toBe(2999);
    expect(power.points.every((p: [number, number]) => p[1] === 1.5)).toBe(true);
    const raw = await k.call('GET', `/api/v1/device/history?deviceId=${meter.id}&fields=f71&from=${t0}&to=${t0 + 10 * 60_000}`, { token: tokenA });
    expect(raw.body.data.series[0].points).toHaveLength(10);
    const bad = await k.call('GET', `/api/v1/device/history?deviceId=${meter.id}&from=5&to=1`, { token: tokenA });
    expect(bad.body).toMatchObject({ code: 40000, msg: '开始时间必须早于结束时间' });
  });
});

describe('接入密钥', () => {
  it('reissuing credentials returns the secret once; the old one stops working, the new one works', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, code: 'A-REKEY-1' });
    const res = await k.call('POST', `/api/v1/device/credentials/${dev.id}`, { token: tokenA });
    expect(res.body.data).toMatchObject({
      deviceId: dev.id, deviceCode: 'A-REKEY-1', clientId: 'A-REKEY-1', username: 'A-REKEY-1',
      topics: { up: 'kelvin/deva/A-REKEY-1/up', down: 'kelvin/deva/A-REKEY-1/down', ack: 'kelvin/deva/A-REKEY-1/ack' },
    });
    expect(res.body.data.password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await k.db.selectFrom('device').selectAll().where('id', '=', dev.id).executeTakeFirst())).not.toContain(res.body.data.password);
    expect(await tryConnect(k, { clientId: dev.code, username: dev.code, password: dev.secret })).toMatchObject({ code: 4 });
    expect(await tryConnect(k, { clientId: dev.code, username: dev.code, password: res.body.data.password })).toBeNull();
    const log = await k.call('GET', `/api/v1/device/operationlog?deviceId=${dev.id}`, { token: tokenA });
    expect(log.body.data.rows[0]).toMatchObject({ operation: '重新生成密钥', result: '成功' });
  });
});

describe('租户隔离', () => {
  it('tenant B cannot list, read or control tenant A devices: 404, and nothing happens', async () => {
    const list = await k.call('GET', '/api/v1/device/devicelist', { token: tokenB });
    expect(list.body.data.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['B-HEAT-1']);
    expect((await k.call('GET', `/api/v1/device/devicelist?projectId=${a.projectId}`, { token: tokenB })).body.code).toBe(40400);
    for (const [method, url] of [
      ['GET', `/api/v1/device/detail/${thermo.id}`],
      ['GET', `/api/v1/device/protocollist/${thermo.id}`],
      ['GET', `/api/v1/device/history?deviceId=${thermo.id}&from=${Date.now() - 86_400_000}&to=${Date.now()}`],
      ['GET', `/api/v1/device/operationlog?deviceId=${thermo.id}`],
      ['GET', `/api/v1/device/getdevicetypelist/${a.projectId}`],
      ['GET', `/api/v1/device/thermostat/monitor/${a.projectId}/-1`],
      ['GET', `/api/v1/device/getviewbyarea/${a.buildingId}`],
      ['GET', `/api/v1/device/getviewlistbyareabypage_forpdevice/-1/${thermo.id}`],
      ['GET', `/api/v1/live?projectId=${a.projectId}`],
      ['POST', `/api/v1/device/writedeviceattr/${thermo.id}/f04/25`],
      ['POST', `/api/v1/device/refreshdevice/${thermo.id}`],
      ['POST', `/api/v1/device/operation/${thermo.id}?eventType=reboot`],
      ['POST', `/api/v1/device/credentials/${thermo.id}`],
    ] as const) {
      const res = await k.call(method, url, { token: tokenB });
      expect(res.status, url).toBe(404);
      expect(res.body.code, url).toBe(40400);
    }
    const own = await k.call('POST', `/api/v1/device/writedeviceattr/${thermo.id}/f04/25`, { token: tokenA });
    expect((await k.call('GET', `/api/v1/device/command/${own.body.data.commandId}`, { token: tokenB })).body.code).toBe(40400);
    expect(await k.db.selectFrom('device_command').select('id').where('device_id', '=', thermo.id).where('username', '=', b.username).execute()).toEqual([]);
    const log = await k.call('GET', '/api/v1/device/operationlog', { token: tokenB });
    expect(log.body.data.rows.every((r: { deviceCode: string }) => r.deviceCode.startsWith('B-'))).toBe(true);
  });

  it('the platform administrator sees and controls every tenant, audited in the gate and operation logs', async () => {
    const admin = await k.loginAdmin();
    const list = await k.call('GET', '/api/v1/device/devicelist?pageSize=200', { token: admin });
    const codes = list.body.data.rows.map((r: { deviceCode: string }) => r.deviceCode);
    expect(codes).toEqual(expect.arrayContaining(['A-THERMO-1', 'B-HEAT-1']));
    const res = await k.call('POST', `/api/v1/device/refreshdevice/${foreign.id}`, { token: admin });
    expect(res.body.code).toBe(200);
    const gate = await k.db.selectFrom('gate_log').select(['username', 'operation']).where('uri', '=', `/api/v1/device/refreshdevice/${foreign.id}`).execute();
    expect(gate).toEqual([{ username: 'admin', operation: `刷新设备数据（编号 ${foreign.id}）` }]);
    const log = await k.call('GET', `/api/v1/device/operationlog?deviceId=${foreign.id}`, { token: tokenB });
    expect(log.body.data.rows[0]).toMatchObject({ username: 'admin', detail: '刷新数据' });
  });
});
