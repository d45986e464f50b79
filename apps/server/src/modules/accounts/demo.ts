import type { Db } from '../../db/index.ts';
import { demoActor } from '../../db/seed/demo.ts';
import type { AccountService } from './service.ts';

const SURNAMES = '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗';
const GIVEN = ['伟', '芳', '娜', '敏', '静', '磊', '洋', '勇', '艳', '杰', '涛', '明'];

/**
 * The demo tenant's accounts: residents of the first rooms of the prepaid and deposit-based projects, topped up
 * through the real service (so the ledger, receipts and threshold events are real), a few charges, and deposits on
 * the deposit-based (105) project. Runs once, right after the demo tenant is seeded.
 */
export async function seedDemoAccounts(db: Db, accounts: AccountService): Promise<number> {
  const actor = await demoActor(db);
  if (!actor) return 0;
  const tenant = { id: actor.scope.tenantId };
  const projects = await db.selectFrom('area').select(['id', 'name', 'project_type2']).where('tenant_id', '=', tenant.id).where('level', '=', 'project')
    .where('project_type2', 'in', [101, 105]).orderBy('id').execute();
  let n = 0;
  for (const p of projects.slice(0, 3)) {
    const buildings = await db.selectFrom('area').select('id').where('parent_id', '=', p.id).orderBy('sort_no').orderBy('id').limit(1).execute();
    const floors = buildings.length ? await db.selectFrom('area').select('id').where('parent_id', '=', buildings[0].id).orderBy('sort_no').orderBy('id').limit(2).execute() : [];
    const rooms = floors.length ? await db.selectFrom('area').select(['id', 'name']).where('parent_id', 'in', floors.map((f) => f.id)).where('level', '=', 'room').orderBy('id').limit(6).execute() : [];
    for (const [i, room] of rooms.entries()) {
      const seq = n++;
      const name = SURNAMES[seq % SURNAMES.length] + GIVEN[(seq * 7) % GIVEN.length];
      const phone = `139${String(10_000_000 + seq * 7919).padStart(8, '0')}`;
      const { id } = await accounts.create(actor, { projectId: p.id, name, phone, roomIds: [room.id], kind: i === 5 ? 'company' : 'resident', moveInDate: '2026-09-01' });
      const key = (what: string) => `demo-seed-${id}-${what}`;
      await accounts.topup(actor, id, { amountFen: [10000, 20000, 5000, 30000, 8000, 50000][i], method: i % 2 ? 'bank' : 'cash' }, key('topup1'));
      if (i % 3 === 0) await accounts.charge(actor, id, { amountFen: 3560 + i * 100, reason: '示范：9 月用能扣费', causeType: 'demo' }, key('charge1'));
      if (i === 2) await accounts.charge(actor, id, { amountFen: 4000, reason: '示范：10 月用能扣费（触发余额预警）', causeType: 'demo' }, key('charge2'));
      if (p.project_type2 === 105) await accounts.deposit(actor, 'collect', { accountId: id, amountFen: 50000, reason: '示范：入住押金', roomId: room.id }, key('deposit'));
    }
  }
  return n;
}
