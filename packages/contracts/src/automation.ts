import { z } from 'zod';
import { pageQuery } from './common.ts';
import { positiveIdOf } from './device-admin.ts';
import { DEVICE_TYPE_BY_CODE, validateFieldWrite } from './device-registry.ts';
import { deviceTypeCode } from './device.ts';

/**
 * Automation (spec §2.5 /device deviceprogram, task, scheduledTask, memoryScheduledTask, strategicsTask, holidayTask,
 * overtimePool_n; /businessSys thermostatprogram, programscheme; §7.3 weekprogram/*): week programs, program schemes,
 * tasks of every kind, their runs with per-device outcomes, and the overtime pool. Calendar logic in Asia/Shanghai.
 *
 * Endpoints (all under /api/v1; lists answer { total, rows } with pageNo/pageSize):
 *   weekprogram        GET ?projectId&deviceType&keyword → WeekProgramRow · POST weekprogram/ (or weekprogram) weekProgramBody → { id }
 *                      PUT weekprogram/{id} · POST weekprogram/delete idsBody · POST weekprogram/executetask/{id} → TaskRunRow (runs it now;
 *                      a memory type gets the program pushed) · GET weekprogram/listbyarea/{areaId} and listbydevice/{deviceId} → WeekProgramRow[]
 *                      GET weekprogram/{id}/runs → TaskRunRow · POST weekprogram/run/{runId}/retry retryBody → TaskRunRow
 *   programscheme      GET ?projectId&deviceType&keyword → ProgramSchemeRow · POST programSchemeBody → { id } · PUT programscheme/{id}
 *                      POST programscheme/delete idsBody
 *   task               GET ?projectId&kind&keyword → TaskRow · POST taskBody → { id } · PUT task/{id} · POST task/delete idsBody
 *                      POST task/{id}/enable enableBody · POST task/{id}/execute → TaskRunRow · GET task/{id}/runs → TaskRunRow
 *                      POST task/run/{runId}/retry retryBody → TaskRunRow (only the failed devices of that run)
 *   overtimepool       GET ?projectId&month → OvertimePoolRow · POST overtimePoolBody → { id } · PUT overtimepool/{id} · POST overtimepool/delete
 * Access: weekprogram → thermostatprogram codes; programscheme → programscheme codes; a task → the codes of its kind's
 * menu (TASK_KIND_MENUS: view, btn_add, btn_edit, btn_del); overtimepool → overtimePool_n (view, btn_edit).
 */

// ───────────────────────────────────────────────────────────────────────────── labels

/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const WEEKDAY_LABELS: Record<number, string> = { 1: '周一', 2: '周二', 3: '周三', 4: '周四', 5: '周五', 6: '周六', 7: '周日' };
const WEEKDAY_SHORT: Record<number, string> = { 1: '一', 2: '二', 3: '三', 4: '四', 5: '五', 6: '六', 7: '日' };

/** What a week program does on a holiday of the calendar (调休 working days count as working days). */
export const HOLIDAY_RULES = { weekend: '按周日程序执行', off: '关机（不执行程序）', unchanged: '照常执行' } as const;
export type HolidayRule = keyof typeof HOLIDAY_RULES;

export const TASK_KINDS = { once: '定时任务', periodic: '周期任务', holiday: '节假日任务', strategy: '策略任务', memory: '记忆周期任务' } as const;
export type TaskKind = keyof typeof TASK_KINDS;
/** The menu (screen) of each task kind; its element codes guard the kind's changes. */
export const TASK_KIND_MENUS: Record<TaskKind, string> = {
  once: 'task', periodic: 'scheduledTask', holiday: 'holidayTask', strategy: 'strategicsTask', memory: 'memoryScheduledTask',
};

/** An occurrence that passed while no server was running: run it late, or record it as missed. */
export const MISSED_POLICIES = { late: '补执行', 'skip-record': '跳过并记录为错过' } as const;
export type MissedPolicy = keyof typeof MISSED_POLICIES;

export const PERIODIC_EVERY = { daily: '每天', weekly: '每周', monthly: '每月', cron: 'Cron 表达式' } as const;
export type PeriodicEvery = keyof typeof PERIODIC_EVERY;

export const STRATEGY_OPERATORS = { gt: '高于', gte: '不低于', lt: '低于', lte: '不高于' } as const;
export type StrategyOperator = keyof typeof STRATEGY_OPERATORS;
/** `device`: each target device's own field; `sensor`: one chosen device's field (e.g. an outdoor temperature). */
export const STRATEGY_SOURCES = { device: '目标设备自身读数', sensor: '指定传感器读数（如室外温度）' } as const;
export type StrategySource = keyof typeof STRATEGY_SOURCES;

/** Outcome of one command of a run. */
export const RUN_RESULT_STATUS = { pending: '执行中', acked: '成功', rejected: '设备拒绝', expired: '超时未响应' } as const;
export type RunResultStatus = keyof typeof RUN_RESULT_STATUS;
/** A run as a whole: running until every command ended; missed = recorded, nothing sent. */
export const RUN_STATUS = { running: '执行中', success: '全部成功', partial: '部分失败', failed: '全部失败', missed: '已错过' } as const;
export type RunStatus = keyof typeof RUN_STATUS;
export const RUN_TRIGGERS = { schedule: '按计划', late: '补执行', manual: '手动执行', retry: '重试失败设备', strategy: '策略触发', push: '下发程序' } as const;
export type RunTrigger = keyof typeof RUN_TRIGGERS;

// ───────────────────────────────────────────────────────────────────────────── time (Asia/Shanghai)

/** Asia/Shanghai has had no daylight saving since 1991: a fixed +08:00. */
export const SHANGHAI_OFFSET_MINUTES = 480;
const DAY_MS = 86_400_000;

export interface LocalParts {
  /** YYYY-MM-DD */
  date: string;
  year: number;
  month: number;
  day: number;
  /** 1 = Monday … 7 = Sunday */
  weekday: number;
  /** minutes since local midnight */
  minute: number;
}

/** The local calendar parts of an instant (default Asia/Shanghai). */
export function localParts(ms: number, offsetMinutes = SHANGHAI_OFFSET_MINUTES): LocalParts {
  const d = new Date(ms + offsetMinutes * 60_000);
  const dow = d.getUTCDay();
  return {
    date: d.toISOString().slice(0, 10),
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: dow === 0 ? 7 : dow,
    minute: d.getUTCHours() * 60 + d.getUTCMinutes(),
  };
}

/** The instant of local midnight of a YYYY-MM-DD date. */
export function localMidnight(date: string, offsetMinutes = SHANGHAI_OFFSET_MINUTES): number {
  return Date.parse(`${date}T00:00:00Z`) - offsetMinutes * 60_000;
}

/** "HH:MM" → minutes since midnight. */
export const minuteOfDay = (at: string) => Number(at.slice(0, 2)) * 60 + Number(at.slice(3, 5));
export const formatMinute = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
export const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

// ───────────────────────────────────────────────────────────────────────────── cron (5 fields, minute precision)

export interface CronSpec {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  /** 1 = Monday … 7 = Sunday (cron's 0 and 7 both mean Sunday) */
  weekdays: Set<number>;
  /** day-of-month and day-of-week both restricted: either matches (classic cron) */
  dayOr: boolean;
}

function cronField(text: string, min: number, max: number): Set<number> | null {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) return null;
    const step = m[4] ? Number(m[4]) : 1;
    const from = m[1] === '*' ? min : Number(m[2]);
    const to = m[1] === '*' ? max : m[3] !== undefined ? Number(m[3]) : m[4] ? max : from;
    if (step < 1 || from < min || to > max || from > to) return null;
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out.size ? out : null;
}

/** Parses "minute hour day-of-month month day-of-week" (numbers, *, lists, ranges, steps); null when malformed. */
export function parseCron(expr: string): CronSpec | null {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) return null;
  const [mi, ho, dm, mo, dw] = parts as [string, string, string, string, string];
  const minutes = cronField(mi, 0, 59);
  const hours = cronField(ho, 0, 23);
  const days = cronField(dm, 1, 31);
  const months = cronField(mo, 1, 12);
  const dows = cronField(dw, 0, 7);
  if (!minutes || !hours || !days || !months || !dows) return null;
  const weekdays = new Set([...dows].map((d) => (d === 0 ? 7 : d)));
  return { minutes, hours, days, months, weekdays, dayOr: dm !== '*' && dw !== '*' };
}

export function cronMatches(spec: CronSpec, p: LocalParts): boolean {
  if (!spec.minutes.has(p.minute % 60) || !spec.hours.has(Math.floor(p.minute / 60)) || !spec.months.has(p.month)) return false;
  const dm = spec.days.has(p.day);
  const dw = spec.weekdays.has(p.weekday);
  return spec.dayOr ? dm || dw : dm && dw;
}

// ───────────────────────────────────────────────────────────────────────────── schemas

export const hhmm = z.string({ error: '请输入时间' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, '时间格式为 HH:MM');
const weekday = z.number({ error: '星期必须是 1～7' }).int('星期必须是 1～7').min(1, '星期必须是 1～7').max(7, '星期必须是 1～7');
const name = (what: string) => z.string({ error: `请输入${what}` }).trim().min(1, `请输入${what}`).max(40, `${what}最多 40 个字符`);
const idArray = (what: string) => z.array(positiveIdOf(what)).max(1000, '一次最多 1000 个').default([]);

/** One field write: any writable registry field of the device type (checked against the type in the enclosing body). */
export const fieldWrite = z.object({
  fieldCode: z.string({ error: '请选择字段' }).trim().min(1, '请选择字段').max(16),
  value: z.union([z.number().finite(), z.string().max(64)], { error: '请输入要写入的值' }),
});
export type FieldWrite = z.infer<typeof fieldWrite>;
const writes = z.array(fieldWrite, { error: '请设置要写入的字段' }).min(1, '请至少设置一个字段').max(10, '一次最多写 10 个字段');

/** A time slot of a week program: on `weekday` at `at`, set these fields. */
export const programSlot = z.object({ weekday, at: hhmm, writes });
export type ProgramSlot = z.infer<typeof programSlot>;
const slots = z.array(programSlot).max(7 * 12, '每周最多 84 个时段');

/** Every write checked against the registry of `deviceType` (writable, in range); issues at their path. */
function checkWrites(deviceType: string | undefined, list: FieldWrite[] | undefined, ctx: z.RefinementCtx, path: (string | number)[]) {
  // without a type the server checks the writes against the target devices' type
  if (!deviceType || !DEVICE_TYPE_BY_CODE.has(deviceType)) return;
  list?.forEach((w, i) => {
    const check = validateFieldWrite(deviceType, w.fieldCode, w.value);
    if (check.ok && check.field.hidden) ctx.addIssue({ code: 'custom', path: [...path, i], message: `「${check.field.label}」由记忆周期任务下发，不能直接写入` });
    else if (!check.ok) ctx.addIssue({ code: 'custom', path: [...path, i], message: check.message });
  });
}
function checkSlots(deviceType: string, list: ProgramSlot[], ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  list.forEach((s, i) => {
    checkWrites(deviceType, s.writes, ctx, ['slots', i, 'writes']);
    const key = `${s.weekday}@${s.at}`;
    if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['slots', i, 'at'], message: `${WEEKDAY_LABELS[s.weekday]} ${s.at} 重复` });
    seen.add(key);
  });
}

/** Targets: devices, device groups and areas (rooms, floors …) of the project; the union of all three. */
export const targets = {
  deviceIds: idArray('设备编号'),
  groupIds: idArray('分组编号'),
  areaIds: idArray('区域编号'),
};

/** POST weekprogram/ (create) and PUT weekprogram/{id}. */
export const weekProgramBody = z.object({
  projectId: positiveIdOf('项目编号'),
  name: name('程序名称'),
  deviceType: deviceTypeCode,
  slots,
  holidayRule: z.enum(Object.keys(HOLIDAY_RULES) as [HolidayRule, ...HolidayRule[]], { error: '节假日规则只能是按周日程序、关机或照常' }).default('weekend'),
  ...targets,
  /** the scheme it was made from, if any (a copy: editing the scheme later does not change the program) */
  schemeId: positiveIdOf('方案编号').nullable().optional(),
  missedPolicy: z.enum(Object.keys(MISSED_POLICIES) as [MissedPolicy, ...MissedPolicy[]]).default('skip-record'),
  enabled: z.boolean().default(true),
}).superRefine((b, ctx) => checkSlots(b.deviceType, b.slots, ctx));
export type WeekProgramBody = z.infer<typeof weekProgramBody>;

export const programSchemeBody = z.object({
  projectId: positiveIdOf('项目编号'),
  name: name('方案名称'),
  deviceType: deviceTypeCode,
  slots,
  remark: z.string().trim().max(200, '备注最多 200 个字符').nullable().optional(),
}).superRefine((b, ctx) => checkSlots(b.deviceType, b.slots, ctx));
export type ProgramSchemeBody = z.infer<typeof programSchemeBody>;

export const periodicRule = z.discriminatedUnion('every', [
  z.object({ every: z.literal('daily'), at: hhmm }),
  z.object({ every: z.literal('weekly'), weekdays: z.array(weekday).min(1, '请选择星期').max(7), at: hhmm }),
  /** a day missing from a month (31st of April) does not run that month */
  z.object({ every: z.literal('monthly'), days: z.array(z.number().int().min(1, '日期 1～31').max(31, '日期 1～31')).min(1, '请选择日期').max(31), at: hhmm }),
  z.object({ every: z.literal('cron'), cron: z.string().trim().max(100).refine((c) => parseCron(c) !== null, 'Cron 表达式格式为「分 时 日 月 周」，例如 30 7 * * 1-5') }),
], { error: '周期只能是每天、每周、每月或 Cron 表达式' });
export type PeriodicRule = z.infer<typeof periodicRule>;

export const strategyCondition = z.object({
  source: z.enum(['device', 'sensor'], { error: '条件来源只能是目标设备或指定传感器' }).default('device'),
  /** the sensor device (source = sensor) */
  sensorDeviceId: positiveIdOf('传感器设备编号').nullable().optional(),
  fieldCode: z.string({ error: '请选择条件字段' }).trim().min(1, '请选择条件字段').max(16),
  operator: z.enum(Object.keys(STRATEGY_OPERATORS) as [StrategyOperator, ...StrategyOperator[]], { error: '比较方式只能是高于、低于、不低于或不高于' }),
  threshold: z.number({ error: '阈值必须是数字' }).finite(),
  /** the condition must hold this long (every report in the window) before the task fires */
  forMinutes: z.number({ error: '持续时间必须是数字' }).int().min(0).max(1440, '持续时间最多 1440 分钟').default(0),
});
export type StrategyCondition = z.infer<typeof strategyCondition>;

const taskCommon = {
  projectId: positiveIdOf('项目编号'),
  name: name('任务名称'),
  ...targets,
  enabled: z.boolean().default(true),
  missedPolicy: z.enum(Object.keys(MISSED_POLICIES) as [MissedPolicy, ...MissedPolicy[]], { error: '错过处理只能是补执行或记录为错过' }).default('late'),
  remark: z.string().trim().max(200, '备注最多 200 个字符').nullable().optional(),
};
const writesOf = { deviceType: deviceTypeCode.optional(), writes };

/**
 * POST /api/v1/task and PUT /api/v1/task/{id}. The exact contract of issue 10:
 * `{ projectId, name, kind: 'once', runAt (ms), deviceIds, writes: [{ fieldCode, value }] }` → `data.id`.
 * Without `deviceType` the writes are checked against the type of the target devices (all of one type).
 */
export const taskBody = z.discriminatedUnion('kind', [
  z.object({ ...taskCommon, ...writesOf, kind: z.literal('once'), runAt: z.number({ error: '请选择执行时间' }).int().positive('请选择执行时间') }),
  z.object({ ...taskCommon, ...writesOf, kind: z.literal('periodic'), rule: periodicRule, skipHolidays: z.boolean().default(false) }),
  /** on each day of the project's holiday calendar of this type (holiday: 节假日; workday: 调休工作日), at `at` */
  z.object({ ...taskCommon, ...writesOf, kind: z.literal('holiday'), at: hhmm, holidayType: z.enum(['holiday', 'workday']).default('holiday') }),
  z.object({ ...taskCommon, ...writesOf, kind: z.literal('strategy'), condition: strategyCondition, cooldownMinutes: z.number().int().min(1, '冷却时间至少 1 分钟').max(1440).default(30) }),
  /** pushes a week program to devices of a type that keeps it in memory; at `runAt`, or now when absent */
  z.object({ ...taskCommon, kind: z.literal('memory'), programId: positiveIdOf('周程序编号'), runAt: z.number().int().positive().nullable().optional() }),
], { error: '任务类型只能是 once、periodic、holiday、strategy 或 memory' }).superRefine((b, ctx) => {
  if (b.kind !== 'memory') checkWrites(b.deviceType, b.writes, ctx, ['writes']);
  if (b.kind === 'strategy') {
    if (b.condition.source === 'sensor' && !b.condition.sensorDeviceId) ctx.addIssue({ code: 'custom', path: ['condition', 'sensorDeviceId'], message: '请选择传感器设备' });
    if (b.condition.source === 'device' && b.deviceType && !DEVICE_TYPE_BY_CODE.get(b.deviceType)?.fields.some((f) => f.code === b.condition.fieldCode)) {
      ctx.addIssue({ code: 'custom', path: ['condition', 'fieldCode'], message: '该设备类型没有这个字段' });
    }
  }
});
export type TaskBody = z.infer<typeof taskBody>;

export const taskQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  kind: z.enum(Object.keys(TASK_KINDS) as [TaskKind, ...TaskKind[]], { error: '任务类型不正确' }).optional(),
  keyword: z.string().trim().max(40).optional(),
});
export const programQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  deviceType: deviceTypeCode.optional(),
  keyword: z.string().trim().max(40).optional(),
});
export const runQuery = pageQuery;
export const idsBody = z.object({ ids: z.array(positiveIdOf('编号')).min(1, '请选择').max(200, '一次最多 200 条') });
export const enableBody = z.object({ enabled: z.boolean({ error: '请选择启用或停用' }) });
/** POST /api/v1/task/run/{runId}/retry: re-sends the failed (rejected or expired) commands of a run, to those devices only. */
export const retryBody = z.object({ deviceIds: z.array(positiveIdOf('设备编号')).max(1000).optional() });

/** The overtime pool of a room (area) or account for a month: approved hours over the program's standard hours. */
export const overtimePoolBody = z.object({
  projectId: positiveIdOf('项目编号'),
  /** the week program whose on/off slots (f00) define the standard hours */
  programId: positiveIdOf('周程序编号'),
  areaId: positiveIdOf('房间编号'),
  accountName: z.string().trim().max(40, '户名最多 40 个字符').nullable().optional(),
  month: z.string({ error: '请选择月份' }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式为 YYYY-MM'),
  approvedHours: z.number({ error: '请输入批准时长' }).min(0, '批准时长不能为负').max(744, '一个月最多 744 小时').multipleOf(0.5, '批准时长以 0.5 小时为单位'),
});
export type OvertimePoolBody = z.infer<typeof overtimePoolBody>;
export const overtimeQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式为 YYYY-MM').optional(),
});

// ───────────────────────────────────────────────────────────────────────────── descriptions

/** Runs of consecutive weekdays as Chinese: [1,2,3,4,5] → 一至五; [1,3,5] → 一、三、五. */
function weekdayPhrase(days: number[]): string {
  const s = [...new Set(days)].sort((a, b) => a - b);
  if (s.length === 7) return '天';
  const runs: string[] = [];
  for (let i = 0; i < s.length;) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    runs.push(j - i >= 2 ? `${WEEKDAY_SHORT[s[i]!]}至${WEEKDAY_SHORT[s[j]!]}` : s.slice(i, j + 1).map((d) => WEEKDAY_SHORT[d]).join('、'));
    i = j + 1;
  }
  return `周${runs.join('、')}`;
}

/** The Chinese description of a periodic rule: 每天 07:30 · 每周一至周五 07:30 · 每月1日、15日 08:00 · Cron。 */
export function describeRule(rule: PeriodicRule): string {
  switch (rule.every) {
    case 'daily': return `每天 ${rule.at}`;
    case 'weekly': {
      const phrase = weekdayPhrase(rule.weekdays);
      return phrase === '天' ? `每天 ${rule.at}` : `每${phrase.replace(/至/g, '至周')} ${rule.at}`;
    }
    case 'monthly': return `每月${[...new Set(rule.days)].sort((a, b) => a - b).map((d) => `${d}日`).join('、')} ${rule.at}`;
    case 'cron': {
      const spec = parseCron(rule.cron);
      if (!spec) return `Cron：${rule.cron}`;
      const [mi, ho, dm, mo, dw] = rule.cron.trim().split(/\s+/);
      const fixedTime = /^\d+$/.test(mi!) && /^\d+$/.test(ho!);
      if (fixedTime && dm === '*' && mo === '*') {
        const at = formatMinute(Number(ho) * 60 + Number(mi));
        return dw === '*' ? `每天 ${at}` : describeRule({ every: 'weekly', weekdays: [...spec.weekdays], at });
      }
      return `Cron：${rule.cron}`;
    }
  }
}

/** A week program's slots in one line per weekday, e.g. 周一 07:00 电源=开、设定温度=22 °C；18:00 电源=关. */
export function describeSlots(deviceType: string, list: ProgramSlot[]): string[] {
  const def = DEVICE_TYPE_BY_CODE.get(deviceType);
  const label = (code: string) => def?.fields.find((f) => f.code === code)?.label ?? code;
  const out: string[] = [];
  for (let d = 1; d <= 7; d++) {
    const day = list.filter((s) => s.weekday === d).sort((a, b) => a.at.localeCompare(b.at));
    if (day.length) out.push(`${WEEKDAY_LABELS[d]} ${day.map((s) => `${s.at} ${s.writes.map((w) => `${label(w.fieldCode)}=${w.value}`).join('、')}`).join('；')}`);
  }
  return out;
}

// ───────────────────────────────────────────────────────────────────────────── memory programs

/** The field a device type keeps its week program in (null: the server executes the program's slots). */
export const programFieldOf = (deviceType: string): string | null => DEVICE_TYPE_BY_CODE.get(deviceType)?.programField ?? null;

/**
 * A week program as the text a memory-program device stores: slots sorted by weekday and time, separated by ';',
 * each `weekday HH:MM field=value,field=value`, e.g. `1 07:00 f00=1,f04=22;1 18:00 f00=0`.
 */
export function encodeProgram(list: ProgramSlot[], holidayRule: HolidayRule = 'unchanged'): string {
  const sorted = [...list].sort((a, b) => a.weekday - b.weekday || a.at.localeCompare(b.at));
  return `H=${holidayRule};${sorted.map((s) => `${s.weekday} ${s.at} ${s.writes.map((w) => `${w.fieldCode}=${w.value}`).join(',')}`).join(';')}`;
}

// ───────────────────────────────────────────────────────────────────────────── rows

export interface WeekProgramRow {
  id: number;
  projectId: number;
  name: string;
  deviceType: string;
  typeName: string;
  slots: ProgramSlot[];
  /** one line per weekday with slots */
  description: string[];
  holidayRule: HolidayRule;
  holidayRuleLabel: string;
  deviceIds: number[];
  groupIds: number[];
  areaIds: number[];
  /** devices the targets resolve to now */
  deviceCount: number;
  /** the type keeps the program in its own memory: it is pushed as a command, not executed by the server */
  memory: boolean;
  schemeId: number | null;
  missedPolicy: MissedPolicy;
  enabled: boolean;
  /** the next server-executed slot (null for memory types or when disabled) */
  nextRunAt: number | null;
  updatedAt: number;
  updatedBy: string | null;
}

export interface ProgramSchemeRow {
  id: number;
  projectId: number;
  name: string;
  deviceType: string;
  typeName: string;
  slots: ProgramSlot[];
  description: string[];
  remark: string | null;
  updatedAt: number;
  updatedBy: string | null;
}

export interface TaskRow {
  id: number;
  projectId: number;
  name: string;
  kind: TaskKind;
  kindLabel: string;
  deviceType: string | null;
  deviceIds: number[];
  groupIds: number[];
  areaIds: number[];
  deviceCount: number;
  writes: FieldWrite[];
  /** once / memory */
  runAt: number | null;
  rule: PeriodicRule | null;
  skipHolidays: boolean;
  /** holiday tasks */
  at: string | null;
  holidayType: 'holiday' | 'workday' | null;
  condition: StrategyCondition | null;
  cooldownMinutes: number | null;
  programId: number | null;
  missedPolicy: MissedPolicy;
  enabled: boolean;
  remark: string | null;
  /** e.g. 每周一至周五 07:30 · 2026-11-24 07:30 一次 · 室内温度 低于 16 持续 20 分钟 */
  description: string;
  nextRunAt: number | null;
  lastRunAt: number | null;
  lastRunStatus: RunStatus | null;
  updatedAt: number;
  updatedBy: string | null;
}

export interface TaskRunResult {
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  /** null when the device could not be commanded at all (removed, another tenant) */
  commandId: number | null;
  fieldCode: string | null;
  value: string | null;
  status: RunResultStatus;
  statusLabel: string;
  error: string | null;
}

/** GET /api/v1/task/{id}/runs rows (and a week program's runs). */
export interface TaskRunRow {
  id: number;
  taskId: number | null;
  programId: number | null;
  /** the occurrence's due time (null for manual runs and strategy triggers: startedAt then) */
  scheduledAt: number | null;
  /** null for a missed occurrence */
  startedAt: number | null;
  finishedAt: number | null;
  trigger: RunTrigger;
  triggerLabel: string;
  status: RunStatus;
  statusLabel: string;
  /** the run this one retried */
  retryOf: number | null;
  counts: Record<RunResultStatus, number>;
  results: TaskRunResult[];
}

export interface OvertimePoolRow {
  id: number;
  projectId: number;
  programId: number;
  programName: string;
  areaId: number;
  areaName: string;
  accountName: string | null;
  month: string;
  /** standard hours per week from the program's on/off slots */
  standardHoursPerWeek: number;
  approvedHours: number;
  /** device run time (power on) in the room outside standard hours this month */
  usedHours: number;
  leftHours: number;
  updatedAt: number;
}
