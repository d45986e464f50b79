import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createTenantWithProject, createUser, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';
import { crossings } from './ledger.ts';
import { sandboxNotification, wechatNotification } from './payments.ts';

let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;
let b: Awaited<ReturnType<typeof createTenantWithProject>>;
let token: string;
let approver: string;
let tokenB: string;
let clerk: string;
let rooms: number[];

const CODES = [
  'userRegister_n', 'userRegister_n:btn_add', 'userRegister_n:btn_edit', 'userRegister_n:export', 'userRegister_n:topup', 'userRegister_n:refund',
  'userRegister_n:settle', 'userRegister_n:reconcile', 'devicedeposit', 'devicedeposit:deposit', 'userPayFeeUpper', 'userPayFeeUpper:btn_edit',
  'userPayFeeUpper:btn_del', 'userGroup', 'userGroup:btn_add', 'userGroup:btn_edit', 'userGroup:btn_del',
];

let seq = 0;
const newKey = () => `test-key-${Date.now()}-${++seq}-${crypto.randomBytes(4).toString('hex')}`;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, opts: { token?: string; key?: string } = {}) =>
  k.call(method, url, { token: opts.token ?? token, body, headers: opts.key ? { 'idempotency-key': opts.key } : {} });
const data = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, opts: { token?: string; key?: string } = {}) => {
  const res = await call(method, url, body, opts);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

let roomSeq = 0;
async function newRoom(tenant = a) {
  return createArea(k.db, { tenantId: tenant.tenantId, parentId: tenant.buildingId, level: 'room', name: `R${++roomSeq}` });
}
async function newAccount(extra: Record<string, unknown> = {}) {
  const room = await newRoom();
  return (await data('POST', '/api/v1/account', { projectId: a.projectId, name: `住户${++seq}`, phone: '13800138000', roomIds: [room], ...extra })).id as number;
}
const topup = (id: number, amountFen: number, key = newKey(), t?: string) => call('POST', `/api/v1/account/${id}/topup`, { amountFen, method: 'cash' }, { key, token: t });
const charge = (id: number, amountFen: number, key = newKey()) => call('POST', `/api/v1/account/${id}/charge`, { amountFen, reason: '测试扣费' }, { key });
const account = async (id: number) => data('GET', `/api/v1/account/${id}`);
/** sum of an account's entries per book, straight from the ledger table */
async function sums(id: number) {
  const rows = await k.db.selectFrom('ledger_entry').select(['book', 'amount_fen']).where('account_id', '=', id).execute();
  return {
    balance: rows.filter((r) => r.book === 'balance').reduce((s, r) => s + Number(r.amount_fen), 0),
    deposit: rows.filter((r) => r.book === 'deposit').reduce((s, r) => s + Number(r.amount_fen), 0),
    entries: rows.length,
  };
}

beforeAll(async () => {
  k = await startTestKelvin();
  a = await createTenantWithProject(k.db, 'mona', CODES);
  b = await createTenantWithProject(k.db, 'monb', CODES);
  token = await k.login(a.username, a.password);
  tokenB = await k.login(b.username, b.password);
  await createUser(k.db, { tenantId: a.tenantId, username: 'mona_approver', password: 'Approver#2026', codes: [...CODES, 'userRegister_n:refund_approve', 'userRegister_n:idnumber'] });
  approver = await k.login('mona_approver', 'Approver#2026');
  await createUser(k.db, { tenantId: a.tenantId, username: 'mona_clerk', password: 'Clerk#2026', codes: ['userRegister_n'] });
  clerk = await k.login('mona_clerk', 'Clerk#2026');
  rooms = [await newRoom(), await newRoom()];
});
afterAll(async () => {
  await k?.close();
});

describe('账户与资金：接口契约', () => {
  it('creates an account, tops it up once per key, lists its ledger (the issue contract)', async () => {
    const created = await call('POST', '/api/v1/account', { projectId: a.projectId, name: '张三', phone: '13800138000', roomIds: [rooms[0]] });
    expect(created.body).toMatchObject({ code: 200, data: { id: expect.any(Number) } });
    const id = created.body.data.id as number;
    expect(await account(id)).toMatchObject({ id, name: '张三', phone: '13800138000', balanceFen: 0, depositFen: 0, status: 'active', rooms: [{ id: rooms[0], name: expect.any(String) }] });

    const key = newKey();
    const first = await topup(id, 10000, key);
    expect(first.body).toMatchObject({ code: 200, data: { entryId: expect.any(Number), balanceFen: 10000 } });
    expect(first.body.data.receipt).toMatchObject({ amountFen: 10000, amountYuan: '100.00', amountInWords: '壹佰元整', accountName: '张三', method: 'cash' });
    const again = await topup(id, 10000, key);
    expect(again.body.data).toMatchObject({ entryId: first.body.data.entryId, balanceFen: 10000 });
    expect((await account(id)).balanceFen).toBe(10000);
    // the same key with another body is refused, in Chinese, and changes nothing
    const reused = await call('POST', `/api/v1/account/${id}/topup`, { amountFen: 500, method: 'cash' }, { key });
    expect(reused.status).toBe(409);
    expect(reused.body.msg).toMatch(/幂等键已用于另一笔/);
    expect((await account(id)).balanceFen).toBe(10000);

    await topup(id, 2050);
    const ledger = await data('GET', `/api/v1/account/${id}/ledger?pageNo=1&pageSize=1`);
    expect(ledger.total).toBe(2);
    expect(ledger.rows).toHaveLength(1);
    expect(ledger.rows[0]).toMatchObject({ id: expect.any(Number), kind: 'topup', amountFen: 2050, balanceAfterFen: 12050, createdAt: expect.any(Number) });
    const receipt = await data('GET', `/api/v1/account/entry/${ledger.rows[0].id}/receipt`);
    expect(receipt).toMatchObject({ amountInWords: '贰拾元伍角', amountYuan: '20.50', receiptNo: expect.stringMatching(/^R\d{8}\d{8}$/) });
  });

  it('refuses a money move without an idempotency key, bad amounts and online top-ups by hand', async () => {
    const id = await newAccount();
    const noKey = await call('POST', `/api/v1/account/${id}/topup`, { amountFen: 100, method: 'cash' });
    expect(noKey.body.code).toBe(40000);
    expect(noKey.body.msg).toMatch(/幂等键/);
    for (const amountFen of [0, -5, 1.5, '1.5', 'abc', 1e12, null]) {
      const bad = await call('POST', `/api/v1/account/${id}/topup`, { amountFen, method: 'cash' }, { key: newKey() });
      expect(bad.body.code, String(amountFen)).toBe(40000);
    }
    expect((await call('POST', `/api/v1/account/${id}/topup`, { amountFen: 100, method: 'online' }, { key: newKey() })).body.code).toBe(40000);
    expect(await sums(id)).toEqual({ balance: 0, deposit: 0, entries: 0 });
  });

  it('a room is held by one open account; masks phone and ID number in lists unless granted', async () => {
    const room = await newRoom();
    const id = await newAccount({ roomIds: [room], idNumber: '11010519491231002X' });
    const dup = await call('POST', '/api/v1/account', { projectId: a.projectId, name: '李四', phone: '13900139000', roomIds: [room] });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toMatch(/房间已被其他在用账户登记/);
    const list = await data('GET', `/api/v1/account?projectId=${a.projectId}&pageNo=1&pageSize=200`);
    const row = list.rows.find((r: { id: number }) => r.id === id);
    expect(row).toMatchObject({ phone: '138****8000', idNumber: '1101**********002X' });
    expect((await data('GET', `/api/v1/account/${id}`, undefined, { token: approver })).idNumber).toBe('11010519491231002X');
    const otherProjectRoom = await newRoom(b);
    const foreign = await call('POST', '/api/v1/account', { projectId: a.projectId, name: '王五', phone: '13700137000', roomIds: [otherProjectRoom] });
    expect(foreign.body.code).toBe(40000);
  });
});

describe('修改账户', () => {
  it('changes only what it names; rooms are replaced and the old ones freed; the phone has its own call', async () => {
    const [r1, r2] = [await newRoom(), await newRoom()];
    const id = await newAccount({ kind: 'company', roomIds: [r1] });
    const updated = await data('PUT', `/api/v1/account/${id}`, { name: '某某科技有限公司', roomIds: [r2] });
    expect(updated).toMatchObject({ name: '某某科技有限公司', kind: 'company', rooms: [{ id: r2 }] });
    expect(await newAccount({ roomIds: [r1] })).toEqual(expect.any(Number));
    expect(await data('PUT', `/api/v1/account/${id}/phone`, { phone: '13911112222' })).toEqual({ id, phone: '13911112222' });
    expect((await call('PUT', `/api/v1/account/${id}/phone`, { phone: '1391111' })).body.code).toBe(40000);
    expect((await account(id)).phone).toBe('13911112222');
  });
});

describe('退费、押金、限额', () => {
  it('a refund at or below the approval amount is done at once; above it waits for a second user', async () => {
    const id = await newAccount();
    await topup(id, 50000);
    // default approval amount 100.00 元
    const small = await data('POST', `/api/v1/account/${id}/refund`, { amountFen: 10000, reason: '多缴' }, { key: newKey() });
    expect(small).toMatchObject({ status: 'done', entryId: expect.any(Number), balanceFen: 40000 });
    const key = newKey();
    const big = await data('POST', `/api/v1/account/${id}/refund`, { amountFen: 20000, reason: '退租' }, { key });
    expect(big).toMatchObject({ status: 'pending', entryId: null, balanceFen: 40000 });
    expect(await data('POST', `/api/v1/account/${id}/refund`, { amountFen: 20000, reason: '退租' }, { key })).toEqual(big);
    // the requester cannot approve (no code); a user with the code but who asked for it neither
    expect((await call('POST', `/api/v1/account/refund/${big.refundId}/approve`, {})).body.code).toBe(40301);
    const selfReq = await data('POST', `/api/v1/account/${id}/refund`, { amountFen: 15000, reason: '自批' }, { key: newKey(), token: approver });
    const selfApprove = await call('POST', `/api/v1/account/refund/${selfReq.refundId}/approve`, {}, { token: approver });
    expect(selfApprove.body).toMatchObject({ code: 40300, msg: '退费审批须由申请人以外的另一位用户进行' });
    const done = await data('POST', `/api/v1/account/refund/${big.refundId}/approve`, { comment: '同意' }, { token: approver });
    expect(done).toMatchObject({ status: 'done', balanceFen: 20000 });
    expect((await call('POST', `/api/v1/account/refund/${big.refundId}/approve`, {}, { token: approver })).status).toBe(409);
    expect(await sums(id)).toMatchObject({ balance: 20000 });
    const list = await data('GET', `/api/v1/account/refund?userId=${id}&projectId=${a.projectId}`);
    expect(list.total).toBe(3);
    expect(list.rows.map((r: { status: string }) => r.status).sort()).toEqual(['done', 'done', 'pending']);
    const exported = await k.call('GET', `/api/v1/account/refund/export?userId=${id}`, { token });
    expect(exported.status).toBe(200);
    expect(String(exported.headers['content-type'])).toContain('spreadsheetml');
    // more than the balance is refused
    const over = await call('POST', `/api/v1/account/${id}/refund`, { amountFen: 20001, reason: '超额' }, { key: newKey() });
    expect(over.status).toBe(409);
  });

  it('deposits are a separate book: collect, deduct, refund; never below zero', async () => {
    const id = await newAccount();
    await topup(id, 1000);
    const c = await data('POST', '/api/v1/user/admindeposit/collect', { accountId: id, amountFen: 50000, reason: '门卡押金' }, { key: newKey() });
    expect(c).toMatchObject({ balanceFen: 1000, depositFen: 50000 });
    expect(await data('POST', '/api/v1/user/admindeposit/deduct', { accountId: id, amountFen: 12000, reason: '门卡损坏' }, { key: newKey() })).toMatchObject({ depositFen: 38000 });
    const over = await call('POST', '/api/v1/user/admindeposit/refund', { accountId: id, amountFen: 38001, reason: '退还' }, { key: newKey() });
    expect(over.status).toBe(409);
    expect(over.body.msg).toMatch(/押金不足/);
    expect(await data('POST', '/api/v1/user/admindeposit/refund', { accountId: id, amountFen: 38000, reason: '退还' }, { key: newKey() })).toMatchObject({ depositFen: 0, balanceFen: 1000 });
    expect(await sums(id)).toEqual({ balance: 1000, deposit: 0, entries: 4 });
  });

  it('userPayFeeUpper: single top-up and balance limits per project', async () => {
    await data('PUT', `/api/v1/account/settings/${a.projectId}`, { topupMaxFen: 100000, balanceMaxFen: 150000, refundApprovalFen: 10000, warning1Fen: 5000, warning2Fen: 2000, overdraftFen: 0 });
    const id = await newAccount();
    const tooMuch = await topup(id, 100001);
    expect(tooMuch.body).toMatchObject({ code: 40000, msg: '单次充值不能超过 1000.00 元' });
    await topup(id, 100000);
    const over = await topup(id, 50001);
    expect(over.status).toBe(409);
    expect(over.body.msg).toMatch(/超过上限 1500.00 元/);
    expect((await account(id)).balanceFen).toBe(100000);
    await data('PUT', `/api/v1/account/settings/${a.projectId}`, { topupMaxFen: null, balanceMaxFen: null, refundApprovalFen: 10000, warning1Fen: 5000, warning2Fen: 2000, overdraftFen: 0 });
  });
});

describe('并发与幂等', () => {
  it('the same key fired 20 times at once pays once', async () => {
    const id = await newAccount();
    const key = newKey();
    const all = await Promise.all(Array.from({ length: 20 }, () => topup(id, 777, key)));
    expect(all.every((r) => r.body.code === 200)).toBe(true);
    expect(new Set(all.map((r) => r.body.data.entryId)).size).toBe(1);
    expect(await sums(id)).toEqual({ balance: 777, deposit: 0, entries: 1 });
    expect((await account(id)).balanceFen).toBe(777);
  });

  it('top-ups and charges racing on one account leave the right balance', async () => {
    const id = await newAccount();
    // 40 top-ups of 1.00 元 and 40 charges of 0.30 元 at once: 4000 − 1200 = 2800 fen
    const calls = [...Array.from({ length: 40 }, () => topup(id, 100)), ...Array.from({ length: 40 }, () => charge(id, 30))];
    const res = await Promise.all(calls);
    expect(res.filter((r) => r.body.code !== 200).map((r) => r.body)).toEqual([]);
    expect((await account(id)).balanceFen).toBe(2800);
    expect(await sums(id)).toEqual({ balance: 2800, deposit: 0, entries: 80 });
    // every entry's balanceAfter is one step of a single sequence
    const entries = await k.db.selectFrom('ledger_entry').select(['amount_fen', 'balance_after_fen']).where('account_id', '=', id).orderBy('id').execute();
    let running = 0;
    for (const e of entries) {
      running += Number(e.amount_fen);
      expect(Number(e.balance_after_fen)).toBe(running);
    }
  });

  it('refunds racing for the same money: only what the balance holds goes out', async () => {
    const id = await newAccount();
    await topup(id, 10000);
    const res = await Promise.all(Array.from({ length: 10 }, () => call('POST', `/api/v1/account/${id}/refund`, { amountFen: 3000, reason: '并发退费' }, { key: newKey() })));
    expect(res.filter((r) => r.body.code === 200)).toHaveLength(3);
    expect((await account(id)).balanceFen).toBe(1000);
  });
});

describe('余额阈值事件', () => {
  it('crossings: worked examples (warning 1 = 50.00, warning 2 = 20.00, overdraft 0)', () => {
    const s = { warning1Fen: 5000, warning2Fen: 2000, overdraftFen: 0 };
    expect(crossings(6000, 4000, s)).toEqual(['warning1']);
    expect(crossings(6000, 1000, s)).toEqual(['warning1', 'warning2']);
    expect(crossings(1000, 0, s)).toEqual(['cutoff']);
    expect(crossings(6000, -100, s)).toEqual(['warning1', 'warning2', 'cutoff']);
    expect(crossings(0, 10000, s)).toEqual(['reconnect']);
    expect(crossings(4000, 3000, s)).toEqual([]);
    expect(crossings(100, 200, s)).toEqual([]);
    expect(crossings(-500, -200, { ...s, overdraftFen: 300 })).toEqual(['reconnect']);
    expect(crossings(-200, -300, { ...s, overdraftFen: 300 })).toEqual(['cutoff']);
  });

  it('records the events of a charge and a top-up and tells onBalanceEvent listeners', async () => {
    const seen: string[] = [];
    k.kelvin.accounts.onBalanceEvent((e) => {
      seen.push(`${e.accountId}:${e.kind}:${e.balanceFen}`);
    });
    const id = await newAccount();
    await topup(id, 6000);
    await charge(id, 6500);
    await topup(id, 1000);
    const list = await data('GET', `/api/v1/account/balanceevent?accountId=${id}`);
    expect(list.rows.map((e: { kind: string; balanceFen: number }) => `${e.kind}:${e.balanceFen}`).reverse()).toEqual(['warning1:-500', 'warning2:-500', 'cutoff:-500', 'reconnect:500']);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.filter((s) => s.startsWith(`${id}:`))).toEqual([`${id}:warning1:-500`, `${id}:warning2:-500`, `${id}:cutoff:-500`, `${id}:reconnect:500`]);
  });
});

describe('退户结算', () => {
  it('previews and settles in one transaction: deposit deducted, the rest refunded, rooms freed, account closed', async () => {
    const room = await newRoom();
    const id = await newAccount({ roomIds: [room] });
    await topup(id, 12345);
    await data('POST', '/api/v1/user/admindeposit/collect', { accountId: id, amountFen: 30000, reason: '押金' }, { key: newKey() });
    const order = await data('POST', `/api/v1/account/${id}/order`, { amountFen: 5000 }, { key: newKey() });
    const preview = await data('GET', `/api/v1/account/${id}/leave/check`);
    expect(preview).toMatchObject({ balanceFen: 12345, depositFen: 30000, unbilledFen: 0, netFen: 42345, pendingRefunds: 0, pendingOrders: [{ orderNo: order.orderNo }] });
    expect(preview.unbilledNote).toMatch(/已计费至 \d\d:\d\d/);
    const stale = await call('POST', `/api/v1/account/${id}/leave/clean`, { depositDeductFen: 5000, reason: '退租', expectedNetFen: 1 }, { key: newKey() });
    expect(stale.status).toBe(409);
    const done = await data('POST', `/api/v1/account/${id}/leave/clean`, { depositDeductFen: 5000, reason: '退租', expectedNetFen: 42345 }, { key: newKey() });
    expect(done).toMatchObject({ refundedBalanceFen: 12345, refundedDepositFen: 25000, deductedDepositFen: 5000, status: 'closed' });
    expect(await account(id)).toMatchObject({ status: 'closed', balanceFen: 0, depositFen: 0, rooms: [] });
    expect(await sums(id)).toMatchObject({ balance: 0, deposit: 0 });
    const orders = await data('GET', `/api/v1/deviceWxOrder/list?accountId=${id}`);
    expect(orders.rows[0]).toMatchObject({ status: 'closed' });
    expect((await topup(id, 100)).status).toBe(409);
    // the room is free for the next tenant
    expect(await newAccount({ roomIds: [room] })).toEqual(expect.any(Number));
  });

  it("snapshots the latest readings of the account's devices at move-out", async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20020' });
    await k.db.insertInto('device_state').values([{ device_id: dev.id, field_code: 'f03', num: 23.5, txt: null, ts: 1_700_000_000_000 }]).execute();
    const id = await newAccount({ deviceIds: [dev.id] });
    expect((await account(id)).devices).toEqual([{ id: dev.id, name: expect.any(String), code: dev.code }]);
    const done = await data('POST', `/api/v1/account/${id}/leave/clean`, { reason: '退租' }, { key: newKey() });
    expect(done.readings).toEqual([{ deviceId: dev.id, fieldCode: 'f03', value: 23.5, ts: 1_700_000_000_000 }]);
    // another tenant's device cannot be attached
    const foreign = await createTestDevice(k, { tenantId: b.tenantId, projectId: b.projectId, type: 'device20020' });
    expect((await call('POST', '/api/v1/account', { projectId: a.projectId, name: '设备户', phone: '13800138000', roomIds: [], deviceIds: [foreign.id] })).body.code).toBe(40000);
  });

  it('arrears are paid from the deposit; too little deposit refuses and changes nothing', async () => {
    const id = await newAccount();
    await data('POST', '/api/v1/user/admindeposit/collect', { accountId: id, amountFen: 1000, reason: '押金' }, { key: newKey() });
    await charge(id, 1500);
    const refused = await call('POST', `/api/v1/account/${id}/leave/clean`, { reason: '退租' }, { key: newKey() });
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/押金不足以抵扣/);
    expect((await account(id)).status).toBe('active');
    await data('POST', '/api/v1/user/admindeposit/collect', { accountId: id, amountFen: 1000, reason: '补押金' }, { key: newKey() });
    const done = await data('POST', `/api/v1/account/${id}/leave/clean`, { reason: '退租' }, { key: newKey() });
    expect(done).toMatchObject({ refundedBalanceFen: 0, refundedDepositFen: 500, deductedDepositFen: 1500 });
    expect(await sums(id)).toMatchObject({ balance: 0, deposit: 0 });
  });
});

describe('在线支付与对账', () => {
  it('sandbox: order → pay → one credit; the callback delivered three times credits once; a forged one is refused', async () => {
    const id = await newAccount();
    const key = newKey();
    const order = await data('POST', `/api/v1/account/${id}/order`, { amountFen: 8800 }, { key });
    expect(order).toMatchObject({ status: 'created', provider: 'sandbox', qrPayload: expect.stringContaining(order.orderNo) });
    expect((await data('POST', `/api/v1/account/${id}/order`, { amountFen: 8800 }, { key })).orderNo).toBe(order.orderNo);
    const paid = await data('POST', `/api/v1/payment/sandbox/${order.orderNo}/pay`);
    expect(paid).toMatchObject({ status: 'paid', entryId: expect.any(Number), duplicate: false });
    expect((await account(id)).balanceFen).toBe(8800);

    // the provider retries its notification: build the same notice with the install's sandbox key and send it 3 times
    const secret = (await k.db.selectFrom('secret').select('value').where('key', '=', 'payment_sandbox_key').executeTakeFirstOrThrow()).value;
    const n = sandboxNotification(secret, { orderNo: order.orderNo, txnId: 'SBX-retry', amountFen: 8800, paidAt: Date.now() });
    for (let i = 0; i < 3; i++) {
      const res = await k.call('POST', `/api/v1/payment/notify/${a.projectId}/sandbox`, { body: n.body, headers: n.headers });
      expect(res.body).toMatchObject({ code: 200, data: { duplicate: true } });
    }
    expect(await sums(id)).toMatchObject({ balance: 8800, entries: 1 });

    const second = await data('POST', `/api/v1/account/${id}/order`, { amountFen: 100 }, { key: newKey() });
    const forged = sandboxNotification('not-the-key', { orderNo: second.orderNo, txnId: 'X', amountFen: 100, paidAt: Date.now() });
    const refused = await k.call('POST', `/api/v1/payment/notify/${a.projectId}/sandbox`, { body: forged.body, headers: forged.headers });
    expect(refused.body).toMatchObject({ code: 40300, msg: '通知签名校验失败' });
    const tampered = sandboxNotification(secret, { orderNo: second.orderNo, txnId: 'X', amountFen: 100, paidAt: Date.now() });
    const res = await k.call('POST', `/api/v1/payment/notify/${a.projectId}/sandbox`, { body: tampered.body.replace('"amountFen":100', '"amountFen":100000'), headers: tampered.headers });
    expect(res.body.code).toBe(40300);
    expect((await account(id)).balanceFen).toBe(8800);
  });

  it('WeChat Pay v3: a callback signed with the platform key and encrypted with the APIv3 key credits; a bad signature does not', async () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const platformPrivate = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const platformPublic = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const apiV3Key = 'a'.repeat(16) + 'B'.repeat(16);
    const project = await createArea(k.db, { tenantId: a.tenantId, parentId: a.regionId, level: 'project', name: '微信项目', projectType: 'PT1011' });
    const saved = await data('POST', '/api/v1/payment/account', { projectId: project, provider: 'wechat', mchId: '1900000109', appId: 'wxd678efh567hg6787', apiKey: apiV3Key, platformPublicKey: platformPublic });
    expect(saved).toMatchObject({ provider: 'wechat', apiKeyMasked: '****BBBB', hasPlatformPublicKey: true });
    expect(JSON.stringify(saved)).not.toContain(apiV3Key);
    const stored = await k.db.selectFrom('payment_account').selectAll().where('project_id', '=', project).executeTakeFirstOrThrow();
    expect(stored.api_key_enc).not.toContain(apiV3Key);
    // an order made as the sandbox would (the real one calls WeChat over the network)
    const room = await createArea(k.db, { tenantId: a.tenantId, parentId: project, level: 'room', name: 'W101' });
    const id = (await data('POST', '/api/v1/account', { projectId: project, name: '微信用户', phone: '13600136000', roomIds: [room] })).id;
    const now = Date.now();
    await k.db.insertInto('payment_order').values({
      tenant_id: a.tenantId, project_id: project, account_id: id, order_no: 'WX-ORDER-1', provider: 'wechat', amount_fen: 2050, status: 'created', qr_payload: 'weixin://wxpay/bizpayurl?pr=test',
      provider_txn_id: null, entry_id: null, created_by: 'test', created_at: now, paid_at: null, closed_at: null,
    }).execute();
    const tx = { mchid: '1900000109', appid: 'wxd678efh567hg6787', out_trade_no: 'WX-ORDER-1', transaction_id: '4200000000000000001', trade_state: 'SUCCESS', amount: { total: 2050, currency: 'CNY' }, success_time: new Date(now).toISOString() };
    const good = wechatNotification(platformPrivate, apiV3Key, tx);
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const bad = wechatNotification(other, apiV3Key, tx);
    const refused = await k.call('POST', `/api/v1/payment/notify/${project}/wechat`, { body: bad.body, headers: bad.headers });
    expect(refused.body).toMatchObject({ code: 40300, msg: '微信支付通知签名校验失败' });
    const wrongKey = wechatNotification(platformPrivate, 'c'.repeat(32), tx);
    expect((await k.call('POST', `/api/v1/payment/notify/${project}/wechat`, { body: wrongKey.body, headers: wrongKey.headers })).body.msg).toBe('微信支付通知解密失败');
    for (let i = 0; i < 3; i++) {
      const res = await k.call('POST', `/api/v1/payment/notify/${project}/wechat`, { body: good.body, headers: good.headers });
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, data: { status: 'paid', duplicate: i > 0 } });
    }
    expect((await data('GET', `/api/v1/account/${id}`)).balanceFen).toBe(2050);
    expect((await call('DELETE', `/api/v1/payment/account/${project}`)).body.code).toBe(200);
  });

  it('核对账目: clean ledger has no rows; a cached balance moved behind the ledger and a paid order without an entry are listed', async () => {
    const id = await newAccount();
    await topup(id, 5000);
    const clean = await data('GET', `/api/v1/account/reconcile?projectId=${a.projectId}`);
    expect(clean.rows).toEqual([]);
    expect(clean.checkedAccounts).toBeGreaterThan(0);
    await k.db.updateTable('account').set({ balance_fen: 5001 }).where('id', '=', id).execute();
    const now = Date.now();
    await k.db.insertInto('payment_order').values({
      tenant_id: a.tenantId, project_id: a.projectId, account_id: id, order_no: 'LOST-1', provider: 'sandbox', amount_fen: 300, status: 'paid', qr_payload: null,
      provider_txn_id: 'T', entry_id: null, created_by: 'test', created_at: now, paid_at: now, closed_at: null,
    }).execute();
    const found = await data('GET', `/api/v1/account/reconcile?projectId=${a.projectId}`);
    expect(found.rows).toEqual(expect.arrayContaining([
      expect.objectContaining({ issue: 'balance_mismatch', accountId: id, expectedFen: 5000, actualFen: 5001 }),
      expect.objectContaining({ issue: 'paid_without_entry', orderNo: 'LOST-1', expectedFen: 300, actualFen: 0 }),
    ]));
    await k.db.updateTable('account').set({ balance_fen: 5000 }).where('id', '=', id).execute();
    await k.db.deleteFrom('payment_order').where('order_no', '=', 'LOST-1').execute();
  });
});

describe('租户隔离与权限', () => {
  it("another tenant's account is 404 for every call; no code is 40301; nothing changes", async () => {
    const id = await newAccount();
    await topup(id, 1000);
    for (const [method, url, body] of [
      ['GET', `/api/v1/account/${id}`, undefined], ['GET', `/api/v1/account/${id}/ledger`, undefined], ['GET', `/api/v1/account/${id}/leave/check`, undefined],
      ['POST', `/api/v1/account/${id}/topup`, { amountFen: 100, method: 'cash' }], ['POST', `/api/v1/account/${id}/refund`, { amountFen: 100, reason: 'x' }],
      ['POST', '/api/v1/user/admindeposit/collect', { accountId: id, amountFen: 100, reason: 'x' }], ['POST', `/api/v1/account/${id}/leave/clean`, { reason: 'x' }],
    ] as const) {
      const res = await call(method, url, body, { token: tokenB, key: newKey() });
      expect(res.body.code, `${method} ${url}`).toBe(40400);
    }
    const list = await data('GET', '/api/v1/account?pageSize=200', undefined, { token: tokenB });
    expect(list.rows.some((r: { id: number }) => r.id === id)).toBe(false);
    const denied = await call('POST', `/api/v1/account/${id}/topup`, { amountFen: 100, method: 'cash' }, { token: clerk, key: newKey() });
    expect(denied.body.code).toBe(40301);
    expect(await sums(id)).toEqual({ balance: 1000, deposit: 0, entries: 1 });
  });
});

describe('用户组与导入', () => {
  it('groups with a manager and members', async () => {
    const m1 = await newAccount();
    const m2 = await newAccount();
    await topup(m1, 1000);
    await topup(m2, 2500);
    const g = await data('POST', '/api/v1/account/group', { projectId: a.projectId, name: '某公司', managerAccountId: m1 });
    await data('PUT', `/api/v1/account/group/${g.id}/members`, { accountIds: [m1, m2] });
    const list = await data('GET', `/api/v1/account/group?projectId=${a.projectId}`);
    expect(list.rows.find((r: { id: number }) => r.id === g.id)).toMatchObject({ name: '某公司', managerAccountId: m1, memberCount: 2, balanceFen: 3500 });
    await data('POST', '/api/v1/account/group/delete', { ids: [g.id] });
    expect((await account(m1)).groupId).toBeNull();
  });

  it('imports accounts from Excel all or nothing', async () => {
    const floor = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: '9层' });
    await createArea(k.db, { tenantId: a.tenantId, parentId: floor, level: 'room', name: '901' });
    await createArea(k.db, { tenantId: a.tenantId, parentId: floor, level: 'room', name: '902' });
    const sheet = async (rows: string[][]) => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('账户');
      ws.addRow(['户名*', '手机号*', '类型', '证件号码', '房间', '入住日期', '备注']);
      for (const r of rows) ws.addRow(r);
      const form = new FormData();
      form.append('file', new Blob([Buffer.from(await wb.xlsx.writeBuffer())]), 'accounts.xlsx');
      return k.call('POST', `/api/v1/account/import?projectId=${a.projectId}`, { token, body: form });
    };
    const before = await k.db.selectFrom('account').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const bad = await sheet([['赵六', '13500135000', '住户', '', '1号楼/9层/901', '2026-09-01', ''], ['钱七', '123', '企业', '', '1号楼/9层/999', '', '']]);
    expect(bad.body.code).toBe(40000);
    expect(bad.body.msg).toMatch(/未导入任何数据/);
    expect((await k.db.selectFrom('account').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n).toBe(before.n);
    const good = await sheet([['赵六', '13500135000', '住户', '', '1号楼/9层/901', '2026-09-01', ''], ['钱七公司', '13400134000', '企业', '', '1号楼/9层/902', '', '']]);
    expect(good.body).toMatchObject({ code: 200, data: { rows: 2, created: 2 } });
    const tpl = await k.call('GET', '/api/v1/account/import/template', { token });
    expect(tpl.status).toBe(200);
  });
});
