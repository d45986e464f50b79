import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { positiveIdOf, regApplyBody, regApproveBody, regQuery, regRejectBody, regSmsCodeBody } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { actorOf } from '../../plugins/access.ts';
import type { RegistrationService } from './service.ts';

const tags = ['入驻申请'];
const idParam = z.object({ id: positiveIdOf('申请编号') });

/** /reg (public: SMS code and application) and the review in the tenant manager (platform administrators). */
export async function registrationRoutes(app: FastifyInstance, opts: { registration: RegistrationService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { registration } = opts;

  r.post('/api/v1/register/sms-code', {
    schema: { tags, summary: '获取入驻申请短信验证码（先填写图形验证码；每个手机号与地址 60 秒一次、每天 10 次）', body: regSmsCodeBody },
    config: { access: 'public', operation: '获取入驻验证码' },
  }, async (req) => ok(await registration.sendCode(req.body, req.ip), '验证码已发送'));

  r.post('/api/v1/register', {
    schema: { tags, summary: '提交入驻申请（公司名称、联系人、手机号与短信验证码、备注）', body: regApplyBody },
    config: { access: 'public', operation: '提交入驻申请' },
  }, async (req) => ok(await registration.apply(req.body, req.ip), '申请已提交，审核结果将以短信通知'));

  r.get('/api/v1/register/applications', {
    schema: { tags, summary: '入驻申请列表（状态、关键字）', querystring: regQuery },
    config: { access: 'tenantManager' },
  }, async (req) => ok(await registration.page(actorOf(req), req.query)));

  r.get('/api/v1/register/applications/pending', {
    schema: { tags, summary: '待审核的入驻申请数' },
    config: { access: 'tenantManager' },
  }, async (req) => ok(await registration.pendingCount(actorOf(req))));

  r.post('/api/v1/register/applications/:id/approve', {
    schema: { tags, summary: '通过入驻申请：创建租户与首个管理员（初始密码只显示这一次，并短信通知）', params: idParam, body: regApproveBody },
    config: { access: 'tenantManager:btn_add', operation: '通过入驻申请' },
  }, async (req) => ok(await registration.approve(actorOf(req), req.params.id, req.body), '已通过，租户已创建'));

  r.post('/api/v1/register/applications/:id/reject', {
    schema: { tags, summary: '拒绝入驻申请（须填写原因，短信通知）', params: idParam, body: regRejectBody },
    config: { access: 'tenantManager:btn_edit', operation: '拒绝入驻申请' },
  }, async (req) => ok(await registration.reject(actorOf(req), req.params.id, req.body.reason), '已拒绝'));
}
