import type { StrategyCondition } from '@kelvin/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { createReportQueue, inOrder } from '../../lib/report-queue.ts';
import type { ReportListener } from '../devices/index.ts';
import * as repo from './repository.ts';
import type { TaskRow } from './repository.ts';
import { taskPlan } from './scheduler.ts';
import type { Clock, Runs } from './runs.ts';

type Report = Parameters<ReportListener>[0];

const TASKS_TTL_MS = 10_000;
/** Reports waiting for evaluation beyond this are dropped (and counted): strategies must never slow the ingest down. */
const MAX_QUEUE = 50_000;

interface Armed {
  task: TaskRow;
  condition: StrategyCondition;
  /** devices the task targets (resolved when the project's tasks were read) */
  targets: Set<number>;
}

export function holds(c: Pick<StrategyCondition, 'operator' | 'threshold'>, v: number): boolean {
  switch (c.operator) {
    case 'gt': return v > c.threshold;
    case 'gte': return v >= c.threshold;
    case 'lt': return v < c.threshold;
    case 'lte': return v <= c.threshold;
    default: return false;
  }
}

/**
 * Strategy tasks: evaluated on every stored report (the core's "a report arrived"), in memory. When the condition has
 * held for `forMinutes` (by report time) the task fires — for the one device whose reading it is (source `device`),
 * or for all its targets (source `sensor`) — unless it fired within its cool-down. The cool-down is claimed in the
 * database (automation_cooldown), so two processes seeing the same report fire once.
 */
export function createStrategyEngine(deps: { db: Db; runs: Runs; clock: Clock; onError(err: unknown): void }) {
  const { db, runs, clock } = deps;
  const byProject = new Map<number, { at: number; tasks: Armed[] } | Promise<{ at: number; tasks: Armed[] }>>();
  const since = new Map<string, number>();

  /** the project's armed tasks while they are read and fresh */
  function freshTasks(projectId: number): Armed[] | undefined {
    const hit = byProject.get(projectId);
    return hit && !(hit instanceof Promise) && clock.now() - hit.at < TASKS_TTL_MS ? hit.tasks : undefined;
  }

  async function armed(projectId: number): Promise<Armed[]> {
    const fresh = freshTasks(projectId);
    if (fresh) return fresh;
    const hit = byProject.get(projectId);
    if (hit instanceof Promise) return (await hit).tasks;
    const loading = (async () => {
      const tasks: Armed[] = [];
      for (const t of await repo.strategyTasks(db, projectId)) {
        const condition = repo.json<StrategyCondition | null>(t.condition, null);
        if (!condition) continue;
        const devices = await runs.resolveDevices(taskPlan(t));
        tasks.push({ task: t, condition, targets: new Set(devices.map((d) => d.id)) });
      }
      return { at: clock.now(), tasks };
    })();
    byProject.set(projectId, loading);
    try {
      const entry = await loading;
      byProject.set(projectId, entry);
      return entry.tasks;
    } catch (err) {
      byProject.delete(projectId);
      throw err;
    }
  }

  /** Claims the cool-down of (task, device): true when this call may fire. */
  async function claimCooldown(taskId: number, deviceId: number, cooldownMs: number, now: number): Promise<boolean> {
    const inserted = await db.insertInto('automation_cooldown').values({ task_id: taskId, device_id: deviceId, fired_at: now })
      .onConflict((oc) => oc.columns(['task_id', 'device_id']).doUpdateSet({ fired_at: now }).where(sql.ref('automation_cooldown.fired_at'), '<=', now - cooldownMs))
      .returning('task_id').executeTakeFirst();
    return !!inserted;
  }

  async function fire(a: Armed, deviceId: number | null, value: number, now: number) {
    const cooldownMs = (a.task.cooldown_minutes ?? 30) * 60_000;
    if (!(await claimCooldown(a.task.id, deviceId ?? 0, cooldownMs, now))) return;
    const plan = taskPlan(a.task);
    if (deviceId !== null) plan.targets = { deviceIds: [deviceId], groupIds: [], areaIds: [] };
    plan.issuer = `策略任务「${a.task.name}」（读数 ${value}）`;
    await runs.runNow(plan, `t:${a.task.id}`, 'strategy');
  }

  /** A report against its project's strategy tasks: synchronous unless the tasks must be read or one fires. */
  function evaluate(r: Report): Promise<void> | void {
    const fresh = freshTasks(r.projectId);
    if (fresh) return evaluateWith(r, fresh);
    return armed(r.projectId).then((tasks) => evaluateWith(r, tasks));
  }

  function evaluateWith(r: Report, list: Armed[]): Promise<void> | void {
    /** firings, in order, after the walk (a firing's cool-down is claimed in the database; nothing the walk reads) */
    let firings: (() => Promise<void>)[] | undefined;
    for (const a of list) {
      const c = a.condition;
      const fromSensor = c.source === 'sensor';
      if (fromSensor ? c.sensorDeviceId !== r.deviceId : !a.targets.has(r.deviceId)) continue;
      const point = r.points.find((p) => p.code === c.fieldCode);
      if (!point || point.num === null) continue;
      const key = `${a.task.id}:${fromSensor ? 0 : r.deviceId}`;
      if (!holds(c, point.num)) {
        since.delete(key);
        continue;
      }
      const start = since.get(key) ?? r.ts;
      since.set(key, start);
      const value = point.num;
      if (r.ts - start >= c.forMinutes * 60_000) (firings ??= []).push(() => fire(a, fromSensor ? null : r.deviceId, value, clock.now()));
    }
    return inOrder(firings);
  }

  const queue = createReportQueue<Readonly<Report>>({ max: MAX_QUEUE, handle: evaluate, onError: deps.onError });

  return {
    /** The core's "a report arrived": queued, evaluated in order off the ingest path. */
    onReport: (r: Readonly<Report>) => queue.push(r),
    /** reports not evaluated because the queue was full */
    dropped: () => queue.stats().dropped,
    /** Read the project's strategy tasks again on the next report (one changed in this process). */
    invalidate(projectId?: number) {
      if (projectId === undefined) byProject.clear();
      else byProject.delete(projectId);
    },
    /** Waits until every queued report has been evaluated (tests). */
    idle: queue.idle,
  };
}

export type StrategyEngine = ReturnType<typeof createStrategyEngine>;
