import { z } from 'zod';
import { decimal, pageQuery } from './common.ts';
import { positiveIdOf } from './device-admin.ts';

/**
 * 部门能耗 (/departmentEnergy): departments of a project as a tree (headcount, floor area, a monthly budget in kWh of
 * electricity), meters and rooms assigned to them with effective dates (an assignment history: a meter moved on a date
 * counts for the old department before it and for the new one from it), energy per department per day or month from
 * the device roll-ups, children rolled up into their parents, per person and per m².
 *
 * Dates are Asia/Shanghai days as 'YYYY-MM-DD'; an assignment holds from its first day through the day before `to`
 * (`to` = the first day it no longer holds; null = still in force).
 */

/** The counters a department's use is read from: electricity (budgets are kWh of it) and heat. */
export const DEPARTMENT_COUNTERS = {
  f70: { label: '电能', unit: 'kWh' },
  f60: { label: '热量', unit: 'GJ' },
} as const;
export type DepartmentCounter = keyof typeof DEPARTMENT_COUNTERS;
const COUNTER_CODES = Object.keys(DEPARTMENT_COUNTERS) as [DepartmentCounter, ...DepartmentCounter[]];

export const ASSIGNMENT_KIND = { device: '表计', room: '房间' } as const;
export type AssignmentKind = keyof typeof ASSIGNMENT_KIND;

export const BUDGET_STATE = { ok: '正常', warning: '预计超支', exceeded: '已超支' } as const;
export type BudgetState = keyof typeof BUDGET_STATE;

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const date = (label: string) => z.string({ error: `请选择${label}` }).regex(DATE, `${label}格式为 YYYY-MM-DD`)
  // (zod runs the refinement even after the pattern failed: an unparsable text must not throw here)
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, `${label}不是有效日期`);
const optNumber = (label: string, max: number, int = false) => decimal((int ? z.number({ error: `${label}必须是数字` }).int(`${label}必须是整数`) : z.number({ error: `${label}必须是数字` }))
  .min(0, `${label}不能为负`).max(max, `${label}不能超过 ${max}`)).nullish();

export const departmentBody = z.object({
  projectId: positiveIdOf('项目编号'),
  parentId: positiveIdOf('上级部门').nullish(),
  name: z.string({ error: '请填写部门名称' }).trim().min(1, '请填写部门名称').max(60, '部门名称最多 60 个字符'),
  headcount: optNumber('人数', 1_000_000, true),
  /** m², two decimals kept */
  area: optNumber('面积', 10_000_000),
  /** kWh of electricity per calendar month */
  budgetKwh: optNumber('月度预算', 1_000_000_000, true),
  sortNo: decimal(z.number({ error: '排序必须是数字' }).int('排序必须是整数').min(0, '排序不能为负').max(9999, '排序最大 9999')).default(0),
  remark: z.string().trim().max(200, '备注最多 200 个字符').optional(),
});
export type DepartmentBody = z.infer<typeof departmentBody>;
export const departmentUpdate = departmentBody.omit({ projectId: true });
export type DepartmentUpdate = z.infer<typeof departmentUpdate>;

export interface DepartmentDto {
  id: number;
  projectId: number;
  parentId: number | null;
  name: string;
  headcount: number | null;
  area: number | null;
  budgetKwh: number | null;
  sortNo: number;
  remark: string | null;
  /** assignments in force today (meters and rooms) */
  meters: number;
  rooms: number;
  children: DepartmentDto[];
}

export const departmentProjectQuery = z.object({ projectId: positiveIdOf('项目编号') });

/** an assignment's days: open-ended, or ending after they begin */
const endsAfterStart = (b: { from: string; to?: string | null }) => !b.to || b.to > b.from;
const ENDS_BEFORE_START = { message: '截止日期必须晚于生效日期', path: ['to'] };

export const assignmentBody = z.object({
  departmentId: positiveIdOf('部门'),
  kind: z.enum(['device', 'room'], { error: '分配对象只能是表计或房间' }),
  deviceId: positiveIdOf('表计').nullish(),
  areaId: positiveIdOf('房间').nullish(),
  from: date('生效日期'),
  to: date('截止日期').nullish(),
}).refine((b) => (b.kind === 'device' ? !!b.deviceId : !!b.areaId), { message: '请选择要分配的表计或房间', path: ['deviceId'] })
  .refine(endsAfterStart, ENDS_BEFORE_START);
export type AssignmentBody = z.infer<typeof assignmentBody>;

export const assignmentUpdate = z.object({ from: date('生效日期'), to: date('截止日期').nullish() }).refine(endsAfterStart, ENDS_BEFORE_START);
export type AssignmentUpdate = z.infer<typeof assignmentUpdate>;

/** 转移: the assignment ends the day before `date`, a new one to `departmentId` starts on it. */
export const assignmentMove = z.object({ departmentId: positiveIdOf('目标部门'), date: date('转移日期') });
export type AssignmentMove = z.infer<typeof assignmentMove>;

export const assignmentQuery = pageQuery.extend({
  projectId: positiveIdOf('项目编号'),
  departmentId: positiveIdOf('部门').optional(),
  /** only the assignments in force on this day */
  activeOn: date('日期').optional(),
});

export interface AssignmentDto {
  id: number;
  departmentId: number;
  departmentName: string;
  kind: AssignmentKind;
  deviceId: number | null;
  deviceCode: string | null;
  deviceName: string | null;
  deviceType: string | null;
  areaId: number | null;
  /** the room's path (1号楼 / 2层 / 201室), or the meter's place */
  place: string;
  from: string;
  to: string | null;
  createdBy: string | null;
  createdAt: number;
}

/** What the assign dialog offers: the project's meters and rooms, with the department holding each today. */
export interface AssignCandidateDto {
  kind: AssignmentKind;
  id: number;
  label: string;
  place: string;
  heldBy: string | null;
}

const departmentEnergyBase = z.object({
  projectId: positiveIdOf('项目编号'),
  counter: z.enum(COUNTER_CODES, { error: '能源类型只能是电能或热量' }).default('f70'),
  /** day: the days of `month`; month: the months of `year` */
  grain: z.enum(['day', 'month'], { error: '统计粒度只能是按日或按月' }).default('day'),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式为 YYYY-MM').optional(),
  year: decimal(z.number({ error: '年份必须是数字' }).int().min(2000, '年份 2000～2100').max(2100, '年份 2000～2100')).optional(),
  /** a comma list of department ids (empty = every department) */
  departmentIds: z.string().regex(/^\d{1,12}(,\d{1,12}){0,49}$/, '部门编号格式不正确').optional(),
});
export const departmentEnergyQuery = departmentEnergyBase.extend(pageQuery.shape);
export type DepartmentEnergyQuery = z.infer<typeof departmentEnergyQuery>;
export const departmentCompareQuery = departmentEnergyBase.extend({ departmentIds: z.string({ error: '请选择要对比的部门' }).regex(/^\d{1,12}(,\d{1,12}){1,5}$/, '请选择 2～6 个部门对比') });
export type DepartmentCompareQuery = z.infer<typeof departmentCompareQuery>;
export const departmentOverviewQuery = z.object({ projectId: positiveIdOf('项目编号'), counter: departmentEnergyBase.shape.counter });
export type DepartmentOverviewQuery = z.infer<typeof departmentOverviewQuery>;

/** One department over a period: use per bucket (children included), total, per person, per m². */
export interface DepartmentEnergyRow {
  departmentId: number;
  name: string;
  /** the path from the root (研发中心 / 研发一部) */
  path: string;
  depth: number;
  headcount: number | null;
  area: number | null;
  /** use per bucket, in the order of `buckets`; null = no reading of any of its meters in that bucket */
  values: (number | null)[];
  total: number | null;
  perPerson: number | null;
  perArea: number | null;
}

export interface DepartmentEnergyPage {
  total: number;
  rows: DepartmentEnergyRow[];
  /** labels of the period's buckets: 'MM-DD' days or 'YYYY-MM' months */
  buckets: string[];
  unit: string;
  /** the top-level departments' sum per bucket and overall (children are inside their parents already) */
  totals: { values: (number | null)[]; total: number | null };
  notes: string[];
}

export interface DepartmentCompareItem {
  departmentId: number;
  name: string;
  values: (number | null)[];
  total: number | null;
  /** the period before (the month before / the year before) and the same period a year earlier */
  previous: number | null;
  lastYear: number | null;
  /** ratios: (total − previous) / previous, (total − lastYear) / lastYear */
  mom: number | null;
  yoy: number | null;
  perPerson: number | null;
  perArea: number | null;
}

export interface DepartmentCompareResult {
  buckets: string[];
  unit: string;
  items: DepartmentCompareItem[];
  notes: string[];
}

export interface DepartmentBudgetItem {
  departmentId: number;
  name: string;
  budgetKwh: number;
  /** month to date (children included), kWh */
  used: number;
  /** extrapolated to the whole month by the days elapsed */
  projected: number;
  state: BudgetState;
}

export interface DepartmentOverview {
  unit: string;
  month: string;
  thisMonth: number | null;
  lastMonth: number | null;
  lastYearMonth: number | null;
  /** this month to date against the same days of last month / of the month a year earlier */
  mom: number | null;
  yoy: number | null;
  /** this month per top-level … per every department (children included) */
  byDepartment: { departmentId: number; name: string; parentId: number | null; value: number | null }[];
  budgets: DepartmentBudgetItem[];
  notes: string[];
}

/**
 * The budget state of a month: exceeded once the use is over the budget; a warning when the use so far, extrapolated
 * over the whole month by the days elapsed (today counting as a day), is over it.
 */
export function budgetState(used: number, budget: number, dayOfMonth: number, daysInMonth: number): { projected: number; state: BudgetState } {
  const projected = Math.round((used / Math.max(1, dayOfMonth)) * daysInMonth * 100) / 100;
  return { projected, state: used > budget ? 'exceeded' : projected > budget ? 'warning' : 'ok' };
}

/** the department menu codes: any of them reads the tree */
export const DEPARTMENT_SCREENS = ['departmentMain', 'departmentStaticEnergy', 'departmentEnergyCompare'] as const;
