import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BILL_PAY_METHODS, BILL_STATUS, ResultCode, billIssueBody, billPayBody, billQuery, billingRunQuery, chargeDataBody, fenToYuan, lineQuery, positiveIdOf, quoteBody,
  runBody, supplyQuery, type BillLineRow, type ExpenseBillRow,
} from '@kelvin/contracts';
import { AppError, ok } from '../../lib/errors.ts';
import { cstTime, streamXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import { idempotencyHeader, idempotencyKeyOf } from '../accounts/index.ts';
import { allPages } from '../imports/index.ts';
import { FormulaError, quote } from './formulas.ts';
import type { BillingService } from './service.ts';

const idParam = z.object({ id: positiveIdOf('编号') });
const tags = ['计费引擎'];
/** screens that read runs and lines */
const READERS = ['equipmentBilling_n', 'equipmentCostShare_n', 'ag2410chargedata', 'expensebill', 'jffa2020x1'] as const;

/** The quote calculator, charge runs, lines, per-device charge data, expense bills and supply actions. */
export async function billingRoutes(app: FastifyInstance, opts: { service: BillingService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;

  r.post('/api/v1/billing/quote', {
    schema: { tags, summary: '计费试算（ladder 阶梯 | timeEquivalent 时间当量 | heatTwoPart 两部制 | share 分摊 | onOffTimeArea 通断时间面积法）', body: quoteBody },
    config: { access: 'login', operation: false },
  }, async (req) => {
    try {
      return ok(quote(req.body));
    } catch (err) {
      if (err instanceof FormulaError) throw new AppError(ResultCode.VALIDATION, err.message);
      throw err;
    }
  });

  r.post('/api/v1/billing/run', {
    schema: { tags, summary: '立即计费：把项目计费到截止时间（同一周期重复调用不会重复扣费）', body: runBody },
    config: { access: 'equipmentBilling_n:btn_add', operation: '执行计费' },
  }, async (req) => ok(await service.run(actorOf(req), req.body.projectId, req.body.until), '计费完成'));

  r.get('/api/v1/billing/runs', {
    schema: { tags, summary: '计费批次', querystring: billingRunQuery },
    config: { access: READERS },
  }, async (req) => ok(await service.runs(actorOf(req), req.query)));

  r.get('/api/v1/billing/runs/:id', {
    schema: { tags, summary: '一个计费批次（含缺数说明）', params: idParam },
    config: { access: READERS },
  }, async (req) => ok(await service.runDetail(actorOf(req), req.params.id)));

  r.get('/api/v1/billing/lines', {
    schema: { tags, summary: '计费明细（每条附起止读数）', querystring: lineQuery },
    config: { access: READERS },
  }, async (req) => ok(await service.lines(actorOf(req), req.query)));

  r.get('/api/v1/billing/lines/export', {
    schema: { tags, summary: '导出计费明细（同列表筛选）', querystring: lineQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: ['equipmentBilling_n:export', 'equipmentCostShare_n:export', 'ag2410chargedata:export', 'expensebill:export'] },
  }, async (req, reply) => streamXlsx<BillLineRow>(reply, '计费明细.xlsx', '计费明细', [
    { header: '批次', width: 8, value: (l) => l.runId },
    { header: '账户', width: 14, value: (l) => l.accountName },
    { header: '设备', width: 18, value: (l) => l.deviceName },
    { header: '项目', width: 30, value: (l) => l.label },
    { header: '用量', width: 12, value: (l) => l.quantity },
    { header: '单位', width: 6, value: (l) => l.unit },
    { header: '单价（元）', width: 10, value: (l) => l.unitPrice },
    { header: '金额（元）', width: 12, value: (l) => fenToYuan(l.amountFen) },
    { header: '起始读数', width: 24, value: (l) => l.readings.map((x) => `${x.fieldCode}=${x.startValue ?? '—'}`).join('，') },
    { header: '结束读数', width: 24, value: (l) => l.readings.map((x) => `${x.fieldCode}=${x.endValue ?? '—'}`).join('，') },
    { header: '周期开始', width: 20, value: (l) => cstTime(l.periodFrom) },
    { header: '周期结束', width: 20, value: (l) => cstTime(l.periodUntil) },
  ], service.lineRows(actorOf(req), req.query)));

  r.post('/api/v1/device/calcdevicechargedatasummary', {
    schema: { tags, summary: '设备计费汇总（时间范围内每台设备的用量与金额）', body: chargeDataBody },
    config: { access: ['equipmentBilling_n', 'ag2410chargedata', 'jffa2020x1'], operation: false },
  }, async (req) => ok(await service.chargeSummary(actorOf(req), req.body)));

  r.post('/api/v1/device/calcdevicechargedatadetail', {
    schema: { tags, summary: '设备计费明细（含起止读数）', body: chargeDataBody },
    config: { access: ['equipmentBilling_n', 'ag2410chargedata', 'jffa2020x1'], operation: false },
  }, async (req) => ok(await service.chargeDetail(actorOf(req), req.body)));

  r.get('/api/v1/billing/bills', {
    schema: { tags, summary: '费用账单（后付费）', querystring: billQuery },
    config: { access: 'expensebill' },
  }, async (req) => ok(await service.bills(actorOf(req), req.query)));

  r.get('/api/v1/billing/bills/export', {
    schema: { tags, summary: '导出费用账单', querystring: billQuery.omit({ pageNo: true, pageSize: true }) },
    config: { access: 'expensebill:export' },
  }, async (req, reply) => streamXlsx<ExpenseBillRow>(reply, '费用账单.xlsx', '费用账单', [
    { header: '账期', width: 10, value: (b) => b.period },
    { header: '账户', width: 14, value: (b) => b.accountName },
    { header: '电话', width: 14, value: (b) => b.phone },
    { header: '金额（元）', width: 12, value: (b) => fenToYuan(b.amountFen) },
    { header: '明细数', width: 8, value: (b) => b.lines },
    { header: '状态', width: 10, value: (b) => BILL_STATUS[b.status] },
    { header: '出账时间', width: 20, value: (b) => cstTime(b.issuedAt) },
    { header: '缴费期限', width: 20, value: (b) => cstTime(b.dueAt) },
    { header: '缴费时间', width: 20, value: (b) => (b.paidAt ? cstTime(b.paidAt) : null) },
    { header: '缴费方式', width: 10, value: (b) => (b.payMethod ? BILL_PAY_METHODS[b.payMethod as keyof typeof BILL_PAY_METHODS] : null) },
  ], allPages((pageNo, pageSize) => service.bills(actorOf(req), { ...req.query, pageNo, pageSize }))));

  r.post('/api/v1/billing/bills/issue', {
    schema: { tags, summary: '出账：为一个账期的所有账户出具账单（先计费到账期结束）', body: billIssueBody },
    config: { access: 'expensebill:btn_add', operation: '出具账单' },
  }, async (req) => ok(await service.issue(actorOf(req), req.body.projectId, req.body.period), '出账完成'));

  r.post('/api/v1/billing/bills/:id/pay', {
    schema: { tags, summary: '缴费（余额抵扣时从预付余额扣除；请求头 Idempotency-Key）', params: idParam, headers: idempotencyHeader, body: billPayBody },
    config: { access: 'expensebill:btn_edit', operation: '账单缴费' },
  }, async (req) => ok(await service.pay(actorOf(req), req.params.id, req.body, idempotencyKeyOf(req)), '缴费成功'));

  r.get('/api/v1/billing/supply', {
    schema: { tags, summary: '供能控制记录（欠费断开、充值恢复）', querystring: supplyQuery },
    config: { access: ['equipmentBilling_n', 'userRegister_n'] },
  }, async (req) => ok(await service.supply(actorOf(req), req.query)));

  r.post('/api/v1/billing/supply/:id/retry', {
    schema: { tags, summary: '重试未执行的供能操作', params: idParam },
    config: { access: 'equipmentBilling_n:btn_edit', operation: '重试供能操作' },
  }, async (req) => ok(await service.retrySupply(actorOf(req), req.params.id), '已重新下发'));
}
