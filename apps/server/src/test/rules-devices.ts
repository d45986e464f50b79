import { MONITOR_EXPORT_CODES, MONITOR_PAGE_CODES } from '../modules/devices/index.ts';
import { createTestDevice } from '../modules/devices/test-fixtures.ts';
import { uniq, w, type Row } from './endpoint-rules.ts';

/** Live devices: reads, history and ingest, commands, the operation log, the live stream and the service monitor. */

const A = () => w.A;
/** device id → device code of the devices made here */
export const codeOf = new Map<number, string>();

/** A device of tenant A in its building (a thermostat of A's project type unless told). */
export async function newDevice(o: { type?: string; projectId?: number; areaId?: number; gatewayId?: number } = {}) {
  const dev = await createTestDevice(w.k, { tenantId: A().tenantId, projectId: o.projectId ?? A().projectId, areaId: o.areaId ?? A().buildingId, type: o.type, name: uniq('A标记设备') });
  if (o.gatewayId) await w.k.db.updateTable('device').set({ gateway_id: o.gatewayId }).where('id', '=', dev.id).execute();
  codeOf.set(dev.id, dev.code);
  return dev.id;
}

/** Viewing a device: its type's page or the general monitor; controlling it: the page's control element or the monitor's. */
export const VIEW = ['devicemonitor', 'device20020'];
export const CONTROL = ['devicemonitor:control', 'device20020:control'];

let device = 0;
let gateway = 0;
const newCommand = async () => (await w.ok('POST', `/api/v1/device/refreshdevice/${device}?ttl=3600`, A().token)).commandId as number;
const day = 86_400_000;

export async function prepareDevices() {
  device = await newDevice();
  gateway = await newDevice({ type: 'gateway' });
  await newDevice({ gatewayId: gateway });
  await newCommand();
}

export const DEVICE_ROWS: Row[] = [
  // ---- reads
  { method: 'GET', path: '/api/v1/device/devicelist', code: 'login', kind: 'list', marker: 'A标记设备' },
  { method: 'GET', path: '/api/v1/device/devicelist', code: 'login', kind: 'object', url: () => `/api/v1/device/devicelist?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/device/detail/{id}', code: VIEW, kind: 'object', setup: async () => device },
  { method: 'GET', path: '/api/v1/device/getdevicetypelist/{projectId}', code: 'login', kind: 'object', url: () => `/api/v1/device/getdevicetypelist/${A().projectId}` },
  { method: 'GET', path: '/api/v1/device/protocollist/{id}', code: VIEW, kind: 'object', setup: async () => device },
  { method: 'GET', path: '/api/v1/device/thermostat/monitor/{projectId}/{areaId}', code: 'login', kind: 'object', url: () => `/api/v1/device/thermostat/monitor/${A().projectId}/-1` },
  // the monitor's extras (spec §7.5): any monitor page's code; the export its export element
  { method: 'GET', path: '/api/v1/device/monitor/statistic', code: MONITOR_PAGE_CODES, kind: 'object', url: () => `/api/v1/device/monitor/statistic?projectId=${A().projectId}&deviceType=device20020` },
  { method: 'GET', path: '/api/v1/device/monitor/offlinemessage', code: MONITOR_PAGE_CODES, kind: 'object', url: () => `/api/v1/device/monitor/offlinemessage?projectId=${A().projectId}&deviceType=device20020` },
  { method: 'GET', path: '/api/v1/device/monitor/export', code: MONITOR_EXPORT_CODES, kind: 'object', url: () => `/api/v1/device/monitor/export?projectId=${A().projectId}&deviceType=device20020` },
  { method: 'GET', path: '/api/v1/device/getviewbyarea/{id}', code: 'login', kind: 'object', url: () => `/api/v1/device/getviewbyarea/${A().buildingId}` },
  { method: 'GET', path: '/api/v1/device/getviewlistbyareabypage_forpdevice/{areaId}/{parentId}', code: ['devicemonitor', 'gatewayControl'], kind: 'object', url: () => `/api/v1/device/getviewlistbyareabypage_forpdevice/-1/${gateway}` },
  { method: 'POST', path: '/api/v1/device/credentials/{id}', code: ['deviceList_n:btn_edit', 'area:btn_edit'], kind: 'object', setup: () => newDevice() },
  // ---- history and ingest
  { method: 'GET', path: '/api/v1/device/history', code: VIEW, kind: 'object', url: () => `/api/v1/device/history?deviceId=${device}&from=${Date.now() - day}&to=${Date.now()}` },
  { method: 'GET', path: '/api/v1/device/ingeststats', code: 'devicemonitor', kind: 'list' },
  { method: 'GET', path: '/api/v1/monitor/service', code: 'serviceMonitorManager', kind: 'platform' },
  { method: 'GET', path: '/api/v1/monitor/ingestrejects', code: 'serviceMonitorManager', kind: 'platform' },
  // ---- commands
  { method: 'POST', path: '/api/v1/device/writedeviceattr/{deviceId}/{fieldCode}/{value}', code: CONTROL, kind: 'object', url: () => `/api/v1/device/writedeviceattr/${device}/f04/22?ttl=3600` },
  { method: 'GET', path: '/api/v1/device/command/{commandId}', code: VIEW, kind: 'object', setup: newCommand },
  { method: 'POST', path: '/api/v1/device/refreshdevice/{id}', code: CONTROL, kind: 'object', url: () => `/api/v1/device/refreshdevice/${device}?ttl=3600` },
  { method: 'POST', path: '/api/v1/device/operation/{id}', code: CONTROL, kind: 'object', url: () => `/api/v1/device/operation/${device}?eventType=syncTime&ttl=3600` },
  { method: 'GET', path: '/api/v1/device/operationlog', code: 'deviceoperationlog', kind: 'list', marker: 'A标记设备' },
  { method: 'GET', path: '/api/v1/device/operationlog', code: VIEW, kind: 'object', url: () => `/api/v1/device/operationlog?deviceId=${device}` },
  // ---- the live stream (a project of another tenant is not found before the stream opens)
  { method: 'GET', path: '/api/v1/live', code: 'login', kind: 'object', stream: true, url: () => `/api/v1/live?projectId=${A().projectId}` },
];
