import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_ACTION_LABELS, DEVICE_TYPE_BY_CODE, ResultCode, commandIdParam, commandTtlQuery, deviceIdParam, operationLogExportQuery, operationLogQuery,
  operationQuery, validateFieldWrite, type OperationLogRow, decimal,
} from '@kelvin/contracts';
import { AppError, invalid, notFound, ok } from '../../lib/errors.ts';
import { cstTime, queryByIdDescending, streamXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { AuthUser } from '../../types.ts';
import type { ProjectService } from '../projects/index.ts';
import type { DeviceService } from './service.ts';
import { toCommandView, type CommandService } from './commands.ts';

const writeParams = z.object({
  deviceId: decimal(z.number({ error: '设备编号必须是数字' }).int('设备编号必须是整数').positive('设备编号必须大于 0')),
  fieldCode: z.string().regex(/^[A-Za-z0-9_]{1,16}$/, '字段代码格式不正确'),
  value: z.string().max(64, '值最多 64 个字符'),
});

/** Commands to devices, and the device operation log (list and export), under /api/v1/device/. */
export async function commandRoutes(app: FastifyInstance, opts: { devices: DeviceService; commands: CommandService; projects: ProjectService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { devices, commands } = opts;
  const tags = ['设备控制'];
  const issuer = (user: AuthUser) => ({ userId: user.id, username: user.username });

  r.post('/api/v1/device/writedeviceattr/:deviceId/:fieldCode/:value', {
    schema: { tags, summary: '写设备字段（按注册表校验范围；设备离线时等待其上线，直到有效期）', params: writeParams, querystring: commandTtlQuery },
    config: { access: 'login', operation: '写设备参数' },
  }, async (req) => {
    const { user } = actorOf(req);
    const device = await devices.device(actorOf(req), req.params.deviceId, 'control');
    const check = validateFieldWrite(device.device_type, req.params.fieldCode, req.params.value);
    if (!check.ok) throw invalid(check.message, ['value']);
    if (!device.enabled) throw invalid('设备已停用，不能下发指令', ['deviceId']);
    const cmd = await commands.create(await devices.target(device), { fieldCode: check.field.code, value: check.value }, issuer(user), req.query.ttl);
    return ok({ commandId: cmd.id, status: cmd.status, command: cmd }, cmd.status === 'sent' ? '指令已下发' : '设备当前不在线，指令将在设备上线后下发');
  });

  r.get('/api/v1/device/command/:commandId', {
    schema: { tags, summary: '指令状态（pending → sent → acked | rejected | expired）', params: commandIdParam },
    config: { access: 'login' },
  }, async (req) => {
    const row = await commands.byId(req.params.commandId);
    if (!row) throw notFound('指令');
    // another tenant's command is not found; a device the caller may not view is refused like its other reads
    const device = await devices.device(actorOf(req), row.device_id).catch((err) => {
      throw err instanceof AppError && err.code === ResultCode.NOT_FOUND ? notFound('指令') : err;
    });
    return ok(toCommandView(row, { deviceType: device.device_type, deviceCode: device.device_code }));
  });

  const operate = async (req: FastifyRequest, id: number, action: keyof typeof DEVICE_ACTION_LABELS, ttl?: number) => {
    const { user } = actorOf(req);
    const device = await devices.device(actorOf(req), id, 'control');
    const def = DEVICE_TYPE_BY_CODE.get(device.device_type)!;
    if (!def.actions.includes(action)) throw invalid(`${def.name}不支持「${DEVICE_ACTION_LABELS[action]}」`, ['eventType']);
    if (!device.enabled) throw invalid('设备已停用，不能下发指令', ['id']);
    const cmd = await commands.create(await devices.target(device), { action }, issuer(user), ttl);
    return ok({ commandId: cmd.id, status: cmd.status, command: cmd }, cmd.status === 'sent' ? '指令已下发' : '设备当前不在线，指令将在设备上线后下发');
  };

  r.post('/api/v1/device/refreshdevice/:id', {
    schema: { tags, summary: '请设备立即上报一次数据', params: deviceIdParam, querystring: commandTtlQuery },
    config: { access: 'login', operation: '刷新设备数据' },
  }, async (req) => operate(req, req.params.id, 'refresh', req.query.ttl));

  r.post('/api/v1/device/operation/:id', {
    schema: { tags, summary: '设备操作（eventType: refresh 刷新 | reboot 重启 | syncTime 校时 | resetAlarm 复位报警 | resetCounters 清零）', params: deviceIdParam, querystring: operationQuery },
    config: { access: 'login', operation: '设备操作' },
  }, async (req) => operate(req, req.params.id, req.query.eventType, req.query.ttl));

  r.get('/api/v1/device/operationlog', {
    schema: { tags, summary: '设备操作日志（谁、何时、做了什么、结果；分页）', querystring: operationLogQuery },
    config: { access: 'login' },
  }, async (req) => {
    const actor = actorOf(req);
    const q = req.query;
    // the log screen sees the whole log; a device page sees its own device's
    if (q.deviceId !== undefined) await devices.device(actor, q.deviceId);
    else if (!actor.user.codes.has('deviceoperationlog')) throw new AppError(ResultCode.NO_PERMISSION, '权限不足，无法执行该操作');
    const page = await devices.operationLogPage(actor.scope, q);
    const rows: OperationLogRow[] = page.rows.map((l) => ({
      id: l.id, at: l.at, deviceId: l.device_id, deviceCode: l.device_code, deviceName: l.device_name, deviceType: l.device_type,
      projectId: l.project_id, commandId: l.command_id, operation: l.operation, detail: l.detail, result: l.result, username: l.username,
    }));
    return ok({ total: page.total, rows });
  });

  r.get('/api/v1/device/operationlog/export', {
    schema: { tags: ['设备管理'], summary: '导出设备操作日志（与列表相同的筛选：项目、设备、时间范围；新的在前）', querystring: operationLogExportQuery },
    config: { access: 'deviceoperationlog:export' },
  }, async (req, reply) => {
    const { scope } = actorOf(req);
    const { atFrom, atTo, ...q } = req.query;
    // atFrom/atTo: the names older screens send for from/to
    const filter = { ...q, from: q.from ?? atFrom, to: q.to ?? atTo };
    if (filter.projectId !== undefined) await opts.projects.project(scope, filter.projectId);
    const rows = queryByIdDescending(devices.operationLog(scope, filter));
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
}
