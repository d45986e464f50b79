import { uniq, w, type Row } from './endpoint-rules.ts';
import { newDevice } from './rules-devices.ts';

/** Monitoring rules and alarms (monitor messages) of a project. */

const A = () => w.A;
const ruleBody = () => ({ projectId: A().projectId, name: uniq('A标记规则'), deviceType: 'device20020', fieldCode: 'f03', operator: 'gt', threshold: 30, forSeconds: 0, severity: 'major', notifySms: false, enabled: true });
const newRule = async () => (await w.ok('POST', '/api/v1/monitorrule', A().token, ruleBody())).id as number;

/** An alarm of tenant A's project, as the engine writes it. */
async function newAlarm() {
  const ruleId = await newRule();
  const deviceId = await newDevice();
  const row = await w.k.db.insertInto('monitor_message').values({
    tenant_id: A().tenantId, project_id: A().projectId, rule_id: ruleId, device_id: deviceId, device_code: `A-${deviceId}`, device_name: 'A标记设备',
    device_type: 'device20020', rule_name: 'A标记规则', field_code: 'f03', description: '室内温度 > 30.0 °C', value: '35.0 °C', severity: 'major',
    status: 'active', read: 0, read_by: null, read_at: null, comment: null, created_at: Date.now(), cleared_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** An exception record of tenant A's project, as the detector writes it. */
async function newException() {
  const deviceId = await newDevice();
  const row = await w.k.db.insertInto('exception_data').values({
    tenant_id: A().tenantId, project_id: A().projectId, device_id: deviceId, device_code: `A-${deviceId}`, device_name: 'A标记设备', device_type: 'device20020',
    field_code: 'f03', kind: 'range', value: '55.0 °C', previous: null, description: '室内温度超出传感器量程：A标记', reading_at: Date.now(), handled: 0,
    handled_by: null, handled_at: null, note: null, created_at: Date.now(),
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function prepareMonitoring() {
  await newAlarm();
  await newException();
}

export const MONITORING_ROWS: Row[] = [
  { method: 'GET', path: '/api/v1/monitorrule', code: 'monitorrules', kind: 'object', url: () => `/api/v1/monitorrule?projectId=${A().projectId}` },
  { method: 'POST', path: '/api/v1/monitorrule', code: 'monitorrules:btn_add', kind: 'object', url: () => '/api/v1/monitorrule', body: ruleBody },
  { method: 'PUT', path: '/api/v1/monitorrule/{id}', code: 'monitorrules:btn_edit', kind: 'object', setup: newRule, body: () => ({ ...ruleBody(), threshold: 31 }) },
  { method: 'POST', path: '/api/v1/monitorrule/delete', code: 'monitorrules:btn_del', kind: 'object', setup: newRule, url: () => '/api/v1/monitorrule/delete', body: (id) => ({ ids: [id] }) },
  { method: 'GET', path: '/api/v1/device/monitormessageqty/{projectId}', code: 'monitorrules', kind: 'object', url: () => `/api/v1/device/monitormessageqty/${A().projectId}` },
  { method: 'GET', path: '/api/v1/device/monitormessage', code: 'monitorrules', kind: 'object', url: () => `/api/v1/device/monitormessage?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/device/monitormessage/{id}', code: 'monitorrules', kind: 'object', setup: newAlarm },
  { method: 'POST', path: '/api/v1/device/monitormessage/ack', code: 'monitorrules:btn_edit', kind: 'object', setup: newAlarm, url: () => '/api/v1/device/monitormessage/ack', body: (id) => ({ ids: [id], comment: '已处理' }) },
  { method: 'GET', path: '/api/v1/device/exceptiondata', code: 'exceptiondata', kind: 'object', url: () => `/api/v1/device/exceptiondata?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/device/exceptiondata/export', code: 'exceptiondata:export', kind: 'object', url: () => `/api/v1/device/exceptiondata/export?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/device/exceptiondata/{id}', code: 'exceptiondata', kind: 'object', setup: newException },
  { method: 'GET', path: '/api/v1/device/exceptiondevice', code: 'exceptiondata', kind: 'object', url: () => `/api/v1/device/exceptiondevice?projectId=${A().projectId}` },
  { method: 'POST', path: '/api/v1/device/exceptiondevicehandle', code: 'exceptiondata:btn_edit', kind: 'object', setup: newException, url: () => '/api/v1/device/exceptiondevicehandle', body: (id) => ({ ids: [id], note: '传感器已更换' }) },
  { method: 'GET', path: '/api/v1/device/faultdevice', code: 'projectFaultDeviceList', kind: 'object', url: () => `/api/v1/device/faultdevice?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/device/faultdevice/export', code: 'projectFaultDeviceList:export', kind: 'object', url: () => `/api/v1/device/faultdevice/export?projectId=${A().projectId}` },
  { method: 'GET', path: '/api/v1/device/monitoroverview/{projectId}', code: 'monitor', kind: 'object', url: () => `/api/v1/device/monitoroverview/${A().projectId}` },
  { method: 'POST', path: '/api/v1/device/closemessage', code: 'monitorrules:btn_edit', kind: 'object', setup: newAlarm, url: () => '/api/v1/device/closemessage', body: (id) => ({ ids: [id] }) },
];
