import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';

export type DepartmentRow = Selectable<Database['department']>;
export type AssignmentRow = Selectable<Database['department_assignment']>;

/** The departments of one project, in tree order (sort number, then id). */
export const departmentsOf = (db: Db, tenantId: number, projectId: number) =>
  db.selectFrom('department').selectAll().where('tenant_id', '=', tenantId).where('project_id', '=', projectId).orderBy('sort_no').orderBy('id').execute();

/** Assignments of a project that hold on some day of [from, to) (to null: from `from` on). */
export function assignmentsIn(db: Db, tenantId: number, projectId: number, from: number, to: number | null) {
  let q = db.selectFrom('department_assignment').selectAll().where('tenant_id', '=', tenantId).where('project_id', '=', projectId)
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', from)]));
  if (to !== null) q = q.where('valid_from', '<', to);
  return q.orderBy('valid_from').orderBy('id').execute();
}

/**
 * The assignments of the same meter (or room) that share a day with [from, to): what a new or changed assignment
 * would overlap. `except` leaves out the one being changed.
 */
export function overlapping(db: Db, a: { projectId: number; kind: string; deviceId: number | null; areaId: number | null }, from: number, to: number | null, except: number[] = []) {
  let q = db.selectFrom('department_assignment').selectAll().where('project_id', '=', a.projectId).where('kind', '=', a.kind)
    .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', from)]));
  q = a.kind === 'device' ? q.where('device_id', '=', a.deviceId) : q.where('area_id', '=', a.areaId);
  if (to !== null) q = q.where('valid_from', '<', to);
  if (except.length) q = q.where('id', 'not in', except);
  return q.orderBy('valid_from').execute();
}

/**
 * Devices moved between areas of the project since `from` (device management's bind records), newest first: the
 * history that says which room a meter was in on an earlier day.
 */
export const movesSince = (db: Db, tenantId: number, projectId: number, from: number) =>
  db.selectFrom('device_bind_record').select(['device_id', 'from_area_id', 'to_area_id', 'at']).where('tenant_id', '=', tenantId).where('project_id', '=', projectId)
    .where('at', '>', from).where('device_id', 'is not', null).where('from_area_id', 'is not', null)
    .where((eb) => eb('to_area_id', 'is', null).or('from_area_id', '!=', eb.ref('to_area_id'))).orderBy('at', 'desc').orderBy('id', 'desc').execute();
