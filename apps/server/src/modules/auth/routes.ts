import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginRequest, decimal } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { tokenOf } from '../../plugins/access.ts';
import type { AuthService } from './service.ts';

export async function authRoutes(app: FastifyInstance, opts: { auth: AuthService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = opts;

  r.post('/api/auth/jwt/token', {
    schema: { tags: ['认证'], summary: '登录', body: loginRequest },
    config: { access: 'public', operation: '登录' },
  }, async (request) => {
    const { username, password, captchaId, captchaCode } = request.body;
    const result = await auth.login(username, password, request.ip, { captchaId, captchaCode });
    request.user = await auth.authenticate(result.token);
    return { code: 200, msg: '登录成功', data: result.token, data2: result.tenantId, attr1: String(result.userId) };
  });

  r.get('/api/auth/captcha', {
    schema: { tags: ['认证'], summary: '图形验证码（登录失败几次后需要）' },
    config: { access: 'public' },
  }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(auth.captcha());
  });

  r.get('/api/auth/jwt/invalid', {
    schema: { tags: ['认证'], summary: '退出登录（令牌立即失效）', querystring: z.object({ token: z.string().optional() }) },
    config: { access: 'public', operation: '退出登录' },
  }, async (request) => {
    await auth.revoke(tokenOf(request));
    return ok(null, '已退出登录');
  });

  r.get('/api/admin/user/front/info', {
    schema: { tags: ['认证'], summary: '当前用户信息与权限码', querystring: z.object({ token: z.string().optional() }) },
    config: { access: 'login' },
  }, async (request) => ok(await auth.userInfo(request.user!)));

  r.get('/api/admin/user/front/menus', {
    schema: { tags: ['认证'], summary: '当前用户可用的菜单', querystring: z.object({ token: z.string().optional() }) },
    config: { access: 'login' },
  }, async (request) => {
    const all = await auth.allMenus();
    return ok(all.filter((m) => request.user!.codes.has(m.code)));
  });

  r.get('/api/admin/user/front/menu/all', {
    schema: { tags: ['认证'], summary: '全部菜单（标题、图标）' },
    config: { access: 'login' },
  }, async () => ok(await auth.allMenus()));

  r.get('/api/v1/tenant/brand', {
    schema: { tags: ['认证'], summary: '租户品牌名称', querystring: z.object({ tenantId: decimal(z.number().int()).optional() }) },
    config: { access: 'public' },
  }, async (request) => ok(await auth.brand(request.query.tenantId ?? 0)));
}
