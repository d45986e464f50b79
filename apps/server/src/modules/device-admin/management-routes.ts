import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_TYPE_BY_CODE, addressChangeBody, addressChangeCloseBody, addressChangeQuery, deviceIdParam, mqttSettingBody, mqttSettingQuery,
  onlineHistoryQuery, operationLogExportQuery, positiveIdOf, projectIdParam,
} from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { asDownload } from '../../lib/download.ts';
import { byIdDescending, cstTime, streamXlsx } from '../../lib/excel.ts';
import { scopeOf } from '../../lib/scope.ts';
import type { AddressChangeService } from './address.ts';
import type { MqttSettingService } from './mqtt-setting.ts';
import type { ProjectService } from '../projects/service.ts';
import type { OnlineStats } from './online.ts';
import { deviceLabelSvg } from './qrcode.ts';
import type { DeviceAdminService } from './service.ts';

export interface ManagementDeps {
  admin: DeviceAdminService;
  online: OnlineStats;
  addresses: AddressChangeService;
  mqttSettings: MqttSettingService;
  projects: ProjectService;
}

/** deviceOnline_n, dodifyDeviceIP_n, mqttSetting_n and device QR labels under /api/v1/device/. */
export async function managementRoutes(app: FastifyInstance, deps: ManagementDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['设备管理'];
  const actor = async (req: FastifyRequest) => ({ user: req.user!, scope: await scopeOf(app.db, req.user!) });
  const scope = (req: FastifyRequest) => scopeOf(app.db, req.user!);

  /* ---------- deviceOnline_n (spec §7.3 report/online, report/online/v2) ---------- */

  r.get('/api/v1/device/report/online/:projectId', {
    schema: { tags, summary: '项目当前在线统计（按设备类型：总数、在线、离线）', params: projectIdParam },
    config: { access: 'deviceOnline_n' },
  }, async (req) => ok(await deps.online.now(await scope(req), req.params.projectId)));

  r.get('/api/v1/device/report/online/v2/:projectId', {
    schema: { tags, summary: '项目在线设备数随时间变化（按小时：该小时内有上报的设备数，最长 31 天）', params: projectIdParam, querystring: onlineHistoryQuery },
    config: { access: 'deviceOnline_n' },
  }, async (req) => ok(await deps.online.history(await scope(req), req.params.projectId, req.query)));

  /* ---------- dodifyDeviceIP_n ---------- */

  r.get('/api/v1/device/address/list', {
    schema: { tags, summary: '修改设备地址的登记记录（分页）', querystring: addressChangeQuery },
    config: { access: 'dodifyDeviceIP_n' },
  }, async (req) => ok(await deps.addresses.list(await scope(req), req.query)));

  r.post('/api/v1/device/address/request', {
    schema: { tags, summary: '登记设备的新服务器地址（设备协议无此参数，不下发指令；逐台记录，待现场改写后确认）', body: addressChangeBody },
    config: { access: 'dodifyDeviceIP_n:control', operation: '登记修改设备地址' },
  }, async (req) => {
    const answer = await deps.addresses.request(await actor(req), req.body);
    return ok(answer, `已登记 ${answer.created} 台设备，请在现场改写后确认`);
  });

  r.post('/api/v1/device/address/close/:id', {
    schema: { tags, summary: '确认（现场已改写）或撤销一条地址修改登记', params: z.object({ id: positiveIdOf('登记编号') }), body: addressChangeCloseBody },
    config: { access: 'dodifyDeviceIP_n:control', operation: '确认或撤销修改设备地址' },
  }, async (req) => ok(await deps.addresses.close(await actor(req), req.params.id, req.body), req.body.status === 'confirmed' ? '已确认' : '已撤销'));

  /* ---------- mqttSetting_n ---------- */

  r.get('/api/v1/device/mqtt/setting', {
    schema: { tags, summary: '项目的 MQTT 接入设置（设备连接的地址、端口、主题）', querystring: mqttSettingQuery },
    config: { access: 'mqttSetting_n' },
  }, async (req) => ok(await deps.mqttSettings.view(await scope(req), req.query.projectId)));

  r.post('/api/v1/device/mqtt/setting', {
    schema: { tags, summary: '保存项目的 MQTT 接入地址', body: mqttSettingBody },
    config: { access: 'mqttSetting_n:btn_edit', operation: '保存 MQTT 设置' },
  }, async (req) => ok(await deps.mqttSettings.save(await actor(req), req.body), '保存成功'));

  r.post('/api/v1/device/mqtt/credentials/:id', {
    schema: { tags, summary: '重新生成设备接入密钥（只显示这一次，旧密钥立即失效，在线设备被断开）', params: deviceIdParam },
    config: { access: 'mqttSetting_n:btn_edit', operation: '重新生成设备密钥' },
  }, async (req) => ok(await deps.admin.reissue(await actor(req), req.params.id), '已生成新密钥，请立即保存'));

  /* ---------- deviceoperationlog export ---------- */

  r.get('/api/v1/device/operationlog/export', {
    schema: { tags, summary: '导出设备操作日志（项目、设备、时间范围；新的在前）', querystring: operationLogExportQuery },
    config: { access: 'deviceoperationlog:export' },
  }, async (req, reply) => {
    const s = await scope(req);
    const q = req.query;
    if (q.projectId !== undefined) await deps.projects.project(s, q.projectId);
    const rows = byIdDescending((before, limit) => {
      let query = app.db.selectFrom('device_operation_log').selectAll();
      if (!s.isPlatform) query = query.where('tenant_id', '=', s.tenantId);
      if (s.projectIds) query = query.where('project_id', 'in', s.projectIds.size ? [...s.projectIds] : [-1]);
      if (q.projectId !== undefined) query = query.where('project_id', '=', q.projectId);
      if (q.deviceId !== undefined) query = query.where('device_id', '=', q.deviceId);
      if (q.atFrom !== undefined) query = query.where('at', '>=', q.atFrom);
      if (q.atTo !== undefined) query = query.where('at', '<=', q.atTo);
      if (before !== null) query = query.where('id', '<', before);
      return query.orderBy('id', 'desc').limit(limit).execute();
    });
    return streamXlsx(reply, '设备操作日志.xlsx', '设备操作日志', [
      { header: '时间', width: 20, value: (l) => cstTime(l.at) },
      { header: '设备编号', width: 22, value: (l) => l.device_code },
      { header: '设备名称', width: 24, value: (l) => l.device_name },
      { header: '设备类型', width: 18, value: (l) => DEVICE_TYPE_BY_CODE.get(l.device_type)?.name ?? l.device_type },
      { header: '操作', width: 16, value: (l) => l.operation },
      { header: '内容', width: 36, value: (l) => l.detail },
      { header: '结果', width: 12, value: (l) => l.result },
      { header: '操作人', width: 14, value: (l) => l.username },
    ], rows);
  });

  /* ---------- QR code label ---------- */

  r.get('/api/v1/device/qrcode/:id', {
    schema: { tags, summary: '设备二维码标签（SVG：设备编号的二维码，下方印编号与名称）', params: deviceIdParam },
    config: { access: 'login' },
  }, async (req, reply) => {
    const d = await deps.admin.device(await scope(req), req.params.id);
    return asDownload(reply, `设备二维码-${d.device_code}.svg`, 'image/svg+xml; charset=utf-8').send(deviceLabelSvg(d.device_code, d.device_name));
  });
}
