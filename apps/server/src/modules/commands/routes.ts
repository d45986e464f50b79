import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_ACTION_LABELS, DEVICE_TYPE_BY_CODE, ResultCode, commandIdParam, commandTtlQuery, deviceIdParam, operationLogQuery, operationQuery,
  validateFieldWrite, type OperationLogRow, decimal,
} from '@kelvin/contracts';
import { AppError, invalid, notFound, ok } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { scopeOf } from '../../lib/scope.ts';
import type { AuthUser } from '../../types.ts';
import type { DeviceService } from '../devices/service.ts';
import { toCommandView, type CommandService } from './service.ts';

const writeParams = z.object({
  deviceId: decimal(z.number({ error: '设备编号必须是数字' }).int('设备编号必须是整数').positive('设备编号必须大于 0')),
  fieldCode: z.string().regex(/^[A-Za-z0-9_]{1,16}$/, '字段代码格式不正确'),
  value: z.string().max(64, '值最多 64 个字符'),
});

export async function commandRoutes(app: FastifyInstance, opts: { devices: DeviceService; commands: CommandService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { devices, commands } = opts;
  const tags = ['设备控制'];
  const ctx = async (req: { user: AuthUser | null }) => ({ user: req.user!, scope: await scopeOf(app.db, req.user!) });
  const actor = (user: AuthUser) => ({ userId: user.id, username: user.username });

  r.post('/api/v1/device/writedeviceattr/:deviceId/:fieldCode/:value', {
    schema: { tags, summary: '写设备字段（按注册表校验范围；设备离线时等待其上线，直到有效期）', params: writeParams, querystring: commandTtlQuery },
    config: { access: 'login', operation: '写设备参数' },
  }, async (req) => {
    const { user, scope } = await ctx(req);
    const device = await devices.device(user, scope, req.params.deviceId, 'control');
    const check = validateFieldWrite(device.device_type, req.params.fieldCode, req.params.value);
    if (!check.ok) throw invalid(check.message, ['value']);
    if (!device.enabled) throw invalid('设备已停用，不能下发指令', ['deviceId']);
    const cmd = await commands.create(await devices.target(device), { fieldCode: check.field.code, value: check.value }, actor(user), req.query.ttl);
    return ok({ commandId: cmd.id, status: cmd.status, command: cmd }, cmd.status === 'sent' ? '指令已下发' : '设备当前不在线，指令将在设备上线后下发');
  });

  r.get('/api/v1/device/command/:commandId', {
    schema: { tags, summary: '指令状态（pending → sent → acked | rejected | expired）', params: commandIdParam },
    config: { access: 'login' },
  }, async (req) => {
    const { user, scope } = await ctx(req);
    const row = await app.db.selectFrom('device_command').selectAll().where('id', '=', req.params.commandId).executeTakeFirst();
    if (!row) throw notFound('指令');
    const device = await devices.device(user, scope, row.device_id).catch(() => {
      throw notFound('指令');
    });
    return ok(toCommandView(row, { deviceType: device.device_type, deviceCode: device.device_code }));
  });

  const operate = async (req: { user: AuthUser | null }, id: number, action: keyof typeof DEVICE_ACTION_LABELS, ttl?: number) => {
    const { user, scope } = await ctx(req);
    const device = await devices.device(user, scope, id, 'control');
    const def = DEVICE_TYPE_BY_CODE.get(device.device_type)!;
    if (!def.actions.includes(action)) throw invalid(`${def.name}不支持「${DEVICE_ACTION_LABELS[action]}」`, ['eventType']);
    if (!device.enabled) throw invalid('设备已停用，不能下发指令', ['id']);
    const cmd = await commands.create(await devices.target(device), { action }, actor(user), ttl);
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
    const { user, scope } = await ctx(req);
    const q = req.query;
    // the log screen sees the whole log; a device page sees its own device's
    if (q.deviceId !== undefined) await devices.device(user, scope, q.deviceId);
    else if (!user.codes.has('deviceoperationlog')) throw new AppError(ResultCode.NO_PERMISSION, '权限不足，无法执行该操作');
    let query = app.db.selectFrom('device_operation_log');
    if (!scope.isPlatform) query = query.where('tenant_id', '=', scope.tenantId);
    if (scope.projectIds) query = query.where('project_id', 'in', scope.projectIds.size ? [...scope.projectIds] : [-1]);
    if (q.projectId !== undefined) query = query.where('project_id', '=', q.projectId);
    if (q.deviceId !== undefined) query = query.where('device_id', '=', q.deviceId);
    if (q.from !== undefined) query = query.where('at', '>=', q.from);
    if (q.to !== undefined) query = query.where('at', '<', q.to);
    const page = await paginate(query.selectAll(), q, (b) => b.orderBy('id', 'desc'));
    const rows: OperationLogRow[] = page.rows.map((l) => ({
      id: l.id, at: l.at, deviceId: l.device_id, deviceCode: l.device_code, deviceName: l.device_name, deviceType: l.device_type,
      projectId: l.project_id, commandId: l.command_id, operation: l.operation, detail: l.detail, result: l.result, username: l.username,
    }));
    return ok({ total: page.total, rows });
  });
}
