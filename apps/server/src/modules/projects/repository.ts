import { compareAreaNames } from '@kelvin/contracts';
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { AreaTable } from '../../db/schema.ts';
import { scoped, type Scope } from '../../lib/scope.ts';

export type AreaRow = Awaited<ReturnType<typeof listAreas>>[number];

/** Every area row the scope's tenant(s) own; project grants are applied by the service. */
export async function listAreas(db: Db, scope: Scope, levels?: string[]) {
  let q = scoped(db.selectFrom('area').selectAll(), scope, { project: null });
  if (levels) q = q.where('level', 'in', levels);
  return sortAreas(await q.execute());
}

const OPERATOR_ORDERED = new Set(['region', 'project']);

/**
 * The order every tree and list of areas shows: buildings, floors and rooms in natural name order; regions and
 * projects in the order they were set up (the first project is the one the console opens on).
 */
export function sortAreas<T extends { name: string; id: number; level: string; sort_no: number }>(rows: T[]): T[] {
  const byOperator = (r: T) => OPERATOR_ORDERED.has(r.level);
  return rows.sort((a, b) => Number(byOperator(b)) - Number(byOperator(a))
    || (byOperator(a) ? a.sort_no - b.sort_no : compareAreaNames(a.name, b.name))
    || a.id - b.id);
}

export function findArea(db: Db, scope: Scope, id: number) {
  return scoped(db.selectFrom('area').selectAll().where('id', '=', id), scope, { project: null }).executeTakeFirst();
}

export function projectsQuery(db: Db, scope: Scope, filter: { name?: string; projectType?: string }) {
  // a project row is its own project: the grant filter applies to its id
  let q = scoped(db.selectFrom('area').where('level', '=', 'project'), scope, { project: 'id' });
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

/** Names among the children of `parentId` (top level: the tenant's regions) that are in `names`. */
export async function siblingNames(db: Db, tenantId: number, parentId: number | null, names: string[], exceptId?: number) {
  if (!names.length) return [];
  let q = db.selectFrom('area').select('name').where('tenant_id', '=', tenantId).where('name', 'in', names);
  q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.execute()).map((r) => r.name);
}

export async function deleteArea(db: Db, id: number) {
  await db.deleteFrom('area').where('id', '=', id).execute();
}

const countOf = (n: unknown) => Number(n ?? 0);

/** Buildings, floors, rooms and Σ room area of each project (rooms sit three levels below their project). */
export async function structureCounts(db: Db, projectIds: number[]) {
  const out = new Map<number, { buildings: number; floors: number; rooms: number; floorArea: number }>();
  for (const id of projectIds) out.set(id, { buildings: 0, floors: 0, rooms: 0, floorArea: 0 });
  if (!projectIds.length) return out;
  const buildings = await db.selectFrom('area as b')
    .select(['b.parent_id as projectId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('b.level', '=', 'building').where('b.parent_id', 'in', projectIds)
    .groupBy('b.parent_id').execute();
  const floors = await db.selectFrom('area as f').innerJoin('area as b', 'b.id', 'f.parent_id')
    .select(['b.parent_id as projectId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('f.level', '=', 'floor').where('b.parent_id', 'in', projectIds)
    .groupBy('b.parent_id').execute();
  const rooms = await db.selectFrom('area as r').innerJoin('area as f', 'f.id', 'r.parent_id').innerJoin('area as b', 'b.id', 'f.parent_id')
    .select(['b.parent_id as projectId', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('r.floor_area').as('area')])
    .where('r.level', '=', 'room').where('b.parent_id', 'in', projectIds)
    .groupBy('b.parent_id').execute();
  for (const r of buildings) out.get(Number(r.projectId))!.buildings = countOf(r.n);
  for (const r of floors) out.get(Number(r.projectId))!.floors = countOf(r.n);
  for (const r of rooms) {
    const c = out.get(Number(r.projectId))!;
    c.rooms = countOf(r.n);
    c.floorArea = Math.round(countOf(r.area) * 100) / 100;
  }
  return out;
}
