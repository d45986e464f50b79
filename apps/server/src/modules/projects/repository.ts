import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { AreaTable } from '../../db/schema.ts';
import type { Scope } from '../../lib/scope.ts';

export type AreaRow = Awaited<ReturnType<typeof listAreas>>[number];

/** Every area row the scope's tenant(s) own; project grants are applied by the service. */
export function listAreas(db: Db, scope: Scope, levels?: string[]) {
  let q = db.selectFrom('area').selectAll();
  if (!scope.isPlatform) q = q.where('tenant_id', '=', scope.tenantId);
  if (levels) q = q.where('level', 'in', levels);
  return q.orderBy('sort_no').orderBy('id').execute();
}

export function findArea(db: Db, scope: Scope, id: number) {
  let q = db.selectFrom('area').selectAll().where('id', '=', id);
  if (!scope.isPlatform) q = q.where('tenant_id', '=', scope.tenantId);
  return q.executeTakeFirst();
}

export function projectsQuery(db: Db, scope: Scope, filter: { name?: string; projectType?: string }) {
  let q = db.selectFrom('area').where('level', '=', 'project');
  if (!scope.isPlatform) q = q.where('tenant_id', '=', scope.tenantId);
  if (scope.projectIds) q = q.where('id', 'in', scope.projectIds.size ? [...scope.projectIds] : [-1]);
  if (filter.name) q = q.where('name', 'like', `%${filter.name}%`);
  if (filter.projectType) q = q.where('project_type', '=', filter.projectType);
  return q.selectAll();
}

export async function insertAreas(db: Db, rows: Insertable<AreaTable>[]) {
  return db.insertInto('area').values(rows).returning('id').execute();
}

export async function updateArea(db: Db, id: number, patch: Updateable<AreaTable>) {
  await db.updateTable('area').set(patch).where('id', '=', id).execute();
}

export async function countChildren(db: Db, id: number) {
  const row = await db.selectFrom('area').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', id).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function deleteArea(db: Db, id: number) {
  await db.deleteFrom('area').where('id', '=', id).execute();
}
