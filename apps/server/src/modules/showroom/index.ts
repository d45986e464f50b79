import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/index.ts';
import { ok } from '../../lib/errors.ts';
import { rateLimiter } from '../../lib/rate-limit.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { createShowroomService } from './service.ts';

export { SHOWROOM_PROJECT_TYPE, SHOWROOM_TENANT } from './service.ts';

/** Requests per address and minute to the public tour. */
export const SHOWROOM_RATE = 60;

/** /demo: a read-only tour of the demo tenant's showroom project for visitors without an account. */
export function createShowroom(deps: { db: Db; projects: ProjectService; core: DeviceCore }) {
  const showroom = createShowroomService(deps);
  const limiter = rateLimiter({ limit: SHOWROOM_RATE, windowMs: 60_000, message: '访问过于频繁，请稍后再试' });
  return {
    showroom,
    async routes(app: FastifyInstance) {
      app.withTypeProvider<ZodTypeProvider>().get('/api/v1/showroom', {
        schema: { tags: ['演示'], summary: '演示项目概况（设备类型与在线数、部分设备的最新状态、近 7 天用电量；不含任何个人信息；每个地址每分钟 60 次）' },
        config: { access: 'public' },
      }, async (req, reply) => {
        limiter.hit(req.ip);
        reply.header('cache-control', 'no-store');
        return ok(await showroom.tour());
      });
    },
  };
}
