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

// ---- engine fixtures: rows written straight into the engine's tables (a run, a bill, a supply action of tenant A)
let runSeq = 0;
async function newRun() {
  const from = 1_000_000 + ++runSeq * 1000;
  return (await w.k.db.insertInto('billing_run').values({
    tenant_id: A().tenantId, project_id: pid(), scheme: 1, period_from: from, period_until: from + 500, state: 'done', accounts: 0, lines: 0, total_fen: 0, gaps: '[]',
    trigger: 'manual', started_at: Date.now(), finished_at: Date.now(),
  }).returning('id').executeTakeFirstOrThrow()).id;
}
async function newBill() {
  const accountId = await newAccount();
  return (await w.k.db.insertInto('billing_bill').values({
    tenant_id: A().tenantId, project_id: pid(), account_id: accountId, period: '2026-09', period_from: 0, period_until: 1, amount_fen: 1234, lines: 1, status: 'issued',
    issued_at: Date.now(), due_at: Date.now() + 86_400_000, paid_at: null, pay_method: null, paid_by: null, entry_id: null,
  }).returning('id').executeTakeFirstOrThrow()).id;
}
async function newSupply() {
  const [accountId, deviceId] = [await newAccount(), await newDevice()];
  return (await w.k.db.insertInto('billing_supply').values({
    tenant_id: A().tenantId, project_id: pid(), account_id: accountId, device_id: deviceId, balance_event_id: 900_000 + ++runSeq, action: 'cutoff', status: 'failed', attempts: 1,
    command_id: null, last_error: '设备未响应', next_try_at: null, created_at: Date.now(), updated_at: Date.now(),
  }).returning('id').executeTakeFirstOrThrow()).id;
}
const RUN_READERS = ['equipmentBilling_n', 'equipmentCostShare_n', 'ag2410chargedata', 'expensebill', 'jffa2020x1'];
const CHARGE_DATA = ['equipmentBilling_n', 'ag2410chargedata', 'jffa2020x1'];
const range = () => ({ projectId: pid(), startTime: Date.now() - 86_400_000, endTime: Date.now() });

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
  // ---- the engine: quote, runs, lines, charge data, expense bills, supply actions
  {
    method: 'POST', path: '/api/v1/billing/quote', code: 'login', kind: 'self',
    body: () => ({ method: 'timeEquivalent', params: { price: '1.2', k: { low: '0.6', mid: '0.8', high: '1' } }, inputs: { hours: { low: 10, mid: 5, high: 2.5 } } }),
  },
  { method: 'POST', path: '/api/v1/billing/run', code: 'equipmentBilling_n:btn_add', kind: 'object', body: () => ({ projectId: pid() }) },
  { method: 'GET', path: '/api/v1/billing/runs', code: RUN_READERS, kind: 'object', url: () => `/api/v1/billing/runs?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/billing/runs/{id}', code: RUN_READERS, kind: 'object', setup: newRun },
  { method: 'GET', path: '/api/v1/billing/lines', code: RUN_READERS, kind: 'object', url: () => `/api/v1/billing/lines?projectId=${pid()}` },
  {
    method: 'GET', path: '/api/v1/billing/lines/export', code: ['equipmentBilling_n:export', 'equipmentCostShare_n:export', 'ag2410chargedata:export', 'expensebill:export'], kind: 'object',
    url: () => `/api/v1/billing/lines/export?projectId=${pid()}`,
  },
  { method: 'POST', path: '/api/v1/device/calcdevicechargedatasummary', code: CHARGE_DATA, kind: 'object', body: range },
  { method: 'POST', path: '/api/v1/device/calcdevicechargedatadetail', code: CHARGE_DATA, kind: 'object', body: range },
  { method: 'GET', path: '/api/v1/billing/bills', code: 'expensebill', kind: 'object', url: () => `/api/v1/billing/bills?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/billing/bills/export', code: 'expensebill:export', kind: 'object', url: () => `/api/v1/billing/bills/export?projectId=${pid()}` },
  {
    method: 'POST', path: '/api/v1/billing/bills/issue', code: 'expensebill:btn_add', kind: 'object',
    // a postpaid scheme from now on (the project's October is over, so it can be closed)
    setup: async () => { await w.ok('POST', `/api/v1/billing/tariff/${pid()}`, A().token, { ...DEFAULT_TARIFF, scheme: 2, effectiveFrom: Date.now(), remark: `${MARK}后付费` }); return pid(); },
    body: () => ({ projectId: pid(), period: '2026-10' }),
  },
  {
    method: 'POST', path: '/api/v1/billing/bills/{id}/pay', code: 'expensebill:btn_edit', kind: 'object', setup: newBill, body: () => ({ method: 'cash' }),
    headers: () => ({ 'idempotency-key': `rule-${uniq('pay')}` }),
  },
  { method: 'GET', path: '/api/v1/billing/supply', code: ['equipmentBilling_n', 'userRegister_n'], kind: 'object', url: () => `/api/v1/billing/supply?projectId=${pid()}` },
  { method: 'POST', path: '/api/v1/billing/supply/{id}/retry', code: 'equipmentBilling_n:btn_edit', kind: 'object', setup: newSupply },
];
