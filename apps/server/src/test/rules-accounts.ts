import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import { uniq, w, type Row } from './endpoint-rules.ts';

/** Accounts and money: accounts, money moves (with Idempotency-Key), refunds, deposits, settlement, groups, orders, payment accounts. */

const A = () => w.A;
const pid = () => A().projectId;
let roomSeq = 0;
let sheet: Buffer;
const orderNos = new Map<number, string>();

const key = () => ({ 'idempotency-key': `rule-${crypto.randomUUID()}` });
async function money(url: string, body: unknown) {
  const res = await w.k.call('POST', url, { token: A().token, body, headers: key() });
  if (res.body.code !== 200) throw new Error(`${url}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}
async function newRoom() {
  return (await w.k.db.insertInto('area').values({
    tenant_id: A().tenantId, parent_id: A().buildingId, level: 'room', name: `A标记房间${++roomSeq}`, code: null, sort_no: 0, floor_area: null, project_type: null,
    project_type2: null, billing_scheme: null, address: null, lng: null, lat: null, alias: null, created_at: Date.now(),
  }).returning('id').executeTakeFirstOrThrow()).id;
}
const accountBody = async () => ({ projectId: pid(), name: uniq('A标记账户'), phone: '13800138000', roomIds: [await newRoom()] });
const newAccount = async () => (await w.ok('POST', '/api/v1/account', A().token, await accountBody())).id as number;
const funded = async () => {
  const id = await newAccount();
  await money(`/api/v1/account/${id}/topup`, { amountFen: 50000, method: 'cash' });
  return id;
};
const newEntry = async () => (await money(`/api/v1/account/${await newAccount()}/topup`, { amountFen: 1000, method: 'cash' })).entryId as number;
/** a refund awaiting approval, asked by nobody in particular (so the owner may approve it) */
async function pendingRefund() {
  const id = await funded();
  const now = Date.now();
  return (await w.k.db.insertInto('account_refund').values({
    tenant_id: A().tenantId, project_id: pid(), account_id: id, amount_fen: 20000, reason: 'A标记退费', status: 'pending', entry_id: null, requested_by: null,
    requested_name: null, decided_by: null, decided_name: null, decision_comment: null, created_at: now, decided_at: null,
  }).returning('id').executeTakeFirstOrThrow()).id;
}
const newGroup = async () => (await w.ok('POST', '/api/v1/account/group', A().token, { projectId: pid(), name: uniq('A标记用户组') })).id as number;
async function newOrder() {
  const id = await newAccount();
  const o = await money(`/api/v1/account/${id}/order`, { amountFen: 1000 });
  orderNos.set(o.id, o.orderNo);
  return o.id as number;
}
const savePayment = async () => {
  await w.ok('POST', '/api/v1/payment/account', A().token, { projectId: pid(), provider: 'sandbox', mchId: 'A标记商户', appId: 'sandbox-app', apiKey: 'sandbox-key-0123456789' });
  return pid();
};
const form = () => {
  const f = new FormData();
  f.append('file', new Blob([sheet]), 'accounts.xlsx');
  return f;
};

const DIRECT_BATCH = 'rule-direct-batch-a';

export async function prepareAccounts() {
  const id = await funded();
  await money('/api/v1/user/admindeposit/collect', { accountId: id, amountFen: 300, reason: 'A标记押金' });
  const direct = await w.k.call('POST', '/api/v1/account/deposit/direct', { token: A().token, body: { projectId: pid(), accountIds: [id], amountFen: 200, reason: 'A标记直充' }, headers: { 'idempotency-key': DIRECT_BATCH } });
  if (direct.body.code !== 200 || direct.body.data.okCount !== 1) throw new Error(`deposit direct: ${JSON.stringify(direct.body)}`);
  await money(`/api/v1/account/${id}/refund`, { amountFen: 100, reason: 'A标记退费' });
  await newOrder();
  await newGroup();
  await w.k.call('POST', `/api/v1/account/${id}/charge`, { token: A().token, body: { amountFen: 49800, reason: 'A标记扣费' }, headers: key() });
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('账户');
  ws.addRow(['户名*', '手机号*']);
  ws.addRow(['A标记导入', '13800138000']);
  sheet = Buffer.from(await wb.xlsx.writeBuffer());
}

const MARK = 'A标记账户';
export const ACCOUNT_ROWS: Row[] = [
  { method: 'GET', path: '/api/v1/account', code: ['userRegister_n', 'groupexpsshare'], kind: 'list', marker: MARK, url: () => '/api/v1/account?pageSize=200' },
  { method: 'GET', path: '/api/v1/account/export', code: 'userRegister_n:export', kind: 'list', marker: MARK, url: () => '/api/v1/account/export' },
  { method: 'POST', path: '/api/v1/account', code: 'userRegister_n:btn_add', kind: 'object', url: () => '/api/v1/account', body: () => ({ projectId: pid(), name: uniq(MARK), phone: '13800138000', roomIds: [] }) },
  { method: 'GET', path: '/api/v1/account/import/template', code: 'userRegister_n:btn_add', kind: 'list' },
  { method: 'POST', path: '/api/v1/account/import', code: 'userRegister_n:btn_add', kind: 'object', url: () => `/api/v1/account/import?projectId=${pid()}`, body: form },
  { method: 'GET', path: '/api/v1/account/chargelog', code: 'userRegister_n', kind: 'list', marker: 'A标记扣费', url: () => '/api/v1/account/chargelog?pageSize=200' },
  { method: 'GET', path: '/api/v1/account/entry/{entryId}/receipt', code: 'userRegister_n', kind: 'object', setup: newEntry },
  { method: 'GET', path: '/api/v1/account/refund', code: 'userRegister_n', kind: 'list', marker: 'A标记退费', url: () => '/api/v1/account/refund?pageSize=200' },
  { method: 'GET', path: '/api/v1/account/refund/export', code: 'userRegister_n:export', kind: 'list', marker: 'A标记退费', url: () => '/api/v1/account/refund/export' },
  { method: 'POST', path: '/api/v1/account/refund/{refundId}/approve', code: 'userRegister_n:refund_approve', kind: 'object', setup: pendingRefund, body: () => ({}) },
  { method: 'POST', path: '/api/v1/account/refund/{refundId}/reject', code: 'userRegister_n:refund_approve', kind: 'object', setup: pendingRefund, body: () => ({ comment: '不同意' }) },
  { method: 'GET', path: '/api/v1/account/reconcile', code: 'userRegister_n:reconcile', kind: 'object', url: () => `/api/v1/account/reconcile?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/account/balanceevent', code: 'userRegister_n', kind: 'list', url: () => '/api/v1/account/balanceevent' },
  { method: 'GET', path: '/api/v1/account/settings/{projectId}', code: ['userPayFeeUpper', 'projectpara'], kind: 'object', url: () => `/api/v1/account/settings/${pid()}` },
  {
    method: 'PUT', path: '/api/v1/account/settings/{projectId}', code: ['userPayFeeUpper:btn_edit', 'projectpara:btn_edit'], kind: 'object', url: () => `/api/v1/account/settings/${pid()}`,
    body: () => ({ topupMaxFen: null, balanceMaxFen: null, refundApprovalFen: 10000, warning1Fen: 5000, warning2Fen: 2000, overdraftFen: 0 }),
  },
  { method: 'GET', path: '/api/v1/account/group', code: ['userGroup', 'groupmanagers'], kind: 'list', marker: 'A标记用户组', url: () => '/api/v1/account/group?pageSize=200' },
  { method: 'POST', path: '/api/v1/account/group', code: ['userGroup:btn_add', 'groupmanagers:btn_add'], kind: 'object', url: () => '/api/v1/account/group', body: () => ({ projectId: pid(), name: uniq('A标记用户组') }) },
  { method: 'PUT', path: '/api/v1/account/group/{id}', code: ['userGroup:btn_edit', 'groupmanagers:btn_edit'], kind: 'object', setup: newGroup, body: () => ({ projectId: pid(), name: uniq('A标记用户组改') }) },
  { method: 'PUT', path: '/api/v1/account/group/{id}/members', code: ['userGroup:btn_edit', 'groupmanagers:btn_edit'], kind: 'object', setup: newGroup, body: () => ({ accountIds: [] }) },
  { method: 'POST', path: '/api/v1/account/group/delete', code: ['userGroup:btn_del', 'groupmanagers:btn_del'], kind: 'object', setup: newGroup, url: () => '/api/v1/account/group/delete', body: (id) => ({ ids: [id] }) },
  { method: 'GET', path: '/api/v1/account/{id}', code: 'userRegister_n', kind: 'object', setup: newAccount },
  { method: 'PUT', path: '/api/v1/account/{id}', code: 'userRegister_n:btn_edit', kind: 'object', setup: newAccount, body: () => ({ name: uniq('A标记改名') }) },
  { method: 'PUT', path: '/api/v1/account/{id}/phone', code: 'userRegister_n:btn_edit', kind: 'object', setup: newAccount, body: () => ({ phone: '13900139000' }) },
  { method: 'POST', path: '/api/v1/account/{id}/topup', code: 'userRegister_n:topup', kind: 'object', setup: newAccount, headers: key, body: () => ({ amountFen: 100, method: 'cash' }) },
  { method: 'POST', path: '/api/v1/account/{id}/refund', code: 'userRegister_n:refund', kind: 'object', setup: funded, headers: key, body: () => ({ amountFen: 100, reason: '退费' }) },
  { method: 'POST', path: '/api/v1/account/{id}/charge', code: 'userRegister_n:btn_edit', kind: 'object', setup: funded, headers: key, body: () => ({ amountFen: 100, reason: '扣费' }) },
  { method: 'GET', path: '/api/v1/account/{id}/ledger', code: 'userRegister_n', kind: 'object', setup: funded },
  { method: 'GET', path: '/api/v1/account/{id}/leave/check', code: 'userRegister_n:settle', kind: 'object', setup: funded },
  { method: 'POST', path: '/api/v1/account/{id}/leave/clean', code: 'userRegister_n:settle', kind: 'object', setup: funded, headers: key, body: () => ({ reason: '退户' }) },
  { method: 'POST', path: '/api/v1/account/{id}/order', code: 'userRegister_n:topup', kind: 'object', setup: newAccount, headers: key, body: () => ({ amountFen: 100 }) },
  {
    method: 'POST', path: '/api/v1/user/admindeposit/{action}', code: ['devicedeposit:deposit', 'depositManage:deposit', 'depositManage_n:deposit', 'depositRecharge:btn_add'], kind: 'object', setup: newAccount, headers: key,
    url: () => '/api/v1/user/admindeposit/collect', body: (id) => ({ accountId: id, amountFen: 100, reason: '押金' }),
  },
  { method: 'GET', path: '/api/v1/account/deposit/collect', code: 'depositRecharge', kind: 'list', marker: 'A标记押金', url: () => '/api/v1/account/deposit/collect?pageSize=200' },
  { method: 'GET', path: '/api/v1/account/deposit/collect/export', code: 'depositRecharge:export', kind: 'list', marker: 'A标记押金', url: () => '/api/v1/account/deposit/collect/export' },
  {
    method: 'POST', path: '/api/v1/account/deposit/direct', code: 'depositDirect:btn_add', kind: 'object', setup: newAccount, headers: key,
    url: () => '/api/v1/account/deposit/direct', body: (id) => ({ projectId: pid(), accountIds: [id], amountFen: 100, reason: 'A标记直充' }),
  },
  { method: 'GET', path: '/api/v1/account/deposit/direct', code: 'depositDirect', kind: 'list', marker: 'A标记直充', url: () => '/api/v1/account/deposit/direct?pageSize=200' },
  { method: 'GET', path: '/api/v1/account/deposit/direct/{batchKey}', code: 'depositDirect', kind: 'object', url: () => `/api/v1/account/deposit/direct/${DIRECT_BATCH}` },
  { method: 'GET', path: '/api/v1/deviceWxOrder/list', code: 'userRegister_n', kind: 'list', marker: MARK, url: () => '/api/v1/deviceWxOrder/list?pageSize=200' },
  { method: 'POST', path: '/api/v1/deviceWxOrder/{orderId}/close', code: 'userRegister_n:topup', kind: 'object', setup: newOrder },
  { method: 'POST', path: '/api/v1/payment/sandbox/{orderNo}/pay', code: 'userRegister_n:topup', kind: 'object', setup: newOrder, url: (id) => `/api/v1/payment/sandbox/${orderNos.get(id)}/pay` },
  { method: 'GET', path: '/api/v1/payment/account/{projectId}', code: 'userPayFeeUpper', kind: 'object', url: () => `/api/v1/payment/account/${pid()}` },
  {
    method: 'POST', path: '/api/v1/payment/account', code: 'userPayFeeUpper:btn_edit', kind: 'object', url: () => '/api/v1/payment/account',
    body: () => ({ projectId: pid(), provider: 'sandbox', mchId: 'A标记商户', appId: 'sandbox-app', apiKey: 'sandbox-key-0123456789' }),
  },
  { method: 'DELETE', path: '/api/v1/payment/account/{projectId}', code: 'userPayFeeUpper:btn_del', kind: 'object', setup: savePayment, url: () => `/api/v1/payment/account/${pid()}` },
];
