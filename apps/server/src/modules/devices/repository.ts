import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DeviceTable } from '../../db/schema.ts';
import type { Scope } from '../../lib/scope.ts';

export type DeviceDbRow = Selectable<DeviceTable>;

export interface DeviceFilter {
  projectId?: number;
  /** device types the caller may see */
  types: string[];
  deviceType?: string;
  online?: boolean;
  keyword?: string;
  areaIds?: number[];
  gatewayId?: number;
  now: number;
}

/** Devices of the scope's tenant (every tenant for the platform) and granted projects, filtered. */
export function devicesQuery(db: Db, scope: Scope, f: DeviceFilter) {
  let q = db.selectFrom('device');
  if (!scope.isPlatform) q = q.where('tenant_id', '=', scope.tenantId);
  if (scope.projectIds) q = q.where('project_id', 'in', scope.projectIds.size ? [...scope.projectIds] : [-1]);
  q = q.where('device_type', 'in', f.types.length ? f.types : ['-']);
  if (f.projectId !== undefined) q = q.where('project_id', '=', f.projectId);
  if (f.deviceType) q = q.where('device_type', '=', f.deviceType);
  if (f.online === true) q = q.where('online_until', '>', f.now);
  if (f.online === false) q = q.where((eb) => eb.or([eb('online_until', 'is', null), eb('online_until', '<=', f.now)]));
  if (f.keyword) {
    // case-insensitive on both databases (PostgreSQL's LIKE is not)
    const like = `%${f.keyword.toLowerCase()}%`;
    q = q.where((eb) => eb.or([eb(eb.fn('lower', ['device_code']), 'like', like), eb(eb.fn('lower', ['device_name']), 'like', like)]));
  }
  if (f.areaIds) q = q.where('area_id', 'in', f.areaIds.length ? f.areaIds : [-1]);
  if (f.gatewayId !== undefined) q = q.where('gateway_id', '=', f.gatewayId);
  return q.selectAll();
}

export function findDevice(db: Db, scope: Scope, id: number) {
  let q = db.selectFrom('device').selectAll().where('id', '=', id);
  if (!scope.isPlatform) q = q.where('tenant_id', '=', scope.tenantId);
  return q.executeTakeFirst();
}

export async function statesOf(db: Db, deviceIds: number[]) {
  if (!deviceIds.length) return [];
  return db.selectFrom('device_state').select(['device_id', 'field_code', 'num', 'txt', 'ts']).where('device_id', 'in', deviceIds).execute();
}

export async function tenantCodeOf(db: Db, tenantId: number) {
  return (await db.selectFrom('tenant').select('code').where('id', '=', tenantId).executeTakeFirstOrThrow()).code;
}

/** Per type: devices and how many are online, in one project. */
export async function typeCounts(db: Db, projectId: number, now: number) {
  const rows = await db.selectFrom('device')
    .select((eb) => [
      'device_type',
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('online_until', '>', now).then(1).else(0).end()).as('online'),
    ])
    .where('project_id', '=', projectId)
    .groupBy('device_type')
    .execute();
  return new Map(rows.map((r) => [r.device_type, { total: Number(r.total), online: Number(r.online ?? 0) }]));
}

/** count, average and how many equal 1, per field, over the online devices of the given types. */
export async function fieldAggregates(db: Db, f: { projectId: number; types: string[]; areaIds?: number[]; fields: string[]; now: number }) {
  let q = db.selectFrom('device_state as s').innerJoin('device as d', 'd.id', 's.device_id')
    .select((eb) => [
      's.field_code',
      eb.fn.countAll<number>().as('n'),
      eb.fn.avg<number>('s.num').as('avg'),
      eb.fn.sum<number>(eb.case().when('s.num', '=', 1).then(1).else(0).end()).as('ones'),
    ])
    .where('d.project_id', '=', f.projectId)
    .where('d.device_type', 'in', f.types.length ? f.types : ['-'])
    .where('d.online_until', '>', f.now)
    .where('s.field_code', 'in', f.fields);
  if (f.areaIds) q = q.where('d.area_id', 'in', f.areaIds.length ? f.areaIds : [-1]);
  const rows = await q.groupBy('s.field_code').execute();
  return new Map(rows.map((r) => [r.field_code, { n: Number(r.n), avg: r.avg === null ? null : Number(r.avg), ones: Number(r.ones ?? 0) }]));
}
