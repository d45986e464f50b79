import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DeviceCardTable, DeviceTable } from '../../db/schema.ts';
import type { Scope } from '../../lib/scope.ts';

export type DeviceDbRow = Selectable<DeviceTable>;
export type CardRow = Selectable<DeviceCardTable>;

/** Devices of the scope (tenant, granted projects): the base of every management read. */
export function scopedDevices(db: Db, scope: Scope) {
  let q = db.selectFrom('device');
  if (!scope.isPlatform) q = q.where('tenant_id', '=', scope.tenantId);
  if (scope.projectIds) q = q.where('project_id', 'in', scope.projectIds.size ? [...scope.projectIds] : [-1]);
  return q;
}

export function deviceById(db: Db, scope: Scope, id: number) {
  return scopedDevices(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
}

export function deviceByCode(db: Db, code: string) {
  return db.selectFrom('device').selectAll().where('device_code', '=', code).executeTakeFirst();
}

export async function cardsOf(db: Db, tenantIds: number[], codes: string[]) {
  if (!codes.length) return new Map<string, CardRow>();
  const rows = await db.selectFrom('device_card').selectAll().where('tenant_id', 'in', [...new Set(tenantIds)]).where('device_code', 'in', codes).execute();
  return new Map(rows.map((r) => [`${r.tenant_id}:${r.device_code}`, r]));
}

export const likeName = (name: string) => `%${name.toLowerCase()}%`;

/** Devices and online devices per project. */
export async function projectDeviceCounts(db: Db, projectIds: number[], now: number) {
  if (!projectIds.length) return new Map<number, { devices: number; online: number }>();
  const rows = await db.selectFrom('device')
    .select((eb) => [
      'project_id',
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('online_until', '>', now).then(1).else(0).end()).as('online'),
    ])
    .where('project_id', 'in', projectIds)
    .groupBy('project_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.project_id), { devices: Number(r.total), online: Number(r.online ?? 0) }]));
}

/** Devices kept on an area: placed in it, or (for a project) belonging to it, stock included. */
export async function devicesOnArea(db: Db, areaId: number) {
  const row = await db.selectFrom('device').select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb('area_id', '=', areaId), eb('project_id', '=', areaId)])).executeTakeFirst();
  return Number(row?.n ?? 0);
}
