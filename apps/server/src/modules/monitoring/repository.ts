import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { ExceptionDataTable, MonitorMessageTable, MonitorRuleTable } from '../../db/schema.ts';
import { scoped, type Scope } from '../../lib/scope.ts';

export type RuleRow = Selectable<MonitorRuleTable>;
export type MessageRow = Selectable<MonitorMessageTable>;

export const rulesOf = (db: Db, scope: Scope) => scoped(db.selectFrom('monitor_rule'), scope);
export const messagesOf = (db: Db, scope: Scope) => scoped(db.selectFrom('monitor_message'), scope);

/** Enabled rules of one project and device type (the engine's cache fills from here). */
export function enabledRules(db: Db, projectId: number) {
  return db.selectFrom('monitor_rule').selectAll().where('project_id', '=', projectId).where('enabled', '=', 1).execute();
}

export function enabledOfflineRules(db: Db) {
  return db.selectFrom('monitor_rule').selectAll().where('operator', '=', 'offline').where('enabled', '=', 1).execute();
}

export async function activeKeys(db: Db, projectId: number) {
  const rows = await db.selectFrom('monitor_message').select(['rule_id', 'device_id']).where('project_id', '=', projectId).where('status', '=', 'active').execute();
  return rows.map((r) => `${r.rule_id}:${r.device_id}`);
}

/** Raises an alarm unless one is open for this rule and device already (the partial unique index decides). */
export function insertAlarm(db: Db, row: Insertable<MonitorMessageTable>) {
  return db.insertInto('monitor_message').values(row).onConflict((oc) => oc.doNothing()).returningAll().executeTakeFirst();
}

export function clearAlarm(db: Db, ruleId: number, deviceId: number, at: number) {
  return db.updateTable('monitor_message').set({ status: 'cleared', cleared_at: at })
    .where('rule_id', '=', ruleId).where('device_id', '=', deviceId).where('status', '=', 'active')
    .returningAll().execute();
}

export async function unreadCount(db: Db, projectId: number) {
  const r = await db.selectFrom('monitor_message').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId).where('read', '=', 0).executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Alarms raised since `since` per project (the project cards' and the map's 今日告警). */
export async function raisedSince(db: Db, projectIds: number[], since: number) {
  if (!projectIds.length) return new Map<number, number>();
  const rows = await db.selectFrom('monitor_message').select((eb) => ['project_id', eb.fn.countAll<number>().as('n')])
    .where('project_id', 'in', projectIds).where('created_at', '>=', since).groupBy('project_id').execute();
  return new Map(rows.map((r) => [Number(r.project_id), Number(r.n)]));
}

export async function activeCounts(db: Db, ruleIds: number[]) {
  if (!ruleIds.length) return new Map<number, number>();
  const rows = await db.selectFrom('monitor_message').select((eb) => ['rule_id', eb.fn.countAll<number>().as('n')])
    .where('rule_id', 'in', ruleIds).where('status', '=', 'active').groupBy('rule_id').execute();
  return new Map(rows.map((r) => [Number(r.rule_id), Number(r.n)]));
}

export type ExceptionDbRow = Selectable<ExceptionDataTable>;
export const exceptionsOf = (db: Db, scope: Scope) => scoped(db.selectFrom('exception_data'), scope);

/** Flags a reading unless the device's field has an open record of this kind (the partial unique index decides). */
export function insertException(db: Db, row: Insertable<ExceptionDataTable>) {
  return db.insertInto('exception_data').values(row).onConflict((oc) => oc.doNothing()).execute();
}

/** Devices of a project with open exception data: how many records, which kinds, the latest reading's time. */
export async function openExceptionsByDevice(db: Db, projectId: number) {
  const rows = await db.selectFrom('exception_data')
    .select(['device_id', 'device_code', 'device_name', 'device_type', 'kind', 'reading_at'])
    .where('project_id', '=', projectId).where('handled', '=', 0).orderBy('id', 'desc').execute();
  const byDevice = new Map<number, { device_id: number; device_code: string; device_name: string; device_type: string; open: number; kinds: string[]; lastAt: number }>();
  for (const r of rows) {
    const d = byDevice.get(r.device_id) ?? { device_id: r.device_id, device_code: r.device_code, device_name: r.device_name, device_type: r.device_type, open: 0, kinds: [], lastAt: 0 };
    d.open++;
    if (!d.kinds.includes(r.kind)) d.kinds.push(r.kind);
    d.lastAt = Math.max(d.lastAt, r.reading_at);
    byDevice.set(r.device_id, d);
  }
  return [...byDevice.values()];
}

/** Active alarms per device of a project, with the severities among them. */
export async function activeAlarmsByDevice(db: Db, projectId: number) {
  const rows = await db.selectFrom('monitor_message').select(['device_id', 'severity'])
    .where('project_id', '=', projectId).where('status', '=', 'active').execute();
  const out = new Map<number, string[]>();
  for (const r of rows) out.set(r.device_id, [...(out.get(r.device_id) ?? []), r.severity]);
  return out;
}

/** The newest active alarms of some projects and how many are active per project (the big screens). */
export async function activeAlarmsOf(db: Db, projectIds: number[], limit: number) {
  if (!projectIds.length) return { rows: [] as MessageRow[], counts: new Map<number, number>() };
  const [rows, counts] = await Promise.all([
    db.selectFrom('monitor_message').selectAll().where('project_id', 'in', projectIds).where('status', '=', 'active').orderBy('id', 'desc').limit(limit).execute(),
    db.selectFrom('monitor_message').select((eb) => ['project_id', eb.fn.countAll<number>().as('n')])
      .where('project_id', 'in', projectIds).where('status', '=', 'active').groupBy('project_id').execute(),
  ]);
  return { rows, counts: new Map(counts.map((c) => [Number(c.project_id), Number(c.n)])) };
}
