import ExcelJS from 'exceljs';
import { FACTORY_VIEW_CODES } from '@kelvin/contracts';
import { uniq, w, type Answer, type Row } from './endpoint-rules.ts';
import { codeOf, newDevice } from './rules-devices.ts';

/**
 * Device management: devices and 4G devices, storage, groups, batch parameters, SIM cards, bind records, imports,
 * online statistics, address changes, MQTT settings, the operation-log export, QR labels and the factory bench.
 */

const A = () => w.A;
let device = 0;
let room = 0;
let project4g = 0;
let building4g = 0;
let deviceSheet: Buffer;
let gatewaySheet: Buffer;
let iccids = 0;

const pid = () => A().projectId;
const iccid = () => `8986${String(++iccids).padStart(16, '0')}`;
const new4g = () => newDevice({ type: 'device4GHeating', projectId: project4g, areaId: building4g });
const withCard = async () => {
  const id = await new4g();
  await w.ok('POST', '/api/v1/device/card/save', A().token, { deviceCode: codeOf.get(id), iccid: iccid(), carrier: '中国移动' });
  return id;
};
const inStorage = async () => (await w.ok('POST', '/api/v1/deviceStorage/add', A().token, { projectId: pid(), deviceType: 'device20020', deviceName: uniq('A标记库存') })).device.id as number;
const newGroup = async () => (await w.ok('POST', '/api/v1/device/group/create', A().token, { projectId: pid(), name: uniq('A标记分组') })).id as number;
const newAddressChange = async () =>
  (await w.ok('POST', '/api/v1/device/address/request', A().token, { projectId: pid(), deviceIds: [device], host: 'iot.example.com', port: 1883 })).rows[0].id as number;
const FACTORY_RUN = () => ({ bench: 'testEquipment_n', deviceIds: [device], stepTimeoutSeconds: 300 });
/** A run waits minutes for the offline device once its first step is under way, writing nothing meanwhile. */
const waiting = async (id: number) => {
  for (let i = 0; i < 200; i++) {
    const run = await w.ok('GET', `/api/v1/device/factorytest/runs/${id}`, A().token);
    if (run.steps?.[0]?.status === 'running') return new Promise<number>((resolve) => setTimeout(() => resolve(id), 100));
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`test run ${id} did not start`);
};
const newRun = async () => waiting((await w.ok('POST', '/api/v1/device/factorytest/run', A().token, FACTORY_RUN()))[0].id);
const stop = async (id: number) => void (await w.ok('POST', `/api/v1/device/factorytest/runs/${id}/stop`, A().token));
/** stops what the owner started, so it writes nothing while later rows compare snapshots */
const stopRuns = async (res: Answer) => {
  for (const run of res.json.data) await stop(await waiting(run.id));
};
const form = (file: Buffer) => {
  const f = new FormData();
  f.append('file', new Blob([file]), 'devices.xlsx');
  return f;
};
async function sheet(header: string[], rows: (string | null)[][]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('设备');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const day = 86_400_000;

export async function prepareDeviceAdmin() {
  const [floor] = await w.ok('POST', '/api/v1/area/create/1', A().token, { parentId: A().buildingId, level: 'floor', name: '1层' });
  [room] = await w.ok('POST', '/api/v1/area/create/1', A().token, { parentId: floor, level: 'room', name: '101' });
  device = await newDevice();
  project4g = (await w.ok('POST', '/api/v1/area/project', A().token, { regionId: A().regionId, name: 'A标记4G项目', projectType: 'PT1013', projectType2: 101, billingScheme: 1 })).id;
  [building4g] = await w.ok('POST', '/api/v1/area/create/1', A().token, { parentId: project4g, level: 'building', name: '4G楼' });
  await w.ok('POST', `/api/v1/device/refreshdevice/${device}?ttl=3600`, A().token);
  deviceSheet = await sheet(['楼栋', '楼层', '房间', '设备类型*', '设备编号*', '设备名称*', '网关编号', '备注'], [['1号楼', '1层', '101', 'device20020', 'RULE-IMP-1', '导入设备', null, null]]);
  gatewaySheet = await sheet(['网关编号*', '网关名称*', '网关类型', '楼栋', '备注'], [['RULE-IMP-GW', '导入网关', null, '1号楼', null]]);
}

export const DEVICE_ADMIN_ROWS: Row[] = [
  // ---- devices
  { method: 'POST', path: '/api/v1/device/create/{projectId}/{areaId}/{deviceType}', code: 'deviceList_n:btn_add', kind: 'object', url: () => `/api/v1/device/create/${pid()}/${A().buildingId}/device20020`, body: () => ({ deviceName: '新设备' }) },
  { method: 'PUT', path: '/api/v1/device/updatedevice/{id}', code: 'deviceList_n:btn_edit', kind: 'object', setup: () => newDevice(), body: () => ({ deviceName: '改名设备' }) },
  { method: 'PUT', path: '/api/v1/device/updatearea/{deviceId}/{areaId}', code: 'deviceList_n:btn_edit', kind: 'object', setup: () => newDevice(), url: (id) => `/api/v1/device/updatearea/${id}/${room}` },
  { method: 'POST', path: '/api/v1/device/updatearea', code: 'deviceList_n:btn_edit', kind: 'object', setup: () => newDevice(), body: (id) => ({ deviceIds: [id], areaId: room }) },
  { method: 'POST', path: '/api/v1/device/active', code: 'deviceList_n:btn_edit', kind: 'object', setup: () => newDevice(), body: (id) => ({ ids: [id], enabled: false }) },
  { method: 'POST', path: '/api/v1/device/deletedevice', code: 'deviceList_n:btn_del', kind: 'object', setup: () => newDevice(), body: (id) => ({ id }) },
  { method: 'POST', path: '/api/v1/device/backUpDevice', code: 'deviceList_n:btn_edit', kind: 'object', setup: () => newDevice(), body: (id) => ({ id }) },
  { method: 'POST', path: '/api/v1/device/replaceDevice', code: 'deviceList_n:btn_edit', kind: 'object', setup: () => newDevice(), url: (id) => `/api/v1/device/replaceDevice?oldDeviceCode=${codeOf.get(id)}&newDeviceCode=${uniq('RULE-NEW-')}` },
  { method: 'GET', path: '/api/v1/device/qrcode/{id}', code: 'login', kind: 'object', setup: async () => device },
  // ---- 4G devices and their SIM cards
  { method: 'GET', path: '/api/v1/device/getDeviceListFor4G', code: 'deviceList_n', kind: 'object', url: () => `/api/v1/device/getDeviceListFor4G?areaId=${project4g}` },
  { method: 'GET', path: '/api/v1/device/getAllDeviceTypeFor4G', code: 'login', kind: 'object', url: () => `/api/v1/device/getAllDeviceTypeFor4G?tid=${project4g}` },
  { method: 'POST', path: '/api/v1/device/createDeviceFor4G', code: 'deviceList_n:btn_add', kind: 'object', body: () => ({ areaId: building4g, deviceType: 'device4GHeating', deviceCode: uniq('RULE-4G-'), card: { iccid: iccid(), carrier: '中国联通' } }) },
  { method: 'POST', path: '/api/v1/device/updateDeviceFor4G', code: 'deviceList_n:btn_edit', kind: 'object', setup: new4g, body: (id) => ({ id, deviceName: '改名4G设备' }) },
  { method: 'GET', path: '/api/v1/device/card/list', code: 'deviceCardInfoList', kind: 'object', url: () => `/api/v1/device/card/list?projectId=${project4g}` },
  { method: 'GET', path: '/api/v1/device/card/export', code: 'deviceCardInfoList:export', kind: 'object', url: () => `/api/v1/device/card/export?projectId=${project4g}` },
  { method: 'POST', path: '/api/v1/device/card/save', code: 'deviceCardInfoList:btn_edit', kind: 'object', setup: new4g, body: (id) => ({ deviceCode: codeOf.get(id), iccid: iccid(), carrier: '中国电信' }) },
  { method: 'POST', path: '/api/v1/device/card/delete', code: 'deviceCardInfoList:btn_del', kind: 'object', setup: withCard, body: (id) => ({ deviceCode: codeOf.get(id) }) },
  // ---- storage
  { method: 'GET', path: '/api/v1/deviceStorage/getProjectDeviceStorage', code: 'deviceList_n', kind: 'object', url: () => `/api/v1/deviceStorage/getProjectDeviceStorage?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/deviceStorage/getProjectAllDeviceStorage', code: 'deviceList_n', kind: 'object', url: () => `/api/v1/deviceStorage/getProjectAllDeviceStorage?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/deviceStorage/projectAllDeviceStorageExport', code: 'deviceList_n:export', kind: 'object', url: () => `/api/v1/deviceStorage/projectAllDeviceStorageExport?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/deviceStorage/updateDeviceStorageName', code: 'deviceList_n:btn_edit', kind: 'object', setup: inStorage, body: (id) => ({ id, deviceName: '改名库存' }) },
  { method: 'POST', path: '/api/v1/deviceStorage/add', code: 'deviceList_n:btn_add', kind: 'object', body: () => ({ projectId: pid(), deviceType: 'device20020' }) },
  // ---- groups
  { method: 'GET', path: '/api/v1/device/group/list', code: 'devicegroup', kind: 'object', url: () => `/api/v1/device/group/list?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/device/group/create', code: 'devicegroup:btn_add', kind: 'object', body: () => ({ projectId: pid(), name: uniq('新分组') }) },
  { method: 'PUT', path: '/api/v1/device/group/{id}', code: 'devicegroup:btn_edit', kind: 'object', setup: newGroup, body: () => ({ name: uniq('改名分组') }) },
  { method: 'POST', path: '/api/v1/device/group/delete/{id}', code: 'devicegroup:btn_del', kind: 'object', setup: newGroup },
  { method: 'POST', path: '/api/v1/device/group/members/{id}', code: 'devicegroup:btn_edit', kind: 'object', setup: newGroup, body: () => ({ add: [device] }) },
  { method: 'GET', path: '/api/v1/device/group/groupDeviceListByType/{id}', code: 'devicegroup', kind: 'object', setup: newGroup },
  // ---- batch parameters: another tenant's device fails in the answer, nothing is sent
  { method: 'POST', path: '/api/v1/device/batchpara', code: 'batchpara:control', kind: 'list', marker: 'A标记设备', body: () => ({ deviceIds: [device], fieldCode: 'f04', value: 22, ttl: 3600 }) },
  // ---- bind records and imports
  { method: 'GET', path: '/api/v1/device/bindrecord', code: ['deviceBindRecord', 'deviceBindManager'], kind: 'object', url: () => `/api/v1/device/bindrecord?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/device/bind/list', code: 'deviceBindManager', kind: 'object', url: () => `/api/v1/device/bind/list?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/device/bind/{deviceId}', code: 'deviceBindManager:btn_edit', kind: 'object', setup: () => inStorage(), body: () => ({ areaId: A().buildingId }) },
  { method: 'POST', path: '/api/v1/device/unbind/{deviceId}', code: 'deviceBindManager:btn_edit', kind: 'object', setup: () => newDevice() },
  { method: 'POST', path: '/api/v1/device/deviceimport', code: 'deviceList_n:btn_add', kind: 'object', url: () => `/api/v1/device/deviceimport?projectId=${pid()}`, body: () => form(deviceSheet) },
  { method: 'POST', path: '/api/v1/device/gatewayimport', code: 'deviceList_n:btn_add', kind: 'object', url: () => `/api/v1/device/gatewayimport?projectId=${pid()}`, body: () => form(gatewaySheet) },
  // ---- online statistics, address changes, MQTT settings, the operation-log export
  { method: 'GET', path: '/api/v1/device/report/online/{projectId}', code: 'deviceOnline_n', kind: 'object', url: () => `/api/v1/device/report/online/${pid()}` },
  { method: 'GET', path: '/api/v1/device/report/online/v2/{projectId}', code: 'deviceOnline_n', kind: 'object', url: () => `/api/v1/device/report/online/v2/${pid()}?from=${Date.now() - day}&to=${Date.now()}` },
  { method: 'GET', path: '/api/v1/device/address/list', code: 'dodifyDeviceIP_n', kind: 'object', url: () => `/api/v1/device/address/list?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/device/address/request', code: 'dodifyDeviceIP_n:control', kind: 'object', body: () => ({ projectId: pid(), deviceIds: [device], host: 'iot.example.com', port: 1883 }) },
  { method: 'POST', path: '/api/v1/device/address/close/{id}', code: 'dodifyDeviceIP_n:control', kind: 'object', setup: newAddressChange, body: () => ({ status: 'cancelled' }) },
  { method: 'GET', path: '/api/v1/device/mqtt/setting', code: 'mqttSetting_n', kind: 'object', url: () => `/api/v1/device/mqtt/setting?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/device/mqtt/setting', code: 'mqttSetting_n:btn_edit', kind: 'object', body: () => ({ projectId: pid(), host: 'iot.example.com', port: 8883, tls: true }) },
  { method: 'POST', path: '/api/v1/device/mqtt/credentials/{id}', code: 'mqttSetting_n:btn_edit', kind: 'object', setup: () => newDevice() },
  { method: 'GET', path: '/api/v1/device/operationlog/export', code: 'deviceoperationlog:export', kind: 'object', url: () => `/api/v1/device/operationlog/export?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/device/operationlog/export', code: 'deviceoperationlog:export', kind: 'list', marker: 'A标记设备' },
  // ---- the factory bench
  { method: 'POST', path: '/api/v1/device/factorytest/run', code: 'testEquipment_n:control', kind: 'object', other: 40000, body: FACTORY_RUN, after: stopRuns },
  { method: 'POST', path: '/api/v1/device/factorytest/runs/{id}/stop', code: 'testEquipment_n:control', kind: 'object', setup: newRun },
  { method: 'GET', path: '/api/v1/device/factorytest/runs', code: FACTORY_VIEW_CODES, kind: 'object', url: () => `/api/v1/device/factorytest/runs?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/device/factorytest/runs/{id}', code: FACTORY_VIEW_CODES, kind: 'object', setup: newRun, after: (_res, id) => stop(id) },
  { method: 'GET', path: '/api/v1/device/factorytest/devices', code: FACTORY_VIEW_CODES, kind: 'object', url: () => `/api/v1/device/factorytest/devices?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/device/factorytest/export', code: 'equipmentRecords_n:export', kind: 'object', url: () => `/api/v1/device/factorytest/export?projectId=${pid()}` },
];
