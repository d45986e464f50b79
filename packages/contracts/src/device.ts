import { z } from 'zod';
import { pageQuery, decimal } from './common.ts';
import { DEVICE_CATEGORY_LABELS, DEVICE_TYPE_CODES } from './device-registry.ts';
import type { DeviceAction, DeviceCategory } from './device-types.ts';

/** Device API contracts: shared by the server routes and the web screens. */

const positiveId = (what: string) =>
  decimal(z.number({ error: `${what}必须是数字` }).int(`${what}必须是整数`).positive(`${what}必须大于 0`));
/** A yes/no query value (0/1, true/false) with its own refusal message. */
const flagOf = (error: string) => z.enum(['0', '1', 'true', 'false'], { error }).transform((v) => v === '1' || v === 'true');
const flag = flagOf('在线状态只能是 0 或 1');
/**
 * getviewbyarea: `own=1` only the devices placed on the area itself, not below it (a project's own devices);
 * `category` only devices of that kind (平衡阀视图 asks the valves of a project of thousands of meters).
 */
export const deviceViewByAreaQuery = z.object({
  own: flagOf('own 只能是 0 或 1').optional(),
  category: z.enum(Object.keys(DEVICE_CATEGORY_LABELS) as [DeviceCategory, ...DeviceCategory[]], { error: '设备类别不存在' }).optional(),
});

export const deviceTypeCode = z.enum(DEVICE_TYPE_CODES as [string, ...string[]], { error: '设备类型不存在' });

/** Device codes are the MQTT client id and user name: no wildcards, no topic separators. */
export const deviceCodeSchema = z.string({ error: '请输入设备编号' }).trim()
  .regex(/^[A-Za-z0-9_.-]{3,64}$/, '设备编号为 3～64 位字母、数字、下划线、点或减号');

export const deviceIdParam = z.object({ id: positiveId('设备编号') });
export const commandIdParam = z.object({ commandId: positiveId('指令编号') });

export const deviceListQuery = pageQuery.extend({
  projectId: positiveId('项目编号').optional(),
  deviceType: deviceTypeCode.optional(),
  online: flag.optional(),
  keyword: z.string().trim().max(64, '关键字最多 64 个字符').optional(),
  /** a building, floor or room: devices below it */
  areaId: positiveId('区域编号').optional(),
  gatewayId: positiveId('网关编号').optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuery>;

/**
 * The device monitor's extras (spec §7.5: average temperature, statistic, offline messages, export): the devices the
 * monitor page shows — one type of one project, optionally within a building/floor/room, by keyword and online state.
 */
export const deviceMonitorQuery = z.object({
  projectId: positiveId('项目编号'),
  deviceType: deviceTypeCode,
  online: flag.optional(),
  keyword: z.string().trim().max(64, '关键字最多 64 个字符').optional(),
  areaId: positiveId('区域编号').optional(),
});
export type DeviceMonitorQuery = z.infer<typeof deviceMonitorQuery>;

/** Offline messages: devices of the monitor's selection whose heartbeat window lapsed within the last `days` days. */
export const offlineMessageQuery = pageQuery.extend(deviceMonitorQuery.shape).extend({
  days: decimal(z.number({ error: '天数必须是数字' }).int('天数必须是整数').min(1, '天数为 1～30').max(30, '天数为 1～30')).default(7),
});
export type OfflineMessageQuery = z.infer<typeof offlineMessageQuery>;

/** The monitor's statistic strip over the devices shown (the filters of the table). */
export interface DeviceMonitorStatistic {
  total: number;
  online: number;
  offline: number;
  /** online devices whose power/switch field f00 is on (null: the type has no f00) */
  poweredOn: number | null;
  /** active alarms (monitoring) on the devices shown */
  alarms: number;
  /** mean room temperature f03 over the online devices reporting it, 0.1 °C (null: none, or the type has no f03) */
  avgRoomTemp: number | null;
  /** how many devices the average is over */
  tempDevices: number;
}

export interface OfflineMessageRow {
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  typeName: string;
  areaPath: string;
  lastReportAt: number | null;
  /** when its heartbeat window lapsed (device.online_until) */
  offlineSince: number;
  /** how long it has been offline, ms */
  offlineMs: number;
}

export type FieldValue = number | string;

export interface DeviceRow {
  id: number;
  deviceCode: string;
  deviceName: string;
  deviceType: string;
  typeName: string;
  online: boolean;
  /** epoch ms after which the device counts as offline unless it reports again */
  onlineUntil: number | null;
  lastReportAt: number | null;
  projectId: number;
  areaId: number | null;
  /** building / floor / room names */
  areaPath: string;
  gatewayId: number | null;
  enabled: boolean;
  fields: Record<string, FieldValue>;
}

export interface DeviceDetail extends DeviceRow {
  projectName: string;
  createdAt: number;
  /** report time of each field's latest value */
  fieldTimes: Record<string, number>;
  /** commands not finished yet (pending or sent) */
  openCommands: CommandView[];
}

export const HISTORY_MAX_POINTS = 500;
export const historyQuery = z.object({
  deviceId: positiveId('设备编号'),
  /** comma-separated field codes; default: every numeric field of the type */
  fields: z.string().max(400).regex(/^[A-Za-z0-9_,]*$/, '字段列表格式不正确').optional(),
  from: decimal(z.number({ error: '开始时间必须是毫秒时间戳' }).int().nonnegative()),
  to: decimal(z.number({ error: '结束时间必须是毫秒时间戳' }).int().positive()),
}).refine((q) => q.from < q.to, { message: '开始时间必须早于结束时间', path: ['from'] })
  .refine((q) => q.to - q.from <= 400 * 86_400_000, { message: '时间范围最长 400 天', path: ['to'] });

export interface HistorySeries {
  field: string;
  label: string;
  unit: string;
  /**
   * [epoch ms, value]; at most HISTORY_MAX_POINTS per series. Per time bucket: set points and states give their last
   * value (they hold until changed), counters their maximum, measured values their average.
   */
  points: [number, number][];
  /** measured values aggregated from several reports: [bucket time, min, max] */
  bands?: [number, number, number][];
}
export interface HistoryAnswer {
  deviceId: number;
  from: number;
  to: number;
  /** bucket width in ms (0: raw points) */
  bucketMs: number;
  series: HistorySeries[];
}

export const COMMAND_STATUSES = ['pending', 'sent', 'acked', 'rejected', 'expired'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
export const COMMAND_STATUS_LABELS: Record<CommandStatus, string> = {
  pending: '等待下发',
  sent: '已下发',
  acked: '已执行',
  rejected: '设备拒绝',
  expired: '已过期',
};
export const FINISHED_COMMAND_STATUSES: ReadonlySet<CommandStatus> = new Set(['acked', 'rejected', 'expired']);
const COMMAND_STATUS_RANK: Record<CommandStatus, number> = { pending: 0, sent: 1, acked: 2, rejected: 2, expired: 2 };
/** Whether a status heard later moves a command on: statuses only advance (a late 已下发 never overwrites an outcome). */
export function advancesCommand(current: CommandStatus, next: CommandStatus): boolean {
  return COMMAND_STATUS_RANK[next] > COMMAND_STATUS_RANK[current];
}

export interface CommandView {
  id: number;
  deviceId: number;
  deviceCode: string;
  /** a field write, or an operation (refresh, reboot …) */
  fieldCode: string | null;
  value: FieldValue | null;
  action: DeviceAction | null;
  /** Chinese description: 设定温度 → 24 °C, 重启设备 … */
  description: string;
  status: CommandStatus;
  statusLabel: string;
  error: string | null;
  createdAt: number;
  sentAt: number | null;
  finishedAt: number | null;
  expiresAt: number;
  username: string | null;
}

/** seconds a command waits for an offline or sleeping device */
export const commandTtlQuery = z.object({
  ttl: decimal(z.number({ error: '有效期必须是秒数' }).int('有效期必须是整数秒').min(1, '有效期至少 1 秒').max(7 * 86_400, '有效期最长 7 天')).optional(),
});

export const operationQuery = commandTtlQuery.extend({
  eventType: z.enum(['refresh', 'reboot', 'syncTime', 'resetAlarm', 'resetCounters'], { error: '操作类型不存在' }).default('refresh'),
});

export const operationLogQuery = pageQuery.extend({
  projectId: positiveId('项目编号').optional(),
  deviceId: positiveId('设备编号').optional(),
  from: decimal(z.number().int().nonnegative()).optional(),
  to: decimal(z.number().int().positive()).optional(),
});

export interface OperationLogRow {
  id: number;
  at: number;
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  deviceType: string;
  projectId: number;
  commandId: number | null;
  operation: string;
  detail: string;
  /** 成功 / 失败 / 等待下发 / 已下发 / 已执行 / 设备拒绝 / 已过期 */
  result: string;
  username: string | null;
}

export const deviceCreateBody = z.object({
  deviceType: deviceTypeCode,
  /** a room (or any area) inside a project */
  areaId: positiveId('区域编号'),
  deviceName: z.string().trim().min(1, '请输入设备名称').max(64, '设备名称最多 64 个字符').optional(),
  deviceCode: deviceCodeSchema.optional(),
  gatewayId: positiveId('网关编号').nullable().optional(),
});
export const deviceUpdateBody = z.object({
  deviceName: z.string().trim().min(1, '请输入设备名称').max(64, '设备名称最多 64 个字符').optional(),
  areaId: positiveId('区域编号').optional(),
  gatewayId: positiveId('网关编号').nullable().optional(),
  enabled: z.boolean({ error: '启用状态必须是布尔值' }).optional(),
});

/** What an operator copies into a device once; the secret is never shown again. */
export interface DeviceCredentials {
  deviceId: number;
  deviceCode: string;
  clientId: string;
  username: string;
  password: string;
  topics: { up: string; down: string; ack: string };
}

export const deviceTopic = (tenantCode: string, deviceCode: string, leaf: 'up' | 'down' | 'ack') => `kelvin/${tenantCode}/${deviceCode}/${leaf}`;

/** Server-sent events of GET /api/v1/live. */
export interface LiveDeviceEvent {
  deviceId: number;
  projectId: number;
  ts: number;
  lastReportAt: number;
  onlineUntil: number;
  fields: Record<string, FieldValue>;
}
export interface LiveCommandEvent {
  commandId: number;
  deviceId: number;
  projectId: number;
  status: CommandStatus;
  error: string | null;
}
