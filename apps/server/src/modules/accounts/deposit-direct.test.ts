import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode } from '@kelvin/contracts';
import { snapshot } from '../admin/fixtures.ts';
import { createArea, createUser, startTestKelvin, twoTenants, type TestClient, type TenantWithProject } from '../../test/harness.ts';

/** 押金充值 and 押金直充 (datacenter): the deposit collections with the filter's total, and batches credited once per account. */

const CODES = ['userRegister_n', 'userRegister_n:btn_add', 'userGroup', 'userGroup:btn_add', 'userGroup:btn_edit', 'depositRecharge', 'depositRecharge:btn_add',
  'depositRecharge:export', 'depositDirect', 'depositDirect:btn_add', 'devicedeposit:deposit'];

let k: TestClient;
let a: TenantWithProject;
let b: TenantWithProject;
let tokenA: string;
let tokenB: string;
let seq = 0;

const call = (method: 'GET' | 'POST', url: string, body?: unknown, o: { token?: string; key?: string } = {}) =>
  k.call(method, url, { token: o.token ?? tokenA, body, headers: o.key ? { 'idempotency-key': o.key } : {} });
async function data(method: 'GET' | 'POST', url: string, body?: unknown, o: { token?: string; key?: string } = {}) {
  const res = await call(method, url, body, o);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
async function newAccount(name = `直充户${++seq}`) {
  const room = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'room', name: `D${++seq}` });
  return (await data('POST', '/api/v1/account', { projectId: a.projectId, name, phone: '13800138000', roomIds: [room] })).id as number;
}
const depositOf = async (id: number) => Number((await k.db.selectFrom('account').select('deposit_fen').where('id', '=', id).executeTakeFirstOrThrow()).deposit_fen);
const entriesOf = async (id: number) => k.db.selectFrom('ledger_entry').selectAll().where('account_id', '=', id).where('book', '=', 'deposit').execute();

beforeAll(async () => {
  k = await startTestKelvin();
  ({ a, b, tokenA, tokenB } = await twoTenants(k, 'dep', CODES));
});
afterAll(() => k?.close());

describe('押金直充', () => {
  it('credits each account once; a retried batch credits nobody twice and retries only those that failed', async () => {
    const [x, y, z] = [await newAccount(), await newAccount(), await newAccount()];
    // z is closed: it fails in the first attempt
    await k.db.updateTable('account').set({ status: 'closed' }).where('id', '=', z).execute();
    const body = { projectId: a.projectId, accountIds: [x, y, z], amountFen: 30000, reason: '入住押金' };
    const first = await data('POST', '/api/v1/account/deposit/direct', body, { key: 'batch-key-0001' });
    expect(first).toMatchObject({ okCount: 2, failedCount: 1, creditedFen: 60000 });
    expect(first.rows.map((r: { accountId: number; ok: boolean; replayed: boolean }) => [r.accountId, r.ok, r.replayed])).toEqual([[x, true, false], [y, true, false], [z, false, false]]);
    expect(first.rows[2].error).toMatch(/已退户/);
    // z reopened; the same batch again: x and y answered from their first credit, z credited now
    await k.db.updateTable('account').set({ status: 'active' }).where('id', '=', z).execute();
    const again = await data('POST', '/api/v1/account/deposit/direct', body, { key: 'batch-key-0001' });
    expect(again.rows.map((r: { ok: boolean; replayed: boolean }) => [r.ok, r.replayed])).toEqual([[true, true], [true, true], [true, false]]);
    expect(again.rows[0].entryId).toBe(first.rows[0].entryId);
    for (const id of [x, y, z]) {
      expect(await depositOf(id)).toBe(30000);
      expect((await entriesOf(id)).map((e) => [e.kind, Number(e.amount_fen), e.cause_type, e.cause_id])).toEqual([['deposit_collect', 30000, 'deposit_direct', 'batch-key-0001']]);
    }
    // the same key with another amount is refused per account, changing nothing
    const before = await snapshot(k.db);
    const other = await data('POST', '/api/v1/account/deposit/direct', { ...body, amountFen: 100 }, { key: 'batch-key-0001' });
    expect(other.okCount).toBe(0);
    expect(other.rows[0].error).toMatch(/幂等键已用于另一笔/);
    expect(await snapshot(k.db)).toBe(before);
    // the batch list: one batch of 3 accounts, 900 元
    const batches = await data('GET', `/api/v1/account/deposit/direct?projectId=${a.projectId}`);
    expect(batches.rows.find((r: { batchKey: string }) => r.batchKey === 'batch-key-0001')).toMatchObject({ accounts: 3, totalFen: 90000, reason: '入住押金', operator: 'depa_user 用户' });
    const entries = await data('GET', '/api/v1/account/deposit/direct/batch-key-0001');
    expect(entries.map((e: { accountId: number }) => e.accountId)).toEqual([x, y, z]);
  });

  it('takes the active members of a user group', async () => {
    const [m1, m2] = [await newAccount(), await newAccount()];
    const g = await data('POST', '/api/v1/account/group', { projectId: a.projectId, name: '直充组' });
    await data('PUT' as 'POST', `/api/v1/account/group/${g.id}/members`, { accountIds: [m1, m2] });
    const res = await data('POST', '/api/v1/account/deposit/direct', { projectId: a.projectId, groupId: g.id, amountFen: 1234, reason: '组押金' }, { key: 'batch-group-0001' });
    expect(res.rows.map((r: { accountId: number; ok: boolean }) => [r.accountId, r.ok])).toEqual([[m1, true], [m2, true]]);
    expect(await depositOf(m1)).toBe(1234);
  });

  it("another tenant's accounts, project and batches do not exist for it", async () => {
    const x = await newAccount();
    await data('POST', '/api/v1/account/deposit/direct', { projectId: a.projectId, accountIds: [x], amountFen: 500, reason: '押金' }, { key: 'batch-tenant-a01' });
    const before = await snapshot(k.db);
    expect((await call('POST', '/api/v1/account/deposit/direct', { projectId: a.projectId, accountIds: [x], amountFen: 500, reason: '押金' }, { token: tokenB, key: 'batch-tenant-b01' })).body.code).toBe(ResultCode.NOT_FOUND);
    const ownProject = await data('POST', '/api/v1/account/deposit/direct', { projectId: b.projectId, accountIds: [x], amountFen: 500, reason: '押金' }, { token: tokenB, key: 'batch-tenant-b02' });
    expect(ownProject.rows[0]).toMatchObject({ ok: false, error: '账户不存在', accountName: '' });
    expect(await snapshot(k.db)).toBe(before);
    expect((await call('GET', '/api/v1/account/deposit/direct/batch-tenant-a01', undefined, { token: tokenB })).body.code).toBe(ResultCode.NOT_FOUND);
    expect((await data('GET', '/api/v1/account/deposit/direct', undefined, { token: tokenB })).total).toBe(0);
  });
});

describe('押金充值', () => {
  it('lists deposit collections with the total of the whole filter (equal to the ledger sum), by account and operator', async () => {
    const t0 = Date.now();
    const [x, y] = [await newAccount(), await newAccount()];
    const collect = (id: number, fen: number, key: string) => data('POST', '/api/v1/user/admindeposit/collect', { accountId: id, amountFen: fen, reason: '押金' }, { key });
    await collect(x, 10000, 'collect-key-x1');
    await collect(x, 2550, 'collect-key-x2');
    await collect(y, 7000, 'collect-key-y1');
    await data('POST', '/api/v1/user/admindeposit/refund', { accountId: x, amountFen: 550, reason: '退' }, { key: 'refund-key-x1' });
    const page = await data('GET', `/api/v1/account/deposit/collect?projectId=${a.projectId}&startTime=${t0}&pageSize=2`);
    expect(page.total).toBe(3);
    expect(page.rows).toHaveLength(2);
    expect(page.totalFen).toBe(19550);
    const ledger = await k.db.selectFrom('ledger_entry').select('amount_fen').where('kind', '=', 'deposit_collect').where('project_id', '=', a.projectId).where('created_at', '>=', t0).execute();
    expect(ledger.reduce((s, r) => s + Number(r.amount_fen), 0)).toBe(page.totalFen);
    expect((await data('GET', `/api/v1/account/deposit/collect?accountId=${x}`)).totalFen).toBe(12550);
    expect((await data('GET', `/api/v1/account/deposit/collect?startTime=${t0}&operator=${encodeURIComponent('depa_user')}`)).total).toBe(3);
    expect((await data('GET', `/api/v1/account/deposit/collect?startTime=${t0}&operator=nobody`)).totalFen).toBe(0);
  });

  it('depositRecharge:btn_add collects, but cannot deduct or refund', async () => {
    await createUser(k.db, { tenantId: a.tenantId, username: 'dep_clerk', password: 'Clerk#2026xx', codes: ['depositRecharge', 'depositRecharge:btn_add'] });
    const t = await k.login('dep_clerk', 'Clerk#2026xx');
    const x = await newAccount();
    await data('POST', '/api/v1/user/admindeposit/collect', { accountId: x, amountFen: 1000, reason: '押金' }, { token: t, key: 'clerk-collect-1' });
    const before = await snapshot(k.db);
    for (const action of ['deduct', 'refund']) {
      const res = await call('POST', `/api/v1/user/admindeposit/${action}`, { accountId: x, amountFen: 100, reason: '扣' }, { token: t, key: `clerk-${action}-1` });
      expect(res.body.code).toBe(ResultCode.NO_PERMISSION);
    }
    expect((await call('POST', '/api/v1/account/deposit/direct', { projectId: a.projectId, accountIds: [x], amountFen: 1, reason: 'x' }, { token: t, key: 'clerk-direct-1' })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect(await snapshot(k.db)).toBe(before);
  });
});
