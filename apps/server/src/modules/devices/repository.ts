import { sql, type Insertable, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DeviceOperationLogTable, DeviceTable } from '../../db/schema.ts';
import { scoped, type Scope } from '../../lib/scope.ts';

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

/** Devices of the scope (tenant, granted projects): the base of every device read, here and in the consumers. */
export function scopedDevices(db: Db, scope: Scope) {
  return scoped(db.selectFrom('device'), scope);
}

export function deviceById(db: Db, scope: Scope, id: number) {
  return scopedDevices(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
}

/** By id, across tenants: for system work whose right was checked when it was set up. */
export function deviceOfAnyTenant(db: Db, id: number) {
  return db.selectFrom('device').selectAll().where('id', '=', id).executeTakeFirst();
}

/** By hardware code, across tenants: codes are unique, so a new device may not take one that exists anywhere. */
export function deviceByCode(db: Db, code: string) {
  return db.selectFrom('device').selectAll().where('device_code', '=', code).executeTakeFirst();
}

/**
 * The keyword search of device lists: the row's device_code or device_name holds the keyword, in any case on both
 * databases (PostgreSQL's LIKE is not case-insensitive). For any table with those two columns.
 */
export function codeOrNameLike(keyword: string): RawBuilder<SqlBool> {
  const like = `%${keyword.toLowerCase()}%`;
  return sql<SqlBool>`(lower(${sql.ref('device_code')}) like ${like} or lower(${sql.ref('device_name')}) like ${like})`;
}

/** Devices of the scope's tenant (every tenant for the platform) and granted projects, filtered. */
export function devicesQuery(db: Db, scope: Scope, f: DeviceFilter) {
  let q = scopedDevices(db, scope);
  q = q.where('device_type', 'in', f.types.length ? f.types : ['-']);
  if (f.projectId !== undefined) q = q.where('project_id', '=', f.projectId);
  if (f.deviceType) q = q.where('device_type', '=', f.deviceType);
  if (f.online === true) q = q.where('online_until', '>', f.now);
  if (f.online === false) q = q.where((eb) => eb.or([eb('online_until', 'is', null), eb('online_until', '<=', f.now)]));
  if (f.keyword) q = q.where(codeOrNameLike(f.keyword));
  if (f.areaIds) q = q.where('area_id', 'in', f.areaIds.length ? f.areaIds : [-1]);
  if (f.gatewayId !== undefined) q = q.where('gateway_id', '=', f.gatewayId);
  return q.selectAll();
}

export async function statesOf(db: Db, deviceIds: number[], fieldCodes?: string[]) {
  if (!deviceIds.length) return [];
  let q = db.selectFrom('device_state').select(['device_id', 'field_code', 'num', 'txt', 'ts']).where('device_id', 'in', deviceIds);
  if (fieldCodes) q = q.where('field_code', 'in', fieldCodes.length ? fieldCodes : ['-']);
  return q.execute();
}

/** Numeric readings of some devices' fields in (from, until], in (device, field, ts) order: the billing engine's source. */
export async function readingsIn(db: Db, deviceIds: number[], fieldCodes: string[], from: number, until: number) {
  if (!deviceIds.length || !fieldCodes.length) return [];
  return db.selectFrom('device_history').select(['device_id', 'field_code', 'ts', 'num'])
    .where('device_id', 'in', deviceIds).where('ts', '>', from).where('ts', '<=', until).where('field_code', 'in', fieldCodes).where('num', 'is not', null)
    .orderBy('device_id').orderBy('field_code').orderBy('ts').execute() as Promise<{ device_id: number; field_code: string; ts: number; num: number }[]>;
}

/** The last numeric reading at or before `at` (looking back at most `lookbackMs`) of each device × field. */
export async function readingsAt(db: Db, deviceIds: number[], fieldCodes: string[], at: number, lookbackMs: number) {
  if (!deviceIds.length || !fieldCodes.length) return [];
  const inner = db.selectFrom('device_history')
    .select(['device_id', 'field_code', 'ts', 'num', sql<number>`row_number() over (partition by device_id, field_code order by ts desc)`.as('rn')])
    .where('device_id', 'in', deviceIds).where('ts', '<=', at).where('ts', '>', at - lookbackMs).where('field_code', 'in', fieldCodes).where('num', 'is not', null);
  return db.selectFrom(inner.as('h')).select(['device_id', 'field_code', 'ts', 'num']).where('rn', '=', 1).execute() as Promise<{ device_id: number; field_code: string; ts: number; num: number }[]>;
}

export async function tenantCodeOf(db: Db, tenantId: number) {
  return (await db.selectFrom('tenant').select('code').where('id', '=', tenantId).executeTakeFirstOrThrow()).code;
}

/** Devices of these projects and how many of them are online, per value of `key`. */
async function onlineCountsBy<K extends 'device_type' | 'project_id'>(db: Db, key: K, projectIds: number[], now: number) {
  const rows = await db.selectFrom('device')
    .select((eb) => [
      eb.ref(key).as('key'),
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('online_until', '>', now).then(1).else(0).end()).as('online'),
    ])
    .where('project_id', 'in', projectIds)
    .groupBy(key)
    .execute();
  return rows.map((r) => ({ key: r.key, total: Number(r.total), online: Number(r.online ?? 0) }));
}

/** Per type: devices and how many are online, in one project. */
export async function typeCounts(db: Db, projectId: number, now: number) {
  const rows = await onlineCountsBy(db, 'device_type', [projectId], now);
  return new Map(rows.map((r) => [r.key, { total: r.total, online: r.online }]));
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

/** Devices and online devices per project. */
export async function projectDeviceCounts(db: Db, projectIds: number[], now: number) {
  if (!projectIds.length) return new Map<number, { devices: number; online: number }>();
  const rows = await onlineCountsBy(db, 'project_id', projectIds, now);
  return new Map(rows.map((r) => [Number(r.key), { devices: r.total, online: r.online }]));
}

/** Devices kept on an area: placed in it, or (for a project) belonging to it, stock included. */
export async function devicesOnArea(db: Db, areaId: number) {
  const row = await db.selectFrom('device').select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb('area_id', '=', areaId), eb('project_id', '=', areaId)])).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Which of these hardware codes exist already (in any tenant). */
export async function codesTaken(db: Db, codes: string[]) {
  if (!codes.length) return [];
  return db.selectFrom('device').select('device_code').where('device_code', 'in', codes).execute();
}

export async function idsOfCodes(db: Db, codes: string[]) {
  if (!codes.length) return [];
  return db.selectFrom('device').select(['id', 'device_code']).where('device_code', 'in', codes).execute();
}

/* ---------- writes: only this module changes device rows; consumers call these through the service ---------- */

export type NewDevice = Insertable<DeviceTable>;
export type DevicePatch = Partial<Pick<DeviceTable, 'device_name' | 'area_id' | 'gateway_id' | 'enabled' | 'device_code' | 'secret_hash' | 'online_until' | 'last_connect_at'>>;

export async function insertDevices(db: Db, rows: NewDevice[]) {
  for (let i = 0; i < rows.length; i += 300) await db.insertInto('device').values(rows.slice(i, i + 300)).execute();
}

export function insertDevice(db: Db, row: NewDevice) {
  return db.insertInto('device').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateDevices(db: Db, ids: number[], patch: DevicePatch) {
  if (!ids.length) return;
  await db.updateTable('device').set({ ...patch, updated_at: Date.now() }).where('id', 'in', ids).execute();
}

/** A device and its latest values go; its history and operation log stay for the reports. */
export async function deleteDevices(db: Db, ids: number[]) {
  if (!ids.length) return;
  await db.deleteFrom('device_state').where('device_id', 'in', ids).execute();
  await db.deleteFrom('device').where('id', 'in', ids).execute();
}

/**
 * Devices that just connected: their connection time. Answers those of them with commands still open (pending, or
 * sent and not yet acknowledged): only they need a delivery run.
 */
export async function markConnected(db: Db, ids: number[], at: number): Promise<number[]> {
  await db.updateTable('device').set({ last_connect_at: at }).where('id', 'in', ids).execute();
  const open = await db.selectFrom('device_command').select('device_id').distinct()
    .where('device_id', 'in', ids).where('status', 'in', ['pending', 'sent']).execute();
  return open.map((r) => r.device_id);
}

/* ---------- the device operation log: one query for the list and the export ---------- */

export interface OperationLogFilter {
  projectId?: number;
  deviceId?: number;
  /** inclusive */
  from?: number;
  /** exclusive */
  to?: number;
}

export function operationLogQuery(db: Db, scope: Scope, f: OperationLogFilter) {
  let q = scoped(db.selectFrom('device_operation_log'), scope);
  if (f.projectId !== undefined) q = q.where('project_id', '=', f.projectId);
  if (f.deviceId !== undefined) q = q.where('device_id', '=', f.deviceId);
  if (f.from !== undefined) q = q.where('at', '>=', f.from);
  if (f.to !== undefined) q = q.where('at', '<', f.to);
  return q.selectAll();
}

export type OperationLogDbRow = Selectable<DeviceOperationLogTable>;

export function insertOperationLog(db: Db, row: Insertable<DeviceOperationLogTable>) {
  return db.insertInto('device_operation_log').values(row).execute();
}
