import { isPlatformOnlyCode } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';

export function findUserByUsername(db: Db, username: string) {
  return db
    .selectFrom('app_user')
    .innerJoin('tenant', 'tenant.id', 'app_user.tenant_id')
    .selectAll('app_user')
    .select(['tenant.enabled as tenant_enabled'])
    .where('app_user.username', '=', username)
    .executeTakeFirst();
}

/** The session with its user and tenant, in one query per request. */
export function findSession(db: Db, sessionId: string) {
  return db
    .selectFrom('session')
    .innerJoin('app_user', 'app_user.id', 'session.user_id')
    .innerJoin('tenant', 'tenant.id', 'app_user.tenant_id')
    .select([
      'session.id as session_id',
      'session.expires_at',
      'session.revoked_at',
      'app_user.id',
      'app_user.tenant_id',
      'app_user.username',
      'app_user.name',
      'app_user.enabled',
      'app_user.is_platform',
      'app_user.all_projects',
      'tenant.enabled as tenant_enabled',
    ])
    .where('session.id', '=', sessionId)
    .executeTakeFirst();
}

export async function grantedCodes(db: Db, userId: number, isPlatform: boolean): Promise<Set<string>> {
  if (isPlatform) {
    const [menus, elements] = await Promise.all([
      db.selectFrom('menu').select('code').execute(),
      db.selectFrom('menu_element').select('code').execute(),
    ]);
    return new Set([...menus, ...elements].map((r) => r.code));
  }
  const rows = await db
    .selectFrom('role_grant')
    .innerJoin('user_role', 'user_role.role_id', 'role_grant.role_id')
    .select('role_grant.code')
    .where('user_role.user_id', '=', userId)
    .distinct()
    .execute();
  // platform-only menus (tenants, menus, service monitor) never count for a tenant's user, whatever a role row says
  return new Set(rows.map((r) => r.code).filter((code) => !isPlatformOnlyCode(code)));
}

export async function insertSession(db: Db, s: { id: string; user_id: number; created_at: number; expires_at: number }) {
  await db.insertInto('session').values({ ...s, revoked_at: null }).execute();
}

export async function revokeSession(db: Db, sessionId: string, at: number) {
  await db.updateTable('session').set({ revoked_at: at }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Every open session of a user ends (disabled, password reset, roles changed), but perhaps the caller's own. */
export async function revokeUserSessions(db: Db, userId: number, exceptSessionId?: string) {
  let q = db.updateTable('session').set({ revoked_at: Date.now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  await q.execute();
}

export async function deleteUserSessions(db: Db, userId: number) {
  await db.deleteFrom('session').where('user_id', '=', userId).execute();
}

export async function countRecentFailures(db: Db, scope: 'account' | 'ip', key: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('login_attempt')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('scope', '=', scope)
    .where('key', '=', key)
    .where('at', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function recordFailure(db: Db, account: string, ip: string, at: number) {
  await db.insertInto('login_attempt').values([
    { scope: 'account', key: account, at },
    { scope: 'ip', key: ip, at },
  ]).execute();
}

export async function clearAccountFailures(db: Db, account: string) {
  await db.deleteFrom('login_attempt').where('scope', '=', 'account').where('key', '=', account).execute();
}

export function findTenant(db: Db, tenantId: number) {
  return db.selectFrom('tenant').selectAll().where('id', '=', tenantId).executeTakeFirst();
}

export function listMenus(db: Db) {
  return db.selectFrom('menu').selectAll().orderBy('order_no').orderBy('id').execute();
}
