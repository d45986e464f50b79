import { z } from 'zod';
import { pageQuery } from './common.ts';

/**
 * 入驻申请 (/reg): an operator company applies for an account with a phone proved by an SMS code (sent after the
 * image captcha); the platform administrator approves it in the tenant manager — a tenant with its first
 * administrator, the initial password shown once and sent by SMS — or rejects it with a reason.
 */

export const REGISTRATION_STATUS = { pending: '待审核', approved: '已通过', rejected: '已拒绝' } as const;
export type RegistrationStatus = keyof typeof REGISTRATION_STATUS;

/** An SMS code: 6 digits, valid 5 minutes, at most 5 wrong tries; sends: one per 60 s and 10 a day per phone and per address. */
export const REG_CODE_TTL_MS = 5 * 60_000;
export const REG_CODE_MAX_TRIES = 5;
export const REG_SEND_INTERVAL_MS = 60_000;
export const REG_SENDS_PER_DAY = 10;

const phone = z.string({ error: '请输入手机号' }).trim().regex(/^1[3-9]\d{9}$/, '手机号格式不正确');
const text = (label: string, max: number) => z.string({ error: `请输入${label}` }).trim().min(1, `请输入${label}`).max(max, `${label}最多 ${max} 个字符`);

/** POST /api/v1/register/sms-code */
export const regSmsCodeBody = z.object({
  phone,
  captchaId: z.string({ error: '请先获取图形验证码' }).min(1, '请先获取图形验证码').max(200),
  captchaCode: z.string({ error: '请输入图形验证码' }).trim().min(1, '请输入图形验证码').max(10, '图形验证码格式不正确'),
});
/** POST /api/v1/register */
export const regApplyBody = z.object({
  company: text('公司名称', 60),
  contact: text('联系人', 30),
  phone,
  smsCode: z.string({ error: '请输入短信验证码' }).trim().regex(/^\d{6}$/, '短信验证码为 6 位数字'),
  notes: z.string().trim().max(300, '备注最多 300 个字符').optional(),
});
export type RegSmsCodeBody = z.infer<typeof regSmsCodeBody>;
export type RegApplyBody = z.infer<typeof regApplyBody>;

export const regQuery = pageQuery.extend({
  status: z.enum(['pending', 'approved', 'rejected'], { error: '状态只能是待审核、已通过或已拒绝' }).optional(),
  keyword: z.string().trim().max(50, '关键字最多 50 个字符').optional(),
});
export type RegQuery = z.infer<typeof regQuery>;

/** POST /api/v1/register/{id}/approve: the new tenant's code and its first administrator's account. */
export const regApproveBody = z.object({
  tenantCode: z.string({ error: '请输入租户编码' }).trim().min(2, '租户编码至少 2 个字符').max(32, '租户编码最多 32 个字符')
    .regex(/^[a-z0-9][a-z0-9_-]*$/, '租户编码只能包含小写字母、数字、_ 和 -，且以字母或数字开头'),
  username: z.string({ error: '请输入管理员账号' }).trim().min(2, '账号至少 2 个字符').max(64, '账号最多 64 个字符')
    .regex(/^[A-Za-z0-9_.@-]+$/, '账号只能包含字母、数字和 _ . @ -'),
});
export const regRejectBody = z.object({ reason: text('拒绝原因', 200) });
export type RegApproveBody = z.infer<typeof regApproveBody>;

export interface RegApplicationDto {
  id: number;
  company: string;
  contact: string;
  phone: string;
  notes: string | null;
  status: RegistrationStatus;
  reviewerName: string | null;
  reviewedAt: number | null;
  reason: string | null;
  tenantId: number | null;
  tenantCode: string | null;
  username: string | null;
  createdAt: number;
}

/** The approval's answer: the initial password only to the approving call that created the tenant (null on a repeat). */
export interface RegApproveAnswer {
  application: RegApplicationDto;
  tenantId: number;
  username: string;
  password: string | null;
}

// ---------------------------------------------------------------- /demo

/** GET /api/v1/showroom: the demo tenant's showroom project, without a single personal datum. */
export interface ShowroomAnswer {
  project: { name: string; projectTypeName: string | null };
  totals: { devices: number; online: number; types: number };
  types: { code: string; name: string; categoryName: string; total: number; online: number }[];
  devices: { name: string; typeName: string; online: boolean; lastReportAt: number | null; fields: { label: string; value: string }[] }[];
  energy: { field: string; unit: string; label: string; days: { day: string; value: number }[] } | null;
}
