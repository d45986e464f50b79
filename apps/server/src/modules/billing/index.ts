import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { AccountService } from '../accounts/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { createBillingConfig } from './config.ts';
import { seedDemoBilling } from './demo.ts';
import { billingConfigRoutes } from './config-routes.ts';
import { createEngine, type HolidayLookup } from './engine.ts';
import { createPrepaidLoop, type SmsSender } from './prepaid.ts';
import { billingRoutes } from './routes.ts';
import { createBillingService } from './service.ts';

export type { HolidayLookup } from './engine.ts';
export type { SmsSender } from './prepaid.ts';

/** how often the schedule bills every project up to the last whole interval (prepaid: at least hourly) */
const DEFAULT_INTERVAL_MS = 15 * 60_000;

/**
 * The billing engine (design §8): configuration (versioned tariffs, device parameters, share teams, plans), the quote
 * calculator, charge runs from real readings into the accounts ledger (prepaid) or expense bills (postpaid), and the
 * prepaid loop that cuts off and reconnects devices through the device core.
 */
export function createBilling(deps: {
  db: Db; projects: ProjectService; core: DeviceCore; accounts: AccountService; sms: SmsSender; holidays?: HolidayLookup; onError(err: unknown): void;
}) {
  const { db } = deps;
  const config = createBillingConfig({ db, projects: deps.projects, core: deps.core, accounts: deps.accounts });
  const engine = createEngine({ db, config, core: deps.core, accounts: deps.accounts, holidays: deps.holidays, onError: deps.onError });
  const prepaid = createPrepaidLoop({ db, core: deps.core, accounts: deps.accounts, sms: deps.sms, projectName: (id) => deps.projects.projectName(id), onError: deps.onError });
  const service = createBillingService({ db, engine, config, projects: deps.projects, accounts: deps.accounts, prepaid });
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;

  /** Bills every project with active accounts up to the last whole interval (each run claimed once across processes). */
  async function tick(intervalMs: number, now = Date.now()) {
    if (ticking) return;
    ticking = true;
    try {
      const until = Math.floor(now / intervalMs) * intervalMs;
      const projects = await db.selectFrom('account').select('project_id').distinct().where('status', '=', 'active').execute();
      for (const p of projects) await engine.run(Number(p.project_id), until, 'schedule').catch(deps.onError);
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
    /** The demo tenant's tariffs, billed residents, share teams and a plan (once, after its devices are provisioned). */
    seedDemo: () => seedDemoBilling(db, config, deps.accounts),
    start(intervalMs = DEFAULT_INTERVAL_MS) {
      prepaid.start();
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
