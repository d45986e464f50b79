import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import type { EmqxAuth } from './emqx.ts';

const tags = ['消息服务器'];
export const TOKEN_HEADER = 'x-kelvin-broker-token';

const text = (max: number) => z.string().max(max).optional();
const authBody = z.object({ clientid: text(256), username: text(256), password: text(1024) });
const aclBody = z.object({ clientid: text(256), username: text(256), topic: text(1024), action: text(16) });

/**
 * EMQX 5 calls these (HTTP authenticator, HTTP authorizer) with the shared secret in a header; the answer is EMQX's
 * own shape, `{"result": "allow" | "deny"}`, not Kelvin's envelope. Without KELVIN_BROKER_AUTH_TOKEN they do not exist.
 */
export async function brokerRoutes(app: FastifyInstance, opts: { emqx: EmqxAuth; token?: string }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const expected = opts.token ? crypto.createHash('sha256').update(opts.token).digest() : null;

  /** false (and the answer sent) when the call is not EMQX's */
  function admitted(req: FastifyRequest, reply: FastifyReply): boolean {
    if (!expected) throw notFound('接口');
    const given = req.headers[TOKEN_HEADER];
    const hash = crypto.createHash('sha256').update(typeof given === 'string' ? given : '').digest();
    if (crypto.timingSafeEqual(hash, expected)) return true;
    void reply.status(403).send({ result: 'deny' });
    return false;
  }

  r.post('/api/mqtt/auth', {
    schema: { tags, summary: 'EMQX HTTP 认证：设备编号 + 密钥（请求头 x-kelvin-broker-token）', body: authBody },
    config: { access: 'public', operation: false },
  }, async (req, reply) => {
    if (!admitted(req, reply)) return reply;
    return { result: await opts.emqx.authenticate(req.body), is_superuser: false };
  });

  r.post('/api/mqtt/acl', {
    schema: { tags, summary: 'EMQX HTTP 授权：设备只能发布本设备的 up / ack、订阅本设备的 down（请求头 x-kelvin-broker-token）', body: aclBody },
    config: { access: 'public', operation: false },
  }, async (req, reply) => {
    if (!admitted(req, reply)) return reply;
    return { result: await opts.emqx.authorize(req.body) };
  });
}
