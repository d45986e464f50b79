import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import { dictionaryRoutes } from './routes.ts';
import { createDictionaryService } from './service.ts';

export type { DictionaryService } from './service.ts';

/**
 * 数据字典: the enumerations of packages/contracts (project types, billing schemes, device types and their fields,
 * alarm severities, statuses …) as dictionaries, with per-tenant display names for the ones a tenant may rename.
 */
export function createDictionary(deps: { db: Db }) {
  const dictionary = createDictionaryService(deps.db);
  return {
    dictionary,
    /** A tenant's own display names (a deleted tenant's go with it). */
    removeTenant: (trx: Db, tenantId: number) => trx.deleteFrom('dict_override').where('tenant_id', '=', tenantId).execute().then(() => undefined),
    async routes(app: FastifyInstance) {
      await app.register(dictionaryRoutes, { dictionary });
    },
  };
}
