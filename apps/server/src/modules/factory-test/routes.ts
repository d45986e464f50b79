import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FACTORY_VIEW_CODES, ResultCode, factoryDeviceQuery, factoryRunBody, factoryRunQuery, positiveIdOf } from '@kelvin/contracts';
import { AppError, ok } from '../../lib/errors.ts';
import { cstTime, streamXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { FactoryTestService } from './service.ts';

const runIdParam = z.object({ id: positiveIdOf('测试记录编号') });

/** The factory bench under /api/v1/device/factorytest/ (test-equipment pages, PT5000). */
export async function factoryTestRoutes(app: FastifyInstance, opts: { factory: FactoryTestService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { factory } = opts;
  const tags = ['出厂测试'];
  /** Records are read from any test-equipment screen; each bench's run needs that bench's control element (checked in the service). */
  const viewer = async (req: FastifyRequest) => {
    if (!FACTORY_VIEW_CODES.some((c) => req.user!.codes.has(c))) throw new AppError(ResultCode.NO_PERMISSION, '权限不足，无法执行该操作');
    return actorOf(req).scope;
  };
  app.addHook('onClose', () => factory.close());

  r.post('/api/v1/device/factorytest/run', {
    schema: { tags, summary: '在测试台上测试设备：每台设备按脚本逐步下发指令并记录每步结果（需该测试台的控制权限）', body: factoryRunBody },
    config: { access: 'login', operation: '出厂测试' },
  }, async (req) => ok(await factory.start(actorOf(req), req.body), '测试已开始'));

  r.post('/api/v1/device/factorytest/runs/:id/stop', {
    schema: { tags, summary: '停止进行中的测试（未执行的步骤记为未执行）', params: runIdParam },
    config: { access: 'login', operation: '停止出厂测试' },
  }, async (req) => ok(await factory.stop(actorOf(req), req.params.id), '已停止'));

  r.get('/api/v1/device/factorytest/runs', {
    schema: { tags, summary: '测试记录（分页）', querystring: factoryRunQuery },
    config: { access: 'login' },
  }, async (req) => ok(await factory.runs(await viewer(req), req.query)));

  r.get('/api/v1/device/factorytest/runs/:id', {
    schema: { tags, summary: '一次测试及其每一步的结果', params: runIdParam },
    config: { access: 'login' },
  }, async (req) => ok(await factory.run(await viewer(req), req.params.id)));

  r.get('/api/v1/device/factorytest/devices', {
    schema: { tags, summary: '测试设备状态：项目的设备（可按测试台筛选类型）及最近一次测试', querystring: factoryDeviceQuery },
    config: { access: 'login' },
  }, async (req) => ok(await factory.devices(await viewer(req), req.query)));

  r.get('/api/v1/device/factorytest/export', {
    schema: { tags, summary: '导出测试记录（每次测试一行，含失败步骤）', querystring: factoryRunQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: 'equipmentRecords_n:export' },
  }, async (req, reply) => {
    const scope = actorOf(req).scope;
    const rows = await factory.allRuns(scope, req.query);
    return streamXlsx(reply, '出厂测试记录.xlsx', '测试记录', [
      { header: '开始时间', width: 20, value: (x) => cstTime(x.startedAt) },
      { header: '测试台', width: 18, value: (x) => x.benchTitle },
      { header: '设备编号', width: 22, value: (x) => x.deviceCode },
      { header: '设备名称', width: 24, value: (x) => x.deviceName },
      { header: '设备类型', width: 18, value: (x) => x.typeName },
      { header: '结果', value: (x) => x.statusLabel },
      { header: '通过步数', value: (x) => x.passed },
      { header: '总步数', value: (x) => x.stepCount },
      { header: '失败项', width: 60, value: (x) => x.steps?.filter((s) => s.status === 'failed').map((s) => `${s.label}（${s.message ?? ''}）`).join('；') || null },
      { header: '操作人', value: (x) => x.username },
      { header: '结束时间', width: 20, value: (x) => (x.finishedAt ? cstTime(x.finishedAt) : null) },
    ], rows);
  });
}
