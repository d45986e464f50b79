import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { broadcastBody, rtuRefreshBody, traceIdParam, traceQuery } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { actorOf } from '../../plugins/access.ts';
import type { OpsActions } from './actions.ts';
import type { Registry } from './registry.ts';
import type { TraceStore } from './traces.ts';

/** The element every service-monitor action needs (platform only, like the whole of /monitorManager). */
export const OPS_CONTROL = 'serviceMonitorManager:control';

export async function opsRoutes(app: FastifyInstance, opts: { registry: Registry; traces: TraceStore; actions: OpsActions }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { registry, traces, actions } = opts;

  r.get('/api/v1/monitor/instances', {
    schema: { tags: ['服务注册中心'], summary: '服务进程：主机、进程号、版本、角色、心跳、负载、内存、连接设备数、事件循环延迟 p99、每分钟请求数（15 秒无心跳为已离线）' },
    config: { access: 'serviceEurekaManager' },
  }, async () => ok(await registry.list()));

  const traceTags = ['调用链路追踪'];
  r.get('/api/v1/monitor/traces', {
    schema: { tags: traceTags, summary: '保留的调用链路（失败：5xx 与除 401、404 外的 4xx；慢请求），按追踪号、路径、状态码、耗时、用户、时间查询', querystring: traceQuery },
    config: { access: 'serviceZipkinManager' },
  }, async (req) => ok(await traces.search(req.query)));

  r.get('/api/v1/monitor/traces/:traceId', {
    schema: { tags: traceTags, summary: '一条调用链路的全部跨度（请求、处理、数据库查询、MQTT 发布）', params: traceIdParam },
    config: { access: 'serviceZipkinManager' },
  }, async (req) => ok(await traces.detail(req.params.traceId)));

  const monitorTags = ['服务运行监控'];
  r.get('/api/v1/monitor/targets', {
    schema: { tags: monitorTags, summary: '广播与 4G RTU 刷新可选的租户、项目及其在线设备数、4G 设备数' },
    config: { access: OPS_CONTROL },
  }, async () => ok(await actions.targets()));

  r.post('/api/v1/monitor/iotreload', {
    schema: { tags: monitorTags, summary: '重新加载物联网配置：清空本进程的设备目录、告警规则、定时任务与策略缓存，从数据库重新读取' },
    config: { access: OPS_CONTROL, operation: '重新加载物联网配置' },
  }, async () => ok(await actions.reload(), '已重新加载'));

  r.post('/api/v1/monitor/mqttbroadcast', {
    schema: { tags: monitorTags, summary: 'MQTT 广播：向所选租户/项目（或全部）的在线设备下发「立即上报」或「校时」', body: broadcastBody },
    config: { access: OPS_CONTROL, operation: 'MQTT 广播' },
  }, async (req) => ok(await actions.broadcast(actorOf(req), req.body), '已广播'));

  r.post('/api/v1/monitor/rturefresh', {
    schema: { tags: monitorTags, summary: '4G RTU 刷新：所选租户/项目（或全部）的 4G 设备在下次唤醒时（在线的立即）上报', body: rtuRefreshBody },
    config: { access: OPS_CONTROL, operation: '4G RTU 刷新' },
  }, async (req) => ok(await actions.rtuRefresh(actorOf(req), req.body), '已下发刷新'));
}
