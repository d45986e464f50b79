import { breaks, fieldDisplay, fieldOf, withinHours, type LiveAlarmEvent, type MonitorOperator } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { systemScope } from '../../lib/scope.ts';
import { createReportQueue, inOrder } from '../../lib/report-queue.ts';
import type { LiveHub } from '../../plugins/live.ts';
import type { DeviceCore, ReportListener } from '../devices/index.ts';
import * as repo from './repository.ts';
import type { MessageRow, RuleRow } from './repository.ts';
import { candidates, indexRules, type FieldRules } from './rule-index.ts';

type Report = Parameters<ReportListener>[0];

/** Rules of a project are read again after this long (another process may have changed them). */
const RULES_TTL_MS = 10_000;
const OFFLINE_SWEEP_MS = 30_000;
/** Reports waiting for evaluation beyond this are dropped and counted: alarms must never slow the ingest down. */
const MAX_QUEUE = 50_000;
const TZ_OFFSET_MIN = 8 * 60; // Asia/Shanghai, no daylight saving

const minuteOfDay = (ts: number) => Math.floor(((ts / 60_000) + TZ_OFFSET_MIN) % 1440);

export function describeRule(r: Pick<RuleRow, 'device_type' | 'field_code' | 'operator' | 'threshold' | 'threshold_high' | 'for_seconds' | 'for_reports'>): string {
  if (r.operator === 'offline') return `超过 ${r.threshold} 分钟没有上报`;
  const field = fieldOf(r.device_type, r.field_code);
  const ops: Record<string, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=', ne: '≠' };
  const show = (v: number) => fieldDisplay(r.device_type, r.field_code, v);
  const label = field?.label ?? r.field_code;
  const held = [r.for_seconds > 0 ? `持续 ${r.for_seconds} 秒` : '', r.for_reports > 1 ? `连续 ${r.for_reports} 次` : ''].filter(Boolean).join('且');
  const tail = held ? `，${held}` : '';
  if (r.operator === 'outside') return `${label} 超出 ${show(r.threshold)}～${show(r.threshold_high ?? r.threshold)}${tail}`;
  if (r.operator === 'delta') return `${label} 两次上报之间变化超过 ${show(r.threshold)}${tail}`;
  return `${label} ${ops[r.operator] ?? r.operator} ${show(r.threshold)}${tail}`;
}

export type AlarmNotify = (alarm: MessageRow) => Promise<void>;

/**
 * Evaluates the monitoring rules. Value rules run on every stored report (the device core's "a report arrived"),
 * off the ingest path: reports are queued and evaluated in order, and only a change of state (raise, clear) touches
 * the database. Offline rules run on a sweep. One open alarm per rule and device: the database's partial unique
 * index decides when two processes raise the same alarm at once.
 */
export function createAlarmEngine(deps: { db: Db; core: DeviceCore; live: LiveHub; notify: AlarmNotify; onError(err: unknown): void }) {
  const { db, core } = deps;
  /**
   * per project: value rules indexed by device type × field and sorted by threshold (rule-index.ts: a report finds
   * the rules it breaks by binary search, no database read), the rules by id, the open alarms (rule:device)
   */
  const rules = new Map<number, { at: number; byType: Map<string, Map<string, FieldRules>>; byId: Map<number, RuleRow>; active: Set<string> }>();
  /** rule:device → the current breach: ts of its first report (for "for N seconds") and reports so far (for "N in a row") */
  const breach = new Map<string, { since: number; count: number }>();
  /** device → rules with a breach under way or an open alarm on it: checked on every report of the device until both end */
  const touched = new Map<number, Set<number>>();
  const touch = (deviceId: number, ruleId: number) => {
    let set = touched.get(deviceId);
    if (!set) touched.set(deviceId, (set = new Set()));
    set.add(ruleId);
  };
  const untouch = (deviceId: number, ruleId: number) => {
    const set = touched.get(deviceId);
    if (set?.delete(ruleId) && !set.size) touched.delete(deviceId);
  };
  /** device:field → its previous reading, kept only for fields that a `delta` rule watches */
  const previous = new Map<string, number>();
  let sweeper: NodeJS.Timeout | null = null;

  /** the project's cached rules while they are fresh */
  function freshRules(projectId: number) {
    const hit = rules.get(projectId);
    return hit && Date.now() - hit.at < RULES_TTL_MS ? hit : undefined;
  }

  async function projectRules(projectId: number) {
    const hit = freshRules(projectId);
    if (hit) return hit;
    const [rows, active] = await Promise.all([repo.enabledRules(db, projectId), repo.activeKeys(db, projectId)]);
    for (const key of active) {
      const [ruleId, deviceId] = key.split(':').map(Number);
      touch(deviceId, ruleId);
    }
    const entry = { at: Date.now(), byType: indexRules(rows), byId: new Map(rows.map((r) => [r.id, r])), active: new Set(active) };
    rules.set(projectId, entry);
    return entry;
  }

  function publish(rows: MessageRow[]) {
    if (!rows.length || !deps.live.wanted()) return;
    deps.live.publish(rows.map((m) => ({
      kind: 'alarm' as const,
      tenantId: m.tenant_id,
      projectId: m.project_id,
      data: { alarmId: m.id, projectId: m.project_id, deviceId: m.device_id, status: m.status, severity: m.severity, read: m.read === 1 } as LiveAlarmEvent,
    })));
  }

  async function raise(rule: RuleRow, deviceId: number, value: string, at: number) {
    const device = await core.devices.byId(deviceId);
    if (!device) return;
    const row = await repo.insertAlarm(db, {
      tenant_id: rule.tenant_id, project_id: rule.project_id, rule_id: rule.id, device_id: device.id, device_code: device.device_code,
      device_name: device.device_name, device_type: device.device_type, rule_name: rule.name, field_code: rule.field_code,
      description: describeRule(rule).slice(0, 200), value: value.slice(0, 64), severity: rule.severity, status: 'active', read: 0,
      read_by: null, read_at: null, comment: null, created_at: at, cleared_at: null,
    });
    rules.get(rule.project_id)?.active.add(`${rule.id}:${deviceId}`);
    if (!row) return; // another process raised it first
    publish([row]);
    if (rule.notify_sms) await deps.notify(row).catch(deps.onError);
  }

  async function clear(rule: Pick<RuleRow, 'id' | 'project_id'>, deviceId: number, at: number) {
    rules.get(rule.project_id)?.active.delete(`${rule.id}:${deviceId}`);
    publish(await repo.clearAlarm(db, rule.id, deviceId, at));
  }

  /** A report against its project's rules: synchronous unless the rules must be read or an alarm changes state. */
  function evaluate(r: Report): Promise<void> | void {
    const hit = freshRules(r.projectId);
    if (hit) return evaluateWith(r, hit);
    return projectRules(r.projectId).then((entry) => evaluateWith(r, entry));
  }

  function evaluateWith(r: Report, { byType, byId, active }: Awaited<ReturnType<typeof projectRules>>): Promise<void> | void {
    const byField = byType.get(r.deviceType);
    if (!byField) return;
    /** raises and clears, in order, after the report's rules were walked (nothing they change is read in the walk) */
    let changes: (() => Promise<void>)[] | undefined;
    const minute = minuteOfDay(r.ts);
    const mine = touched.get(r.deviceId);
    for (const point of r.points) {
      const index = byField.get(point.code);
      if (!index || point.num === null || point.num === undefined) continue;
      const value = point.num;
      const prevKey = `${r.deviceId}:${point.code}`;
      const prev = index.delta.length ? previous.get(prevKey) : undefined;
      const list = candidates(index, value, prev, []);
      // rules with a breach under way or an open alarm on this device: they may end now
      if (mine?.size) {
        const seen = new Set(list.map((x) => x.id));
        for (const id of mine) {
          const rule = byId.get(id);
          if (!rule) untouch(r.deviceId, id); // deleted or disabled since
          else if (rule.field_code === point.code && !seen.has(id)) list.push(rule);
        }
      }
      for (const rule of list) {
        const key = `${rule.id}:${r.deviceId}`;
        const inHours = !rule.active_from || withinHours(rule.active_from, rule.active_to, minute);
        if (inHours && breaks(rule.operator as MonitorOperator, value, rule.threshold, { high: rule.threshold_high, previous: prev })) {
          const b = breach.get(key) ?? { since: r.ts, count: 0 };
          b.count++;
          breach.set(key, b);
          touch(r.deviceId, rule.id);
          const held = r.ts - b.since >= rule.for_seconds * 1000 && b.count >= rule.for_reports;
          if (!active.has(key) && held) (changes ??= []).push(() => raise(rule, r.deviceId, fieldDisplay(r.deviceType, rule.field_code, value), r.ts));
        } else {
          breach.delete(key);
          if (active.has(key)) (changes ??= []).push(() => clear(rule, r.deviceId, r.ts));
          untouch(r.deviceId, rule.id);
        }
      }
      if (index.delta.length) previous.set(prevKey, value);
    }
    return inOrder(changes);
  }

  const queue = createReportQueue<Report>({ max: MAX_QUEUE, handle: evaluate, onError: deps.onError });

  /** Offline rules: a device of the rule's type that has not reported for the threshold raises; a report clears. */
  async function sweep(now = Date.now()) {
    for (const rule of await repo.enabledOfflineRules(db)) {
      const limit = now - rule.threshold * 60_000;
      const devices = await core.devices.scopedDevices(systemScope(rule.tenant_id))
        .select(['id', 'last_report_at', 'created_at']).where('project_id', '=', rule.project_id).where('device_type', '=', rule.device_type)
        .where('enabled', '=', 1).execute();
      const { active } = await projectRules(rule.project_id);
      for (const d of devices) {
        const last = d.last_report_at ?? d.created_at;
        const key = `${rule.id}:${d.id}`;
        const silent = last < limit && withinHours(rule.active_from, rule.active_to, minuteOfDay(now));
        if (silent && !active.has(key)) await raise(rule, d.id, `${Math.floor((now - last) / 60_000)} 分钟未上报`, now);
        else if (!silent && active.has(key) && last >= limit) await clear(rule, d.id, now);
      }
    }
  }

  const onReport: ReportListener = (r) => queue.push(r);

  return {
    onReport,
    sweep,
    /** Tells browsers (SSE `alarm`) that these alarms changed. */
    publish,
    /** Forget cached rules of a project (a rule changed here). */
    invalidate(projectId: number) {
      rules.delete(projectId);
    },
    /** Forget every cached rule index (iot reload); answers how many projects had one. */
    invalidateAll(): number {
      const n = rules.size;
      rules.clear();
      return n;
    },
    /** Waits until every queued report has been evaluated (tests, shutdown). */
    idle: queue.idle,
    stats: queue.stats,
    start() {
      sweeper = setInterval(() => void sweep().catch(deps.onError), OFFLINE_SWEEP_MS);
      sweeper.unref();
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      queue.stop();
      await queue.idle();
    },
  };
}

export type AlarmEngine = ReturnType<typeof createAlarmEngine>;
