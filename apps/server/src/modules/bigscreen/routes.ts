import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataviewCreate, dataviewListQuery, dataviewTokenQuery, positiveIdOf } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { actorOf } from '../../plugins/access.ts';
import type { BigScreenService } from './service.ts';

const tags = ['大屏'];
/** energy=0: devices, running units and alarms only (the live refresh between the minute's full reads) */
const energyQuery = z.object({ energy: z.enum(['0', '1'], { error: 'energy 只能是 0 或 1' }).optional() });
const projectParam = z.object({ projectId: positiveIdOf('项目编号') });
const idParam = z.object({ id: positiveIdOf('分享链接编号') });

/** 综合大屏, 项目大屏, share links of a project screen and the public read of one (/dataviews). */
export async function bigScreenRoutes(app: FastifyInstance, opts: { screens: BigScreenService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { screens } = opts;

  r.get('/api/v1/bigscreen/overview', {
    schema: { tags, summary: '综合大屏：当前用户全部项目的设备在线、运行机组、今日/昨日电量与热量、逐时趋势、用能排行、告警', querystring: energyQuery },
    config: { access: 'monitoringCenterTose' },
  }, async (req) => ok(await screens.overview(actorOf(req), req.query.energy !== '0')));

  r.get('/api/v1/bigscreen/project/:projectId', {
    schema: { tags, summary: '项目大屏：一个项目的设备在线、运行机组、今日/昨日电量与热量、逐时趋势、用能排行、告警', params: projectParam, querystring: energyQuery },
    config: { access: 'monitorScreen' },
  }, async (req) => ok(await screens.project(actorOf(req), req.params.projectId, req.query.energy !== '0')));

  r.get('/api/v1/bigscreen/share', {
    schema: { tags, summary: '项目大屏的分享链接（有效、已过期、已撤销）', querystring: dataviewListQuery },
    config: { access: 'monitorScreen' },
  }, async (req) => ok(await screens.links(actorOf(req), req.query.projectId)));

  r.post('/api/v1/bigscreen/share', {
    schema: { tags, summary: '新建分享链接（有效期 1/7/30 天或自定义到期时间；链接只在此时显示一次）', body: dataviewCreate },
    config: { access: 'monitorScreen:btn_add', operation: '新建大屏分享链接' },
  }, async (req) => ok(await screens.create(actorOf(req), req.body), '已生成分享链接'));

  r.post('/api/v1/bigscreen/share/:id/revoke', {
    schema: { tags, summary: '撤销分享链接（立即失效）', params: idParam },
    config: { access: 'monitorScreen:btn_del', operation: '撤销大屏分享链接' },
  }, async (req) => ok(await screens.revoke(actorOf(req), req.params.id), '已撤销'));

  r.get('/api/v1/dataviews', {
    schema: { tags, summary: '公开数据大屏（无需登录）：分享链接所指项目的汇总数据；链接须有效、未过期、未撤销，按链接与来源地址限流', querystring: dataviewTokenQuery },
    config: { access: 'public' },
  }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(await screens.publicSummary(req.query.token, req.ip));
  });
}
