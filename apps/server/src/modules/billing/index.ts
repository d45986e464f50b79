import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { AccountService } from '../accounts/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { createBillingConfig } from './config.ts';
import { billingConfigRoutes } from './config-routes.ts';

/**
 * The billing engine (design §8): configuration (versioned tariffs, device parameters, share teams, plans), the quote
 * calculator, charge runs from real readings into the accounts ledger (prepaid) or expense bills (postpaid), and the
 * prepaid loop that cuts off and reconnects devices through the device core.
 */
export function createBilling(deps: { db: Db; projects: ProjectService; core: DeviceCore; accounts: AccountService; onError(err: unknown): void }) {
  const config = createBillingConfig({ db: deps.db, projects: deps.projects, core: deps.core, accounts: deps.accounts });
  return {
    config,
    async routes(app: FastifyInstance) {
      await app.register(billingConfigRoutes, { config });
    },
  };
}

export type Billing = ReturnType<typeof createBilling>;
