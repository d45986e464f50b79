import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ResultCode } from '@kelvin/contracts';
import { AppError } from '../lib/errors.ts';
import type { Actor } from '../lib/scope.ts';
import type { AuthService } from '../modules/auth/index.ts';
import { redactUri } from '../lib/redact.ts';
import type { Access } from '../types.ts';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) return header.replace(/^Bearer\s+/i, '').trim() || undefined;
  const q = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' && q ? q : undefined;
}

/** Body fields that name the object of an operation, in the order they are preferred. */
const NAME_FIELDS = ['name', 'projectName', 'deviceName', 'groupName', 'username', 'alias', 'deviceCode', 'date'];
const ID_FIELDS = ['id', 'ids', 'deviceId', 'deviceIds', 'areaId', 'projectId', 'fileId', 'fieldCode'];

/** 「name」 or （编号 …） of the object the call acted on, from the body, the path parameters and the query. */
export function describe(operation: string, request: FastifyRequest): string {
  if (operation === '登录' || operation === '退出登录') return operation;
  const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const scalar = (v: unknown) => (typeof v === 'string' || typeof v === 'number') && String(v).trim() !== '';
  const name = NAME_FIELDS.map((f) => body[f]).find(scalar);
  if (name !== undefined) return `${operation}「${String(name).slice(0, 40)}」`;
  for (const source of [params, body, query]) {
    for (const f of ID_FIELDS) {
      const v = source[f];
      if (scalar(v)) return `${operation}（编号 ${v}）`;
      if (Array.isArray(v) && v.length && v.every(scalar)) {
        return `${operation}（编号 ${v.slice(0, 5).join('、')}${v.length > 5 ? ` 等 ${v.length} 个` : ''}）`;
      }
    }
  }
  return operation;
}

/**
 * The one permission check (design §6): every /api route declares `config.access`;
 * the hook authenticates, checks the code, and the gate log records every changing call and every denial.
 */
async function access(app: FastifyInstance, opts: { auth: AuthService }) {
  app.decorateRequest('user', null);
  app.decorateRequest('actor', null);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && !route.url.startsWith('/api/docs') && !route.config?.access) {
      throw new Error(`路由 ${route.method} ${route.url} 未声明访问权限 (config.access)`);
    }
    const methods = ([] as string[]).concat(route.method);
    if (route.url.startsWith('/api') && methods.some((m) => !READ_METHODS.has(m)) && route.config?.operation === undefined) {
      throw new Error(`路由 ${methods.join(',')} ${route.url} 未声明操作名称 (config.operation，只读查询写 false)`);
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const actor = await opts.auth.caller(tokenOf(request));
    request.user = actor.user;
    if (access !== 'login' && heldCode(access, actor.user.codes) === null) {
      throw new AppError(ResultCode.NO_PERMISSION, '权限不足，无法执行该操作');
    }
    request.actor = actor;
  });

  // Written before the response leaves, so an acknowledged change always has its audit row.
  app.addHook('onSend', async (request, reply, payload) => {
    const config = request.routeOptions.config;
    if (!config?.access) return payload;
    const denied = reply.statusCode === 403;
    if ((READ_METHODS.has(request.method) || config.operation === false) && !denied) return payload;
    const access = config.access;
    const body = request.body as Record<string, unknown> | undefined;
    try {
      await app.db.insertInto('gate_log').values({
        tenant_id: request.user?.tenantId ?? 0,
        user_id: request.user?.id ?? null,
        username: request.user?.username ?? (typeof body?.username === 'string' ? body.username.slice(0, 64) : null),
        menu_code: access === 'public' || access === 'login' ? null : (heldCode(access, request.user?.codes) ?? codesOf(access)[0]!).split(':')[0],
        operation: ((denied ? '拒绝访问：' : '') + describe(config.operation || '查询', request)).slice(0, 200),
        method: request.method,
        uri: redactUri(request.url).slice(0, 500),
        host: request.ip,
        status: reply.statusCode,
        at: Date.now(),
      }).execute();
    } catch (err) {
      request.log.error({ err }, 'gate log write failed');
    }
    return payload;
  });
}

const codesOf = (access: Exclude<Access, 'public' | 'login'>): readonly string[] => (typeof access === 'string' ? [access] : access);

/** The code of a route's access that the user holds (the screen they came through), or null. */
function heldCode(access: Exclude<Access, 'public' | 'login'>, codes: ReadonlySet<string> | undefined): string | null {
  return codesOf(access).find((c) => codes?.has(c)) ?? null;
}

/** The caller of a signed-in route (the access hook has set it; a public route has none). */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError(ResultCode.UNAUTHENTICATED, '未登录或登录已过期，请重新登录');
  return request.actor;
}

// Not encapsulated: the hooks must see every route of every domain plugin.
export const accessPlugin = fp(access, { name: 'kelvin-access' });
