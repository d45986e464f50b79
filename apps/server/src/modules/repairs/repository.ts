import type { Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { scoped, type Scope } from '../../lib/scope.ts';

export type Trx = Db | Transaction<Database>;

export type RepairRow = Selectable<Database['repair_record']>;
export type PhotoRow = Selectable<Database['repair_photo']>;

/** The repair records the scope may see (tenant, granted projects). */
export const recordsOf = (db: Trx, scope: Scope) => scoped(db.selectFrom('repair_record'), scope);

export async function photoCounts(db: Trx, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('repair_photo').select(['repair_id', (eb) => eb.fn.countAll<number>().as('n')]).where('repair_id', 'in', ids).groupBy('repair_id').execute();
  return new Map(rows.map((r) => [r.repair_id, Number(r.n)]));
}

export const photosOf = (db: Trx, repairId: number) =>
  db.selectFrom('repair_photo').selectAll().where('repair_id', '=', repairId).orderBy('id').execute();

export const eventsOf = (db: Trx, repairId: number) => db.selectFrom('repair_event').selectAll().where('repair_id', '=', repairId).orderBy('at').orderBy('id').execute();

/**
 * Users of the tenant who may take a repair of the project: enabled, not the platform administrator, and seeing the
 * project (all projects, or granted it). Read here, written by admin.
 */
export function assignees(db: Trx, tenantId: number, projectId: number) {
  return db.selectFrom('app_user').select(['id', 'name', 'username'])
    .where('tenant_id', '=', tenantId).where('enabled', '=', 1).where('is_platform', '=', 0)
    .where((eb) => eb.or([eb('all_projects', '=', 1), eb('id', 'in', eb.selectFrom('user_project').select('user_id').where('project_id', '=', projectId))]))
    .orderBy('name').orderBy('id');
}

export const likeText = (s: string) => `%${s}%`;
