import { DEFAULT_TARIFF } from '@kelvin/contracts';
import { createArea } from './harness.ts';
import { uniq, w, type Row } from './endpoint-rules.ts';
import { newDevice } from './rules-devices.ts';

/** Billing configuration: the versioned tariff, device parameters, share teams with members and meters, metering plans. */

const A = () => w.A;
const pid = () => A().projectId;

const TARIFF_READERS = [
  'billingScheme', 'projectpara', 'jfsd', 'jffa2021x1', 'jffa2020x1', 'billingrules_n', 'billingFactor_n', 'billingFactorSolar_n', 'billingFactorHeating',
  'equipmentBilling_n', 'expensebill',
];
const TARIFF_EDITORS = TARIFF_READERS.slice(0, 9).map((c) => `${c}:btn_edit`);
const PARAM_SCREENS = ['device20030para', 'deviceAG2420para', 'devicebasefee', 'equipmentBilling_n'];
const PARAM_EDITORS = PARAM_SCREENS.map((c) => `${c}:btn_edit`);
const PLAN_READERS = ['jffa2020x1', 'addDevicePlan_n'];

const MARK = 'A标记';
const newTeam = async () => (await w.ok('POST', '/api/v1/billing/shareteam', A().token, { projectId: pid(), name: uniq(`${MARK}分摊组`) })).id as number;
async function newAccount() {
  const room = await createArea(w.k.db, { tenantId: A().tenantId, parentId: A().buildingId, level: 'room', name: uniq(`${MARK}房间`) });
  return (await w.ok('POST', '/api/v1/account', A().token, { projectId: pid(), name: uniq(`${MARK}住户`), phone: '13800138000', roomIds: [room] })).id as number;
}
async function newMember(team?: number) {
  const shareTeamId = team ?? await newTeam();
  await w.ok('POST', '/api/v1/billing/sharegroup', A().token, { shareTeamId, accountIds: [await newAccount()] });
  const page = await w.ok('GET', `/api/v1/billing/sharegroup?shareTeamId=${shareTeamId}`, A().token);
  return page.rows[0].id as number;
}
async function newRelation() {
  const shareTeamId = await newTeam();
  await w.ok('POST', '/api/v1/billing/devicerelation', A().token, { shareTeamId, deviceIds: [await newDevice()], role: 'total' });
  return (await w.ok('GET', `/api/v1/billing/devicerelation?shareTeamId=${shareTeamId}`, A().token)).rows[0].id as number;
}
const planBody = () => ({ projectId: pid(), name: uniq(`${MARK}方案`), meteringMethodType: 'timeEquivalent', price: '1.5', effectiveFrom: Date.now() - 86_400_000 });
const newPlan = async () => (await w.ok('POST', '/api/v1/billing/projectplan', A().token, planBody())).id as number;
async function newDevicePlan() {
  const projectPlanId = await newPlan();
  await w.ok('POST', '/api/v1/billing/deviceplan', A().token, { projectPlanId, deviceIds: [await newDevice()], effectiveFrom: Date.now() });
  return (await w.ok('GET', `/api/v1/billing/deviceplan?projectPlanId=${projectPlanId}`, A().token)).rows[0].id as number;
}

/** the objects a row's body names besides its path id */
let otherTeam = 0;
let device = 0;
let account = 0;
let plan = 0;

export async function prepareBilling() {
  await newMember(await newTeam());
  plan = await newPlan();
}

export const BILLING_ROWS: Row[] = [
  // ---- the tariff of a project
  { method: 'GET', path: '/api/v1/billing/tariff/{projectId}', code: TARIFF_READERS, kind: 'object', url: () => `/api/v1/billing/tariff/${pid()}` },
  { method: 'GET', path: '/api/v1/billing/tariff/{projectId}/versions', code: TARIFF_READERS, kind: 'object', url: () => `/api/v1/billing/tariff/${pid()}/versions` },
  {
    method: 'POST', path: '/api/v1/billing/tariff/{projectId}', code: TARIFF_EDITORS, kind: 'object', url: () => `/api/v1/billing/tariff/${pid()}`,
    body: () => ({ ...DEFAULT_TARIFF, scheme: 2, effectiveFrom: Date.now(), remark: `${MARK}调价` }),
  },
  { method: 'GET', path: '/api/v1/area/projectpara/getpara/{projectId}/projectBillingScheme', code: 'login', kind: 'object', url: () => `/api/v1/area/projectpara/getpara/${pid()}/projectBillingScheme` },
  // ---- device parameters
  { method: 'GET', path: '/api/v1/billing/deviceparams', code: PARAM_SCREENS, kind: 'object', url: () => `/api/v1/billing/deviceparams?projectId=${pid()}` },
  {
    method: 'POST', path: '/api/v1/billing/deviceparams', code: PARAM_EDITORS, kind: 'object', setup: () => newDevice(),
    body: (id) => ({ deviceIds: [id], chargeRate: '1.2', effectiveFrom: Date.now() }),
  },
  { method: 'GET', path: '/api/v1/billing/deviceparams/{deviceId}/history', code: PARAM_SCREENS, kind: 'object', setup: () => newDevice() },
  { method: 'POST', path: '/api/v1/device/updatechrgrate', code: PARAM_EDITORS, kind: 'object', setup: () => newDevice(), body: (id) => ({ tenantId: 1, deviceIds: [id], chargeRate: 1.1 }) },
  { method: 'POST', path: '/api/v1/device/updatepower', code: PARAM_EDITORS, kind: 'object', setup: () => newDevice(), body: (id) => ({ deviceIds: [id], ratedPower: '5' }) },
  // ---- share teams and their members
  { method: 'GET', path: '/api/v1/billing/shareteam', code: ['groupexpsshare', 'devicerelation'], kind: 'list', marker: `${MARK}分摊组`, url: () => '/api/v1/billing/shareteam?pageSize=200' },
  { method: 'GET', path: '/api/v1/billing/shareteam', code: ['groupexpsshare', 'devicerelation'], kind: 'object', url: () => `/api/v1/billing/shareteam?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/billing/shareteam', code: 'groupexpsshare:btn_add', kind: 'object', body: () => ({ projectId: pid(), name: uniq(`${MARK}分摊组`) }) },
  { method: 'PUT', path: '/api/v1/billing/shareteam/{id}', code: 'groupexpsshare:btn_edit', kind: 'object', setup: newTeam, body: () => ({ projectId: pid(), name: uniq(`${MARK}改名分摊组`) }) },
  {
    method: 'POST', path: '/api/v1/billing/shareteam/delete', code: 'groupexpsshare:btn_del', kind: 'object',
    setup: async () => { const id = await newTeam(); await newMember(id); return id; }, body: (id) => ({ ids: [id] }),
  },
  { method: 'GET', path: '/api/v1/billing/sharegroup', code: 'groupexpsshare', kind: 'object', setup: newTeam, url: (id) => `/api/v1/billing/sharegroup?shareTeamId=${id}` },
  {
    method: 'POST', path: '/api/v1/billing/sharegroup', code: 'groupexpsshare:btn_add', kind: 'object',
    setup: async () => { account = await newAccount(); return newTeam(); }, body: (id) => ({ shareTeamId: id, accountIds: [account] }),
  },
  {
    method: 'PUT', path: '/api/v1/billing/sharegroup/{id}', code: 'groupexpsshare:btn_edit', kind: 'object',
    setup: async () => { otherTeam = await newTeam(); return newMember(); }, body: () => ({ shareTeamId: otherTeam }),
  },
  { method: 'POST', path: '/api/v1/billing/sharegroup/delete', code: 'groupexpsshare:btn_del', kind: 'object', setup: () => newMember(), body: (id) => ({ ids: [id] }) },
  // ---- meters related to a team
  { method: 'GET', path: '/api/v1/billing/devicerelation', code: 'devicerelation', kind: 'object', url: () => `/api/v1/billing/devicerelation?projectId=${pid()}` },
  {
    method: 'POST', path: '/api/v1/billing/devicerelation', code: 'devicerelation:btn_add', kind: 'object',
    setup: async () => { device = await newDevice(); return newTeam(); }, body: (id) => ({ shareTeamId: id, deviceIds: [device], role: 'public' }),
  },
  { method: 'POST', path: '/api/v1/billing/devicerelation/delete', code: 'devicerelation:btn_del', kind: 'object', setup: newRelation, body: (id) => ({ ids: [id] }) },
  // ---- metering plans and the devices on them
  { method: 'GET', path: '/api/v1/billing/projectplan', code: PLAN_READERS, kind: 'object', url: () => `/api/v1/billing/projectplan?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/billing/projectplan', code: 'jffa2020x1:btn_add', kind: 'object', body: planBody },
  { method: 'PUT', path: '/api/v1/billing/projectplan/{id}', code: 'jffa2020x1:btn_edit', kind: 'object', setup: newPlan, body: planBody },
  { method: 'POST', path: '/api/v1/billing/projectplan/delete', code: 'jffa2020x1:btn_del', kind: 'object', setup: newPlan, body: (id) => ({ ids: [id] }) },
  { method: 'GET', path: '/api/v1/billing/deviceplan', code: PLAN_READERS, kind: 'object', url: () => `/api/v1/billing/deviceplan?projectPlanId=${plan}` },
  {
    method: 'POST', path: '/api/v1/billing/deviceplan', code: ['addDevicePlan_n:btn_add', 'jffa2020x1:btn_edit'], kind: 'object', setup: () => newDevice(),
    body: (id) => ({ projectPlanId: plan, deviceIds: [id], effectiveFrom: Date.now() }),
  },
  { method: 'POST', path: '/api/v1/billing/deviceplan/delete', code: ['addDevicePlan_n:btn_del', 'jffa2020x1:btn_edit'], kind: 'object', setup: newDevicePlan, body: (id) => ({ ids: [id] }) },
];
