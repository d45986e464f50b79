import { z } from 'zod';
import { timeRange } from './admin.ts';
import { pageQuery, decimal } from './common.ts';

/**
 * System settings (spec §7.5, /system_n): per-tenant system parameters, holidays, and SMS (provider, templates,
 * records, per-tenant defaults). Shared by the server and the web forms.
 */

// ---------------------------------------------------------------- system parameters

interface ParamBase {
  key: string;
  label: string;
  help?: string;
}
export type SystemParamDef =
  | (ParamBase & { kind: 'text'; default: string; max: number })
  | (ParamBase & { kind: 'number'; default: number; min: number; max: number; unit?: string; integer?: boolean })
  | (ParamBase & { kind: 'bool'; default: boolean });

/**
 * The parameters of one tenant. Other domains read them through the system service (billing: warnings and
 * overdraft; devices: offline window and command lifetime); amounts are in yuan with at most two decimals.
 */
export const SYSTEM_PARAMS = [
  { key: 'systemName', label: '系统名称', kind: 'text', default: '', max: 50, help: '本租户平台的名称，留空则使用品牌名称' },
  { key: 'balanceWarn1', label: '一级余额预警', kind: 'number', default: 50, min: 0, max: 100000, unit: '元', help: '余额低于此值时发送余额不足提醒' },
  { key: 'balanceWarn2', label: '二级余额预警', kind: 'number', default: 10, min: 0, max: 100000, unit: '元', help: '余额低于此值时再次提醒' },
  { key: 'overdraftLimit', label: '透支额度', kind: 'number', default: 0, min: 0, max: 100000, unit: '元', help: '余额低于负的透支额度时停止供能' },
  { key: 'autoReconnect', label: '充值后自动恢复供能', kind: 'bool', default: true },
  { key: 'offlineMinutes', label: '设备离线判定时长', kind: 'number', default: 10, min: 1, max: 1440, unit: '分钟', integer: true },
  { key: 'commandTtlMinutes', label: '离线指令有效期', kind: 'number', default: 1440, min: 1, max: 43200, unit: '分钟', integer: true },
] as const satisfies readonly SystemParamDef[];

export type SystemParamKey = (typeof SYSTEM_PARAMS)[number]['key'];
export interface SystemParams {
  systemName: string;
  balanceWarn1: number;
  balanceWarn2: number;
  overdraftLimit: number;
  autoReconnect: boolean;
  offlineMinutes: number;
  commandTtlMinutes: number;
}

export const SYSTEM_PARAM_DEFAULTS: SystemParams = Object.fromEntries(SYSTEM_PARAMS.map((p) => [p.key, p.default])) as unknown as SystemParams;

function paramSchema(p: SystemParamDef): z.ZodType {
  if (p.kind === 'text') return z.string({ error: `${p.label}必须是文字` }).trim().max(p.max, `${p.label}最多 ${p.max} 个字符`);
  if (p.kind === 'bool') return z.boolean({ error: `${p.label}必须是是或否` });
  const unit = p.unit ?? '';
  let n = z.number({ error: `${p.label}必须是数字` }).min(p.min, `${p.label}不能小于 ${p.min}${unit}`).max(p.max, `${p.label}不能大于 ${p.max}${unit}`);
  if (p.integer) n = n.int(`${p.label}必须是整数`);
  else n = n.refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${p.label}最多两位小数`) as unknown as typeof n;
  return n;
}

/** editSystemParam body: any subset of the known parameters; an unknown key is refused. */
export const systemParamsPatch = z
  .strictObject(Object.fromEntries(SYSTEM_PARAMS.map((p) => [p.key, paramSchema(p).optional()])) as Record<SystemParamKey, z.ZodOptional<z.ZodType>>, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? `未知的系统参数：${iss.keys.join('、')}` : '系统参数格式不正确'),
  })
  .refine((v) => v.balanceWarn1 === undefined || v.balanceWarn2 === undefined || (v.balanceWarn2 as number) <= (v.balanceWarn1 as number), {
    message: '二级余额预警不能高于一级余额预警',
    path: ['balanceWarn2'],
  }) as unknown as z.ZodType<Partial<SystemParams>>;

// ---------------------------------------------------------------- holidays

export const HOLIDAY_TYPES = [
  { code: 'holiday', name: '节假日（休息）' },
  { code: 'workday', name: '调休工作日' },
] as const;
export type HolidayType = (typeof HOLIDAY_TYPES)[number]['code'];

const holidayType = z.enum(HOLIDAY_TYPES.map((t) => t.code) as [HolidayType, ...HolidayType[]], { error: '节假日类型只能是节假日或调休工作日' });

const isoDate = z.string({ error: '请选择日期' }).regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式为 YYYY-MM-DD').refine((s) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}, '日期不存在');

export const holidayUpdate = z.object({
  /** With an id: edit that holiday; without: create (or replace the same date of the same project). */
  id: z.number().int().positive().optional(),
  date: isoDate,
  type: holidayType,
  /** null or 0: every project of the tenant. */
  projectId: z.number({ error: '项目编号必须是数字' }).int().min(0).nullable().optional(),
  name: z.string().trim().max(50, '名称最多 50 个字符').nullable().optional(),
});
export const holidayDelete = z.object({
  ids: z.array(z.number().int().positive(), { error: '请选择要删除的节假日' }).min(1, '请选择要删除的节假日').max(500, '一次最多删除 500 条'),
});
export const holidayQuery = pageQuery.extend({
  year: decimal(z.number().int().min(2000, '年份不正确').max(2100, '年份不正确')).optional(),
  projectId: decimal(z.number().int().min(0)).optional(),
  type: holidayType.optional(),
});
export const holidaysOfProjectQuery = z.object({
  projectId: decimal(z.number({ error: '请选择项目' }).int().positive('请选择项目')),
  start: isoDate,
  end: isoDate,
}).refine((q) => q.start <= q.end, { message: '开始日期不能晚于结束日期', path: ['end'] });
export type HolidayUpdate = z.infer<typeof holidayUpdate>;
export type HolidayQuery = z.infer<typeof holidayQuery>;

export interface HolidayDto {
  id: number;
  tenantId: number;
  /** null: every project of the tenant */
  projectId: number | null;
  projectName: string | null;
  date: string;
  type: HolidayType;
  name: string | null;
}

// ---------------------------------------------------------------- SMS

export const SMS_KINDS = [
  {
    code: 'low_balance',
    name: '余额不足提醒',
    vars: ['name', 'project', 'room', 'balance'],
    content: '尊敬的{name}，您在{project}{room}的账户余额为{balance}元，已低于预警值，请及时充值。',
  },
  {
    code: 'alarm',
    name: '设备告警通知',
    vars: ['project', 'device', 'alarm', 'time'],
    content: '{project}的设备{device}于{time}发生告警：{alarm}，请及时处理。',
  },
  {
    code: 'cut_off',
    name: '欠费停止供能通知',
    vars: ['name', 'project', 'room', 'balance'],
    content: '尊敬的{name}，您在{project}{room}的账户已欠费（余额{balance}元），已停止供能，充值后将自动恢复。',
  },
  {
    code: 'verify_code',
    platform: true,
    name: '入驻申请验证码',
    vars: ['code', 'minutes'],
    content: '您的入驻申请验证码为{code}，{minutes}分钟内有效，请勿告诉他人。',
  },
  {
    code: 'onboard_approved',
    platform: true,
    name: '入驻审核通过通知',
    vars: ['company', 'username', 'password'],
    content: '{company}的入驻申请已通过审核。管理员账号：{username}，初始密码：{password}，请登录后立即修改密码。',
  },
  {
    code: 'onboard_rejected',
    platform: true,
    name: '入驻审核未通过通知',
    vars: ['company', 'reason'],
    content: '很抱歉，{company}的入驻申请未通过审核，原因：{reason}。',
  },
] as const;
export type SmsKind = (typeof SMS_KINDS)[number]['code'];
const smsKind = z.enum(SMS_KINDS.map((k) => k.code) as [SmsKind, ...SmsKind[]], { error: `短信类型只能是${SMS_KINDS.map((k) => k.name).join('、')}` });

export const SMS_STATUSES = [
  { code: 'recorded', name: '已记录（未外发）' },
  { code: 'pending', name: '发送中' },
  { code: 'sent', name: '已发送' },
  { code: 'failed', name: '发送失败' },
] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number]['code'];

/** Placeholders `{var}` of a template that its kind does not fill (empty when all are known). */
export function unknownTemplateVars(kind: SmsKind, content: string): string[] {
  const allowed = new Set<string>(SMS_KINDS.find((k) => k.code === kind)?.vars ?? []);
  return [...content.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]).filter((v) => !allowed.has(v));
}

export function renderSmsTemplate(content: string, params: Record<string, string | number>): string {
  return content.replace(/\{([A-Za-z0-9_]+)\}/g, (all, key: string) => (params[key] === undefined ? all : String(params[key])));
}

export const mobilePhone = z.string({ error: '请输入手机号' }).trim().regex(/^1[3-9]\d{9}$/, '手机号格式不正确');

const templateContent = z.string({ error: '请输入短信内容' }).trim().min(1, '请输入短信内容').max(300, '短信内容最多 300 个字符');
export const smsTemplateCreate = z.object({
  kind: smsKind,
  name: z.string({ error: '请输入模板名称' }).trim().min(1, '请输入模板名称').max(50, '模板名称最多 50 个字符'),
  content: templateContent,
  /** The template's code at the SMS provider (Aliyun: SMS_123456789); not needed by the record provider. */
  externalCode: z.string().trim().max(64, '服务商模板编号最多 64 个字符').nullable().optional(),
  enabled: z.boolean().optional(),
}).superRefine((t, ctx) => {
  const bad = unknownTemplateVars(t.kind, t.content);
  if (bad.length) ctx.addIssue({ code: 'custom', path: ['content'], message: `模板变量 {${bad[0]}} 不适用于该类型，可用：${SMS_KINDS.find((k) => k.code === t.kind)!.vars.map((v) => `{${v}}`).join(' ')}` });
});
export const smsTemplateUpdate = z.object({
  name: z.string().trim().min(1, '请输入模板名称').max(50, '模板名称最多 50 个字符').optional(),
  content: templateContent.optional(),
  externalCode: z.string().trim().max(64, '服务商模板编号最多 64 个字符').nullable().optional(),
  enabled: z.boolean().optional(),
});
export const smsTemplateQuery = pageQuery.extend({ kind: smsKind.optional() });
export type SmsTemplateCreate = z.infer<typeof smsTemplateCreate>;
export type SmsTemplateUpdate = z.infer<typeof smsTemplateUpdate>;

export interface SmsTemplateDto {
  id: number;
  tenantId: number;
  kind: SmsKind;
  name: string;
  content: string;
  externalCode: string | null;
  enabled: boolean;
  updatedAt: number;
}

export const smsTestSend = z.object({
  phone: mobilePhone,
  kind: smsKind,
  params: z.record(z.string(), z.union([z.string().max(100), z.number()])).optional(),
});

export const smsSettingsUpdate = z.object({
  signName: z.string().trim().max(20, '短信签名最多 20 个字符').optional(),
  enabled: z.boolean().optional(),
  lowBalance: z.boolean().optional(),
  alarm: z.boolean().optional(),
  cutOff: z.boolean().optional(),
  alarmPhones: z.array(mobilePhone).max(20, '告警接收手机号最多 20 个').optional(),
  dailyLimit: z.number({ error: '每日上限必须是数字' }).int('每日上限必须是整数').min(0, '每日上限不能小于 0').max(100000, '每日上限不能大于 100000').optional(),
});
export type SmsSettingsUpdate = z.infer<typeof smsSettingsUpdate>;

export interface SmsSettings {
  signName: string;
  /** Master switch: off = nothing is sent (messages are still recorded as failed with the reason). */
  enabled: boolean;
  lowBalance: boolean;
  alarm: boolean;
  cutOff: boolean;
  alarmPhones: string[];
  /** Messages per day for the tenant; 0 = no limit. */
  dailyLimit: number;
  /** The provider configured on the server (read-only here). */
  provider: string;
}

export const smsRecordQuery = pageQuery.extend({
  phone: z.string().trim().max(20).optional(),
  kind: smsKind.optional(),
  status: z.enum(SMS_STATUSES.map((s) => s.code) as [SmsStatus, ...SmsStatus[]]).optional(),
  ...timeRange,
});
export const smsRecordExportQuery = smsRecordQuery.omit({ pageNo: true, pageSize: true });
export type SmsRecordQuery = z.infer<typeof smsRecordQuery>;
export type SmsRecordFilter = z.infer<typeof smsRecordExportQuery>;

export interface SmsRecordDto {
  id: number;
  tenantId: number;
  projectId: number | null;
  kind: SmsKind;
  phone: string;
  signName: string | null;
  content: string;
  provider: string;
  status: SmsStatus;
  error: string | null;
  providerMsgId: string | null;
  createdAt: number;
  sentAt: number | null;
}
