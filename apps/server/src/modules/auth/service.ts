import { ResultCode, type MenuRow, type UserInfo } from '@kelvin/contracts';
import { changesOf, type Db } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';
import { scopeOf, type Actor } from '../../lib/scope.ts';
import { epochCache } from '../../lib/epoch-cache.ts';
import type { AuthUser } from '../../types.ts';
import { verifyPassword } from './passwords.ts';
import * as repo from './repository.ts';
import { newSessionId, signToken, verifyToken } from './tokens.ts';
import { createCaptchas } from './captcha.ts';

/**
 * Failed logins (design §6). An account is never locked (that would let anyone lock out `admin`): after a few
 * failures it asks for an image captcha and every further wrong password is answered more slowly; an address that
 * keeps failing is throttled (42900).
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const CAPTCHA_AFTER_FAILURES = 3;
export const MAX_FAILURES_PER_IP = 30;
/** extra wait per failure beyond the captcha threshold, and its ceiling */
const SLOWDOWN_STEP_MS = 400;
const SLOWDOWN_MAX_MS = 3000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const unauthenticated = (msg = '登录已失效，请重新登录') => new AppError(ResultCode.UNAUTHENTICATED, msg);

/** What a signed-in caller is made of: a write to any of these tables rebuilds every cached caller. */
const CALLER_TABLES = ['session', 'app_user', 'tenant', 'role_grant', 'user_role', 'user_project', 'menu', 'menu_element'] as const;
/** cached callers at most (a full cache is emptied: a busy site signs everyone in again from the database, once) */
const CALLER_CACHE_MAX = 10_000;

export function createAuthService(db: Db, key: Uint8Array, ttlSeconds: number) {
  const captchas = createCaptchas(key);
  const changes = changesOf(db);
  /**
   * token → the caller it authenticated, valid while no table of CALLER_TABLES has been written since it was built
   * (revoking, disabling, a role or grant change act on the next request) and until the session expires.
   */
  const callers = epochCache<string, { expiresAt: number; actor: Actor }>(CALLER_CACHE_MAX);
  const captchaNeeded = (msg: string) => new AppError(ResultCode.CAPTCHA_REQUIRED, msg, { captchaRequired: true });

  async function authenticated(token: string | undefined): Promise<{ user: AuthUser; expiresAt: number }> {
    if (!token) throw unauthenticated('未登录或登录已过期，请重新登录');
    const claims = await verifyToken(key, token);
    if (!claims) throw unauthenticated();
    const row = await repo.findSession(db, claims.sessionId);
    if (!row || row.id !== claims.userId || row.revoked_at !== null || row.expires_at <= Date.now()) throw unauthenticated();
    if (!row.enabled || !row.tenant_enabled) throw unauthenticated('账号或租户已停用，请联系管理员');
    const isPlatform = row.is_platform === 1;
    const user: AuthUser = {
      id: row.id,
      tenantId: row.tenant_id,
      username: row.username,
      name: row.name,
      isPlatform,
      allProjects: isPlatform || row.all_projects === 1,
      sessionId: row.session_id,
      codes: await repo.grantedCodes(db, row.id, isPlatform),
    };
    return { user, expiresAt: Number(row.expires_at) };
  }

  return {
    captcha: () => {
      const { captchaId, image } = captchas.issue();
      return { captchaId, image };
    },
    /** One answer to an image captcha of GET /api/auth/captcha (single use), for public forms such as /reg. */
    checkCaptcha: (captchaId: string | undefined, answer: string | undefined) => captchas.check(captchaId, answer),

    async login(username: string, password: string, ip: string, captcha: { captchaId?: string; captchaCode?: string } = {}) {
      const since = Date.now() - LOGIN_WINDOW_MS;
      const [byAccount, byIp] = await Promise.all([
        repo.countRecentFailures(db, 'account', username, since),
        repo.countRecentFailures(db, 'ip', ip, since),
      ]);
      if (byIp >= MAX_FAILURES_PER_IP) throw new AppError(ResultCode.TOO_MANY_REQUESTS, '登录失败次数过多，请 15 分钟后再试');
      if (byAccount >= CAPTCHA_AFTER_FAILURES) {
        if (!captcha.captchaId || !captcha.captchaCode) throw captchaNeeded('请输入图形验证码');
        if (!captchas.check(captcha.captchaId, captcha.captchaCode)) {
          await repo.recordFailure(db, username, ip, Date.now());
          throw captchaNeeded('验证码错误或已过期，请重新输入');
        }
      }
      const user = await repo.findUserByUsername(db, username);
      const good = user ? await verifyPassword(user.password_hash, password) : false;
      if (!user || !good) {
        await repo.recordFailure(db, username, ip, Date.now());
        const failures = byAccount + 1;
        if (failures > CAPTCHA_AFTER_FAILURES) await sleep(Math.min(SLOWDOWN_MAX_MS, SLOWDOWN_STEP_MS * (failures - CAPTCHA_AFTER_FAILURES)));
        throw new AppError(ResultCode.BAD_CREDENTIALS, '账户或密码错误', failures >= CAPTCHA_AFTER_FAILURES ? { captchaRequired: true } : null);
      }
      if (!user.enabled) throw new AppError(ResultCode.FORBIDDEN, '账号已停用，请联系管理员');
      if (!user.tenant_enabled) throw new AppError(ResultCode.FORBIDDEN, '所属租户已停用，请联系平台管理员');
      await repo.clearAccountFailures(db, username);
      const sessionId = newSessionId();
      const createdAt = Date.now();
      await repo.insertSession(db, { id: sessionId, user_id: user.id, created_at: createdAt, expires_at: createdAt + ttlSeconds * 1000 });
      const token = await signToken(key, { userId: user.id, tenantId: user.tenant_id, sessionId }, ttlSeconds);
      return { token, userId: user.id, tenantId: user.tenant_id, username: user.username };
    },

    /** Token → user, checked against the session, the user and the tenant in the database. */
    authenticate: async (token: string | undefined): Promise<AuthUser> => (await authenticated(token)).user,

    /**
     * Token → the caller with their scope, for every signed-in request: from the cache while nothing it was made of
     * has been written (see CALLER_TABLES), else from the database.
     */
    async caller(token: string | undefined): Promise<Actor> {
      if (!token) throw unauthenticated('未登录或登录已过期，请重新登录');
      const caller = await callers.get(token, changes.epoch(CALLER_TABLES), async () => {
        const { user, expiresAt } = await authenticated(token);
        return { expiresAt, actor: { user, scope: await scopeOf(db, user) } };
      }, (c) => c.expiresAt);
      // an entry built just before its session ended
      if (caller.expiresAt <= Date.now()) throw unauthenticated();
      return caller.actor;
    },

    async revoke(token: string | undefined) {
      if (!token) return;
      const claims = await verifyToken(key, token);
      if (claims) await repo.revokeSession(db, claims.sessionId, Date.now());
    },

    async userInfo(user: AuthUser): Promise<UserInfo> {
      const [userRow, tenant] = await Promise.all([
        db.selectFrom('app_user').select(['description']).where('id', '=', user.id).executeTakeFirst(),
        repo.findTenant(db, user.tenantId),
      ]);
      const menus: { code: string }[] = [];
      const elements: { code: string }[] = [];
      for (const code of [...user.codes].sort()) (code.includes(':') ? elements : menus).push({ code });
      return {
        id: user.id,
        username: user.username,
        name: user.name,
        description: userRow?.description ?? null,
        tenantId: user.tenantId,
        tenantName: tenant?.name ?? '',
        brand: tenant?.brand ?? null,
        hasLogo: Boolean(tenant?.logo),
        filingNo: tenant?.filing_no ?? null,
        isPlatform: user.isPlatform,
        menus,
        elements,
      };
    },

    async allMenus(): Promise<MenuRow[]> {
      const rows = await repo.listMenus(db);
      return rows.map((m) => ({
        code: m.code,
        title: m.title,
        icon: m.icon,
        parentCode: m.parent_code,
        type: m.type === 'dirt' ? 'dirt' : 'menu',
        path: m.path,
        href: m.href,
        orderNo: m.order_no,
        hidden: m.hidden === 1,
      }));
    },

    async brand(tenantId: number) {
      const t = await repo.findTenant(db, tenantId);
      return { brand: t?.brand ?? null, hasLogo: Boolean(t?.logo), filingNo: t?.filing_no ?? null };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
