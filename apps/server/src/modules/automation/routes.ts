import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  RUN_STATUS, ResultCode, TASK_KINDS, TASK_KIND_MENUS, enableBody, idsBody, overtimePoolBody, overtimeQuery, positiveIdOf, programQuery, programSchemeBody, retryBody, runQuery, taskBody,
  taskQuery, weekProgramBody, type OvertimePoolRow, type TaskRow, type WeekProgramRow,
} from '@kelvin/contracts';
import { AppError, ok } from '../../lib/errors.ts';
import { cstTime, streamXlsx } from '../../lib/excel.ts';
import { allPages } from '../imports/index.ts';
import { actorOf } from '../../plugins/access.ts';
import type { AutomationService } from './service.ts';

const idParam = z.object({ id: positiveIdOf('编号') });
const runParam = z.object({ runId: positiveIdOf('执行记录编号') });

/**
 * Automation (spec §2.5 /device task menus, deviceprogram, overtimePool_n; /businessSys thermostatprogram,
 * programscheme; §7.3 weekprogram/*). Task routes are 'login' and check the codes of the task's kind in the service
 * (a periodic task needs scheduledTask's codes, a strategy task strategicsTask's, …).
 */
export async function automationRoutes(app: FastifyInstance, opts: { automation: AutomationService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { automation } = opts;

  // ── tasks
  let tags = ['定时与策略任务'];
  r.get('/api/v1/task', {
    schema: { tags, summary: '任务列表（kind: once 定时 | periodic 周期 | holiday 节假日 | strategy 策略 | memory 记忆周期；只列出有权查看的类型）', querystring: taskQuery },
    config: { access: 'login' },
  }, async (req) => ok(await automation.tasks(actorOf(req), req.query)));

  r.get('/api/v1/task/export', {
    schema: { tags, summary: '导出一类任务（Excel，同列表筛选；需要该类任务页面的导出权限）', querystring: taskQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: 'login' },
  }, async (req, reply) => {
    const actor = actorOf(req);
    const kind = req.query.kind;
    if (!kind) throw new AppError(ResultCode.VALIDATION, '请选择要导出的任务类型');
    if (!actor.user.codes.has(`${TASK_KIND_MENUS[kind]}:export`)) throw new AppError(ResultCode.NO_PERMISSION, '权限不足，无法执行该操作');
    const rows = allPages((pageNo, pageSize) => automation.tasks(actor, { ...req.query, kind, pageNo, pageSize }));
    return streamXlsx<TaskRow>(reply, `${TASK_KINDS[kind]}.xlsx`, TASK_KINDS[kind], [
      { header: '任务名称', width: 24, value: (t) => t.name },
      { header: '规则', width: 36, value: (t) => t.description },
      { header: '设备数', width: 8, value: (t) => t.deviceCount },
      { header: '写入', width: 30, value: (t) => t.writes.map((w) => `${w.fieldCode}=${w.value}`).join('，') },
      { header: '启用', width: 8, value: (t) => (t.enabled ? '是' : '否') },
      { header: '下次执行', width: 20, value: (t) => (t.nextRunAt ? cstTime(t.nextRunAt) : null) },
      { header: '上次执行', width: 20, value: (t) => (t.lastRunAt ? cstTime(t.lastRunAt) : null) },
      { header: '上次结果', width: 12, value: (t) => (t.lastRunStatus ? RUN_STATUS[t.lastRunStatus] : null) },
      { header: '备注', width: 24, value: (t) => t.remark },
      { header: '修改人', width: 12, value: (t) => t.updatedBy },
      { header: '修改时间', width: 20, value: (t) => cstTime(t.updatedAt) },
    ], rows);
  });

  r.get('/api/v1/task/:id', {
    schema: { tags, summary: '一个任务', params: idParam },
    config: { access: 'login' },
  }, async (req) => ok(await automation.task(actorOf(req), req.params.id)));

  r.post('/api/v1/task', {
    schema: { tags, summary: '新建任务（写入的字段按设备类型校验；需要该类型菜单的新增权限）', body: taskBody },
    config: { access: 'login', operation: '新建任务' },
  }, async (req) => ok(await automation.createTask(actorOf(req), req.body), '新建成功'));

  r.put('/api/v1/task/:id', {
    schema: { tags, summary: '修改任务（类型不可改；已过去的时间不会补执行）', params: idParam, body: taskBody },
    config: { access: 'login', operation: '修改任务' },
  }, async (req) => ok(await automation.updateTask(actorOf(req), req.params.id, req.body), '修改成功'));

  r.post('/api/v1/task/delete', {
    schema: { tags, summary: '删除任务（执行记录保留）', body: idsBody },
    config: { access: 'login', operation: '删除任务' },
  }, async (req) => ok(await automation.removeTasks(actorOf(req), req.body.ids), '删除成功'));

  r.post('/api/v1/task/:id/enable', {
    schema: { tags, summary: '启用或停用任务（停用期间的时间点不补执行）', params: idParam, body: enableBody },
    config: { access: 'login', operation: '启用/停用任务' },
  }, async (req) => ok(await automation.enableTask(actorOf(req), req.params.id, req.body.enabled), req.body.enabled ? '已启用' : '已停用'));

  r.post('/api/v1/task/:id/execute', {
    schema: { tags, summary: '立即执行任务一次', params: idParam },
    config: { access: 'login', operation: '立即执行任务' },
  }, async (req) => ok(await automation.executeTask(actorOf(req), req.params.id), '已下发'));

  r.get('/api/v1/task/:id/runs', {
    schema: { tags, summary: '任务执行记录：每次执行的时间、设备、指令与结果（成功、设备拒绝、超时未响应）', params: idParam, querystring: runQuery },
    config: { access: 'login' },
  }, async (req) => ok(await automation.taskRuns(actorOf(req), req.params.id, req.query)));

  r.post('/api/v1/task/run/:runId/retry', {
    schema: { tags, summary: '重试一次执行中失败的设备（只发给失败的设备）', params: runParam, body: retryBody },
    config: { access: 'login', operation: '重试任务失败设备' },
  }, async (req) => ok(await automation.retry(actorOf(req), req.params.runId, 'task', req.body.deviceIds), '已重试'));

  // ── week programs
  tags = ['周程序'];
  r.get('/api/v1/weekprogram', {
    schema: { tags, summary: '周程序列表', querystring: programQuery },
    config: { access: ['thermostatprogram', 'deviceprogram'] },
  }, async (req) => ok(await automation.programs(actorOf(req).scope, req.query)));

  r.get('/api/v1/weekprogram/export', {
    schema: { tags, summary: '导出周程序（Excel，同列表筛选）', querystring: programQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: ['thermostatprogram:export', 'deviceprogram:export'] },
  }, async (req, reply) => {
    const s = actorOf(req).scope;
    const rows = allPages((pageNo, pageSize) => automation.programs(s, { ...req.query, pageNo, pageSize }));
    return streamXlsx<WeekProgramRow>(reply, '周程序.xlsx', '周程序', [
      { header: '程序名称', width: 24, value: (p) => p.name },
      { header: '设备类型', width: 18, value: (p) => p.typeName },
      { header: '每周时段', width: 60, value: (p) => p.description.join('\n') },
      { header: '节假日', width: 18, value: (p) => p.holidayRuleLabel },
      { header: '设备数', width: 8, value: (p) => p.deviceCount },
      { header: '执行方式', width: 12, value: (p) => (p.memory ? '下发到设备内存' : '服务器按时执行') },
      { header: '启用', width: 8, value: (p) => (p.enabled ? '是' : '否') },
      { header: '下次执行', width: 20, value: (p) => (p.nextRunAt ? cstTime(p.nextRunAt) : null) },
      { header: '修改人', width: 12, value: (p) => p.updatedBy },
      { header: '修改时间', width: 20, value: (p) => cstTime(p.updatedAt) },
    ], rows);
  });

  for (const url of ['/api/v1/weekprogram/', '/api/v1/weekprogram']) {
    r.post(url, {
      schema: { tags, summary: '新建周程序（每天的时段与写入字段；设备在内存中保存程序的类型随即下发）', body: weekProgramBody },
      config: { access: ['thermostatprogram:btn_add', 'deviceprogram:btn_add'], operation: '新建周程序' },
    }, async (req) => ok(await automation.createProgram(actorOf(req), req.body), '新建成功'));
  }

  r.get('/api/v1/weekprogram/:id', {
    schema: { tags, summary: '一个周程序', params: idParam },
    config: { access: ['thermostatprogram', 'deviceprogram'] },
  }, async (req) => ok(await automation.program(actorOf(req).scope, req.params.id)));

  r.put('/api/v1/weekprogram/:id', {
    schema: { tags, summary: '修改周程序', params: idParam, body: weekProgramBody },
    config: { access: ['thermostatprogram:btn_edit', 'deviceprogram:btn_edit'], operation: '修改周程序' },
  }, async (req) => ok(await automation.updateProgram(actorOf(req), req.params.id, req.body), '修改成功'));

  r.post('/api/v1/weekprogram/delete', {
    schema: { tags, summary: '删除周程序', body: idsBody },
    config: { access: ['thermostatprogram:btn_del', 'deviceprogram:btn_del'], operation: '删除周程序' },
  }, async (req) => ok(await automation.removePrograms(actorOf(req), req.body.ids), '删除成功'));

  r.post('/api/v1/weekprogram/executetask/:id', {
    schema: { tags, summary: '立即执行周程序（当前时段的设置；设备内存程序的类型重新下发程序）', params: idParam },
    config: { access: ['thermostatprogram:btn_edit', 'deviceprogram:btn_edit'], operation: '立即执行周程序' },
  }, async (req) => ok(await automation.executeProgram(actorOf(req), req.params.id), '已下发'));

  r.get('/api/v1/weekprogram/listbyarea/:id', {
    schema: { tags, summary: '区域（及其下级）设备所用的周程序', params: idParam },
    config: { access: ['thermostatprogram', 'deviceprogram'] },
  }, async (req) => ok(await automation.programsByArea(actorOf(req).scope, req.params.id)));

  r.get('/api/v1/weekprogram/listbydevice/:id', {
    schema: { tags, summary: '设备所用的周程序', params: idParam },
    config: { access: ['thermostatprogram', 'deviceprogram'] },
  }, async (req) => ok(await automation.programsByDevice(actorOf(req).scope, req.params.id)));

  r.get('/api/v1/weekprogram/:id/runs', {
    schema: { tags, summary: '周程序执行记录', params: idParam, querystring: runQuery },
    config: { access: ['thermostatprogram', 'deviceprogram'] },
  }, async (req) => ok(await automation.programRuns(actorOf(req).scope, req.params.id, req.query)));

  r.post('/api/v1/weekprogram/run/:runId/retry', {
    schema: { tags, summary: '重试周程序一次执行中失败的设备', params: runParam, body: retryBody },
    config: { access: ['thermostatprogram:btn_edit', 'deviceprogram:btn_edit'], operation: '重试周程序失败设备' },
  }, async (req) => ok(await automation.retry(actorOf(req), req.params.runId, 'program', req.body.deviceIds), '已重试'));

  // ── program schemes
  tags = ['编程方案'];
  r.get('/api/v1/programscheme', {
    schema: { tags, summary: '编程方案（可复用的周程序模板）', querystring: programQuery },
    config: { access: 'programscheme' },
  }, async (req) => ok(await automation.schemes(actorOf(req).scope, req.query)));

  r.post('/api/v1/programscheme', {
    schema: { tags, summary: '新建编程方案', body: programSchemeBody },
    config: { access: 'programscheme:btn_add', operation: '新建编程方案' },
  }, async (req) => ok(await automation.createScheme(actorOf(req), req.body), '新建成功'));

  r.put('/api/v1/programscheme/:id', {
    schema: { tags, summary: '修改编程方案（已由它生成的周程序不变）', params: idParam, body: programSchemeBody },
    config: { access: 'programscheme:btn_edit', operation: '修改编程方案' },
  }, async (req) => ok(await automation.updateScheme(actorOf(req), req.params.id, req.body), '修改成功'));

  r.post('/api/v1/programscheme/delete', {
    schema: { tags, summary: '删除编程方案', body: idsBody },
    config: { access: 'programscheme:btn_del', operation: '删除编程方案' },
  }, async (req) => ok(await automation.removeSchemes(actorOf(req), req.body.ids), '删除成功'));

  // ── overtime pool
  tags = ['超时池'];
  r.get('/api/v1/overtimepool', {
    schema: { tags, summary: '超时池：房间每月批准的加班时长、标准时间外已用与剩余（小时）', querystring: overtimeQuery },
    config: { access: 'overtimePool_n' },
  }, async (req) => ok(await automation.overtime(actorOf(req).scope, req.query)));

  r.get('/api/v1/overtimepool/export', {
    schema: { tags, summary: '导出超时池（Excel，同列表筛选）', querystring: overtimeQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: 'overtimePool_n:export' },
  }, async (req, reply) => {
    const s = actorOf(req).scope;
    const rows = allPages((pageNo, pageSize) => automation.overtime(s, { ...req.query, pageNo, pageSize }));
    return streamXlsx<OvertimePoolRow>(reply, '超时池.xlsx', '超时池', [
      { header: '月份', width: 10, value: (o) => o.month },
      { header: '房间', width: 24, value: (o) => o.areaName },
      { header: '账户', width: 16, value: (o) => o.accountName },
      { header: '标准时间依据', width: 24, value: (o) => o.programName },
      { header: '每周标准时长（小时）', width: 14, value: (o) => o.standardHoursPerWeek },
      { header: '批准时长（小时）', width: 14, value: (o) => o.approvedHours },
      { header: '已用（小时）', width: 12, value: (o) => o.usedHours },
      { header: '剩余（小时）', width: 12, value: (o) => o.leftHours },
    ], rows);
  });

  r.post('/api/v1/overtimepool', {
    schema: { tags, summary: '新建超时池（房间、月份、标准时间所依据的周程序、批准时长）', body: overtimePoolBody },
    config: { access: 'overtimePool_n:btn_edit', operation: '新建超时池' },
  }, async (req) => ok(await automation.saveOvertime(actorOf(req), null, req.body), '新建成功'));

  r.put('/api/v1/overtimepool/:id', {
    schema: { tags, summary: '修改超时池', params: idParam, body: overtimePoolBody },
    config: { access: 'overtimePool_n:btn_edit', operation: '修改超时池' },
  }, async (req) => ok(await automation.saveOvertime(actorOf(req), req.params.id, req.body), '修改成功'));

  r.post('/api/v1/overtimepool/delete', {
    schema: { tags, summary: '删除超时池', body: idsBody },
    config: { access: 'overtimePool_n:btn_edit', operation: '删除超时池' },
  }, async (req) => ok(await automation.removeOvertime(actorOf(req), req.body.ids), '删除成功'));
}
