import type { FastifyInstance } from 'fastify';
import { schemeOf } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { AccountService } from '../accounts/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { createBillingConfig } from './config.ts';
import { seedDemoBilling } from './demo.ts';
import { billingConfigRoutes } from './config-routes.ts';
import { createEngine, type HolidayLookup, type OvertimeLookup } from './engine.ts';
import { createPrepaidLoop, type SmsSender } from './prepaid.ts';
import { billingRoutes } from './routes.ts';
import { createBillingService } from './service.ts';

export type { HolidayLookup, OvertimeLookup } from './engine.ts';
export type { SmsSender } from './prepaid.ts';
/** the exact money arithmetic and the stored tariff document, for readers of billing's tables (the money reports) */
export { amountFen, quantize, scaleFen, touKindAt } from './formulas.ts';
export { tariffDocOf } from './config.ts';

/** how often the schedule bills every project up to the last whole interval (prepaid: at least hourly) */
const DEFAULT_INTERVAL_MS = 15 * 60_000;

/**
 * The billing engine (design §8): configuration (versioned tariffs, device parameters, share teams, plans), the quote
 * calculator, charge runs from real readings into the accounts ledger (prepaid) or expense bills (postpaid), and the
 * prepaid loop that cuts off and reconnects devices through the device core.
 */
export function createBilling(deps: {
  db: Db; projects: ProjectService; core: DeviceCore; accounts: AccountService; sms: SmsSender; holidays?: HolidayLookup; overtime?: OvertimeLookup; onError(err: unknown): void;
}) {
  const { db } = deps;
  const config = createBillingConfig({ db, projects: deps.projects, core: deps.core, accounts: deps.accounts });
  const engine = createEngine({ db, config, core: deps.core, accounts: deps.accounts, holidays: deps.holidays, overtime: deps.overtime });
  const prepaid = createPrepaidLoop({ db, core: deps.core, accounts: deps.accounts, sms: deps.sms, projectName: (id) => deps.projects.projectName(id), onError: deps.onError });
  const service = createBillingService({ db, engine, config, projects: deps.projects, accounts: deps.accounts, prepaid });
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;
  /** the interval boundary this process last billed up to: the timer wakes every minute, the work is once an interval */
  let billedUntil = 0;

  /** Bills every project with active accounts up to the last whole interval (each run claimed once across processes). */
  async function tick(intervalMs: number, now = Date.now()) {
    const until = Math.floor(now / intervalMs) * intervalMs;
    if (ticking || until === billedUntil) return;
    ticking = true;
    try {
      const projects = await db.selectFrom('account').select('project_id').distinct().where('status', '=', 'active').execute();
      for (const p of projects) {
        await engine.run(Number(p.project_id), until, 'schedule').catch(deps.onError);
        // postpaid: a period that has just closed is issued as bills (出账 by hand does the same, earlier if wanted)
        await service.issueClosedPeriod(Number(p.project_id), now).catch(deps.onError);
      }
      // a version saved ahead of time takes effect: the project's scheme (menus, report groups) follows it
      for (const p of await db.selectFrom('billing_tariff').select('project_id').distinct().execute()) {
        const projectId = Number(p.project_id);
        const scheme = (await config.tariffAt(projectId, now)).doc.scheme;
        if ((await deps.projects.billingScheme(projectId)) !== scheme) await deps.projects.setBillingScheme(projectId, scheme);
      }
      billedUntil = until;
    } finally {
      ticking = false;
    }
  }

  return {
    config,
    engine,
    service,
    /** balance threshold events from accounts (wired in app.ts) */
    onBalanceEvent: prepaid.onBalanceEvent,
    /** command outcomes from the device core (wired in app.ts) */
    onCommandFinished: prepaid.onCommandFinished,
    prepaid,
    tick,
    /**
     * Before a move-out settlement: bills the account's project up to now, so a prepaid balance holds every use; a
     * postpaid account's use not yet on a paid bill is what the settlement must collect.
     */
    async beforeSettlement(projectId: number, accountId: number): Promise<{ unbilledFen: number; note: string }> {
      await engine.run(projectId, Date.now(), 'settlement');
      const scheme = (await config.tariffAt(projectId, Date.now())).doc.scheme;
      const open = await db.selectFrom('billing_line').select((eb) => eb.fn.sum<number>('amount_fen').as('fen')).where('account_id', '=', accountId).where('entry_id', 'is', null)
        .where((eb) => eb.or([eb('bill_id', 'is', null), eb('bill_id', 'in', eb.selectFrom('billing_bill').select('id').where('account_id', '=', accountId).where('status', '=', 'issued'))]))
        .executeTakeFirst();
      const unbilledFen = Number(open?.fen ?? 0);
      const at = new Date(Date.now() + 8 * 3600_000).toISOString().slice(11, 16);
      return schemeOf(scheme)?.prepaid
        ? { unbilledFen, note: `已计费至 ${at}，用能费用已从余额扣除` }
        : { unbilledFen, note: `后付费：截至 ${at} 未出账及未缴账单的费用` };
    },
    /** Marks what a move-out settlement collected: the account's open lines and unpaid bills carry its ledger entry. */
    async settled(accountId: number, entryId: number) {
      const now = Date.now();
      await db.updateTable('billing_line').set({ entry_id: entryId }).where('account_id', '=', accountId).where('entry_id', 'is', null).execute();
      await db.updateTable('billing_bill').set({ status: 'paid', paid_at: now, pay_method: 'settlement', paid_by: '迁出结算', entry_id: entryId })
        .where('account_id', '=', accountId).where('status', '=', 'issued').execute();
    },
    /** The demo tenant's tariffs, billed residents, share teams and a plan (once, after its devices are provisioned). */
    seedDemo: () => seedDemoBilling(db, config, deps.accounts),
    start(intervalMs = DEFAULT_INTERVAL_MS) {
      prepaid.start();
      if (intervalMs <= 0) return;
      timer = setInterval(() => void tick(intervalMs).catch(deps.onError), Math.min(intervalMs, 60_000));
      timer.unref?.();
    },
    stop() {
      prepaid.stop();
      if (timer) clearInterval(timer);
      timer = null;
    },
    async routes(app: FastifyInstance) {
      await app.register(billingConfigRoutes, { config });
      await app.register(billingRoutes, { service });
    },
  };
}

export type Billing = ReturnType<typeof createBilling>;
