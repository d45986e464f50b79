import ExcelJS from 'exceljs';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createTenantWithProject, startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../../test/harness.ts';

let k: TestClient;
let a: TenantWithProject, b: TenantWithProject, tokenA: string, tokenB: string;
const roomsA: number[] = [];
let roomB: number;
let otherProjectRoom: number;
let otherProjectId: number;
const clients: mqtt.MqttClient[] = [];

const CODES = [
  'area', 'area:btn_del', 'area:export', 'deviceList_n', 'deviceList_n:btn_add', 'deviceList_n:btn_edit', 'deviceList_n:btn_del', 'deviceList_n:export',
  'devicegroup', 'devicegroup:btn_add', 'devicegroup:btn_edit', 'devicegroup:btn_del', 'batchpara', 'batchpara:control', 'devicemonitor', 'devicemonitor:control',
  'deviceCardInfoList', 'deviceCardInfoList:btn_edit', 'deviceCardInfoList:btn_del', 'deviceBindRecord', 'projectindex',
];

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  ({ a, b, tokenA, tokenB } = await twoTenants(k, 'dv', CODES, ['PT2010', 'PT2013']));
  const floor = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: '1层' });
  for (const name of ['101', '102', '103']) roomsA.push(await createArea(k.db, { tenantId: a.tenantId, parentId: floor, level: 'room', name }));
  const floorB = await createArea(k.db, { tenantId: b.tenantId, parentId: b.buildingId, level: 'floor', name: '1层' });
  roomB = await createArea(k.db, { tenantId: b.tenantId, parentId: floorB, level: 'room', name: 'B101' });
  otherProjectId = await createArea(k.db, { tenantId: a.tenantId, parentId: a.regionId, level: 'project', name: '第二项目', projectType: 'PT2010' });
  const b2 = await createArea(k.db, { tenantId: a.tenantId, parentId: otherProjectId, level: 'building', name: 'A座' });
  const f2 = await createArea(k.db, { tenantId: a.tenantId, parentId: b2, level: 'floor', name: '1层' });
  otherProjectRoom = await createArea(k.db, { tenantId: a.tenantId, parentId: f2, level: 'room', name: '201' });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync()));
  await k?.close();
});

async function create(token: string, projectId: number, areaId: number, deviceType: string, body: Record<string, unknown> = {}) {
  const res = await k.call('POST', `/api/v1/device/create/${projectId}/${areaId}/${deviceType}`, { token, body });
  if (res.body.code !== 200) throw new Error(`create failed: ${res.body.msg}`);
  return res.body.data as { device: { id: number; deviceCode: string; areaId: number | null }; credentials: { password: string } | null };
}
const row = (id: number) => k.db.selectFrom('device').selectAll().where('id', '=', id).executeTakeFirst();
const records = (projectId: number) => k.db.selectFrom('device_bind_record').selectAll().where('project_id', '=', projectId).orderBy('id').execute();

describe('设备增改移删', () => {
  it('creates a device in a room with one-time credentials, renames and moves it, recording the move', async () => {
    const made = await create(tokenA, a.projectId, roomsA[0], 'device20030', { deviceCode: 'DVA-001', deviceName: '101 温控器' });
    expect(made.device).toMatchObject({ deviceCode: 'DVA-001', areaId: roomsA[0], areaPath: '1号楼 / 1层 / 101' });
    expect(made.credentials!.password.length).toBeGreaterThan(20);
    const edit = await k.call('PUT', `/api/v1/device/updatedevice/${made.device.id}`, { token: tokenA, body: { deviceName: '客厅温控器', areaId: roomsA[1] } });
    expect(edit.body.data).toMatchObject({ deviceName: '客厅温控器', areaId: roomsA[1], areaPath: '1号楼 / 1层 / 102' });
    const moved = await k.call('PUT', `/api/v1/device/updatearea/${made.device.id}/${roomsA[2]}`, { token: tokenA });
    expect(moved.body.code).toBe(200);
    expect((await row(made.device.id))!.area_id).toBe(roomsA[2]);
    const moves = (await records(a.projectId)).filter((r) => r.device_id === made.device.id && r.action === 'move');
    expect(moves.map((m) => m.area_path)).toEqual(['1号楼 / 1层 / 101 → 1号楼 / 1层 / 102', '1号楼 / 1层 / 102 → 1号楼 / 1层 / 103']);
  });

  it('a device stays in its project: moves to another project\'s room are refused, a batch moves all or none', async () => {
    const d1 = await create(tokenA, a.projectId, roomsA[0], 'device20030');
    const d2 = await create(tokenA, a.projectId, roomsA[0], 'device20030');
    const other = await k.call('PUT', `/api/v1/device/updatearea/${d1.device.id}/${otherProjectRoom}`, { token: tokenA });
    expect(other.body).toMatchObject({ code: 40000, msg: `设备「${d1.device.deviceCode}」不属于该区域所在的项目` });
    const batch = await k.call('POST', '/api/v1/device/updatearea', { token: tokenA, body: { deviceIds: [d1.device.id, d2.device.id, 999999], areaId: roomsA[1] } });
    expect(batch.body.code).toBe(40400);
    expect((await row(d1.device.id))!.area_id).toBe(roomsA[0]);
    const ok = await k.call('POST', '/api/v1/device/updatearea', { token: tokenA, body: { deviceIds: [d1.device.id, d2.device.id], areaId: roomsA[1] } });
    expect(ok.body.data).toEqual({ moved: 2 });
  });

  it('an area holding devices cannot be deleted; a gateway with sub-devices cannot be deleted; deleting keeps history', async () => {
    const room = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: '设备层' });
    const gw = await create(tokenA, a.projectId, room, 'gateway', { deviceCode: 'DVA-GW-1' });
    const sub = await create(tokenA, a.projectId, room, 'device20030', { gatewayId: gw.device.id });
    const delArea = await k.call('POST', `/api/v1/area/deletebyid/${room}`, { token: tokenA });
    expect(delArea.body).toMatchObject({ code: 40900, msg: '「设备层」下还有 2 台设备，请先移走或删除后再删除' });
    const delGw = await k.call('POST', '/api/v1/device/deletedevice', { token: tokenA, body: { id: gw.device.id } });
    expect(delGw.body.code).toBe(40900);
    expect(delGw.body.msg).toContain('下还有 1 台设备');
    await k.db.insertInto('device_history').values({ device_id: sub.device.id, field_code: 'f03', ts: Date.now(), num: 22.5, txt: null }).execute();
    const del = await k.call('POST', '/api/v1/device/deletedevice', { token: tokenA, body: { ids: [sub.device.id, gw.device.id] } });
    expect(del.body.data).toEqual({ deleted: 2 });
    expect(await row(sub.device.id)).toBeUndefined();
    expect(await k.db.selectFrom('device_history').select('num').where('device_id', '=', sub.device.id).execute()).toEqual([{ num: 22.5 }]);
    expect((await k.call('POST', `/api/v1/area/deletebyid/${room}`, { token: tokenA })).body.code).toBe(200);
  });

  it('disabling a device refuses its MQTT login', async () => {
    const d = await create(tokenA, a.projectId, roomsA[0], 'device20030');
    const off = await k.call('POST', '/api/v1/device/active', { token: tokenA, body: { ids: [d.device.id], enabled: false } });
    expect(off.body.data).toEqual({ updated: 1 });
    const url = `mqtt://127.0.0.1:${k.kelvin.mqtt!.port}`;
    const attempt = mqtt.connectAsync(url, { clientId: d.device.deviceCode, username: d.device.deviceCode, password: d.credentials!.password, reconnectPeriod: 0, connectTimeout: 3000 });
    await expect(attempt).rejects.toThrow();
  });
});

describe('4G 设备、库存与更换', () => {
  it('lists 4G types, creates a 4G device with its SIM card and lists it under the area', async () => {
    const types = await k.call('GET', `/api/v1/device/getAllDeviceTypeFor4G?tid=${b.projectId}`, { token: tokenB });
    expect(types.body.data.map((t: { code: string }) => t.code)).toEqual(['deviceAG2420']);
    const end = Date.now() + 20 * 86_400_000;
    const res = await k.call('POST', '/api/v1/device/createDeviceFor4G', { token: tokenB, body: {
      areaId: roomB, deviceType: 'deviceAG2420', deviceCode: 'DVB-4G-01', deviceName: 'B101 空调计费器',
      card: { iccid: '89860012345678901234', carrier: '中国移动', packageEnd: end, dataLimitMb: 1024, dataUsedMb: 100 },
    } });
    expect(res.body.code).toBe(200);
    const list = await k.call('GET', `/api/v1/device/getDeviceListFor4G?areaId=${b.projectId}&pageNo=1&pageSize=10`, { token: tokenB });
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.rows[0]).toMatchObject({ deviceCode: 'DVB-4G-01', card: { iccid: '89860012345678901234', carrier: '中国移动', packageDaysLeft: 19 } });
    const dup = await k.call('POST', '/api/v1/device/createDeviceFor4G', { token: tokenB, body: {
      areaId: roomB, deviceType: 'deviceAG2420', deviceCode: 'DVB-4G-02', card: { iccid: '89860012345678901234', carrier: '中国联通' },
    } });
    expect(dup.body).toMatchObject({ code: 40900, msg: 'ICCID 89860012345678901234 已绑定设备「DVB-4G-01」' });
    expect(await k.db.selectFrom('device').select('id').where('device_code', '=', 'DVB-4G-02').execute()).toEqual([]);
    const notCellular = await k.call('POST', '/api/v1/device/createDeviceFor4G', { token: tokenB, body: { areaId: roomB, deviceType: 'device20030', deviceCode: 'DVB-X-1' } });
    expect(notCellular.body.msg).toBe('所选类型不是 4G 设备');
  });

  it('storage: backUpDevice moves a device to stock, storage lists, renames, filters by package days and exports', async () => {
    const d = await create(tokenB, b.projectId, roomB, 'deviceAG2420', { deviceCode: 'DVB-4G-10' });
    await k.call('POST', '/api/v1/device/card/save', { token: tokenB, body: { deviceCode: 'DVB-4G-10', iccid: '8986001234567890000', carrier: '中国电信', packageEnd: Date.now() + 5 * 86_400_000 } });
    const spare = await k.call('POST', '/api/v1/device/backUpDevice', { token: tokenB, body: { id: d.device.id } });
    expect(spare.body.data).toMatchObject({ areaId: null });
    const stock = await k.call('GET', `/api/v1/deviceStorage/getProjectDeviceStorage?projectId=${b.projectId}`, { token: tokenB });
    expect(stock.body.data.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['DVB-4G-10']);
    expect(stock.body.data.rows[0].inStorage).toBe(true);
    await k.call('POST', '/api/v1/deviceStorage/updateDeviceStorageName', { token: tokenB, body: { id: d.device.id, deviceName: '备用计费器' } });
    expect((await row(d.device.id))!.device_name).toBe('备用计费器');
    const soon = await k.call('GET', `/api/v1/deviceStorage/getProjectAllDeviceStorage?projectId=${b.projectId}&packageLimitDays=7`, { token: tokenB });
    expect(soon.body.data.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['DVB-4G-10']);
    const all = await k.call('GET', `/api/v1/deviceStorage/getProjectAllDeviceStorage?projectId=${b.projectId}&packageLimitDays=30`, { token: tokenB });
    expect(all.body.data.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['DVB-4G-01', 'DVB-4G-10']);
    const exp = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/deviceStorage/projectAllDeviceStorageExport?projectId=${b.projectId}`, headers: { authorization: tokenB } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exp.rawPayload as unknown as ArrayBuffer);
    const codes = wb.worksheets[0].getColumn(1).values.slice(2);
    expect(codes).toEqual(['DVB-4G-01', 'DVB-4G-10']);
    expect(wb.worksheets[0].getRow(3).getCell(4).value).toBe('库存');
  });

  it('replaceDevice with a spare from storage: the device keeps room, history and groups; the old hardware becomes the spare', async () => {
    const old = await create(tokenA, a.projectId, roomsA[0], 'device20030', { deviceCode: 'DVA-OLD-1' });
    const stocked = await k.call('POST', '/api/v1/deviceStorage/add', { token: tokenA, body: { projectId: a.projectId, deviceType: 'device20030', deviceCode: 'DVA-NEW-1' } });
    expect(stocked.body.data.device.areaId).toBeNull();
    await k.db.insertInto('device_history').values({ device_id: old.device.id, field_code: 'f03', ts: 1_700_000_000_000, num: 21, txt: null }).execute();
    const group = (await k.call('POST', '/api/v1/device/group/create', { token: tokenA, body: { projectId: a.projectId, name: '更换组' } })).body.data;
    await k.call('POST', `/api/v1/device/group/members/${group.id}`, { token: tokenA, body: { add: [old.device.id] } });
    const res = await k.call('POST', '/api/v1/device/replaceDevice?oldDeviceCode=DVA-OLD-1&newDeviceCode=DVA-NEW-1', { token: tokenA });
    expect(res.body.code).toBe(200);
    expect(res.body.data.device).toMatchObject({ id: old.device.id, deviceCode: 'DVA-NEW-1', areaId: roomsA[0] });
    expect(res.body.data.spare).toMatchObject({ id: stocked.body.data.device.id, deviceCode: 'DVA-OLD-1', areaId: null });
    expect(res.body.data.credentials).toBeNull();
    expect(await k.db.selectFrom('device_history').select('device_id').where('ts', '=', 1_700_000_000_000).execute()).toEqual([{ device_id: old.device.id }]);
    const members = await k.call('GET', `/api/v1/device/group/groupDeviceListByType/${group.id}`, { token: tokenA });
    expect(members.body.data.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['DVA-NEW-1']);
    // the new hardware connects with the secret it was stocked with
    const url = `mqtt://127.0.0.1:${k.kelvin.mqtt!.port}`;
    const c = await mqtt.connectAsync(url, { clientId: 'DVA-NEW-1', username: 'DVA-NEW-1', password: stocked.body.data.credentials.password, reconnectPeriod: 0 });
    clients.push(c);
    const rec = (await records(a.projectId)).find((r) => r.action === 'replace')!;
    expect(rec).toMatchObject({ device_id: old.device.id, old_device_code: 'DVA-OLD-1', new_device_code: 'DVA-NEW-1', area_path: '1号楼 / 1层 / 101', username: a.username });
    const api = await k.call('GET', `/api/v1/device/bindrecord?projectId=${a.projectId}&action=replace`, { token: tokenA });
    expect(api.body.data.rows[0]).toMatchObject({ actionLabel: '更换设备', oldDeviceCode: 'DVA-OLD-1', newDeviceCode: 'DVA-NEW-1' });
  });

  it('replaceDevice with unregistered hardware issues new credentials; installed or foreign codes are refused', async () => {
    const old = await create(tokenA, a.projectId, roomsA[1], 'device20030', { deviceCode: 'DVA-OLD-2' });
    const res = await k.call('POST', '/api/v1/device/replaceDevice?oldDeviceCode=DVA-OLD-2&newDeviceCode=DVA-FRESH-2', { token: tokenA });
    expect(res.body.data.device).toMatchObject({ id: old.device.id, deviceCode: 'DVA-FRESH-2' });
    expect(res.body.data.credentials).toMatchObject({ deviceCode: 'DVA-FRESH-2', username: 'DVA-FRESH-2' });
    expect(await k.db.selectFrom('device').select('id').where('device_code', '=', 'DVA-OLD-2').execute()).toEqual([]);
    const installed = await create(tokenA, a.projectId, roomsA[2], 'device20030', { deviceCode: 'DVA-INST-3' });
    const busy = await k.call('POST', '/api/v1/device/replaceDevice?oldDeviceCode=DVA-FRESH-2&newDeviceCode=DVA-INST-3', { token: tokenA });
    expect(busy.body).toMatchObject({ code: 40900, msg: '新设备「DVA-INST-3」已安装在 1号楼 / 1层 / 103，请先转入库存' });
    const foreign = await k.call('POST', '/api/v1/device/replaceDevice?oldDeviceCode=DVA-FRESH-2&newDeviceCode=DVB-4G-01', { token: tokenA });
    expect(foreign.body).toMatchObject({ code: 40900, msg: '设备编号 DVB-4G-01 已被使用' });
    const same = await k.call('POST', '/api/v1/device/replaceDevice?oldDeviceCode=DVA-FRESH-2&newDeviceCode=DVA-FRESH-2', { token: tokenA });
    expect(same.body.msg).toBe('新旧设备编号不能相同');
    expect(installed.device.deviceCode).toBe('DVA-INST-3');
  });
});

describe('设备分组与批量参数', () => {
  it('groups hold devices of their own project only', async () => {
    const g = (await k.call('POST', '/api/v1/device/group/create', { token: tokenA, body: { projectId: a.projectId, name: '一层温控' } })).body.data;
    expect((await k.call('POST', '/api/v1/device/group/create', { token: tokenA, body: { projectId: a.projectId, name: '一层温控' } })).body.code).toBe(40900);
    const inOther = await create(tokenA, otherProjectId, otherProjectRoom, 'device20030');
    const refused = await k.call('POST', `/api/v1/device/group/members/${g.id}`, { token: tokenA, body: { add: [inOther.device.id] } });
    expect(refused.body.msg).toBe(`设备 ${inOther.device.id} 不存在或不属于该分组的项目`);
    const d = await create(tokenA, a.projectId, roomsA[0], 'device20040');
    const added = await k.call('POST', `/api/v1/device/group/members/${g.id}`, { token: tokenA, body: { add: [d.device.id, d.device.id] } });
    expect(added.body.data.deviceCount).toBe(1);
    const byType = await k.call('GET', `/api/v1/device/group/groupDeviceListByType/${g.id}?type=device20030`, { token: tokenA });
    expect(byType.body.data.total).toBe(0);
    const list = await k.call('GET', `/api/v1/device/group/list?projectId=${a.projectId}`, { token: tokenA });
    expect(list.body.data.find((x: { id: number }) => x.id === g.id)).toMatchObject({ name: '一层温控', deviceCount: 1 });
  });

  it('batchpara reports each device: sent to the connected one, queued for the offline one, failed with the reason', async () => {
    const online = await create(tokenA, a.projectId, roomsA[0], 'device20030', { deviceCode: 'DVA-BATCH-ON' });
    const offline = await create(tokenA, a.projectId, roomsA[1], 'device20030', { deviceCode: 'DVA-BATCH-OFF' });
    const meter = await create(tokenA, a.projectId, roomsA[2], 'device20090', { deviceCode: 'DVA-BATCH-METER' });
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${k.kelvin.mqtt!.port}`, { clientId: 'DVA-BATCH-ON', username: 'DVA-BATCH-ON', password: online.credentials!.password, reconnectPeriod: 0 });
    clients.push(c);
    const foreign = await create(tokenB, b.projectId, roomB, 'deviceAG2420');
    const res = await k.call('POST', '/api/v1/device/batchpara', { token: tokenA, body: {
      deviceIds: [online.device.id, offline.device.id, meter.device.id, foreign.device.id], fieldCode: 'f04', value: 24,
    } });
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({ total: 4, sent: 1, queued: 1, failed: 2 });
    const by = Object.fromEntries(res.body.data.results.map((r: { deviceId: number; status: string; message: string }) => [r.deviceId, `${r.status}:${r.message}`]));
    expect(by[online.device.id]).toBe('sent:已下发');
    expect(by[offline.device.id]).toBe('queued:设备离线，等待上线后下发');
    expect(by[meter.device.id]).toMatch(/^failed:.*没有字段 f04$/);
    expect(by[foreign.device.id]).toBe('failed:设备不存在');
    const commands = await k.db.selectFrom('device_command').select(['device_id', 'status']).where('device_id', 'in', [online.device.id, offline.device.id, meter.device.id]).execute();
    expect(commands.map((x) => x.device_id).sort()).toEqual([online.device.id, offline.device.id].sort());
    const range = await k.call('POST', '/api/v1/device/batchpara', { token: tokenA, body: { deviceIds: [offline.device.id], fieldCode: 'f04', value: 99 } });
    expect(range.body.data.results[0]).toMatchObject({ status: 'failed', message: expect.stringContaining('取值范围为') });
  });
});

describe('设备导入', () => {
  async function file(header: string[], rows: (string | null)[][]) {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('设备');
    ws.addRow(header);
    rows.forEach((r) => ws.addRow(r));
    return Buffer.from(await wb.xlsx.writeBuffer());
  }
  const HEADER = ['楼栋', '楼层', '房间', '设备类型*', '设备编号*', '设备名称*', '网关编号', '备注'];
  const upload = (token: string, path: string, projectId: number, buf: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([buf]), 'devices.xlsx');
    return k.call('POST', `/api/v1/device/${path}?projectId=${projectId}`, { token, body: form });
  };

  it('imports gateways then devices into existing rooms, with one-time credentials', async () => {
    const gw = await upload(tokenA, 'gatewayimport', a.projectId, await file(['网关编号*', '网关名称*', '网关类型', '楼栋', '备注'], [['DVA-IMP-GW', '1号楼网关', null, '1号楼', null]]));
    expect(gw.body.data).toMatchObject({ rows: 1, created: 1 });
    const res = await upload(tokenA, 'deviceimport', a.projectId, await file(HEADER, [
      ['1号楼', '1层', '101', 'device20030', 'DVA-IMP-1', '101 温控器', 'DVA-IMP-GW', null],
      ['1号楼', '1层', '102', '空调计费温控器', 'DVA-IMP-2', '102 温控器', null, null],
    ]));
    expect(res.body.data.created).toBe(2);
    expect(res.body.data.credentials.map((c: { deviceCode: string }) => c.deviceCode)).toEqual(['DVA-IMP-1', 'DVA-IMP-2']);
    const d1 = await k.db.selectFrom('device').selectAll().where('device_code', '=', 'DVA-IMP-1').executeTakeFirstOrThrow();
    expect(d1).toMatchObject({ area_id: roomsA[0], device_type: 'device20030', tenant_id: a.tenantId });
    expect(d1.gateway_id).toBe((await k.db.selectFrom('device').select('id').where('device_code', '=', 'DVA-IMP-GW').executeTakeFirstOrThrow()).id);
  });

  it('rejects the whole file with row numbers and reasons', async () => {
    const before = (await k.db.selectFrom('device').select('id').execute()).length;
    const res = await upload(tokenA, 'deviceimport', a.projectId, await file(HEADER, [
      ['1号楼', '1层', '101', 'device20030', 'DVA-IMP-OK', '好的', null, null],
      ['1号楼', '1层', '999', 'device20030', 'DVA-IMP-X1', '房间不存在', null, null],
      ['1号楼', '1层', '101', 'nope', 'DVA-IMP-X2', '类型不存在', null, null],
      ['1号楼', '1层', '101', 'device20030', 'DVA-IMP-OK', '重复编号', null, null],
      ['1号楼', '1层', '101', 'device20030', 'DVB-4G-01', '别人的编号', null, null],
      ['1号楼', null, '101', 'device20030', 'DVA-IMP-X3', '跳层', null, null],
      ['1号楼', '1层', '101', 'device20030', 'a b', '编号不合法', null, null],
    ]));
    expect(res.body.code).toBe(40000);
    const byRow = Object.fromEntries(res.body.data.errors.map((e: { row: number; message: string }) => [e.row, e.message]));
    expect(byRow).toEqual({
      3: '区域「1号楼 / 1层 / 999」在项目中不存在',
      4: '设备类型「nope」不存在',
      5: '与第 2 行重复',
      6: '设备编号 DVB-4G-01 已存在',
      7: '楼栋、楼层、房间需从上到下连续填写',
      8: '设备编号为 3～64 位字母、数字、下划线、点或减号',
    });
    expect((await k.db.selectFrom('device').select('id').execute()).length).toBe(before);
    const wrong = await upload(tokenA, 'deviceimport', a.projectId, await file(['区域*', '项目*'], [['x', 'y']]));
    expect(wrong.body.msg).toContain('模板不正确');
  });

  it('the area export carries the devices as a second sheet in the device template format', async () => {
    const res = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/area/exportArea?areaId=${a.projectId}`, headers: { authorization: tokenA } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('设备')!;
    expect((sheet.getRow(1).values as string[]).slice(1)).toEqual(HEADER);
    const imp = sheet.getColumn(5).values.indexOf('DVA-IMP-1');
    expect((sheet.getRow(imp).values as string[]).slice(1, 7)).toEqual(['1号楼', '1层', '101', 'device20030', 'DVA-IMP-1', '101 温控器']);
    expect(sheet.getRow(imp).getCell(7).value).toBe('DVA-IMP-GW');
  });
});

describe('项目设备统计与租户隔离', () => {
  it('project figures count devices and online devices', async () => {
    const detail = await k.call('GET', `/api/v1/area/index/getProjectIndexMessage?projectId=${b.projectId}`, { token: tokenB });
    const total = (await k.db.selectFrom('device').select('id').where('project_id', '=', b.projectId).execute()).length;
    expect(detail.body.data.counts).toMatchObject({ devices: total, online: 0, onlineRate: 0 });
    const map = await k.call('GET', '/api/v1/area/projectmap', { token: tokenB });
    expect(map.body.data.items[0]).toMatchObject({ id: b.projectId, status: 'offline' });
  });

  it('tenant B cannot touch tenant A devices, groups, storage or records through any endpoint', async () => {
    const d = await create(tokenA, a.projectId, roomsA[0], 'device20030', { deviceCode: 'DVA-PRIVATE' });
    const g = (await k.call('POST', '/api/v1/device/group/create', { token: tokenA, body: { projectId: a.projectId, name: '私有组' } })).body.data;
    const before = await row(d.device.id);
    const calls: [method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown][] = [
      ['PUT', `/api/v1/device/updatedevice/${d.device.id}`, { deviceName: 'x' }],
      ['PUT', `/api/v1/device/updatearea/${d.device.id}/${roomB}`],
      ['POST', '/api/v1/device/updatearea', { deviceIds: [d.device.id], areaId: roomB }],
      ['POST', '/api/v1/device/active', { ids: [d.device.id], enabled: false }],
      ['POST', '/api/v1/device/deletedevice', { id: d.device.id }],
      ['POST', '/api/v1/device/deletedevice', { deviceCode: 'DVA-PRIVATE' }],
      ['POST', '/api/v1/device/backUpDevice', { id: d.device.id }],
      ['POST', '/api/v1/device/replaceDevice?oldDeviceCode=DVA-PRIVATE&newDeviceCode=DVB-ANY-1'],
      ['POST', '/api/v1/device/updateDeviceFor4G', { id: d.device.id, deviceName: 'x' }],
      ['POST', '/api/v1/deviceStorage/updateDeviceStorageName', { id: d.device.id, deviceName: 'x' }],
      ['GET', `/api/v1/deviceStorage/getProjectDeviceStorage?projectId=${a.projectId}`],
      ['GET', `/api/v1/deviceStorage/getProjectAllDeviceStorage?projectId=${a.projectId}`],
      ['POST', '/api/v1/deviceStorage/add', { projectId: a.projectId, deviceType: 'device20030' }],
      ['POST', `/api/v1/device/create/${a.projectId}/${roomsA[0]}/device20030`, {}],
      ['GET', `/api/v1/device/getDeviceListFor4G?areaId=${a.projectId}`],
      ['GET', `/api/v1/device/group/list?projectId=${a.projectId}`],
      ['PUT', `/api/v1/device/group/${g.id}`, { name: 'x' }],
      ['POST', `/api/v1/device/group/delete/${g.id}`],
      ['POST', `/api/v1/device/group/members/${g.id}`, { add: [] }],
      ['GET', `/api/v1/device/group/groupDeviceListByType/${g.id}`],
      ['GET', `/api/v1/device/card/list?projectId=${a.projectId}`],
      ['POST', '/api/v1/device/card/save', { deviceCode: 'DVA-PRIVATE', iccid: '8986009999999999999', carrier: '中国移动' }],
      ['POST', '/api/v1/device/card/delete', { deviceCode: 'DVA-PRIVATE' }],
      ['GET', `/api/v1/device/bindrecord?projectId=${a.projectId}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await k.call(method, url, { token: tokenB, body });
      expect(res.body.code, `${method} ${url}`).toBe(40400);
    }
    expect(await row(d.device.id)).toMatchObject({ device_code: 'DVA-PRIVATE', device_name: before!.device_name, area_id: roomsA[0], enabled: 1 });
    expect((await k.db.selectFrom('device_group').select('name').where('id', '=', g.id).executeTakeFirstOrThrow()).name).toBe('私有组');
    const importForm = new FormData();
    importForm.append('file', new Blob([Buffer.from('x')]), 'x.xlsx');
    expect((await k.call('POST', `/api/v1/device/deviceimport?projectId=${a.projectId}`, { token: tokenB, body: importForm })).body.code).toBe(40400);
  });

  it('without the element code device management answers 40301', async () => {
    const t = await createTenantWithProject(k.db, 'dvnocode', ['deviceList_n']);
    const token = await k.login(t.username, t.password);
    const res = await k.call('POST', `/api/v1/device/create/${t.projectId}/${t.buildingId}/device20030`, { token, body: {} });
    expect(res.body.code).toBe(40301);
    expect((await k.call('POST', '/api/v1/device/batchpara', { token, body: { deviceIds: [1], fieldCode: 'f04', value: 20 } })).body.code).toBe(40301);
  });
});
