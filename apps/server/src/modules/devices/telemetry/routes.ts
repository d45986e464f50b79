import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEVICE_TYPE_BY_CODE, historyQuery, ingestRejectQuery } from '@kelvin/contracts';
import { ok } from '../../../lib/errors.ts';
import { actorOf } from '../../../plugins/access.ts';
import type { MqttHub } from '../../../plugins/mqtt.ts';
import type { DeviceService } from '../service.ts';
import type { TelemetryService } from './service.ts';

export async function telemetryRoutes(app: FastifyInstance, opts: {
  devices: DeviceService; telemetry: TelemetryService; mqtt: MqttHub | null; external: boolean; startedAt: number; version: string;
}) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['设备数据'];

  r.get('/api/v1/device/history', {
    schema: { tags, summary: '设备历史数据（服务端降采样，每个字段最多 500 点：设定值与状态取每段最后值，测量值取平均并给出最小、最大值）', querystring: historyQuery },
    config: { access: 'login' },
  }, async (req) => {
    const device = await opts.devices.device(actorOf(req), req.query.deviceId);
    return ok(await opts.telemetry.history({ id: device.id, type: DEVICE_TYPE_BY_CODE.get(device.device_type)! }, req.query));
  });

  r.get('/api/v1/device/ingeststats', {
    schema: { tags, summary: '接入统计：收到/入库/重复/格式错误/拒绝的消息数（平台），以及最近被拒绝的消息' },
    config: { access: 'devicemonitor' },
  }, async (req) => ok(await opts.telemetry.ingestStats(req.user!.isPlatform ? null : req.user!.tenantId)));

  // 服务运行监控 (platform only): health of this process and of the device ingest across every process
  const monitorTags = ['服务运行监控'];
  r.get('/api/v1/monitor/service', {
    schema: { tags: monitorTags, summary: '服务状态：数据库、MQTT、设备在线数与接入计数' },
    config: { access: 'serviceMonitorManager' },
  }, async () => ok(await opts.telemetry.serviceStatus(opts)));

  r.get('/api/v1/monitor/ingestrejects', {
    schema: { tags: monitorTags, summary: '被拒绝的上报与连接（抽样：每台设备每种原因每分钟一条），分页', querystring: ingestRejectQuery },
    config: { access: 'serviceMonitorManager' },
  }, async (req) => ok(await opts.telemetry.ingestRejects(req.query)));
}
