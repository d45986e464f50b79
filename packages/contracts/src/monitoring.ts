import { z } from 'zod';
import { pageQuery } from './common.ts';
import { positiveIdOf } from './device-admin.ts';
import { fieldOf } from './device-registry.ts';
import { deviceTypeCode } from './device.ts';

/** Monitoring rules and the alarms (monitor messages) they raise. */

export const MONITOR_OPERATORS = {
  gt: '大于',
  gte: '大于等于',
  lt: '小于',
  lte: '小于等于',
  eq: '等于',
  ne: '不等于',
  outside: '超出范围',
  delta: '变化超过',
  offline: '离线超过（分钟）',
} as const;
export type MonitorOperator = keyof typeof MONITOR_OPERATORS;

export const ALARM_SEVERITIES = { critical: '紧急', major: '重要', minor: '次要', info: '提示' } as const;
export type AlarmSeverity = keyof typeof ALARM_SEVERITIES;

export const ALARM_STATUS_LABELS = { active: '告警中', cleared: '已恢复' } as const;
export type AlarmStatus = keyof typeof ALARM_STATUS_LABELS;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, '时间格式为 HH:MM');

/**
 * Whether a value breaks a rule's comparison (offline rules are judged by the sweep, not by values). `outside`: below
 * the threshold or above `high`; `delta`: changed by more than the threshold since the device's previous report of the
 * field (no previous reading, no breach).
 */
export function breaks(operator: MonitorOperator, value: number, threshold: number, extra: { high?: number | null; previous?: number | null } = {}): boolean {
  switch (operator) {
    case 'outside': return value < threshold || (extra.high !== null && extra.high !== undefined && value > extra.high);
    case 'delta': return extra.previous !== null && extra.previous !== undefined && Math.abs(value - extra.previous) > threshold + 1e-9;
    case 'gt': return value > threshold;
    case 'gte': return value >= threshold;
    case 'lt': return value < threshold;
    case 'lte': return value <= threshold;
    case 'eq': return Math.abs(value - threshold) < 1e-9;
    case 'ne': return Math.abs(value - threshold) >= 1e-9;
    default: return false;
  }
}

/** Minutes since midnight of "HH:MM". */
export const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/** Whether a rule's enabled hours contain a minute of the day (an empty window = all day; may wrap midnight). */
export function withinHours(from: string | null | undefined, to: string | null | undefined, minute: number): boolean {
  if (!from || !to) return true;
  const a = minutesOf(from);
  const b = minutesOf(to);
  return a <= b ? minute >= a && minute < b : minute >= a || minute < b;
}

export const monitorRuleBody = z.object({
  projectId: positiveIdOf('项目编号'),
  name: z.string({ error: '请输入规则名称' }).trim().min(1, '请输入规则名称').max(40, '规则名称最多 40 个字符'),
  deviceType: deviceTypeCode,
  fieldCode: z.string().trim().max(16).default(''),
  operator: z.enum(Object.keys(MONITOR_OPERATORS) as [MonitorOperator, ...MonitorOperator[]], { error: '比较方式只能是大于、小于、等于、不等于、超出范围、变化超过或离线' }),
  threshold: z.number({ error: '阈值必须是数字' }).finite('阈值必须是有限的数字'),
  /** `outside`: the upper end of the normal range (threshold is the lower end) */
  thresholdHigh: z.number({ error: '上限必须是数字' }).finite('上限必须是有限的数字').nullable().optional(),
  forSeconds: z.number({ error: '持续时间必须是数字' }).int('持续时间必须是整数秒').min(0, '持续时间不能为负').max(86_400, '持续时间最多 86400 秒').default(0),
  /** raise only after this many breaching reports in a row (0 or 1: the first one) */
  forReports: z.number({ error: '连续次数必须是数字' }).int('连续次数必须是整数').min(0, '连续次数不能为负').max(1000, '连续次数最多 1000 次').default(0),
  severity: z.enum(Object.keys(ALARM_SEVERITIES) as [AlarmSeverity, ...AlarmSeverity[]], { error: '级别只能是紧急、重要、次要或提示' }),
  notifySms: z.boolean().default(false),
  enabled: z.boolean().default(true),
  activeFrom: hhmm.nullable().optional(),
  activeTo: hhmm.nullable().optional(),
}).superRefine((b, ctx) => {
  if (b.operator === 'offline') {
    if (b.threshold < 1 || b.threshold > 10_080) ctx.addIssue({ code: 'custom', path: ['threshold'], message: '离线规则的阈值为分钟数，1～10080' });
    return;
  }
  const field = fieldOf(b.deviceType, b.fieldCode);
  if (!field) {
    ctx.addIssue({ code: 'custom', path: ['fieldCode'], message: '该设备类型没有这个字段' });
    return;
  }
  if (field.kind === 'text' || field.kind === 'time') ctx.addIssue({ code: 'custom', path: ['fieldCode'], message: `「${field.label}」不是数值字段，不能设阈值` });
  if (b.operator === 'outside' && (b.thresholdHigh === null || b.thresholdHigh === undefined || b.thresholdHigh <= b.threshold)) {
    ctx.addIssue({ code: 'custom', path: ['thresholdHigh'], message: '超出范围需要填写上限，且上限大于下限' });
  }
  if (b.operator === 'delta' && b.threshold <= 0) ctx.addIssue({ code: 'custom', path: ['threshold'], message: '变化量必须大于 0' });
  if (!!b.activeFrom !== !!b.activeTo) ctx.addIssue({ code: 'custom', path: ['activeTo'], message: '启用时段需要同时填写开始和结束' });
});
export type MonitorRuleBody = z.infer<typeof monitorRuleBody>;

export const monitorRuleQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  keyword: z.string().trim().max(40).optional(),
});

export const monitorMessageQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  status: z.enum(['active', 'cleared'], { error: '状态只能是 active 或 cleared' }).optional(),
  read: z.enum(['0', '1'], { error: '已读只能是 0 或 1' }).transform((v) => v === '1').optional(),
  severity: z.enum(Object.keys(ALARM_SEVERITIES) as [AlarmSeverity, ...AlarmSeverity[]]).optional(),
  deviceId: positiveIdOf('设备编号').optional(),
});

export const alarmAckBody = z.object({
  ids: z.array(positiveIdOf('告警编号')).min(1, '请选择告警').max(200, '一次最多处理 200 条'),
  comment: z.string().trim().max(200, '说明最多 200 个字符').optional(),
});

export interface MonitorRuleRow {
  id: number;
  projectId: number;
  name: string;
  deviceType: string;
  typeName: string;
  fieldCode: string;
  fieldLabel: string;
  unit: string | null;
  operator: MonitorOperator;
  operatorLabel: string;
  threshold: number;
  thresholdHigh: number | null;
  forSeconds: number;
  forReports: number;
  severity: AlarmSeverity;
  severityLabel: string;
  notifySms: boolean;
  enabled: boolean;
  activeFrom: string | null;
  activeTo: string | null;
  /** e.g. 室内温度 大于 30 °C 持续 60 秒 */
  description: string;
  activeAlarms: number;
  updatedAt: number;
  updatedBy: string | null;
}

export interface MonitorMessageRow {
  id: number;
  ruleId: number;
  ruleName: string;
  projectId: number;
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  deviceType: string;
  fieldCode: string;
  fieldLabel: string;
  /** the reading that raised it, as reported (offline: minutes without a report) */
  value: string;
  severity: AlarmSeverity;
  severityLabel: string;
  status: AlarmStatus;
  statusLabel: string;
  read: boolean;
  description: string;
  createdAt: number;
  clearedAt: number | null;
  readBy: string | null;
  readAt: number | null;
  comment: string | null;
}

/** SSE `alarm`: an alarm was raised, cleared, read or closed (the bell and the alarm list reload). */
export interface LiveAlarmEvent {
  alarmId: number;
  projectId: number;
  deviceId: number;
  status: AlarmStatus;
  severity: AlarmSeverity;
  read: boolean;
}
