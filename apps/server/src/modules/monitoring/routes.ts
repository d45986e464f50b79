import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { alarmAckBody, monitorMessageQuery, monitorRuleBody, monitorRuleQuery, positiveIdOf, projectIdParam } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { actorOf } from '../../plugins/access.ts';
import type { MonitoringService } from './service.ts';

const idParam = z.object({ id: positiveIdOf('编号') });

/** Monitoring rules and monitor messages (alarms): spec §7.3 monitormessageqty, monitormessage, closemessage. */
export async function monitoringRoutes(app: FastifyInstance, opts: { monitoring: MonitoringService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { monitoring } = opts;
  const tags = ['监控告警'];

  r.get('/api/v1/monitorrule', {
    schema: { tags, summary: '监控规则（分页）', querystring: monitorRuleQuery },
    config: { access: 'monitorrules' },
  }, async (req) => ok(await monitoring.rules(actorOf(req).scope, req.query)));

  r.post('/api/v1/monitorrule', {
    schema: { tags, summary: '新建监控规则（字段阈值、持续时间、级别、短信通知；operator 为 offline 时阈值为分钟）', body: monitorRuleBody },
    config: { access: 'monitorrules:btn_add', operation: '新建监控规则' },
  }, async (req) => ok(await monitoring.create(actorOf(req), req.body), '新建成功'));

  r.put('/api/v1/monitorrule/:id', {
    schema: { tags, summary: '修改监控规则（该规则未结束的告警随之结束，条件仍成立时重新告警）', params: idParam, body: monitorRuleBody },
    config: { access: 'monitorrules:btn_edit', operation: '修改监控规则' },
  }, async (req) => ok(await monitoring.update(actorOf(req), req.params.id, req.body), '修改成功'));

  r.post('/api/v1/monitorrule/delete', {
    schema: { tags, summary: '删除监控规则（其告警记录保留）', body: z.object({ ids: z.array(positiveIdOf('规则编号')).min(1, '请选择规则').max(200) }) },
    config: { access: 'monitorrules:btn_del', operation: '删除监控规则' },
  }, async (req) => ok(await monitoring.remove(actorOf(req), req.body.ids), '删除成功'));

  r.get('/api/v1/device/monitormessageqty/:projectId', {
    schema: { tags, summary: '项目未读监控消息数（铃铛）', params: projectIdParam },
    config: { access: 'monitorrules' },
  }, async (req) => ok(await monitoring.unread(actorOf(req).scope, req.params.projectId)));

  r.get('/api/v1/device/monitormessage', {
    schema: { tags, summary: '监控消息（告警）列表：状态 active 告警中 | cleared 已恢复，已读、级别、设备筛选', querystring: monitorMessageQuery },
    config: { access: 'monitorrules' },
  }, async (req) => ok(await monitoring.messages(actorOf(req).scope, req.query)));

  r.get('/api/v1/device/monitormessage/:id', {
    schema: { tags, summary: '一条监控消息', params: idParam },
    config: { access: 'monitorrules' },
  }, async (req) => ok(await monitoring.message(actorOf(req).scope, req.params.id)));

  r.post('/api/v1/device/monitormessage/ack', {
    schema: { tags, summary: '确认监控消息（标为已读，记录确认人、时间与说明）', body: alarmAckBody },
    config: { access: 'monitorrules:btn_edit', operation: '确认监控消息' },
  }, async (req) => ok(await monitoring.acknowledge(actorOf(req), req.body.ids, req.body.comment, false), '已确认'));

  r.post('/api/v1/device/closemessage', {
    schema: { tags, summary: '关闭监控消息（确认并结束告警；条件仍成立时会重新告警）', body: alarmAckBody },
    config: { access: 'monitorrules:btn_edit', operation: '关闭监控消息' },
  }, async (req) => ok(await monitoring.acknowledge(actorOf(req), req.body.ids, req.body.comment, true), '已关闭'));
}
