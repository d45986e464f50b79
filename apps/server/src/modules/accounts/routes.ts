import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_KINDS, ACCOUNT_STATUS, REFUND_STATUS, ResultCode, accountCreate, accountGroupBody, accountGroupMembers, accountGroupQuery, accountPhoneUpdate,
  accountQuery, accountUpdate, balanceEventQuery, chargeBody, chargeLogQuery, depositActionParam, depositBody, fenToYuan, groupDeleteBody, idempotencyKey,
  ledgerQuery, moneySettingsBody, orderCreateBody, orderQuery, paymentAccountBody, positiveIdOf, reconcileQuery, refundBody, refundDecision, refundQuery,
  settlementBody, topupBody, type AccountDto, type RefundDto,
  DEPOSIT_DIRECT_CAUSE, depositBatchParam, depositBatchQuery, depositCollectQuery, depositDirectBody, type LedgerEntryDto,
} from '@kelvin/contracts';
import { AppError, ok } from '../../lib/errors.ts';
import { cstTime, streamXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { AccountService } from './service.ts';
import type { AccountImports } from './imports.ts';

const idParam = z.object({ id: positiveIdOf('账户编号') });
const projectParam = z.object({ projectId: positiveIdOf('项目编号') });
/** The Idempotency-Key header of a money move: its schema, and its value once the schema let the request through. */
export const idempotencyHeader = z.object({ 'idempotency-key': idempotencyKey });
export const idempotencyKeyOf = (req: FastifyRequest) => String(req.headers['idempotency-key']).trim();
const tags = ['账户与资金'];
/** the deposit screens' right to every deposit move (collect, deduct, refund) */
const DEPOSIT_MOVERS = ['devicedeposit:deposit', 'depositManage:deposit', 'depositManage_n:deposit'] as const;

/** Accounts, money moves, groups, settlement, payment accounts and orders (issue 11; spec §7.5 second-service calls). */
export async function accountRoutes(app: FastifyInstance, opts: { accounts: AccountService; imports: AccountImports }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts, imports } = opts;

  // ---------------------------------------------------------------- accounts (userRegister_n)
  r.get('/api/v1/account', {
    schema: { tags, summary: '账户列表（手机号、证件号脱敏）', querystring: accountQuery },
    // 分摊组 picks its members from the project's accounts
    config: { access: ['userRegister_n', 'groupexpsshare'] },
  }, async (req) => ok(await accounts.list(actorOf(req), req.query)));

  r.get('/api/v1/account/export', {
    schema: { tags, summary: '导出账户（Excel）', querystring: accountQuery },
    config: { access: 'userRegister_n:export' },
  }, async (req, reply) => streamXlsx<AccountDto>(reply, '用户登记.xlsx', '账户', [
    { header: '编号', width: 8, value: (a) => a.id },
    { header: '项目', value: (a) => a.projectName },
    { header: '户名', value: (a) => a.name },
    { header: '类型', width: 8, value: (a) => ACCOUNT_KINDS[a.kind] },
    { header: '手机号', value: (a) => a.phone },
    { header: '房间', width: 30, value: (a) => a.rooms.map((x) => x.path).join('、') },
    { header: '余额（元）', value: (a) => fenToYuan(a.balanceFen) },
    { header: '押金（元）', value: (a) => fenToYuan(a.depositFen) },
    { header: '状态', width: 8, value: (a) => ACCOUNT_STATUS[a.status] },
    { header: '入住日期', value: (a) => a.moveInDate },
  ], accounts.exportRows(actorOf(req), req.query)));

  r.post('/api/v1/account', {
    schema: { tags, summary: '登记账户（住户或企业，房间、设备、入住日期）', body: accountCreate },
    config: { access: 'userRegister_n:btn_add', operation: '登记账户' },
  }, async (req) => ok(await accounts.create(actorOf(req), req.body), '登记成功'));

  r.get('/api/v1/account/import/template', {
    schema: { tags, summary: '账户导入模板（Excel）' },
    config: { access: 'userRegister_n:btn_add' },
  }, async (_req, reply) => imports.template(reply));

  r.post('/api/v1/account/import', {
    schema: { tags, summary: '从 Excel 导入账户（全部成功或全部不导入）', querystring: z.object({ projectId: positiveIdOf('项目编号') }) },
    config: { access: 'userRegister_n:btn_add', operation: '导入账户' },
  }, async (req) => ok(await imports.run(actorOf(req), req.query.projectId, req), '导入成功'));

  r.get('/api/v1/account/chargelog', {
    schema: { tags, summary: '资金流水（全部账户；充值、扣费、退费、押金、结算）', querystring: chargeLogQuery },
    config: { access: 'userRegister_n' },
  }, async (req) => ok(await accounts.chargeLog(actorOf(req), req.query)));

  r.get('/api/v1/account/entry/:entryId/receipt', {
    schema: { tags, summary: '收据（编号、户名、房间、金额与大写金额、经办人、时间）', params: z.object({ entryId: positiveIdOf('流水编号') }) },
    config: { access: 'userRegister_n' },
  }, async (req) => ok(await accounts.receipt(actorOf(req), req.params.entryId)));

  r.get('/api/v1/account/refund', {
    schema: { tags, summary: '退费记录（startDate、endDate、projectId、userId、phone）', querystring: refundQuery },
    config: { access: 'userRegister_n' },
  }, async (req) => ok(await accounts.refunds(actorOf(req), req.query)));

  r.get('/api/v1/account/refund/export', {
    schema: { tags, summary: '导出退费记录（Excel）', querystring: refundQuery },
    config: { access: 'userRegister_n:export' },
  }, async (req, reply) => streamXlsx<RefundDto>(reply, '退费记录.xlsx', '退费记录', [
    { header: '编号', width: 8, value: (x) => x.id },
    { header: '户名', value: (x) => x.accountName },
    { header: '手机号', value: (x) => x.phone },
    { header: '退费金额（元）', value: (x) => fenToYuan(x.amountFen) },
    { header: '原因', width: 30, value: (x) => x.reason },
    { header: '状态', width: 8, value: (x) => REFUND_STATUS[x.status] },
    { header: '申请人', value: (x) => x.requestedBy },
    { header: '审批人', value: (x) => x.decidedBy },
    { header: '申请时间', width: 20, value: (x) => cstTime(x.createdAt) },
    { header: '审批时间', width: 20, value: (x) => (x.decidedAt ? cstTime(x.decidedAt) : '') },
  ], accounts.refundRows(actorOf(req), req.query)));

  r.post('/api/v1/account/refund/:refundId/approve', {
    schema: { tags, summary: '批准退费（须由申请人以外的用户审批）', params: z.object({ refundId: positiveIdOf('退费编号') }), body: refundDecision },
    config: { access: 'userRegister_n:refund_approve', operation: '批准退费' },
  }, async (req) => ok(await accounts.decideRefund(actorOf(req), req.params.refundId, true, req.body.comment), '已退费'));

  r.post('/api/v1/account/refund/:refundId/reject', {
    schema: { tags, summary: '驳回退费', params: z.object({ refundId: positiveIdOf('退费编号') }), body: refundDecision },
    config: { access: 'userRegister_n:refund_approve', operation: '驳回退费' },
  }, async (req) => ok(await accounts.decideRefund(actorOf(req), req.params.refundId, false, req.body.comment), '已驳回'));

  r.get('/api/v1/account/reconcile', {
    schema: { tags, summary: '核对账目：由流水重算余额与押金并列出不符，核对订单与入账', querystring: reconcileQuery },
    config: { access: 'userRegister_n:reconcile' },
  }, async (req) => ok(await accounts.reconcile(actorOf(req), req.query.projectId)));

  r.get('/api/v1/account/balanceevent', {
    schema: { tags, summary: '余额阈值事件（预警一、预警二、欠费断开、充值恢复）', querystring: balanceEventQuery },
    config: { access: 'userRegister_n' },
  }, async (req) => ok(await accounts.balanceEvents(actorOf(req), req.query)));

  // ---------------------------------------------------------------- per-project limits (userPayFeeUpper)
  r.get('/api/v1/account/settings/:projectId', {
    schema: { tags, summary: '缴费上限与资金设置（单次充值上限、余额上限、退费审批金额、预警与透支）', params: projectParam },
    // 项目参数 shows and edits the balance warnings and overdraft of the same settings
    config: { access: ['userPayFeeUpper', 'projectpara'] },
  }, async (req) => ok(await accounts.settings(actorOf(req), req.params.projectId)));

  r.put('/api/v1/account/settings/:projectId', {
    schema: { tags, summary: '保存缴费上限与资金设置', params: projectParam, body: moneySettingsBody },
    config: { access: ['userPayFeeUpper:btn_edit', 'projectpara:btn_edit'], operation: '保存缴费上限' },
  }, async (req) => ok(await accounts.saveSettings(actorOf(req), req.params.projectId, req.body), '保存成功'));

  // ---------------------------------------------------------------- groups (userGroup, groupmanagers)
  r.get('/api/v1/account/group', {
    schema: { tags, summary: '用户组（成员数、组长、合计余额）', querystring: accountGroupQuery },
    config: { access: ['userGroup', 'groupmanagers'] },
  }, async (req) => ok(await accounts.groups(actorOf(req), req.query)));

  r.post('/api/v1/account/group', {
    schema: { tags, summary: '新建用户组', body: accountGroupBody },
    config: { access: ['userGroup:btn_add', 'groupmanagers:btn_add'], operation: '新建用户组' },
  }, async (req) => ok(await accounts.saveGroup(actorOf(req), null, req.body), '新建成功'));

  r.put('/api/v1/account/group/:id', {
    schema: { tags, summary: '修改用户组（组名、组长）', params: z.object({ id: positiveIdOf('用户组编号') }), body: accountGroupBody },
    config: { access: ['userGroup:btn_edit', 'groupmanagers:btn_edit'], operation: '修改用户组' },
  }, async (req) => ok(await accounts.saveGroup(actorOf(req), req.params.id, req.body), '修改成功'));

  r.put('/api/v1/account/group/:id/members', {
    schema: { tags, summary: '设置用户组成员', params: z.object({ id: positiveIdOf('用户组编号') }), body: accountGroupMembers },
    config: { access: ['userGroup:btn_edit', 'groupmanagers:btn_edit'], operation: '设置用户组成员' },
  }, async (req) => ok(await accounts.setMembers(actorOf(req), req.params.id, req.body.accountIds), '保存成功'));

  r.post('/api/v1/account/group/delete', {
    schema: { tags, summary: '删除用户组（成员保留，移出该组）', body: groupDeleteBody },
    config: { access: ['userGroup:btn_del', 'groupmanagers:btn_del'], operation: '删除用户组' },
  }, async (req) => ok(await accounts.removeGroups(actorOf(req), req.body.ids), '删除成功'));

  // ---------------------------------------------------------------- one account
  r.get('/api/v1/account/:id', {
    schema: { tags, summary: '一个账户（余额 balanceFen、押金 depositFen、状态）', params: idParam },
    config: { access: 'userRegister_n' },
  }, async (req) => ok(await accounts.get(actorOf(req), req.params.id)));

  r.put('/api/v1/account/:id', {
    schema: { tags, summary: '修改账户（房间、设备给出时整体替换）', params: idParam, body: accountUpdate },
    config: { access: 'userRegister_n:btn_edit', operation: '修改账户' },
  }, async (req) => ok(await accounts.update(actorOf(req), req.params.id, req.body), '修改成功'));

  r.put('/api/v1/account/:id/phone', {
    schema: { tags, summary: '修改账户手机号', params: idParam, body: accountPhoneUpdate },
    config: { access: 'userRegister_n:btn_edit', operation: '修改账户手机号' },
  }, async (req) => ok(await accounts.updatePhone(actorOf(req), req.params.id, req.body.phone), '修改成功'));

  r.post('/api/v1/account/:id/topup', {
    schema: { tags, summary: '充值（请求头 Idempotency-Key：同一键只入账一次）', params: idParam, headers: idempotencyHeader, body: topupBody },
    config: { access: 'userRegister_n:topup', operation: '充值' },
  }, async (req) => ok(await accounts.topup(actorOf(req), req.params.id, req.body, idempotencyKeyOf(req)), '充值成功'));

  r.post('/api/v1/account/:id/refund', {
    schema: { tags, summary: '退费（超过审批金额时待另一位用户审批；请求头 Idempotency-Key）', params: idParam, headers: idempotencyHeader, body: refundBody },
    config: { access: 'userRegister_n:refund', operation: '退费' },
  }, async (req) => {
    const res = await accounts.refund(actorOf(req), req.params.id, req.body, idempotencyKeyOf(req));
    return ok(res, res.status === 'pending' ? '已提交，待审批' : '退费成功');
  });

  r.post('/api/v1/account/:id/charge', {
    schema: { tags, summary: '扣费（计费引擎或人工；请求头 Idempotency-Key）', params: idParam, headers: idempotencyHeader, body: chargeBody },
    config: { access: 'userRegister_n:btn_edit', operation: '扣费' },
  }, async (req) => ok(await accounts.charge(actorOf(req), req.params.id, req.body, idempotencyKeyOf(req)), '扣费成功'));

  r.get('/api/v1/account/:id/ledger', {
    schema: { tags, summary: '账户流水（分页）', params: idParam, querystring: ledgerQuery },
    config: { access: 'userRegister_n' },
  }, async (req) => ok(await accounts.ledger(actorOf(req), req.params.id, req.query)));

  r.get('/api/v1/account/:id/leave/check', {
    schema: { tags, summary: '退户结算预览（余额、未出账用量、押金、待支付订单）', params: idParam },
    config: { access: 'userRegister_n:settle' },
  }, async (req) => ok(await accounts.leaveCheck(actorOf(req), req.params.id)));

  r.post('/api/v1/account/:id/leave/clean', {
    schema: { tags, summary: '退户结算（一个事务：扣押金、退余额与押金、关闭订单、释放房间、关闭账户）', params: idParam, headers: idempotencyHeader, body: settlementBody },
    config: { access: 'userRegister_n:settle', operation: '退户结算' },
  }, async (req) => ok(await accounts.leaveClean(actorOf(req), req.params.id, req.body, idempotencyKeyOf(req)), '结算完成'));

  r.post('/api/v1/account/:id/order', {
    schema: { tags, summary: '在线充值下单（返回二维码内容；请求头 Idempotency-Key）', params: idParam, headers: idempotencyHeader, body: orderCreateBody },
    config: { access: 'userRegister_n:topup', operation: '在线充值下单' },
  }, async (req) => ok(await accounts.createOrder(actorOf(req), req.params.id, req.body.amountFen, idempotencyKeyOf(req)), '下单成功'));

  // ---------------------------------------------------------------- deposits (user/admindeposit/…)
  r.post('/api/v1/user/admindeposit/:action', {
    schema: { tags, summary: '押金：collect 收取 | deduct 扣除 | refund 退还（请求头 Idempotency-Key；押金充值的新增只能收取）', params: depositActionParam, headers: idempotencyHeader, body: depositBody },
    config: { access: [...DEPOSIT_MOVERS, 'depositRecharge:btn_add'], operation: '押金收退' },
  }, async (req) => {
    const actor = actorOf(req);
    // 押金充值 (depositRecharge:btn_add) collects deposits; deducting or refunding one needs a deposit screen's right
    if (req.params.action !== 'collect' && !DEPOSIT_MOVERS.some((c) => actor.user.codes.has(c))) throw new AppError(ResultCode.NO_PERMISSION, '权限不足，无法执行该操作');
    return ok(await accounts.deposit(actor, req.params.action, req.body, idempotencyKeyOf(req)), '操作成功');
  });

  // ---------------------------------------------------------------- 押金充值 / 押金直充 (datacenter)
  r.get('/api/v1/account/deposit/collect', {
    schema: { tags, summary: '押金充值记录（收取押金的流水；账户、经办人、时间；含筛选合计 totalFen）', querystring: depositCollectQuery },
    config: { access: 'depositRecharge' },
  }, async (req) => ok(await accounts.depositCollects(actorOf(req), req.query)));

  r.get('/api/v1/account/deposit/collect/export', {
    schema: { tags, summary: '导出押金充值记录（Excel）', querystring: depositCollectQuery },
    config: { access: 'depositRecharge:export' },
  }, async (req, reply) => streamXlsx<LedgerEntryDto>(reply, '押金充值.xlsx', '押金充值', [
    { header: '流水号', width: 10, value: (x) => x.id },
    { header: '时间', width: 20, value: (x) => cstTime(x.createdAt) },
    { header: '账户', value: (x) => x.accountName },
    { header: '金额（元）', value: (x) => fenToYuan(x.amountFen) },
    { header: '押金余额（元）', value: (x) => fenToYuan(x.balanceAfterFen) },
    { header: '说明', width: 30, value: (x) => x.reason ?? '' },
    { header: '方式', width: 10, value: (x) => (x.causeType === DEPOSIT_DIRECT_CAUSE ? '直充' : '收取') },
    { header: '经办人', value: (x) => x.actorName ?? '' },
  ], accounts.depositCollectRows(actorOf(req), req.query)));

  r.post('/api/v1/account/deposit/direct', {
    schema: { tags, summary: '押金直充：同一金额收取到多个账户或一个用户组（请求头 Idempotency-Key 为批次键；每个账户单独入账，重试不重复）', headers: idempotencyHeader, body: depositDirectBody },
    config: { access: 'depositDirect:btn_add', operation: '押金直充' },
  }, async (req) => {
    const res = await accounts.depositDirect(actorOf(req), req.body, idempotencyKeyOf(req));
    return ok(res, res.failedCount ? `成功 ${res.okCount} 户，失败 ${res.failedCount} 户` : `成功 ${res.okCount} 户`);
  });

  r.get('/api/v1/account/deposit/direct', {
    schema: { tags, summary: '押金直充批次（户数、合计、经办人）', querystring: depositBatchQuery },
    config: { access: 'depositDirect' },
  }, async (req) => ok(await accounts.depositBatches(actorOf(req), req.query)));

  r.get('/api/v1/account/deposit/direct/:batchKey', {
    schema: { tags, summary: '一个直充批次的流水', params: depositBatchParam },
    config: { access: 'depositDirect' },
  }, async (req) => ok(await accounts.depositBatch(actorOf(req), req.params.batchKey)));

  // ---------------------------------------------------------------- orders (deviceWxOrder) and payment accounts
  r.get('/api/v1/deviceWxOrder/list', {
    schema: { tags, summary: '充值订单（待支付、已支付、已关闭、已退款）', querystring: orderQuery },
    config: { access: 'userRegister_n' },
  }, async (req) => ok(await accounts.orders(actorOf(req), req.query)));

  r.post('/api/v1/deviceWxOrder/:orderId/close', {
    schema: { tags, summary: '关闭待支付订单', params: z.object({ orderId: positiveIdOf('订单编号') }) },
    config: { access: 'userRegister_n:topup', operation: '关闭订单' },
  }, async (req) => ok(await accounts.closeOrder(actorOf(req), req.params.orderId), '已关闭'));

  r.post('/api/v1/payment/sandbox/:orderNo/pay', {
    schema: { tags, summary: '沙箱支付：模拟用户扫码付款并发出签名通知（仅沙箱订单）', params: z.object({ orderNo: z.string().trim().min(1).max(40) }) },
    config: { access: 'userRegister_n:topup', operation: '沙箱支付' },
  }, async (req) => ok(await accounts.sandboxPay(actorOf(req), req.params.orderNo, async (projectId, n) => {
    const res = await app.inject({ method: 'POST', url: `/api/v1/payment/notify/${projectId}/sandbox`, headers: n.headers, payload: n.body });
    const body = res.json() as { code: number; msg: string; data: unknown };
    if (body.code !== ResultCode.OK) throw new AppError(body.code, body.msg);
    return body.data;
  }), '已支付'));

  r.get('/api/v1/payment/account/:projectId', {
    schema: { tags, summary: '项目的商户支付账户（密钥只显示末 4 位）', params: projectParam },
    config: { access: 'userPayFeeUpper' },
  }, async (req) => ok(await accounts.paymentAccount(actorOf(req), req.params.projectId)));

  r.post('/api/v1/payment/account', {
    schema: { tags, summary: '保存项目的商户支付账户（密钥加密保存，只写）', body: paymentAccountBody },
    config: { access: 'userPayFeeUpper:btn_edit', operation: '保存商户支付账户' },
  }, async (req) => ok(await accounts.savePaymentAccount(actorOf(req), req.body), '保存成功'));

  r.delete('/api/v1/payment/account/:projectId', {
    schema: { tags, summary: '删除项目的商户支付账户', params: projectParam },
    config: { access: 'userPayFeeUpper:btn_del', operation: '删除商户支付账户' },
  }, async (req) => ok(await accounts.removePaymentAccount(actorOf(req), req.params.projectId), '删除成功'));

  // the providers' callbacks need the raw body for their signatures
  await app.register(async (raw) => {
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    raw.withTypeProvider<ZodTypeProvider>().post('/api/v1/payment/notify/:projectId/:provider', {
      schema: { tags, summary: '支付通知回调（沙箱 HMAC 签名 / 微信支付 v3 RSA 签名，验签后入账一次）', params: z.object({ projectId: positiveIdOf('项目编号'), provider: z.enum(['sandbox', 'wechat']) }) },
      config: { access: 'public', operation: '支付通知' },
    }, async (req: FastifyRequest<{ Params: { projectId: number; provider: 'sandbox' | 'wechat' } }>, reply: FastifyReply) => {
      const body = typeof req.body === 'string' ? req.body : '';
      const res = await accounts.notify(req.params.projectId, req.params.provider, req.headers, body);
      return reply.send(ok(res, res.duplicate ? '重复通知，已入账' : '入账成功'));
    });
  });
}
