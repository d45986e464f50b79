import { z } from 'zod';
import type { MenuRow } from './auth.ts';
import { pageQuery, decimal } from './common.ts';
import { PLATFORM_ONLY_MENUS } from './menus.ts';

/**
 * Administration: tenants, users, roles (groups) and group types, menus and elements, the gate log and
 * the password rules. The server validates with these schemas and the web forms use the same ones.
 */

// ---------------------------------------------------------------- password rules

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** A short list of the passwords tried first by every guessing attack (lower case). */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678', '123456789', '1234567890', '87654321', '11111111', '00000000', '88888888', '66666666', '12341234',
  '11223344', '123123123', '1qaz2wsx', '1q2w3e4r', 'qwertyui', 'qwerty123', 'qwer1234', 'asdfghjk', 'zxcvbnm1',
  'password', 'password1', 'password123', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'admin123', 'admin1234', 'admin@123',
  'administrator', 'iloveyou', 'abc12345', 'abcd1234', 'a1234567', 'aa123456', 'woaini1314', '5201314520',
  'letmein1', 'welcome1', 'sunshine', 'princess', 'football', 'baseball', 'superman', 'trustno1', 'changeme',
  'root1234', 'test1234', 'qazwsxedc', '147258369', '123qweasd', 'q1w2e3r4', 'zaq12wsx',
]);

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/** The password rule without the user: length and the common list. */
export const passwordSchema = z
  .string({ error: '请输入密码' })
  .min(PASSWORD_MIN, `密码至少 ${PASSWORD_MIN} 个字符`)
  .max(PASSWORD_MAX, `密码最多 ${PASSWORD_MAX} 个字符`)
  .refine((p) => !isCommonPassword(p), '密码过于常见，请换一个更难猜的密码');

/** The whole rule for one account: also not the username (nor the username backwards). */
export function passwordProblem(password: string, username: string): string | null {
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? '密码不符合要求';
  const p = password.toLowerCase();
  const u = username.trim().toLowerCase();
  if (u && (p === u || p === [...u].reverse().join(''))) return '密码不能与账号相同';
  return null;
}

export const passwordForUser = (username: string) =>
  z.string({ error: '请输入密码' }).superRefine((p, ctx) => {
    const problem = passwordProblem(p, username);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const changePasswordRequest = z.object({
  oldPassword: z.string({ error: '请输入当前密码' }).min(1, '请输入当前密码').max(PASSWORD_MAX, `密码最多 ${PASSWORD_MAX} 个字符`),
  newPassword: passwordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

export const resetPasswordRequest = z.object({ password: passwordSchema });

// ---------------------------------------------------------------- shared field rules

/** Omitted stays omitted (an update leaves it alone); an empty string clears the field. */
const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v || null);

const text = (label: string, max: number) =>
  z.string({ error: `请输入${label}` }).trim().min(1, `请输入${label}`).max(max, `${label}最多 ${max} 个字符`);
const optionalText = (label: string, max: number) =>
  z.string().trim().max(max, `${label}最多 ${max} 个字符`).nullable().optional().transform(blankToNull);
const phone = z
  .string()
  .trim()
  .max(32, '电话最多 32 个字符')
  .regex(/^$|^[0-9+\-() ]+$/, '电话只能包含数字、空格和 + - ( )')
  .nullable()
  .optional()
  .transform(blankToNull);
const ids = (label: string) => z.array(z.number({ error: `${label}编号必须是数字` }).int().positive(), { error: `${label}必须是列表` }).max(1000, `${label}最多 1000 个`);
const code = (label: string, max = 64) =>
  z.string({ error: `请输入${label}` }).trim().min(1, `请输入${label}`).max(max, `${label}最多 ${max} 个字符`)
    .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, `${label}须以字母开头，只能包含字母、数字、_ 和 -`);

/** A list filter only platform administrators may use (others always see their own tenant). */
export const tenantFilter = decimal(z.number().int().min(0)).optional();

/** A time range of a log list, epoch milliseconds (named as the console's list component sends a range `time`). */
const millis = decimal(z.number({ error: '时间必须是毫秒时间戳' }).int().min(0));
export const timeRange = { timeFrom: millis.optional(), timeTo: millis.optional() };

/** A body field the caller may only write when they are a platform administrator (checked by the server). */
const tenantIdField = z.number({ error: '租户编号必须是数字' }).int().min(0).optional();

// ---------------------------------------------------------------- tenants

/** A logo as a data URL (PNG, JPEG, WebP or GIF; SVG is refused because it can carry script). */
export const LOGO_MAX_BYTES = 256 * 1024;
const logo = z
  .string()
  .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 40, '标志图片不能超过 256 KB')
  .regex(/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+=*$/, '标志须为 PNG、JPEG、WebP 或 GIF 图片')
  .nullable()
  .optional();

const tenantFields = {
  name: text('租户名称', 100),
  contact: optionalText('联系人', 100),
  phone,
  brand: optionalText('品牌名称', 100),
  filingNo: optionalText('备案号', 100),
  logo,
  enabled: z.boolean({ error: '启用状态必须是布尔值' }).optional(),
};

export const tenantCreate = z.object({
  // lower case: the code is part of every device's MQTT topic (kelvin/{tenantCode}/…)
  code: z.string({ error: '请输入租户编码' }).trim().min(2, '租户编码至少 2 个字符').max(32, '租户编码最多 32 个字符')
    .regex(/^[a-z0-9][a-z0-9_-]*$/, '租户编码只能包含小写字母、数字、_ 和 -，且以字母或数字开头'),
  ...tenantFields,
  /** Optional first administrator of the new tenant (all of the tenant's screens, every project). */
  admin: z.object({
    username: z.string({ error: '请输入管理员账号' }).trim().min(2, '账号至少 2 个字符').max(64, '账号最多 64 个字符')
      .regex(/^[A-Za-z0-9_.@-]+$/, '账号只能包含字母、数字和 _ . @ -'),
    name: text('管理员姓名', 50),
    password: passwordSchema,
  }).optional(),
});
export const tenantUpdate = z.object({
  name: tenantFields.name.optional(),
  contact: tenantFields.contact,
  phone: tenantFields.phone,
  brand: tenantFields.brand,
  filingNo: tenantFields.filingNo,
  logo: tenantFields.logo,
  enabled: tenantFields.enabled,
});
export const tenantQuery = pageQuery.extend({
  keyword: z.string().trim().max(50).optional(),
  enabled: z.enum(['0', '1'], { error: '启用状态只能是 0 或 1' }).optional(),
});
export type TenantCreate = z.infer<typeof tenantCreate>;
export type TenantUpdate = z.infer<typeof tenantUpdate>;
export type TenantQuery = z.infer<typeof tenantQuery>;

export interface TenantDto {
  id: number;
  code: string;
  name: string;
  contact: string | null;
  phone: string | null;
  brand: string | null;
  filingNo: string | null;
  hasLogo: boolean;
  enabled: boolean;
  userCount: number;
  createdAt: number;
}

// ---------------------------------------------------------------- users

const username = z.string({ error: '请输入账号' }).trim().min(2, '账号至少 2 个字符').max(64, '账号最多 64 个字符')
  .regex(/^[A-Za-z0-9_.@-]+$/, '账号只能包含字母、数字和 _ . @ -');

const userFields = {
  name: text('姓名', 50),
  phone,
  description: optionalText('描述', 200),
  enabled: z.boolean({ error: '启用状态必须是布尔值' }).optional(),
  allProjects: z.boolean({ error: '全部项目必须是布尔值' }).optional(),
  projectIds: ids('项目').optional(),
  roleIds: ids('角色').optional(),
};

export const userCreate = z.object({ username, password: passwordSchema, ...userFields, tenantId: tenantIdField });
export const userUpdate = z.object({
  name: userFields.name.optional(),
  phone: userFields.phone,
  description: userFields.description,
  enabled: userFields.enabled,
  allProjects: userFields.allProjects,
  projectIds: userFields.projectIds,
  roleIds: userFields.roleIds,
  tenantId: tenantIdField,
});
export const userQuery = pageQuery.extend({
  keyword: z.string().trim().max(64).optional(),
  enabled: z.enum(['0', '1'], { error: '启用状态只能是 0 或 1' }).optional(),
  roleId: decimal(z.number().int().positive()).optional(),
  tenantId: tenantFilter,
});
export type UserCreate = z.infer<typeof userCreate>;
export type UserUpdate = z.infer<typeof userUpdate>;
export type UserQuery = z.infer<typeof userQuery>;

export interface UserDto {
  id: number;
  tenantId: number;
  username: string;
  name: string;
  phone: string | null;
  description: string | null;
  enabled: boolean;
  allProjects: boolean;
  isPlatform: boolean;
  roles: { id: number; name: string }[];
  projectIds: number[];
  createdAt: number;
}

export interface UserBrief {
  id: number;
  username: string;
  name: string;
}

// ---------------------------------------------------------------- groups (roles) and group types

export const BUILTIN_GROUP_TYPES = [
  { code: 'role', name: '角色' },
  { code: 'department', name: '部门' },
  { code: 'free', name: '自定义组' },
] as const;

export const groupCreate = z.object({
  code: code('角色编码'),
  name: text('角色名称', 100),
  groupType: z.string({ error: '请选择角色类型' }).trim().min(1, '请选择角色类型').max(32, '角色类型最多 32 个字符'),
  parentId: z.number({ error: '上级角色编号必须是数字' }).int().positive().nullable().optional(),
  description: optionalText('描述', 500),
  tenantId: tenantIdField,
});
export const groupUpdate = z.object({
  code: code('角色编码').optional(),
  name: text('角色名称', 100).optional(),
  groupType: groupCreate.shape.groupType.optional(),
  parentId: groupCreate.shape.parentId,
  description: optionalText('描述', 500),
  tenantId: tenantIdField,
});
export const groupQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  groupType: z.string().trim().max(32).optional(),
  tenantId: tenantFilter,
});
export const groupTreeQuery = z.object({
  groupType: z.string().trim().max(32).optional(),
  tenantId: tenantFilter,
});
export const authorityUpdate = z.object({
  menus: z.array(z.string().max(128), { error: '菜单权限必须是列表' }).max(2000, '权限码过多'),
  elements: z.array(z.string().max(128), { error: '按钮权限必须是列表' }).max(5000, '权限码过多'),
});
export const membersUpdate = z.object({
  members: ids('成员'),
  leaders: ids('负责人'),
});
export type GroupCreate = z.infer<typeof groupCreate>;
export type GroupUpdate = z.infer<typeof groupUpdate>;
export type GroupQuery = z.infer<typeof groupQuery>;
export type AuthorityUpdate = z.infer<typeof authorityUpdate>;
export type MembersUpdate = z.infer<typeof membersUpdate>;

export interface GroupDto {
  id: number;
  tenantId: number;
  parentId: number | null;
  code: string;
  name: string;
  groupType: string;
  description: string | null;
  memberCount: number;
  createdAt: number;
}
export interface GroupTreeNode extends GroupDto {
  children: GroupTreeNode[];
}
export interface Authority {
  menus: string[];
  elements: string[];
}
export interface GroupMembers {
  members: UserBrief[];
  leaders: UserBrief[];
  /** Users of the group's tenant the caller may pick from. */
  candidates: UserBrief[];
}
/** One node of the authority editor: a menu with its elements; `grantable` = the caller holds the code. */
export interface AuthorityNode {
  code: string;
  title: string;
  type: 'dirt' | 'menu';
  grantable: boolean;
  elements: { code: string; name: string; grantable: boolean }[];
  children: AuthorityNode[];
}

export const groupTypeCreate = z.object({
  code: code('类型编码', 32),
  name: text('类型名称', 100),
  description: optionalText('描述', 500),
  tenantId: tenantIdField,
});
export const groupTypeUpdate = z.object({
  name: text('类型名称', 100).optional(),
  description: optionalText('描述', 500),
  tenantId: tenantIdField,
});
export const groupTypeQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  tenantId: tenantFilter,
});
export type GroupTypeCreate = z.infer<typeof groupTypeCreate>;
export type GroupTypeUpdate = z.infer<typeof groupTypeUpdate>;
export type GroupTypeQuery = z.infer<typeof groupTypeQuery>;

export interface GroupTypeDto {
  id: number;
  tenantId: number;
  code: string;
  name: string;
  description: string | null;
  builtin: boolean;
}

// ---------------------------------------------------------------- menus and elements

export const ELEMENT_KINDS = ['view', 'btn_add', 'btn_edit', 'btn_del', 'export', 'control', 'button', 'uri', 'topup', 'refund', 'refund_approve', 'deposit', 'settle', 'reconcile', 'idnumber'] as const;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

const href = z.string().trim().max(500, '链接最多 500 个字符')
  .regex(/^$|^https?:\/\/\S+$|^\/\S*$/, '链接须以 http://、https:// 或 / 开头')
  .nullable().optional().transform(blankToNull);
const icon = z.string().trim().max(64, '图标最多 64 个字符').regex(/^$|^[A-Za-z0-9_-]+$/, '图标名称只能包含字母、数字、_ 和 -')
  .nullable().optional().transform(blankToNull);
const menuType = z.enum(['dirt', 'menu'], { error: '菜单类型只能是目录（dirt）或菜单（menu）' });
const orderNo = z.number({ error: '排序必须是数字' }).int('排序必须是整数').min(0, '排序不能小于 0').max(100000, '排序不能大于 100000');

export const menuCreate = z.object({
  code: code('菜单编码'),
  title: text('菜单标题', 100),
  icon,
  parentCode: z.string().trim().max(64).nullable().optional().transform(blankToNull),
  type: menuType,
  href,
  orderNo: orderNo.optional(),
  hidden: z.boolean().optional(),
});
export const menuUpdate = z.object({
  title: text('菜单标题', 100).optional(),
  icon,
  parentCode: menuCreate.shape.parentCode,
  type: menuType.optional(),
  href,
  orderNo: orderNo.optional(),
  hidden: z.boolean().optional(),
});
export const menuQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  parentCode: z.string().trim().max(64).optional(),
  type: menuType.optional(),
});
export type MenuCreate = z.infer<typeof menuCreate>;
export type MenuUpdate = z.infer<typeof menuUpdate>;
export type MenuQuery = z.infer<typeof menuQuery>;

export const elementCreate = z.object({
  menuCode: z.string({ error: '请选择所属菜单' }).trim().min(1, '请选择所属菜单').max(64),
  code: z.string({ error: '请输入权限码' }).trim().min(3, '请输入权限码').max(128, '权限码最多 128 个字符')
    .regex(/^[A-Za-z][A-Za-z0-9_-]*:[A-Za-z][A-Za-z0-9_-]*$/, '权限码格式为 菜单编码:按钮编码，例如 userManager:btn_add'),
  kind: z.enum(ELEMENT_KINDS, { error: '资源类型不正确' }),
  name: text('名称', 100),
  uri: z.string().trim().max(200, 'URI 最多 200 个字符').nullable().optional().transform(blankToNull),
  method: z.enum(HTTP_METHODS, { error: '请求方法只能是 GET、POST、PUT 或 DELETE' }).nullable().optional(),
});
export const elementUpdate = z.object({
  kind: elementCreate.shape.kind.optional(),
  name: text('名称', 100).optional(),
  uri: elementCreate.shape.uri,
  method: elementCreate.shape.method,
});
export const elementQuery = pageQuery.extend({
  menuCode: z.string().trim().max(64).optional(),
  keyword: z.string().trim().max(100).optional(),
});
export type ElementCreate = z.infer<typeof elementCreate>;
export type ElementUpdate = z.infer<typeof elementUpdate>;
export type ElementQuery = z.infer<typeof elementQuery>;

/** A menu row as the menu manager edits it: the session's MenuRow plus its id and protection flags. */
export interface MenuDto extends MenuRow {
  id: number;
  builtin: boolean;
  platformOnly: boolean;
}
export interface MenuTreeNode extends MenuDto {
  children: MenuTreeNode[];
}
export interface ElementDto {
  id: number;
  menuCode: string;
  code: string;
  kind: string;
  name: string;
  uri: string | null;
  method: string | null;
  builtin: boolean;
}

/** Element codes of platform-only menus are platform-only too. */
export function isPlatformOnlyCode(code: string): boolean {
  return PLATFORM_ONLY_MENUS.has(code.split(':')[0]);
}

// ---------------------------------------------------------------- gate log

export const gateLogQuery = pageQuery.extend({
  username: z.string().trim().max(64).optional(),
  menuCode: z.string().trim().max(64).optional(),
  ...timeRange,
  tenantId: tenantFilter,
});
export const gateLogExportQuery = gateLogQuery.omit({ pageNo: true, pageSize: true });
export type GateLogQuery = z.infer<typeof gateLogQuery>;
export type GateLogFilter = z.infer<typeof gateLogExportQuery>;

export interface GateLogDto {
  id: number;
  tenantId: number;
  userId: number | null;
  username: string | null;
  menuCode: string | null;
  menuTitle: string | null;
  operation: string;
  method: string;
  uri: string;
  host: string | null;
  status: number;
  at: number;
}
