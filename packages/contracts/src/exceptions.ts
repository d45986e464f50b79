import { z } from 'zod';
import { pageQuery } from './common.ts';
import { positiveIdOf } from './device-admin.ts';
import type { AlarmSeverity } from './monitoring.ts';

/** Exception data (异常数据): readings that cannot be right, flagged with the reading and handled by an operator. */

export const EXCEPTION_KINDS = {
  backwards: '读数倒走',
  jump: '跳变过大',
  frozen: '数值冻结',
  range: '超出传感器量程',
} as const;
export type ExceptionKind = keyof typeof EXCEPTION_KINDS;

/**
 * What the temperature sensors can really measure (°C). The registry's ranges are what the protocol can carry; a
 * room sensor reading 55 °C or a supply-water sensor reading 0 °C is a broken sensor or wiring, not the weather.
 */
export const SENSOR_RANGES: Record<string, [number, number]> = {
  f03: [-10, 50], // 室内温度
  f08: [-10, 60], // 地面温度
  f42: [0, 80], // 出水温度
  f43: [0, 80], // 回水温度
  f63: [1, 110], // 供水温度
  f64: [1, 110], // 回水温度
  f94: [-30, 100], // 逆变器温度
};

/** A meter may use at most this many times its type's usual hourly amount (registry sim) in an hour, and never less than a quarter hour's worth counts. */
export const COUNTER_JUMP_FACTOR = 20;
/** A temperature moving more than this (°C) between two reports less than TEMP_JUMP_WINDOW_MS apart is a jump. */
export const TEMP_JUMP_C = 10;
export const TEMP_JUMP_WINDOW_MS = 30 * 60_000;
/** A temperature reading the same for this long (every report identical) is frozen. */
export const FROZEN_DAYS = 3;

const epoch = z.coerce.number({ error: '时间必须是毫秒数' }).int().min(0);

export const exceptionQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  kind: z.enum(Object.keys(EXCEPTION_KINDS) as [ExceptionKind, ...ExceptionKind[]], { error: '异常类型不正确' }).optional(),
  handled: z.enum(['0', '1'], { error: '处理状态只能是 0 或 1' }).transform((v) => v === '1').optional(),
  deviceId: positiveIdOf('设备编号').optional(),
  keyword: z.string().trim().max(64).optional(),
  /** reading time, from … to (both inclusive; the query form's date range) */
  readingFrom: epoch.optional(),
  readingTo: epoch.optional(),
});
export type ExceptionQuery = z.infer<typeof exceptionQuery>;

export const exceptionHandleBody = z.object({
  ids: z.array(positiveIdOf('记录编号')).min(1, '请选择记录').max(200, '一次最多处理 200 条'),
  note: z.string({ error: '请填写处理说明' }).trim().min(1, '请填写处理说明').max(200, '处理说明最多 200 个字符'),
});

export const faultDeviceQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  /** only devices with this kind of fault */
  fault: z.enum(['alarm', 'exception', 'offline'], { error: '故障类型只能是 alarm、exception 或 offline' }).optional(),
  keyword: z.string().trim().max(64).optional(),
});
export type FaultDeviceQuery = z.infer<typeof faultDeviceQuery>;

export interface ExceptionRow {
  id: number;
  projectId: number;
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  deviceType: string;
  typeName: string;
  fieldCode: string;
  fieldLabel: string;
  kind: ExceptionKind;
  kindLabel: string;
  /** the implausible reading, as displayed (with unit) */
  value: string;
  /** the reading before it, where the judgement compares two */
  previous: string | null;
  description: string;
  readingAt: number;
  handled: boolean;
  handledBy: string | null;
  handledAt: number | null;
  note: string | null;
  createdAt: number;
}

/** exceptiondevice: a device with exception data not yet handled. */
export interface ExceptionDeviceRow {
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  typeName: string;
  open: number;
  kinds: string[];
  lastAt: number;
}

/** projectFaultDeviceList: a device with an open fault of any kind. */
export interface FaultDeviceRow {
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  deviceType: string;
  typeName: string;
  areaPath: string;
  online: boolean;
  lastReportAt: number | null;
  activeAlarms: number;
  /** the worst severity among its active alarms */
  worstSeverity: AlarmSeverity | null;
  openExceptions: number;
  /** 告警 / 异常数据 / 离线, in that order */
  faults: string[];
}

/** 运行监控: a project's running figures. */
export interface MonitorOverview {
  projectId: number;
  devices: number;
  online: number;
  offline: number;
  activeAlarms: Record<AlarmSeverity, number>;
  unreadAlarms: number;
  openExceptions: number;
  faultDevices: number;
}
