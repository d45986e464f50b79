import { z } from 'zod';
import { pageQuery, decimal } from './common.ts';
import { deviceIdListOf, positiveIdOf } from './device-admin.ts';
import { fieldDisplay, fieldOf, roundToStep } from './device-registry.ts';
import type { DeviceAction, DeviceTypeDef, FieldDef } from './device-types.ts';
import { deviceTypeCode, type DeviceRow } from './device.ts';

/**
 * Device-management screens beyond device CRUD: online statistics (deviceOnline_n), server address
 * changes (dodifyDeviceIP_n), MQTT access settings (mqttSetting_n) and the factory test bench (test-equipment pages).
 */

const DAY = 86_400_000;

/* ---------- deviceOnline_n: online statistics ---------- */

export const ONLINE_HISTORY_MAX_DAYS = 31;
export const ONLINE_BUCKET_MS = 3_600_000;
export const onlineHistoryQuery = z.object({
  from: decimal(z.number({ error: '开始时间必须是毫秒时间戳' }).int().nonnegative()),
  to: decimal(z.number({ error: '结束时间必须是毫秒时间戳' }).int().positive()),
  deviceType: deviceTypeCode.optional(),
}).refine((q) => q.from < q.to, { message: '开始时间必须早于结束时间', path: ['from'] })
  .refine((q) => q.to - q.from <= ONLINE_HISTORY_MAX_DAYS * DAY, { message: `时间范围最长 ${ONLINE_HISTORY_MAX_DAYS} 天`, path: ['to'] });

export interface OnlineNowRow {
  code: string;
  name: string;
  categoryName: string;
  total: number;
  online: number;
  offline: number;
}
export interface OnlineHistoryPoint {
  /** start of the hour */
  t: number;
  /** devices registered by the end of the hour */
  devices: number;
  /** devices that reported at least once within the hour */
  online: number;
  byType: Record<string, number>;
}
export interface OnlineHistory {
  from: number;
  to: number;
  bucketMs: number;
  types: { code: string; name: string }[];
  points: OnlineHistoryPoint[];
}

/* ---------- deviceoperationlog: the export (the list is the devices API's operationlog) ---------- */

export const operationLogExportQuery = z.object({
  projectId: positiveIdOf('项目编号').optional(),
  deviceId: positiveIdOf('设备编号').optional(),
  /** from inclusive, to exclusive — the same bounds as the list */
  from: decimal(z.number().int().nonnegative()).optional(),
  to: decimal(z.number().int().positive()).optional(),
  /** older names of from/to (the query form's date range) */
  atFrom: decimal(z.number().int().nonnegative()).optional(),
  atTo: decimal(z.number().int().positive()).optional(),
});

/* ---------- shared: a server address devices connect to ---------- */

/** A host name or an IPv4 address (what a device's firmware accepts). */
export const hostSchema = z.string({ error: '请输入服务器地址' }).trim().min(1, '请输入服务器地址').max(253, '服务器地址最多 253 个字符')
  .regex(/^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/, '服务器地址应为域名或 IP 地址（不含 http:// 和端口）');
export const portSchema = decimal(z.number({ error: '端口必须是数字' }).int('端口必须是整数').min(1, '端口范围为 1～65535').max(65535, '端口范围为 1～65535'));

/* ---------- dodifyDeviceIP_n: change the server address a device reports to ---------- */

export const ADDRESS_CHANGE_STATUSES = ['requested', 'confirmed', 'cancelled'] as const;
export type AddressChangeStatus = (typeof ADDRESS_CHANGE_STATUSES)[number];
export const ADDRESS_CHANGE_STATUS_LABELS: Record<AddressChangeStatus, string> = {
  requested: '已登记，待现场改写',
  confirmed: '已确认改写',
  cancelled: '已撤销',
};
export const addressChangeBody = z.object({
  projectId: positiveIdOf('项目编号'),
  deviceIds: deviceIdListOf('设备编号'),
  host: hostSchema,
  port: portSchema,
  remark: z.string().trim().max(200, '备注最多 200 个字符').optional(),
});
export const addressChangeQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  status: z.enum(ADDRESS_CHANGE_STATUSES, { error: '状态不存在' }).optional(),
  keyword: z.string().trim().max(64, '关键字最多 64 个字符').optional(),
});
export const addressChangeCloseBody = z.object({
  status: z.enum(['confirmed', 'cancelled'], { error: '请选择确认或撤销' }),
  remark: z.string().trim().max(200, '备注最多 200 个字符').optional(),
});
export interface AddressChangeRow {
  id: number;
  deviceId: number | null;
  deviceCode: string;
  deviceName: string;
  deviceType: string;
  typeName: string;
  host: string;
  port: number;
  status: AddressChangeStatus;
  statusLabel: string;
  remark: string | null;
  requestedBy: string | null;
  requestedAt: number;
  closedBy: string | null;
  closedAt: number | null;
  /** the device as it is now (null once deleted) */
  online: boolean | null;
  lastReportAt: number | null;
}

/* ---------- mqttSetting_n: where devices connect, and their credentials ---------- */

export const mqttSettingQuery = z.object({ projectId: positiveIdOf('项目编号') });
export const mqttSettingBody = z.object({
  projectId: positiveIdOf('项目编号'),
  host: hostSchema,
  port: portSchema,
  tls: z.boolean({ error: '请选择是否加密' }).default(false),
});
export interface MqttSettingView {
  projectId: number;
  /** the address installers load into devices (null until set) */
  host: string | null;
  port: number | null;
  tls: boolean;
  updatedAt: number | null;
  updatedBy: string | null;
  /** the broker this server runs: embedded (port it listens on) or an external one */
  broker: { kind: 'embedded' | 'external' | 'off'; port: number | null; host: string | null };
  tenantCode: string;
  /** topic patterns with {deviceCode} */
  topics: { up: string; down: string; ack: string };
}

/* ---------- test-equipment pages: the factory bench ---------- */

export const FACTORY_BENCH_CODES = ['testEquipment_n', 'testBLDCXEquipment', 'testSolarEquipment', 'testAirCabinetControllerEquipment'] as const;
export type FactoryBench = (typeof FACTORY_BENCH_CODES)[number];
/** Screens that read the bench's records. */
export const FACTORY_VIEW_CODES = [...FACTORY_BENCH_CODES, 'equipmentRecords_n', 'testDeviceStatus'] as const;

export type FactoryStepDef =
  | { kind: 'online'; label: string }
  | { kind: 'write'; label: string; fieldCode: string; value: number | string }
  | { kind: 'action'; label: string; action: DeviceAction }
  /** the device reported these fields after the step started */
  | { kind: 'reading'; label: string; fieldCodes: string[] };

interface ScriptOptions { modes?: boolean; fans?: boolean; setpoint?: boolean; readings?: boolean }

const MODE_FIELDS = ['f01', 'f40', 'f82'];
const SETPOINT_FIELDS = ['f04', 'f41', 'f80'];
/** 恢复上次 restores the previous mode: not a mode of its own. */
const NOT_A_MODE = '恢复上次';

const writableField = (def: DeviceTypeDef, code: string): FieldDef | undefined => {
  const f = fieldOf(def, code);
  return f?.writable ? f : undefined;
};
const writeStep = (def: DeviceTypeDef, f: FieldDef, value: number): FactoryStepDef =>
  ({ kind: 'write', label: `${f.label}：${fieldDisplay(def, f.code, value)}`, fieldCode: f.code, value });

/** The middle of a number field's range, on its step. */
export function midValue(f: FieldDef): number {
  const min = f.min ?? 0;
  const max = f.max ?? min;
  const step = f.step ?? 1;
  return roundToStep(f, min + Math.round((max - min) / 2 / step) * step);
}

/**
 * The scripted check of one device type on a bench: online, power on, each mode / fan speed, a set point in the
 * middle of its range, a data refresh with the read-only readings it must report, power off. Built from the device
 * registry, so a new type is covered without code.
 */
function buildScript(def: DeviceTypeDef, o: ScriptOptions): FactoryStepDef[] {
  const steps: FactoryStepDef[] = [{ kind: 'online', label: '在线检查' }];
  const power = writableField(def, 'f00');
  const on = power?.options && Object.keys(power.options).find((v) => v !== '0');
  if (power && on !== undefined) steps.push(writeStep(def, power, Number(on)));
  if (o.modes) {
    const mode = MODE_FIELDS.map((c) => writableField(def, c)).find((f) => f?.kind === 'enum');
    // floor-heating thermostats (they carry a floor sensor, f08) have no cooling or ventilation
    const floorHeating = mode?.code === 'f01' && fieldOf(def, 'f08') !== undefined;
    for (const [v, label] of Object.entries(mode?.options ?? {})) {
      if (label === NOT_A_MODE || (floorHeating && (v === '0' || v === '2'))) continue;
      steps.push(writeStep(def, mode!, Number(v)));
    }
  }
  if (o.fans) {
    const fan = writableField(def, 'f02');
    for (const v of Object.keys(fan?.options ?? {})) steps.push(writeStep(def, fan!, Number(v)));
  }
  if (o.setpoint) {
    const sp = SETPOINT_FIELDS.map((c) => writableField(def, c)).find((f) => f?.kind === 'number');
    if (sp) steps.push(writeStep(def, sp, midValue(sp)));
  }
  if (o.readings) {
    const readOnly = def.listFields.filter((c) => fieldOf(def, c) && !fieldOf(def, c)!.writable);
    if (def.actions.includes('refresh')) steps.push({ kind: 'action', label: '刷新数据', action: 'refresh' });
    if (readOnly.length) steps.push({ kind: 'reading', label: `数据上报：${readOnly.map((c) => fieldOf(def, c)!.label).join('、')}`, fieldCodes: readOnly });
  }
  if (power && on !== undefined && power.options?.['0'] !== undefined) steps.push(writeStep(def, power, 0));
  return steps;
}

export interface FactoryBenchDef {
  code: FactoryBench;
  title: string;
  description: string;
  accepts(def: DeviceTypeDef): boolean;
  script(def: DeviceTypeDef): FactoryStepDef[];
}

export const FACTORY_BENCHES: readonly FactoryBenchDef[] = [
  {
    code: 'testEquipment_n', title: '设备测试', description: '通用出厂检测：在线、开机、各运行模式、设定值、数据上报、关机',
    accepts: () => true,
    script: (def) => buildScript(def, { modes: true, setpoint: true, readings: true }),
  },
  {
    code: 'testBLDCXEquipment', title: '直流无刷风机测试', description: '风机检测：开机、各档风速、设定温度、关机',
    accepts: (def) => writableField(def, 'f02') !== undefined,
    script: (def) => buildScript(def, { fans: true, setpoint: true }),
  },
  {
    code: 'testSolarEquipment', title: '光伏设备测试', description: '逆变器检测：启停、数据上报（功率、电压、温度、运行状态）',
    accepts: (def) => def.category === 'solar',
    script: (def) => buildScript(def, { readings: true }),
  },
  {
    code: 'testAirCabinetControllerEquipment', title: '柜机控制器测试', description: '柜机控制器检测：开机、各运行模式、各档风速、设定温度、数据上报、关机',
    accepts: (def) => def.category === 'airCabinet',
    script: (def) => buildScript(def, { modes: true, fans: true, setpoint: true, readings: true }),
  },
];
export const FACTORY_BENCH_BY_CODE: ReadonlyMap<string, FactoryBenchDef> = new Map(FACTORY_BENCHES.map((b) => [b.code, b]));

export const FACTORY_RUN_STATUSES = ['running', 'passed', 'failed', 'aborted'] as const;
export type FactoryRunStatus = (typeof FACTORY_RUN_STATUSES)[number];
export const FACTORY_RUN_STATUS_LABELS: Record<FactoryRunStatus, string> = { running: '测试中', passed: '通过', failed: '未通过', aborted: '已中断' };
export const FACTORY_STEP_STATUSES = ['pending', 'running', 'passed', 'failed', 'skipped'] as const;
export type FactoryStepStatus = (typeof FACTORY_STEP_STATUSES)[number];
export const FACTORY_STEP_STATUS_LABELS: Record<FactoryStepStatus, string> = { pending: '等待', running: '进行中', passed: '通过', failed: '失败', skipped: '未执行' };

export const factoryRunBody = z.object({
  bench: z.enum(FACTORY_BENCH_CODES, { error: '测试台不存在' }),
  deviceIds: z.array(positiveIdOf('设备编号'), { error: '请选择设备' }).min(1, '请至少选择一台设备').max(50, '一次最多测试 50 台设备'),
  /** how long each step waits for the device (online, acknowledgement, report) */
  stepTimeoutSeconds: z.number({ error: '单步超时必须是数字' }).int('单步超时必须是整数秒').min(5, '单步超时至少 5 秒').max(300, '单步超时最多 300 秒').default(30),
});
export const factoryRunQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  bench: z.enum(FACTORY_BENCH_CODES, { error: '测试台不存在' }).optional(),
  status: z.enum(FACTORY_RUN_STATUSES, { error: '状态不存在' }).optional(),
  keyword: z.string().trim().max(64, '关键字最多 64 个字符').optional(),
  /** start time range (the query form's date range: startedFrom / startedTo) */
  startedFrom: decimal(z.number().int().nonnegative()).optional(),
  startedTo: decimal(z.number().int().positive()).optional(),
});
export const factoryDeviceQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  bench: z.enum(FACTORY_BENCH_CODES, { error: '测试台不存在' }).optional(),
  keyword: z.string().trim().max(64, '关键字最多 64 个字符').optional(),
});

export interface FactoryStepView {
  seq: number;
  label: string;
  kind: FactoryStepDef['kind'];
  fieldCode: string | null;
  value: string | null;
  status: FactoryStepStatus;
  statusLabel: string;
  message: string | null;
  commandId: number | null;
  startedAt: number | null;
  finishedAt: number | null;
}
export interface FactoryRunView {
  id: number;
  bench: FactoryBench;
  benchTitle: string;
  projectId: number;
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  deviceType: string;
  typeName: string;
  status: FactoryRunStatus;
  statusLabel: string;
  stepCount: number;
  passed: number;
  failed: number;
  stepTimeoutSeconds: number;
  startedAt: number;
  finishedAt: number | null;
  username: string | null;
  steps?: FactoryStepView[];
}
export interface FactoryDeviceRow extends DeviceRow {
  lastRun: FactoryRunView | null;
}
