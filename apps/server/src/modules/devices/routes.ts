import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceIdParam, deviceListQuery, pageQuery, projectIdParam, decimal } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { actorOf } from '../../plugins/access.ts';
import type { DeviceService } from './service.ts';

const areaNumber = (what: string) => z.number({ error: `${what}必须是数字` }).int(`${what}必须是整数`);
const areaId = (what: string) => decimal(areaNumber(what));

/** Device reads of spec §7.3 under /api/v1/device/ (devicelist rows keep the shape the screens and integrations rely on). */
export async function deviceRoutes(app: FastifyInstance, opts: { devices: DeviceService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { devices } = opts;
  const tags = ['设备'];

  r.get('/api/v1/device/devicelist', {
    schema: { tags, summary: '设备列表（分页；按项目、类型、在线、关键字、楼栋/楼层/房间筛选）', querystring: deviceListQuery },
    config: { access: 'login' },
  }, async (req) => {
    return ok(await devices.list(actorOf(req), req.query));
  });

  r.get('/api/v1/device/detail/:id', {
    schema: { tags, summary: '设备详情（最新字段值、上报时间、未完成的指令）', params: deviceIdParam },
    config: { access: 'login' },
  }, async (req) => {
    return ok(await devices.detail(actorOf(req), req.params.id));
  });

  r.get('/api/v1/device/getdevicetypelist/:projectId', {
    schema: { tags, summary: '项目的设备类型（含设备数与在线数）', params: projectIdParam },
    config: { access: 'login' },
  }, async (req) => {
    return ok(await devices.typesOfProject(actorOf(req), req.params.projectId));
  });

  r.get('/api/v1/device/protocollist/:id', {
    schema: { tags, summary: '设备类型的字段协议（id 为设备编号或类型代码）', params: z.object({ id: z.string().regex(/^[A-Za-z0-9_]{1,40}$/, '编号格式不正确') }) },
    config: { access: 'login' },
  }, async (req) => {
    return ok(await devices.protocol(actorOf(req), req.params.id));
  });

  r.get('/api/v1/device/thermostat/monitor/:projectId/:areaId', {
    schema: { tags, summary: '温控器监控概况（项目，或其下的楼栋/楼层/房间；areaId 为 -1 表示整个项目）', params: projectIdParam.extend({ areaId: areaId('区域编号') }) },
    config: { access: 'login' },
  }, async (req) => {
    return ok(await devices.thermostatMonitor(actorOf(req), req.params.projectId, req.params.areaId));
  });

  r.get('/api/v1/device/getviewbyarea/:id', {
    schema: { tags, summary: '区域下的设备（按所在区域分组）', params: z.object({ id: decimal(areaNumber('区域编号').positive('区域编号必须大于 0')) }) },
    config: { access: 'login' },
  }, async (req) => {
    return ok(await devices.viewByArea(actorOf(req), req.params.id));
  });

  r.get('/api/v1/device/getviewlistbyareabypage_forpdevice/:areaId/:parentId', {
    schema: {
      tags,
      summary: '网关/管理器的下属设备（分页；areaId 为 -1 表示不限区域）',
      params: z.object({ areaId: areaId('区域编号'), parentId: decimal(areaNumber('网关编号').positive('网关编号必须大于 0')) }),
      querystring: pageQuery,
    },
    config: { access: 'login' },
  }, async (req) => {
    return ok(await devices.subDevices(actorOf(req), req.params.areaId, req.params.parentId, req.query));
  });

  r.post('/api/v1/device/credentials/:id', {
    schema: { tags, summary: '重新生成设备接入密钥（只显示这一次，旧密钥立即失效）', params: deviceIdParam },
    config: { access: 'login', operation: '重新生成设备密钥' },
  }, async (req) => {
    const actor = actorOf(req);
    await devices.device(actor, req.params.id, 'manage');
    return ok(await devices.reissueCredentials(actor, req.params.id), '已生成新密钥，请立即保存');
  });
}
