import { validateFieldWrite, type FieldWrite, type RunTrigger } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { Scope } from '../../lib/scope.ts';
import type { CommandTarget, DeviceCore, DeviceDbRow } from '../devices/index.ts';
import * as repo from './repository.ts';
import type { NewRun, ResultRow, RunRow } from './repository.ts';

/** What a run does: which devices, which writes (the scheduler and the routes build it from a task or a program). */
export interface RunPlan {
  tenantId: number;
  projectId: number;
  taskId: number | null;
  programId: number | null;
  /** shown in the device operation log as the issuer */
  issuer: string;
  /** restrict to one device type (week programs, typed tasks) */
  deviceType: string | null;
  targets: { deviceIds: number[]; groupIds: number[]; areaIds: number[] };
  writes: FieldWrite[];
}

export interface Clock {
  now(): number;
}

/** Resolves the devices of groups (device management owns groups; wired in app.ts). */
export type GroupMembers = (groupIds: number[]) => Promise<number[]>;
/** Area ids at and below an area the scope can see (the area tree of the projects module). */
export type AreaSubtree = (scope: Scope, areaId: number) => Promise<number[]>;

const LEASE_MS = 30_000;
const FLUSH_MS = 200;
/** An outcome that arrives before its result row knows the command id is tried again for this long. */
const UNMATCHED_KEEP_MS = 15_000;

/** A system scope limited to one project of one tenant: what a task may touch. */
export const projectScope = (tenantId: number, projectId: number): Scope => ({ userId: 0, tenantId, isPlatform: false, projectIds: new Set([projectId]) });

/**
 * Runs: claimed once in the database, then their commands are issued through the device core and each command's
 * outcome is recorded per device (the core's "a command finished"). A run whose issuing stopped half-way (the process
 * died) is taken over by any process after a lease.
 */
export function createRuns(deps: { db: Db; core: DeviceCore; clock: Clock; groupMembers: GroupMembers; areaSubtree: AreaSubtree; onError(err: unknown): void }) {
  const { db, core, clock } = deps;
  const plans = new Map<number, RunPlan>(); // run id → plan, while this process issues it
  const finished: { commandId: number; status: string; error: string | null; at: number }[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;

  async function resolveDevices(plan: RunPlan): Promise<DeviceDbRow[]> {
    const scope = projectScope(plan.tenantId, plan.projectId);
    const ids = new Set(plan.targets.deviceIds);
    if (plan.targets.groupIds.length) for (const id of await deps.groupMembers(plan.targets.groupIds)) ids.add(id);
    const areaIds: number[] = [];
    for (const a of plan.targets.areaIds) {
      try {
        areaIds.push(...await deps.areaSubtree(scope, a));
      } catch {
        // an area deleted since: no devices from it
      }
    }
    if (!ids.size && !areaIds.length) return [];
    let q = core.devices.scopedDevices(scope).selectAll().where('project_id', '=', plan.projectId).where('enabled', '=', 1);
    q = q.where((eb) => eb.or([eb('id', 'in', ids.size ? [...ids] : [-1]), eb('area_id', 'in', areaIds.length ? areaIds : [-1])]));
    if (plan.deviceType) q = q.where('device_type', '=', plan.deviceType);
    return q.orderBy('id').execute();
  }

  /** Devices of many plans: plain device lists in one query per chunk, groups and areas resolved per plan. */
  async function devicesOfPlans(list: RunPlan[]): Promise<DeviceDbRow[][]> {
    const oneProject = new Set(list.map((x) => `${x.tenantId}:${x.projectId}`)).size === 1;
    const simple = oneProject && list.every((p) => !p.targets.groupIds.length && !p.targets.areaIds.length);
    if (!simple || !list.length) return Promise.all(list.map(resolveDevices));
    const { tenantId, projectId } = list[0]!;
    const ids = [...new Set(list.flatMap((p) => p.targets.deviceIds))];
    const byId = new Map<number, DeviceDbRow>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await core.devices.scopedDevices(projectScope(tenantId, projectId)).selectAll().where('project_id', '=', projectId).where('enabled', '=', 1)
        .where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const d of rows) byId.set(d.id, d);
    }
    return list.map((p) => p.targets.deviceIds.map((id) => byId.get(id)).filter((d): d is DeviceDbRow => !!d && (!p.deviceType || d.device_type === p.deviceType)));
  }

  /** Result rows: one per device and write; a write the device's type refuses is recorded rejected, not sent. */
  function resultRows(run: RunRow, plan: RunPlan, devices: DeviceDbRow[], now: number) {
    return devices.flatMap((d) => plan.writes.map((w) => {
      const check = validateFieldWrite(d.device_type, w.fieldCode, w.value);
      return {
        run_id: run.id, device_id: d.id, device_code: d.device_code, device_name: d.device_name, field_code: w.fieldCode,
        value: String(check.ok ? check.value : w.value), command_id: null, status: check.ok ? 'pending' : 'rejected',
        error: check.ok ? null : check.message.slice(0, 200), updated_at: now,
      };
    }));
  }

  /**
   * Issues every command of these runs that has none yet (planning their result rows first when they have none), then
   * lets the runs settle. Batched: the scheduler may hand over thousands of runs due in the same second.
   */
  async function issueMany(list: { run: RunRow; plan: RunPlan }[], justClaimed = false) {
    if (!list.length) return;
    const runIds = list.map((x) => x.run.id);
    const results: ResultRow[] = [];
    // a run just claimed has no result rows yet; one taken over or retried may have some
    if (!justClaimed) for (let i = 0; i < runIds.length; i += 500) results.push(...await repo.resultsOf(db, runIds.slice(i, i + 500)));
    const planned = new Set(results.map((r) => r.run_id));
    const fresh = list.filter((x) => !planned.has(x.run.id));
    const devices = new Map<number, DeviceDbRow>();
    if (fresh.length) {
      const now = clock.now();
      const resolved = await devicesOfPlans(fresh.map((x) => x.plan));
      const rows = fresh.flatMap((x, i) => {
        for (const d of resolved[i]!) devices.set(d.id, d);
        return resultRows(x.run, x.plan, resolved[i]!, now);
      });
      results.push(...await repo.insertResults(db, rows));
    }
    const todo = results.filter((r) => r.status === 'pending' && r.command_id === null);
    const missing = [...new Set(todo.map((r) => r.device_id).filter((id) => !devices.has(id)))];
    for (let i = 0; i < missing.length; i += 500) {
      for (const d of await core.devices.scopedDevices({ userId: 0, tenantId: list[0]!.plan.tenantId, isPlatform: true, projectIds: null }).selectAll().where('id', 'in', missing.slice(i, i + 500)).execute()) {
        devices.set(d.id, d);
      }
    }
    const planOf = new Map(list.map((x) => [x.run.id, x.plan]));
    const tenantTargets = new Map<number, CommandTarget>();
    const targetOf = async (d: DeviceDbRow): Promise<CommandTarget> => {
      let base = tenantTargets.get(d.tenant_id);
      if (!base) tenantTargets.set(d.tenant_id, (base = await core.devices.target(d)));
      return { ...base, id: d.id, projectId: d.project_id, deviceType: d.device_type, deviceCode: d.device_code, deviceName: d.device_name, onlineUntil: d.online_until };
    };
    const outcomes: { id: number; command_id: number | null; status: string; error: string | null }[] = [];
    // a long batch keeps its claim fresh, so no other process takes it over as abandoned
    const heartbeat = setInterval(() => {
      void db.updateTable('automation_run').set({ issuing_since: clock.now() }).where('id', 'in', runIds.slice(0, 1000)).where('issuing_since', 'is not', null).execute().catch(deps.onError);
    }, LEASE_MS / 3);
    heartbeat.unref?.();
    try {
      const sendable: { result: ResultRow; target: CommandTarget; input: { fieldCode: string; value: string | number }; issuer: { userId: null; username: string } }[] = [];
      for (const r of todo) {
        const device = devices.get(r.device_id);
        const plan = planOf.get(r.run_id)!;
        if (!device || device.tenant_id !== plan.tenantId || device.project_id !== plan.projectId) {
          outcomes.push({ id: r.id, command_id: null, status: 'rejected', error: '设备已删除或已移出项目' });
          continue;
        }
        sendable.push({ result: r, target: await targetOf(device), input: { fieldCode: r.field_code!, value: numberOrText(device.device_type, r.field_code!, r.value) }, issuer: { userId: null, username: plan.issuer.slice(0, 64) } });
      }
      for (let i = 0; i < sendable.length; i += 500) {
        const chunk = sendable.slice(i, i + 500);
        try {
          const cmds = await core.issueCommands(chunk);
          cmds.forEach((c, j) => outcomes.push({ id: chunk[j]!.result.id, command_id: c.id, status: 'pending', error: null }));
        } catch (err) {
          deps.onError(err);
          for (const c of chunk) outcomes.push({ id: c.result.id, command_id: null, status: 'rejected', error: (err instanceof Error ? err.message : String(err)).slice(0, 200) });
        }
      }
    } finally {
      clearInterval(heartbeat);
    }
    const now = clock.now();
    for (let i = 0; i < outcomes.length; i += 500) {
      await db.transaction().execute(async (trx) => {
        for (const o of outcomes.slice(i, i + 500)) {
          await trx.updateTable('automation_run_result').set({ command_id: o.command_id, status: o.status, error: o.error, updated_at: now }).where('id', '=', o.id).execute();
        }
      });
    }
    for (let i = 0; i < runIds.length; i += 500) {
      await db.updateTable('automation_run').set({ issuing_since: null }).where('id', 'in', runIds.slice(i, i + 500)).execute();
      await repo.settleRuns(db, runIds.slice(i, i + 500), now);
    }
    scheduleFlush();
  }

  const issue = (run: RunRow, plan: RunPlan) => issueMany([{ run, plan }]);

  function numberOrText(deviceType: string, fieldCode: string, value: string | null) {
    const check = validateFieldWrite(deviceType, fieldCode, value ?? '');
    return check.ok ? check.value : value ?? '';
  }

  function scheduleFlush() {
    if (flushTimer || !finished.length) return;
    flushTimer = setTimeout(() => {
      flushTimer = null;
      flushing = flush().catch(deps.onError).finally(() => { flushing = null; scheduleFlush(); });
    }, FLUSH_MS);
    flushTimer.unref?.();
  }

  /** Writes the outcomes that arrived into the result rows; the runs they complete settle. */
  async function flush() {
    const batch = finished.splice(0, finished.length);
    if (!batch.length) return;
    const byId = new Map(batch.map((b) => [b.commandId, b]));
    const rows = await db.selectFrom('automation_run_result').select(['id', 'run_id', 'command_id']).where('command_id', 'in', [...byId.keys()]).execute();
    const matched = new Set<number>();
    const runIds = new Set<number>();
    await db.transaction().execute(async (trx) => {
      for (const r of rows) {
        const o = byId.get(r.command_id!)!;
        matched.add(o.commandId);
        runIds.add(r.run_id);
        await trx.updateTable('automation_run_result').set({ status: o.status, error: o.error?.slice(0, 200) ?? null, updated_at: clock.now() }).where('id', '=', r.id).execute();
      }
    });
    const now = clock.now();
    for (const b of batch) if (!matched.has(b.commandId) && now - b.at < UNMATCHED_KEEP_MS) finished.push(b);
    await repo.settleRuns(db, [...runIds], now);
  }

  return {
    resolveDevices,

    /** The core's "a command finished" (every process listens; the one that sees it records it). */
    onCommandFinished(o: { commandId: number; status: string; error: string | null }) {
      finished.push({ commandId: o.commandId, status: o.status, error: o.error, at: clock.now() });
      scheduleFlush();
    },

    /**
     * Claims runs (one per due occurrence; ON CONFLICT DO NOTHING decides between processes) and issues the ones this
     * call won. Missed occurrences are claimed as `missed` runs with nothing sent.
     */
    async claimAndIssue(items: { run: Omit<NewRun, 'issuing_since' | 'created_at'>; plan: RunPlan }[]): Promise<RunRow[]> {
      if (!items.length) return [];
      const now = clock.now();
      const won = await repo.claimRuns(db, items.map((i) => ({
        ...i.run, created_at: now, issuing_since: i.run.status === 'missed' ? null : now,
        started_at: i.run.status === 'missed' ? null : now, finished_at: i.run.status === 'missed' ? now : null,
      })));
      const planOf = new Map(items.map((i) => [`${i.run.source}@${i.run.scheduled_at}`, i.plan]));
      const toIssue = won.filter((r) => r.status !== 'missed');
      for (const r of toIssue) plans.set(r.id, planOf.get(`${r.source}@${r.scheduled_at}`)!);
      try {
        // one batch per project (their devices are read together)
        const byProject = new Map<number, { run: RunRow; plan: RunPlan }[]>();
        for (const r of toIssue) {
          if (!byProject.has(r.project_id)) byProject.set(r.project_id, []);
          byProject.get(r.project_id)!.push({ run: r, plan: plans.get(r.id)! });
        }
        for (const batch of byProject.values()) await issueMany(batch, true).catch(deps.onError);
      } finally {
        for (const r of toIssue) plans.delete(r.id);
      }
      return won;
    },

    /** A run outside the schedule (run now, strategy, retry): no due time, so never in conflict. */
    async runNow(plan: RunPlan, source: string, trigger: RunTrigger, retryOf: number | null = null, presetResults?: { device_id: number; device_code: string; device_name: string; field_code: string | null; value: string | null }[]) {
      const now = clock.now();
      const [run] = await repo.claimRuns(db, [{
        tenant_id: plan.tenantId, project_id: plan.projectId, task_id: plan.taskId, program_id: plan.programId, source, scheduled_at: null,
        trigger, status: 'running', retry_of: retryOf, issuing_since: now, started_at: now, finished_at: null, created_at: now,
      }]);
      if (presetResults) {
        await repo.insertResults(db, presetResults.map((r) => ({ ...r, run_id: run!.id, command_id: null, status: 'pending', error: null, updated_at: now })));
      }
      await issue(run!, plan);
      return run!;
    },

    /** Takes over runs whose issuing stopped (lease passed) — after a crash of the process that claimed them. */
    async recover(planFor: (run: RunRow) => Promise<RunPlan | null>) {
      const now = clock.now();
      for (const run of await repo.staleIssuing(db, now - LEASE_MS)) {
        if (plans.has(run.id) || !(await repo.takeOver(db, run, now))) continue;
        const plan = await planFor(run);
        if (!plan) {
          await db.updateTable('automation_run').set({ issuing_since: null }).where('id', '=', run.id).execute();
          await repo.settleRuns(db, [run.id], now);
          continue;
        }
        plans.set(run.id, plan);
        try {
          await issue(run, plan);
        } finally {
          plans.delete(run.id);
        }
      }
    },

    /** Results still pending whose command has ended without this process hearing it (the outcome event was lost). */
    async sweepPending() {
      const rows = await db.selectFrom('automation_run_result').select(['command_id']).where('status', '=', 'pending').where('command_id', 'is not', null)
        .where('updated_at', '<', clock.now() - 60_000).limit(500).execute();
      for (const r of rows) {
        const cmd = await core.commands.byId(r.command_id!);
        if (cmd && (cmd.status === 'acked' || cmd.status === 'rejected' || cmd.status === 'expired')) finished.push({ commandId: cmd.id, status: cmd.status, error: cmd.error, at: clock.now() });
      }
      await flush();
    },

    async drain() {
      if (flushTimer) {
        clearTimeout(flushTimer);
        flushTimer = null;
      }
      await flushing;
      await flush();
    },
  };
}

export type Runs = ReturnType<typeof createRuns>;
