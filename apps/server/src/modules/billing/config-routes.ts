import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deviceParamBody, deviceParamQuery, devicePlanBody, devicePlanQuery, deviceRelationBody, deviceRelationQuery, idsBody, pageQuery, positiveIdOf,
  projectIdParam, projectPlanBody, projectPlanQuery, shareGroupBody, shareGroupQuery, shareMemberMoveBody, shareTeamBody, shareTeamQuery, tariffBody,
  updateChargeRateBody, updatePowerBody,
} from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { actorOf } from '../../plugins/access.ts';
import type { BillingConfig } from './config.ts';

const idParam = z.object({ id: positiveIdOf('编号') });

/** The screens that read a project's tariff (计费方案, 项目参数, 计费时段, 4G/计费方案设置, 计费规则, 计费系数, 设备计费, 费用账单). */
const TARIFF_READERS = [
  'billingScheme', 'projectpara', 'jfsd', 'jffa2021x1', 'jffa2020x1', 'billingrules_n', 'billingFactor_n', 'billingFactorSolar_n', 'billingFactorHeating',
  'equipmentBilling_n', 'expensebill',
] as const;
/** The screens that edit it: each one's 修改 element. */
const TARIFF_EDITORS = TARIFF_READERS.slice(0, 9).map((c) => `${c}:btn_edit`) as [string, ...string[]];
const PARAM_SCREENS = ['device20030para', 'deviceAG2420para', 'devicebasefee', 'equipmentBilling_n'] as const;
const PARAM_EDITORS = PARAM_SCREENS.map((c) => `${c}:btn_edit`) as [string, ...string[]];

/**
 * Billing configuration (design §8): the versioned tariff of a project (and spec §7.2 projectBillingScheme, which
 * reads it), device parameters (with spec §7.3 updatechrgrate / updatepower), share teams with members and related
 * meters (groupexpsshare, devicerelation), metering plans and the devices on them (jffa2020x1, addDevicePlan_n).
 */
export async function billingConfigRoutes(app: FastifyInstance, opts: { config: BillingConfig }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = opts;

  // ---------------------------------------------------------------- tariff
  let tags = ['计费配置'];
  r.get('/api/v1/billing/tariff/:projectId', {
    schema: { tags, summary: '项目现行计费配置（未保存过时为默认配置，编号 0）', params: projectIdParam },
    config: { access: TARIFF_READERS },
  }, async (req) => ok(await config.currentTariff(actorOf(req), req.params.projectId)));

  r.get('/api/v1/billing/tariff/:projectId/versions', {
    schema: { tags, summary: '计费配置的历史版本（按生效时间从新到旧，含修改人与时间）', params: projectIdParam },
    config: { access: TARIFF_READERS },
  }, async (req) => ok(await config.tariffHistory(actorOf(req), req.params.projectId)));

  r.post('/api/v1/billing/tariff/:projectId', {
    schema: { tags, summary: '保存计费配置（每次保存为一个新版本，自生效时间起适用；不能早于已出账的截止时间）', params: projectIdParam, body: tariffBody },
    config: { access: TARIFF_EDITORS, operation: '保存计费配置' },
  }, async (req) => ok(await config.saveTariff(actorOf(req), req.params.projectId, req.body), '保存成功'));

  r.get('/api/v1/area/projectpara/getpara/:projectId/projectBillingScheme', {
    schema: { tags: ['区域与项目'], summary: '项目计费方案（现行计费配置的方案；未配置时为项目登记的方案）', params: projectIdParam },
    config: { access: 'login' },
  }, async (req) => ok(await config.projectBillingScheme(actorOf(req), req.params.projectId)));

  // ---------------------------------------------------------------- device parameters
  tags = ['设备计费参数'];
  r.get('/api/v1/billing/deviceparams', {
    schema: { tags, summary: '项目设备的现行计费参数（计费系数、额定功率、基础费），按类型与名称/编码筛选', querystring: deviceParamQuery },
    config: { access: PARAM_SCREENS },
  }, async (req) => ok(await config.deviceParams(actorOf(req), req.query)));

  r.post('/api/v1/billing/deviceparams', {
    schema: { tags, summary: '修改设备计费参数（每台设备一个新版本；未填写的参数沿用生效时的版本）', body: deviceParamBody },
    config: { access: PARAM_EDITORS, operation: '修改设备计费参数' },
  }, async (req) => ok(await config.saveDeviceParams(actorOf(req), req.body), '修改成功'));

  r.get('/api/v1/billing/deviceparams/:deviceId/history', {
    schema: { tags, summary: '一台设备计费参数的历史版本（从新到旧）', params: z.object({ deviceId: positiveIdOf('设备编号') }), querystring: pageQuery },
    config: { access: PARAM_SCREENS },
  }, async (req) => ok(await config.deviceParamHistory(actorOf(req), req.params.deviceId, req.query)));

  r.post('/api/v1/device/updatechrgrate', {
    schema: { tags, summary: '修改计费系数（tenantId 不起作用；生效时间默认为现在）', body: updateChargeRateBody },
    config: { access: PARAM_EDITORS, operation: '修改设备计费参数' },
  }, async (req) => ok(await config.saveDeviceParams(actorOf(req), {
    deviceIds: req.body.deviceIds, chargeRate: req.body.chargeRate, effectiveFrom: req.body.effectiveFrom ?? Date.now(),
  }), '修改成功'));

  r.post('/api/v1/device/updatepower', {
    schema: { tags, summary: '修改额定功率（tenantId 不起作用；生效时间默认为现在）', body: updatePowerBody },
    config: { access: PARAM_EDITORS, operation: '修改设备计费参数' },
  }, async (req) => ok(await config.saveDeviceParams(actorOf(req), {
    deviceIds: req.body.deviceIds, ratedPower: req.body.ratedPower, effectiveFrom: req.body.effectiveFrom ?? Date.now(),
  }), '修改成功'));

  // ---------------------------------------------------------------- share teams, members, related meters
  tags = ['分摊组'];
  r.get('/api/v1/billing/shareteam', {
    schema: { tags, summary: '分摊组列表（成员数、总表与公共表数、成员面积）', querystring: shareTeamQuery },
    config: { access: ['groupexpsshare', 'devicerelation'] },
  }, async (req) => ok(await config.teams(actorOf(req), req.query)));

  r.post('/api/v1/billing/shareteam', {
    schema: { tags, summary: '新增分摊组', body: shareTeamBody },
    config: { access: 'groupexpsshare:btn_add', operation: '新增分摊组' },
  }, async (req) => ok(await config.saveTeam(actorOf(req), null, req.body), '新增成功'));

  r.put('/api/v1/billing/shareteam/:id', {
    schema: { tags, summary: '修改分摊组（不能换项目）', params: idParam, body: shareTeamBody },
    config: { access: 'groupexpsshare:btn_edit', operation: '修改分摊组' },
  }, async (req) => ok(await config.saveTeam(actorOf(req), req.params.id, req.body), '修改成功'));

  r.post('/api/v1/billing/shareteam/delete', {
    schema: { tags, summary: '删除分摊组（连同其成员与设备关联）', body: idsBody },
    config: { access: 'groupexpsshare:btn_del', operation: '删除分摊组' },
  }, async (req) => ok(await config.removeTeams(actorOf(req), req.body.ids), '删除成功'));

  r.get('/api/v1/billing/sharegroup', {
    schema: { tags, summary: '分摊组成员（账户、房间与面积）', querystring: shareGroupQuery },
    config: { access: 'groupexpsshare' },
  }, async (req) => ok(await config.members(actorOf(req), req.query)));

  r.post('/api/v1/billing/sharegroup', {
    schema: { tags, summary: '添加分摊组成员（同一项目的在用账户；一个账户只能在一个分摊组）', body: shareGroupBody },
    config: { access: 'groupexpsshare:btn_add', operation: '添加分摊组成员' },
  }, async (req) => ok(await config.addMembers(actorOf(req), req.body), '添加成功'));

  r.put('/api/v1/billing/sharegroup/:id', {
    schema: { tags, summary: '把成员移到同一项目的另一个分摊组', params: idParam, body: shareMemberMoveBody },
    config: { access: 'groupexpsshare:btn_edit', operation: '调整分摊组成员' },
  }, async (req) => ok(await config.moveMember(actorOf(req), req.params.id, req.body.shareTeamId), '修改成功'));

  r.post('/api/v1/billing/sharegroup/delete', {
    schema: { tags, summary: '移除分摊组成员', body: idsBody },
    config: { access: 'groupexpsshare:btn_del', operation: '移除分摊组成员' },
  }, async (req) => ok(await config.removeMembers(actorOf(req), req.body.ids), '移除成功'));

  tags = ['设备关联'];
  r.get('/api/v1/billing/devicerelation', {
    schema: { tags, summary: '分摊组关联的表计（总表计入总费用，公共区域表计入公共费用），按分摊组或项目', querystring: deviceRelationQuery },
    config: { access: 'devicerelation' },
  }, async (req) => ok(await config.relations(actorOf(req), req.query)));

  r.post('/api/v1/billing/devicerelation', {
    schema: { tags, summary: '关联表计（分摊组项目内的设备；已关联的改为新的类型）', body: deviceRelationBody },
    config: { access: 'devicerelation:btn_add', operation: '添加设备关联' },
  }, async (req) => ok(await config.addRelations(actorOf(req), req.body), '关联成功'));

  r.post('/api/v1/billing/devicerelation/delete', {
    schema: { tags, summary: '解除设备关联', body: idsBody },
    config: { access: 'devicerelation:btn_del', operation: '删除设备关联' },
  }, async (req) => ok(await config.removeRelations(actorOf(req), req.body.ids), '删除成功'));

  // ---------------------------------------------------------------- metering plans
  tags = ['计费方案设置'];
  const PLAN_READERS = ['jffa2020x1', 'addDevicePlan_n'] as const;
  r.get('/api/v1/billing/projectplan', {
    schema: { tags, summary: '项目的计费方案（计量方式、单价、生效时间、设备数）', querystring: projectPlanQuery },
    config: { access: PLAN_READERS },
  }, async (req) => ok(await config.projectPlans(actorOf(req), req.query)));

  r.post('/api/v1/billing/projectplan', {
    schema: { tags, summary: '新增计费方案', body: projectPlanBody },
    config: { access: 'jffa2020x1:btn_add', operation: '新增计费方案' },
  }, async (req) => ok(await config.saveProjectPlan(actorOf(req), null, req.body), '新增成功'));

  r.put('/api/v1/billing/projectplan/:id', {
    schema: { tags, summary: '修改计费方案（单价、计量方式与生效时间不能改到已出账的时段）', params: idParam, body: projectPlanBody },
    config: { access: 'jffa2020x1:btn_edit', operation: '修改计费方案' },
  }, async (req) => ok(await config.saveProjectPlan(actorOf(req), req.params.id, req.body), '修改成功'));

  r.post('/api/v1/billing/projectplan/delete', {
    schema: { tags, summary: '删除计费方案（方案中还有设备时拒绝）', body: idsBody },
    config: { access: 'jffa2020x1:btn_del', operation: '删除计费方案' },
  }, async (req) => ok(await config.removeProjectPlans(actorOf(req), req.body.ids), '删除成功'));

  r.get('/api/v1/billing/deviceplan', {
    schema: { tags, summary: '方案中的设备（现在或将来在该方案的设备与生效时间）', querystring: devicePlanQuery },
    config: { access: PLAN_READERS },
  }, async (req) => ok(await config.devicePlans(actorOf(req), req.query)));

  r.post('/api/v1/billing/deviceplan', {
    schema: { tags, summary: '把设备加入方案（自生效时间起离开原方案）', body: devicePlanBody },
    config: { access: ['addDevicePlan_n:btn_add', 'jffa2020x1:btn_edit'], operation: '添加方案设备' },
  }, async (req) => ok(await config.addDevicePlans(actorOf(req), req.body), '添加成功'));

  r.post('/api/v1/billing/deviceplan/delete', {
    schema: { tags, summary: '把设备移出方案（已生效的自现在起不再按该方案计费，未生效的撤销）', body: idsBody },
    config: { access: ['addDevicePlan_n:btn_del', 'jffa2020x1:btn_edit'], operation: '移除方案设备' },
  }, async (req) => ok(await config.removeDevicePlans(actorOf(req), req.body.ids), '移除成功'));
}
