import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createTenantWithProject, startTestKelvin, type TestClient } from '../../test/harness.ts';

/**
 * Property: thousands of random money moves (top-ups, charges, refunds, deposit collect/deduct/refund) on a few
 * accounts, in concurrent batches, some retried with the same key (some of those at the same moment) → every cached
 * balance equals the sum of its entries, equals the sum of what the client saw acknowledged, and no key was applied
 * twice. Seeded, so a failure replays.
 */

const OPS = Number(process.env.MONEY_PROPERTY_OPS ?? 2000);
const SEED = Number(process.env.MONEY_PROPERTY_SEED ?? 20261123);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let k: TestClient;
let token: string;
let t: Awaited<ReturnType<typeof createTenantWithProject>>;
const ids: number[] = [];

beforeAll(async () => {
  k = await startTestKelvin();
  t = await createTenantWithProject(k.db, 'prop', ['userRegister_n', 'userRegister_n:btn_add', 'userRegister_n:btn_edit', 'userRegister_n:topup', 'userRegister_n:refund', 'userRegister_n:reconcile', 'devicedeposit', 'devicedeposit:deposit', 'userPayFeeUpper', 'userPayFeeUpper:btn_edit']);
  token = await k.login(t.username, t.password);
  // no limits and no approvals: every refund within the balance goes through at once
  await k.call('PUT', `/api/v1/account/settings/${t.projectId}`, { token, body: { topupMaxFen: null, balanceMaxFen: null, refundApprovalFen: 1_000_000_000, warning1Fen: 5000, warning2Fen: 2000, overdraftFen: 0 } });
  for (let i = 0; i < 5; i++) {
    const room = await createArea(k.db, { tenantId: t.tenantId, parentId: t.buildingId, level: 'room', name: `P${i}` });
    const res = await k.call('POST', '/api/v1/account', { token, body: { projectId: t.projectId, name: `性质${i}`, phone: '13800138000', roomIds: [room] } });
    ids.push(res.body.data.id);
  }
});
afterAll(async () => {
  await k?.close();
});

type Op = { url: string; body: Record<string, unknown>; key: string; account: number; book: 'balance' | 'deposit'; delta: number };

describe('账本性质测试', () => {
  it(`${OPS} random moves, concurrent and retried: balances = Σ entries = Σ acknowledged, no key twice`, async () => {
    const rand = rng(SEED);
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
    const amount = () => 1 + Math.floor(rand() * 5000);
    const expected = new Map<string, number>();
    const acknowledged = new Map<string, { entryId: number }>();
    const done: Op[] = [];
    let n = 0;
    let batchNo = 0;
    while (n < OPS) {
      const size = 1 + Math.floor(rand() * 12);
      const batch: Op[] = [];
      for (let i = 0; i < size && n < OPS; i++, n++) {
        const account = pick(ids);
        const key = `prop-${SEED}-${batchNo}-${i}`;
        const a = amount();
        const r = rand();
        if (r < 0.35) batch.push({ url: `/api/v1/account/${account}/topup`, body: { amountFen: a, method: pick(['cash', 'bank']) }, key, account, book: 'balance', delta: a });
        else if (r < 0.6) batch.push({ url: `/api/v1/account/${account}/charge`, body: { amountFen: a, reason: '性质测试扣费' }, key, account, book: 'balance', delta: -a });
        else if (r < 0.75) batch.push({ url: `/api/v1/account/${account}/refund`, body: { amountFen: a, reason: '性质测试退费' }, key, account, book: 'balance', delta: -a });
        else if (r < 0.87) batch.push({ url: '/api/v1/user/admindeposit/collect', body: { accountId: account, amountFen: a, reason: '押金' }, key, account, book: 'deposit', delta: a });
        else if (r < 0.94) batch.push({ url: '/api/v1/user/admindeposit/deduct', body: { accountId: account, amountFen: a, reason: '扣押金' }, key, account, book: 'deposit', delta: -a });
        else batch.push({ url: '/api/v1/user/admindeposit/refund', body: { accountId: account, amountFen: a, reason: '退押金' }, key, account, book: 'deposit', delta: -a });
        // a retry of an earlier acknowledged move (same key, same body): must answer the same entry and change nothing
        if (done.length && rand() < 0.1) batch.push({ ...pick(done), delta: 0 });
      }
      // some of the batch again at the same moment: racing retries
      const racing = batch.filter(() => rand() < 0.15).map((op) => ({ ...op }));
      const all = [...batch, ...racing];
      const res = await Promise.all(all.map((op) => k.call('POST', op.url, { token, body: op.body, headers: { 'idempotency-key': op.key } })));
      const firstOfKey = new Map<string, number>();
      all.forEach((op, i) => {
        const body = res[i].body;
        if (body.code !== 200) {
          // only refusals for want of money; a racing twin of a refused op is refused the same way
          expect(res[i].status, JSON.stringify(body)).toBe(409);
          expect(body.msg).toMatch(/不足|超过余额/);
          return;
        }
        const entryId = body.data.entryId as number;
        const seen = acknowledged.get(op.key);
        if (seen) {
          expect(entryId, `key ${op.key} answered another entry`).toBe(seen.entryId);
          return;
        }
        if (firstOfKey.has(op.key)) return;
        firstOfKey.set(op.key, entryId);
        acknowledged.set(op.key, { entryId });
        if (op.delta !== 0) {
          const ek = `${op.account}:${op.book}`;
          expected.set(ek, (expected.get(ek) ?? 0) + op.delta);
          done.push(op);
        }
      });
      batchNo++;
    }

    const entries = await k.db.selectFrom('ledger_entry').select(['account_id', 'book', 'amount_fen', 'idem_key']).where('account_id', 'in', ids).execute();
    const keyed = entries.map((e) => e.idem_key).filter(Boolean);
    expect(new Set(keyed).size, 'a key applied twice').toBe(keyed.length);
    expect(keyed.length).toBe(acknowledged.size);
    for (const id of ids) {
      const acc = await k.db.selectFrom('account').select(['balance_fen', 'deposit_fen']).where('id', '=', id).executeTakeFirstOrThrow();
      const sum = (book: string) => entries.filter((e) => e.account_id === id && e.book === book).reduce((s, e) => s + Number(e.amount_fen), 0);
      expect(Number(acc.balance_fen)).toBe(sum('balance'));
      expect(Number(acc.deposit_fen)).toBe(sum('deposit'));
      expect(Number(acc.balance_fen)).toBe(expected.get(`${id}:balance`) ?? 0);
      expect(Number(acc.deposit_fen)).toBe(expected.get(`${id}:deposit`) ?? 0);
      expect(Number(acc.deposit_fen)).toBeGreaterThanOrEqual(0);
    }
    const rec = await k.call('GET', `/api/v1/account/reconcile?projectId=${t.projectId}`, { token });
    expect(rec.body.data.rows).toEqual([]);
  }, 300_000);
});
