import { MENU_BY_CODE, ResultCode, isPlatformOnlyCode } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/scope.ts';

export type { Actor };

/** The rules that keep an administrator inside their rights: tenancy comes from the caller only, and nobody grants or manages more than they hold themselves. */

export const denied = (msg: string) => new AppError(ResultCode.NO_PERMISSION, msg);

export function assertPlatform(actor: Actor, what: string) {
  if (!actor.user.isPlatform) throw denied(`只有平台管理员可以${what}`);
}

/** A row of another tenant does not exist for a tenant user (40400); the platform sees every tenant. */
export function assertVisible(actor: Actor, tenantId: number, what: string) {
  if (!actor.user.isPlatform && tenantId !== actor.user.tenantId) throw notFound(what);
}

/** Tenant filter of a list: the caller's own; the platform sees all or filters by one. */
export function listTenant(actor: Actor, requested: number | undefined): number | null {
  if (actor.user.isPlatform) return requested ?? null;
  return actor.user.tenantId;
}

/** The tenant a new row goes to: the caller's own; only the platform may name another (existing) tenant. */
export async function targetTenant(db: Db, actor: Actor, requested: number | undefined): Promise<number> {
  if (requested === undefined || requested === actor.user.tenantId) return actor.user.tenantId;
  if (!actor.user.isPlatform) throw denied('不能操作其他租户的数据');
  const t = await db.selectFrom('tenant').select('id').where('id', '=', requested).executeTakeFirst();
  if (!t) throw invalid('租户不存在', ['tenantId']);
  return requested;
}

/** A row never moves to another tenant through an edit. */
export function assertSameTenant(requested: number | undefined, current: number) {
  if (requested !== undefined && requested !== current) throw denied('不能修改所属租户');
}

const titleOf = (code: string) => {
  const [menu, kind] = code.split(':');
  const title = MENU_BY_CODE.get(menu)?.title ?? menu;
  return kind ? `${title}（${kind}）` : title;
};

/**
 * Codes may be granted only by someone who holds them, and platform-only codes (tenants, menus, service monitors)
 * only to the platform tenant.
 */
export function assertGrantable(actor: Actor, codes: Iterable<string>, tenantId: number) {
  for (const code of codes) {
    if (tenantId !== 0 && isPlatformOnlyCode(code)) throw denied(`平台专属权限「${titleOf(code)}」不能授予租户`);
    if (!actor.user.isPlatform && !actor.user.codes.has(code)) throw denied(`不能授予自己没有的权限「${titleOf(code)}」`);
  }
}

export async function codesOfRoles(db: Db, roleIds: number[]): Promise<Set<string>> {
  if (!roleIds.length) return new Set();
  const rows = await db.selectFrom('role_grant').select('code').where('role_id', 'in', roleIds).distinct().execute();
  return new Set(rows.map((r) => r.code));
}

/** Editing a role needs every code the role holds; the platform administrator holds all. */
export async function assertDominatesRole(db: Db, actor: Actor, roleId: number) {
  if (actor.user.isPlatform) return;
  for (const code of await codesOfRoles(db, [roleId])) {
    if (!actor.user.codes.has(code)) throw denied('不能管理权限高于自己的角色');
  }
}

/** Managing a user (edit, reset password, disable, delete) needs every right that user has. */
export async function assertDominatesUser(db: Db, actor: Actor, target: { id: number; is_platform: number; all_projects: number }) {
  if (actor.user.isPlatform) return;
  if (target.is_platform) throw denied('不能管理平台管理员');
  const roleIds = (await db.selectFrom('user_role').select('role_id').where('user_id', '=', target.id).execute()).map((r) => r.role_id);
  for (const code of await codesOfRoles(db, roleIds)) {
    if (!actor.user.codes.has(code)) throw denied('不能管理权限高于自己的用户');
  }
  const mine = actor.scope.projectIds;
  if (!mine) return;
  if (target.all_projects) throw denied('不能管理可访问全部项目的用户');
  const theirs = await db.selectFrom('user_project').select('project_id').where('user_id', '=', target.id).execute();
  if (theirs.some((p) => !mine.has(p.project_id))) throw denied('不能管理可访问您无权访问项目的用户');
}

/** Unique-key violations of both dialects, for the race between "check" and "insert". */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export async function uniqueOr<T>(msg: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(msg);
    throw err;
  }
}

export const flag = (v: boolean) => (v ? 1 : 0);
