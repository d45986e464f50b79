import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceIdParam, deviceListQuery, deviceViewByAreaQuery, deviceMonitorQuery, fieldDisplay, fieldOf, offlineMessageQuery, pageQuery, projectIdParam, decimal, type FieldDef } from '@kelvin/contracts';
import { cstTime, streamXlsx } from '../../lib/excel.ts';
import { ok } from '../../lib/errors.ts';
import { actorOf } from '../../plugins/access.ts';
import { MONITOR_EXPORT_CODES, MONITOR_PAGE_CODES, type DeviceService } from './service.ts';

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

  // the device monitor's extras (spec §7.5): whoever may open a monitor page may call them for the types they view
  r.get('/api/v1/device/monitor/statistic', {
    schema: { tags, summary: '设备监控统计：所示设备的总数、在线、离线、开机、告警数与在线设备平均室温（与列表相同的筛选）', querystring: deviceMonitorQuery },
    config: { access: MONITOR_PAGE_CODES },
  }, async (req) => ok(await devices.monitorStatistic(actorOf(req), req.query)));

  r.get('/api/v1/device/monitor/offlinemessage', {
    schema: { tags, summary: '离线消息：最近若干天内离线的设备（位置、最后上报、离线时长），分页', querystring: offlineMessageQuery },
    config: { access: MONITOR_PAGE_CODES },
  }, async (req) => ok(await devices.offlineMessages(actorOf(req), req.query)));

  r.get('/api/v1/device/monitor/export', {
    schema: { tags, summary: '导出设备监控列表（.xlsx，与列表相同的筛选，全部行）', querystring: deviceMonitorQuery },
    config: { access: MONITOR_EXPORT_CODES },
  }, async (req, reply) => {
    const { def, projectName, rows } = await devices.monitorRows(actorOf(req), req.query);
    const fieldColumn = (code: string) => {
      const field = fieldOf(def, code) as FieldDef;
      return {
        header: field.unit ? `${field.label}（${field.unit}）` : field.label, width: 14,
        // numbers stay numbers in the sheet; states and times as their Chinese text
        value: (d: { fields: Record<string, string | number> }) => {
          const v = d.fields[code];
          if (v === undefined) return null;
          return field.kind === 'number' ? Number(v) : fieldDisplay(def, code, v);
        },
      };
    };
    return streamXlsx(reply, `${projectName}-${def.name}.xlsx`, def.name, [
      { header: '设备名称', width: 20, value: (d) => d.deviceName },
      { header: '设备编号', width: 22, value: (d) => d.deviceCode },
      { header: '位置', width: 26, value: (d) => d.areaPath },
      { header: '状态', width: 8, value: (d) => (d.online ? '在线' : '离线') },
      ...def.listFields.map(fieldColumn),
      { header: '最后上报', width: 20, value: (d) => (d.lastReportAt ? cstTime(d.lastReportAt) : '从未上报') },
    ], rows);
  });

  r.get('/api/v1/device/getviewbyarea/:id', {
    schema: {
      tags, summary: '区域下的设备（按所在区域分组；own=1 只含放在该区域本身的设备，category 只含该类设备）',
      params: z.object({ id: decimal(areaNumber('区域编号').positive('区域编号必须大于 0')) }), querystring: deviceViewByAreaQuery,
    },
    config: { access: 'login' },
  }, async (req) => {
    return ok(await devices.viewByArea(actorOf(req), req.params.id, req.query));
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
