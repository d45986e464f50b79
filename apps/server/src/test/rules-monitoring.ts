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

export async function prepareMonitoring() {
  await newAlarm();
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
  { method: 'POST', path: '/api/v1/device/closemessage', code: 'monitorrules:btn_edit', kind: 'object', setup: newAlarm, url: () => '/api/v1/device/closemessage', body: (id) => ({ ids: [id] }) },
];
