import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestKelvin, type TestClient } from '../../test/harness.ts';

let k: TestClient;
let token: string;

beforeAll(async () => {
  k = await startTestKelvin({ demo: true });
  token = await k.login(k.kelvin.firstStart.demo!.username, k.kelvin.firstStart.demo!.password);
});
afterAll(async () => {
  await k?.close();
});

describe('示范数据：账户与真实流水', () => {
  it('seeds accounts topped up through the service, deposits on the 105 project, and a ledger that reconciles', async () => {
    const list = (await k.call('GET', '/api/v1/account?pageSize=200', { token })).body.data;
    // 18 residents of the accounts demo (139…), more opened by the billing demo on its billing projects (137…)
    expect(list.rows.filter((r: { phone: string }) => r.phone.startsWith('139'))).toHaveLength(18);
    expect(list.total).toBeGreaterThan(18);
    const deposit = list.rows.filter((r: { depositFen: number }) => r.depositFen === 50000);
    expect(deposit).toHaveLength(6);
    expect(new Set(deposit.map((r: { projectName: string }) => r.projectName))).toEqual(new Set(['滨河热计量小区']));
    // first room's resident: 100.00 元 in cash, then a 35.60 元 charge → 64.40 元
    const first = list.rows.at(-1);
    expect(first).toMatchObject({ balanceFen: 6440, phone: expect.stringMatching(/^139\*{4}\d{4}$/) });
    const ledger = (await k.call('GET', `/api/v1/account/${first.id}/ledger`, { token })).body.data;
    expect(ledger.rows.map((r: { kind: string; amountFen: number; balanceAfterFen: number }) => [r.kind, r.amountFen, r.balanceAfterFen])).toEqual([['charge', -3560, 6440], ['topup', 10000, 10000]]);
    const receipt = (await k.call('GET', `/api/v1/account/entry/${ledger.rows[1].id}/receipt`, { token })).body.data;
    expect(receipt).toMatchObject({ amountInWords: '壹佰元整', operator: '示范运营员' });
    const events = (await k.call('GET', '/api/v1/account/balanceevent', { token })).body.data;
    expect(events.total).toBeGreaterThan(0);
    const rec = (await k.call('GET', '/api/v1/account/reconcile', { token })).body.data;
    expect(rec).toMatchObject({ checkedAccounts: list.total, rows: [] });
  });
});
