import { DEFAULT_TARIFF, DEVICE_TYPE_BY_CODE, schemeOf, type BillingMethod, type TariffBody } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { demoActor } from '../../db/seed/demo.ts';
import type { AccountService } from '../accounts/index.ts';
import type { BillingConfig } from './config.ts';

const SURNAMES = '钱孙周吴郑冯陈褚卫蒋沈韩杨朱秦尤许何吕施';
const GIVEN = ['建国', '秀英', '志强', '丽娟', '海涛', '晓燕', '国华', '春梅'];

/** Unit prices a real operator of each method would start from (元; all editable on the configuration screens). */
const PRICE: Record<BillingMethod, string> = {
  timeEquivalent: '2.5000', energyEquivalent: '0.8500', heat: '85.0000', ladder: '0.5283', shareTime: '0.9000', shareEnergy: '0.9000',
  shareArea: '85.0000', heatTwoPart: '85.0000', onOffTimeArea: '85.0000', shareMixed: '0.9000', flat: '120.0000',
};
const PLANT_CATEGORIES = new Set(['electricMeter', 'heatMeter']);
const SHARE_PLANT_TYPES = new Set(['device20090', 'calorimeter']);

/**
 * The demo tenant's billing: a saved tariff for every project with a scheme (TOU on the V2 AC building), residents on
 * the rooms whose devices report in the billing projects that have none yet, share teams with the cold-station or
 * building meter as the total (and a second meter as the public area) on the cost-share projects, and one metering
 * plan. Runs once, after the simulated devices are provisioned; the schedule then bills what the simulator reports.
 */
export async function seedDemoBilling(db: Db, config: BillingConfig, accounts: AccountService): Promise<number> {
  const actor = await demoActor(db);
  if (!actor) return 0;
  const tenant = { id: actor.scope.tenantId };
  const now = Date.now();
  const projects = await db.selectFrom('area').select(['id', 'name', 'project_type', 'billing_scheme']).where('tenant_id', '=', tenant.id).where('level', '=', 'project')
    .where('billing_scheme', 'is not', null).orderBy('id').execute();
  let opened = 0;
  for (const p of projects) {
    const scheme = schemeOf(p.billing_scheme)!;
    const body: TariffBody = {
      ...DEFAULT_TARIFF, scheme: scheme.value, price: PRICE[scheme.method], effectiveFrom: now - 7 * 86_400_000, remark: '示范：开通计费',
      ...(p.project_type === 'PT2015' && { tou: { ...DEFAULT_TARIFF.tou, enabled: true, prices: { peak: '3.2000', flat: '2.5000', valley: '1.2000' } } }),
    };
    await config.saveTariff(actor, p.id, body);

    const devices = await db.selectFrom('device').select(['id', 'area_id', 'device_type']).where('project_id', '=', p.id).orderBy('id').execute();
    const plant = devices.filter((d) => SHARE_PLANT_TYPES.has(d.device_type) && ['shareTime', 'shareEnergy', 'shareArea', 'onOffTimeArea', 'shareMixed'].includes(scheme.method));
    const plantIds = new Set(plant.map((d) => d.id));
    const held = await db.selectFrom('account').select('id').where('project_id', '=', p.id).executeTakeFirst();
    let accountIds: number[] = [];
    if (!held) {
      const taken = new Set((await db.selectFrom('account_room').select('room_id').where('active', '=', 1).execute()).map((r) => r.room_id));
      // meters are what the metered methods bill; elsewhere a meter is plant, not a resident's device
      const metered = scheme.method === 'ladder' || scheme.method === 'heat' || scheme.method === 'heatTwoPart';
      const billable = devices.filter((d) => d.area_id !== null && !plantIds.has(d.id) && (metered || !PLANT_CATEGORIES.has(DEVICE_TYPE_BY_CODE.get(d.device_type)?.category ?? '')));
      const roomsWithDevices = [...new Set(billable.map((d) => d.area_id!))].filter((id) => !taken.has(id));
      const rooms = await db.selectFrom('area').select(['id', 'level']).where('id', 'in', roomsWithDevices.length ? roomsWithDevices : [-1]).where('level', '=', 'room').orderBy('id').limit(3).execute();
      for (const [i, room] of rooms.entries()) {
        const seq = opened++;
        const name = SURNAMES[seq % SURNAMES.length]! + GIVEN[seq % GIVEN.length];
        const phone = `137${String(20_000_000 + seq * 6151).padStart(8, '0')}`;
        const { id } = await accounts.create(actor, { projectId: p.id, name, phone, roomIds: [room.id], kind: 'resident', moveInDate: '2026-10-01' });
        accountIds.push(id);
        if (scheme.prepaid) await accounts.topup(actor, id, { amountFen: [30_000, 50_000, 8_000][i] ?? 20_000, method: 'cash' }, `demo-billing-${id}-topup`);
      }
    } else {
      accountIds = (await db.selectFrom('account').select('id').where('project_id', '=', p.id).where('status', '=', 'active').execute()).map((a) => a.id);
    }
    // the cost-share projects: one team of every account, the first plant meter as the total and the second as the public area
    if (plant.length && accountIds.length) {
      const team = await config.saveTeam(actor, null, { projectId: p.id, name: '1号楼分摊组', remark: '示范：整栋分摊' });
      await config.addMembers(actor, { shareTeamId: team.id, accountIds });
      await config.addRelations(actor, { shareTeamId: team.id, deviceIds: [plant[0]!.id], role: 'total' });
      if (plant[1] && scheme.method !== 'onOffTimeArea' && scheme.method !== 'shareArea') await config.addRelations(actor, { shareTeamId: team.id, deviceIds: [plant[1].id], role: 'public' });
    }
    // one metering plan: the energy-equivalent building bills its public fan coils by run time
    if (scheme.method === 'energyEquivalent' && p.project_type === 'PT2016') {
      const plan = await config.saveProjectPlan(actor, null, { projectId: p.id, name: '公共区域风机盘管', meteringMethodType: 'timeEquivalent', price: '1.8000', effectiveFrom: now - 7 * 86_400_000, remark: '示范' });
      const rooms = new Set((await db.selectFrom('account_room').select('room_id').where('account_id', 'in', accountIds.length ? accountIds : [-1]).execute()).map((r) => r.room_id));
      const free = devices.find((d) => d.device_type === 'device20040' && d.area_id !== null && rooms.has(d.area_id)) ?? devices.find((d) => d.device_type === 'device20040');
      if (free) await config.addDevicePlans(actor, { projectPlanId: plan.id, deviceIds: [free.id], effectiveFrom: now - 86_400_000 });
    }
  }
  return opened;
}
