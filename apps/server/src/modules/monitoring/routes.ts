import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alarmAckBody, exceptionHandleBody, exceptionQuery, faultDeviceQuery, monitorMessageQuery, monitorRuleBody, monitorRuleQuery, positiveIdOf, projectIdParam,
  type ExceptionRow, type FaultDeviceRow,
} from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { cstTime, streamXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import { allPages } from '../imports/index.ts';
import type { Exceptions } from './exceptions.ts';
import type { FaultService } from './faults.ts';
import type { MonitoringService } from './service.ts';

const idParam = z.object({ id: positiveIdOf('编号') });

/** Monitoring rules and monitor messages (alarms): spec §7.3 monitormessageqty, monitormessage, closemessage. */
export async function monitoringRoutes(app: FastifyInstance, opts: { monitoring: MonitoringService; exceptions: Exceptions; faults: FaultService; projectName(scope: ReturnType<typeof actorOf>['scope'], id: number): Promise<string> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { monitoring, exceptions, faults } = opts;
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

  // exception data (spec §7.3 exceptiondata, exceptiondevice, exceptiondevicehandle) and the fault list
  const exTags = ['异常数据'];
  r.get('/api/v1/device/exceptiondata', {
    schema: { tags: exTags, summary: '异常数据（读数倒走、跳变过大、数值冻结、超出传感器量程）：类型、处理状态、设备、时间筛选', querystring: exceptionQuery },
    config: { access: 'exceptiondata' },
  }, async (req) => ok(await exceptions.list(actorOf(req).scope, req.query)));

  r.get('/api/v1/device/exceptiondata/export', {
    schema: { tags: exTags, summary: '导出异常数据（同列表筛选）', querystring: exceptionQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: 'exceptiondata:export' },
  }, async (req, reply) => {
    const s = actorOf(req).scope;
    const name = await opts.projectName(s, req.query.projectId);
    const rows = allPages((pageNo, pageSize) => exceptions.list(s, { ...req.query, pageNo, pageSize }));
    return streamXlsx<ExceptionRow>(reply, `${name}-异常数据.xlsx`, '异常数据', [
      { header: '读数时间', width: 20, value: (x) => cstTime(x.readingAt) },
      { header: '设备编号', width: 22, value: (x) => x.deviceCode },
      { header: '设备名称', width: 22, value: (x) => x.deviceName },
      { header: '设备类型', width: 18, value: (x) => x.typeName },
      { header: '字段', width: 14, value: (x) => x.fieldLabel },
      { header: '异常类型', width: 14, value: (x) => x.kindLabel },
      { header: '读数', width: 16, value: (x) => x.value },
      { header: '前一读数', width: 16, value: (x) => x.previous },
      { header: '说明', width: 40, value: (x) => x.description },
      { header: '处理状态', width: 10, value: (x) => (x.handled ? '已处理' : '未处理') },
      { header: '处理人', width: 12, value: (x) => x.handledBy },
      { header: '处理时间', width: 20, value: (x) => (x.handledAt ? cstTime(x.handledAt) : null) },
      { header: '处理说明', width: 30, value: (x) => x.note },
    ], rows);
  });

  r.get('/api/v1/device/exceptiondata/:id', {
    schema: { tags: exTags, summary: '一条异常数据', params: idParam },
    config: { access: 'exceptiondata' },
  }, async (req) => ok(await exceptions.one(actorOf(req).scope, req.params.id)));

  r.get('/api/v1/device/exceptiondevice', {
    schema: { tags: exTags, summary: '有未处理异常数据的设备（条数、异常类型、最近读数时间）', querystring: z.object({ projectId: positiveIdOf('项目编号') }) },
    config: { access: 'exceptiondata' },
  }, async (req) => ok(await exceptions.devices(actorOf(req).scope, req.query.projectId)));

  r.post('/api/v1/device/exceptiondevicehandle', {
    schema: { tags: exTags, summary: '处理异常数据（记录处理人、时间与说明；已处理的保持不变）', body: exceptionHandleBody },
    config: { access: 'exceptiondata:btn_edit', operation: '处理异常数据' },
  }, async (req) => ok(await exceptions.handle(actorOf(req), req.body.ids, req.body.note), '已处理'));

  r.get('/api/v1/device/faultdevice', {
    schema: { tags: exTags, summary: '故障设备列表：告警中、异常数据未处理或离线的设备（按严重程度排序）', querystring: faultDeviceQuery },
    config: { access: 'projectFaultDeviceList' },
  }, async (req) => ok(await faults.list(actorOf(req).scope, req.query)));

  r.get('/api/v1/device/faultdevice/export', {
    schema: { tags: exTags, summary: '导出故障设备列表（同列表筛选）', querystring: faultDeviceQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: 'projectFaultDeviceList:export' },
  }, async (req, reply) => {
    const s = actorOf(req).scope;
    const name = await opts.projectName(s, req.query.projectId);
    const rows = allPages((pageNo, pageSize) => faults.list(s, { ...req.query, pageNo, pageSize }));
    return streamXlsx<FaultDeviceRow>(reply, `${name}-故障设备.xlsx`, '故障设备', [
      { header: '设备编号', width: 22, value: (x) => x.deviceCode },
      { header: '设备名称', width: 22, value: (x) => x.deviceName },
      { header: '设备类型', width: 18, value: (x) => x.typeName },
      { header: '位置', width: 24, value: (x) => x.areaPath },
      { header: '故障', width: 20, value: (x) => x.faults.join('、') },
      { header: '告警中', width: 8, value: (x) => x.activeAlarms },
      { header: '未处理异常', width: 10, value: (x) => x.openExceptions },
      { header: '在线', width: 8, value: (x) => (x.online ? '在线' : '离线') },
      { header: '最后上报', width: 20, value: (x) => (x.lastReportAt ? cstTime(x.lastReportAt) : null) },
    ], rows);
  });

  r.get('/api/v1/device/monitoroverview/:projectId', {
    schema: { tags, summary: '运行监控：设备在线/离线、告警中（按级别）、未读、未处理异常、故障设备数', params: projectIdParam },
    config: { access: 'monitor' },
  }, async (req) => ok(await faults.overview(actorOf(req).scope, req.params.projectId)));
}
