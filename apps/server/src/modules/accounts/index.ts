import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { IMPORT_MAX_BYTES } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { seedDemoAccounts } from './demo.ts';
import { createAccountImports } from './imports.ts';
import { accountRoutes } from './routes.ts';
import { createAccountService, type BalanceListener, type DeviceLookup, type ReadingsLookup } from './service.ts';

export type { BalanceEvent, Mover } from './ledger.ts';
/** the CST day an instant falls in, as ledger_day keys it */
export { cstDayStart } from './ledger.ts';
export type { AccountService, AccountWithRooms, BalanceListener, BillingAccount, DeviceLookup, ReadingsLookup, UnbilledSource } from './service.ts';
export { amountInWords } from '@kelvin/contracts';
export { sandboxNotification, wechatNotification } from './payments.ts';
/** the Idempotency-Key header, for other modules' money moves (billing's bill payment) */
export { idempotencyHeader, idempotencyKeyOf } from './routes.ts';

/**
 * Accounts and money: the people billed, their prepaid balance and deposit on one append-only ledger (integer fen,
 * every change an entry in the same transaction), idempotent money moves, refunds with approval, move-out
 * settlement, payment accounts and orders (sandbox and WeChat Pay v3), reconciliation, threshold events.
 */
export function createAccounts(deps: { db: Db; projects: ProjectService; device: DeviceLookup; readings?: ReadingsLookup; onError(err: unknown): void }) {
  const accounts = createAccountService(deps);
  const imports = createAccountImports({ db: deps.db, projects: deps.projects });
  return {
    accounts,
    /** Balance threshold events (warning 1, warning 2, cut-off, reconnect), after their transaction committed. */
    onBalanceEvent: (listener: BalanceListener) => accounts.onBalanceEvent(listener),
    /** The demo tenant's accounts and their money, through the service (once, after the demo tenant is seeded). */
    seedDemo: () => seedDemoAccounts(deps.db, accounts),
    async routes(app: FastifyInstance) {
      await app.register(async (scope) => {
        await scope.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
        await accountRoutes(scope, { accounts, imports });
      });
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
