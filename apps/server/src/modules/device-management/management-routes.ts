import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addressChangeBody, addressChangeCloseBody, addressChangeQuery, deviceIdParam, mqttSettingBody, mqttSettingQuery,
  onlineHistoryQuery, positiveIdOf, projectIdParam,
} from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { asDownload } from '../../lib/download.ts';
import { actorOf } from '../../plugins/access.ts';
import type { AddressChangeService } from './address.ts';
import type { MqttSettingService } from './mqtt-setting.ts';
import type { ProjectService } from '../projects/index.ts';
import type { OnlineStats } from './online.ts';
import { deviceLabelSvg } from './qrcode.ts';
import type { DeviceManagementService } from './service.ts';
import type { DeviceService } from '../devices/index.ts';

export interface ManagementDeps {
  admin: DeviceManagementService;
  devices: DeviceService;
  online: OnlineStats;
  addresses: AddressChangeService;
  mqttSettings: MqttSettingService;
  projects: ProjectService;
}

/** deviceOnline_n, dodifyDeviceIP_n, mqttSetting_n and device QR labels under /api/v1/device/. */
export async function managementRoutes(app: FastifyInstance, deps: ManagementDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['设备管理'];

  /* ---------- deviceOnline_n (spec §7.3 report/online, report/online/v2) ---------- */

  r.get('/api/v1/device/report/online/:projectId', {
    schema: { tags, summary: '项目当前在线统计（按设备类型：总数、在线、离线）', params: projectIdParam },
    config: { access: 'deviceOnline_n' },
  }, async (req) => ok(await deps.online.now(actorOf(req).scope, req.params.projectId)));

  r.get('/api/v1/device/report/online/v2/:projectId', {
    schema: { tags, summary: '项目在线设备数随时间变化（按小时：该小时内有上报的设备数，最长 31 天）', params: projectIdParam, querystring: onlineHistoryQuery },
    config: { access: 'deviceOnline_n' },
  }, async (req) => ok(await deps.online.history(actorOf(req).scope, req.params.projectId, req.query)));

  /* ---------- dodifyDeviceIP_n ---------- */

  r.get('/api/v1/device/address/list', {
    schema: { tags, summary: '修改设备地址的登记记录（分页）', querystring: addressChangeQuery },
    config: { access: 'dodifyDeviceIP_n' },
  }, async (req) => ok(await deps.addresses.list(actorOf(req).scope, req.query)));

  r.post('/api/v1/device/address/request', {
    schema: { tags, summary: '登记设备的新服务器地址（设备协议无此参数，不下发指令；逐台记录，待现场改写后确认）', body: addressChangeBody },
    config: { access: 'dodifyDeviceIP_n:control', operation: '登记修改设备地址' },
  }, async (req) => {
    const answer = await deps.addresses.request(actorOf(req), req.body);
    return ok(answer, `已登记 ${answer.created} 台设备，请在现场改写后确认`);
  });

  r.post('/api/v1/device/address/close/:id', {
    schema: { tags, summary: '确认（现场已改写）或撤销一条地址修改登记', params: z.object({ id: positiveIdOf('登记编号') }), body: addressChangeCloseBody },
    config: { access: 'dodifyDeviceIP_n:control', operation: '确认或撤销修改设备地址' },
  }, async (req) => ok(await deps.addresses.close(actorOf(req), req.params.id, req.body), req.body.status === 'confirmed' ? '已确认' : '已撤销'));

  /* ---------- mqttSetting_n ---------- */

  r.get('/api/v1/device/mqtt/setting', {
    schema: { tags, summary: '项目的 MQTT 接入设置（设备连接的地址、端口、主题）', querystring: mqttSettingQuery },
    config: { access: 'mqttSetting_n' },
  }, async (req) => ok(await deps.mqttSettings.view(actorOf(req).scope, req.query.projectId)));

  r.post('/api/v1/device/mqtt/setting', {
    schema: { tags, summary: '保存项目的 MQTT 接入地址', body: mqttSettingBody },
    config: { access: 'mqttSetting_n:btn_edit', operation: '保存 MQTT 设置' },
  }, async (req) => ok(await deps.mqttSettings.save(actorOf(req), req.body), '保存成功'));

  r.post('/api/v1/device/mqtt/credentials/:id', {
    schema: { tags, summary: '重新生成设备接入密钥（只显示这一次，旧密钥立即失效，在线设备被断开）', params: deviceIdParam },
    config: { access: 'mqttSetting_n:btn_edit', operation: '重新生成设备密钥' },
  }, async (req) => ok(await deps.devices.reissueCredentials(actorOf(req), req.params.id), '已生成新密钥，请立即保存'));

  /* ---------- QR code label ---------- */

  r.get('/api/v1/device/qrcode/:id', {
    schema: { tags, summary: '设备二维码标签（SVG：设备编号的二维码，下方印编号与名称）', params: deviceIdParam },
    config: { access: 'login' },
  }, async (req, reply) => {
    const d = await deps.admin.device(actorOf(req).scope, req.params.id);
    return asDownload(reply, `设备二维码-${d.device_code}.svg`, 'image/svg+xml; charset=utf-8').send(deviceLabelSvg(d.device_code, d.device_name));
  });
}
