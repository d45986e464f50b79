import {
  DEVICE_TYPES, DEVICE_TYPE_BY_CODE, FACTORY_BENCH_BY_CODE, FACTORY_RUN_STATUS_LABELS, FACTORY_STEP_STATUS_LABELS, ResultCode, fieldDisplay,
  fieldOf, type DeviceAction, type FactoryBench, type FactoryDeviceRow, type FactoryRunStatus, type FactoryRunView, type FactoryStepDef,
  type FactoryStepStatus, type FactoryStepView,
} from '@kelvin/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { FactoryTestRunTable, FactoryTestStepTable } from '../../db/schema.ts';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import type { CommandTarget, DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';

type RunRow = Selectable<FactoryTestRunTable>;
type StepRow = Selectable<FactoryTestStepTable>;

/** How often a waiting step looks again at the device's reported values and at whether the run was stopped. */
const POLL_MS = 250;
/** A run whose runner has not moved for its step timeout plus this long died with its process. */
const STALE_GRACE_MS = 60_000;
/** Device clocks may run a little behind the server's: a report this much older than the command still counts. */
const CLOCK_SLACK_MS = 2_000;

const noPermission = () => new AppError(ResultCode.NO_PERMISSION, '权限不足，无法执行该操作');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function toRunView(r: RunRow, steps?: StepRow[]): FactoryRunView {
  const bench = FACTORY_BENCH_BY_CODE.get(r.bench);
  const status = r.status as FactoryRunStatus;
  return {
    id: r.id, bench: r.bench as FactoryBench, benchTitle: bench?.title ?? r.bench, projectId: r.project_id, deviceId: r.device_id,
    deviceCode: r.device_code, deviceName: r.device_name, deviceType: r.device_type, typeName: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type,
    status, statusLabel: FACTORY_RUN_STATUS_LABELS[status] ?? r.status, stepCount: r.step_count, passed: r.passed, failed: r.failed,
    stepTimeoutSeconds: r.step_timeout_s, startedAt: r.started_at, finishedAt: r.finished_at, username: r.username,
    ...(steps && { steps: steps.map(toStepView) }),
  };
}

function toStepView(s: StepRow): FactoryStepView {
  const status = s.status as FactoryStepStatus;
  return {
    seq: s.seq, label: s.label, kind: s.kind as FactoryStepDef['kind'], fieldCode: s.field_code, value: s.value, status,
    statusLabel: FACTORY_STEP_STATUS_LABELS[status] ?? s.status, message: s.message, commandId: s.command_id, startedAt: s.started_at, finishedAt: s.finished_at,
  };
}

type Outcome = { ok: boolean; message: string; commandId?: number };

/**
 * The factory bench (test-equipment pages): a scripted check of a device — online, power, each mode, a set point,
 * the readings it reports — sent as real commands through the command service. Each step passes only when the
 * device acknowledged the command and reported the new value back (or, for readings, reported the fields within
 * their range) before the step's timeout. Runs and steps are rows, so every result is kept and a run whose process
 * died is marked interrupted instead of staying "running" forever.
 */
export function createFactoryTestService(deps: { db: Db; projects: ProjectService; core: DeviceCore; onError(err: unknown): void }) {
  const { db, core } = deps;
  const inFlight = new Set<Promise<void>>();
  let closing = false;

  async function setStep(runId: number, seq: number, patch: Partial<Omit<StepRow, 'run_id' | 'seq'>>) {
    await db.updateTable('factory_test_step').set(patch).where('run_id', '=', runId).where('seq', '=', seq).execute();
  }

  async function isRunning(runId: number) {
    const r = await db.selectFrom('factory_test_run').select('status').where('id', '=', runId).executeTakeFirst();
    return r?.status === 'running';
  }

  /** Polls until `probe` answers, the deadline passes, the run is stopped, or the server closes. */
  async function waitFor<T>(runId: number, deadline: number, probe: () => Promise<T | null>): Promise<T | 'timeout' | 'stopped'> {
    for (let i = 0; ; i++) {
      const v = await probe();
      if (v !== null) return v;
      if (closing || (i % 4 === 3 && !(await isRunning(runId)))) return 'stopped';
      if (Date.now() >= deadline) return 'timeout';
      await sleep(POLL_MS);
    }
  }

  const stateOf = (deviceId: number, codes: string[]) =>
    core.devices.latestState([deviceId], codes);

  /** A command: acknowledged, then (for a write) the device reports the value it was given. */
  async function command(run: RunRow, target: CommandTarget, input: { fieldCode: string; value: number | string } | { action: DeviceAction }, deadline: number): Promise<Outcome | 'stopped'> {
    const ttl = Math.max(1, Math.ceil((deadline - Date.now()) / 1000));
    const cmd = await core.issueCommand(target, input, { userId: run.user_id, username: run.username }, { ttl });
    let done: Awaited<ReturnType<DeviceCore['awaitOutcome']>> = null;
    // the outcome arrives as an event; the run is checked for a stop once a second meanwhile
    while (!done) {
      done = await core.awaitOutcome(cmd.id, { timeoutMs: Math.min(1000, Math.max(0, deadline - Date.now())) });
      if (done) break;
      if (closing || !(await isRunning(run.id))) return 'stopped';
      if (Date.now() >= deadline) {
        const c = await core.commands.byId(cmd.id);
        return { ok: false, commandId: cmd.id, message: c?.status === 'pending' ? '超时：指令未能下发到设备' : '超时：设备未确认执行' };
      }
    }
    if (done.status !== 'acked') return { ok: false, commandId: cmd.id, message: `${done.status === 'rejected' ? '设备拒绝' : '指令过期'}：${done.error ?? '无原因'}` };
    if ('action' in input) return { ok: true, commandId: cmd.id, message: '设备已执行' };
    const want = input.value;
    const since = cmd.createdAt - CLOCK_SLACK_MS;
    const back = await waitFor(run.id, deadline, async () => {
      const [s] = await stateOf(target.id, [input.fieldCode]);
      if (!s || s.ts < since) return null;
      const same = typeof want === 'number' ? s.num !== null && Math.abs(s.num - want) < 1e-6 : s.txt === want;
      return same ? s : null;
    });
    if (back === 'stopped') return back;
    if (back === 'timeout') return { ok: false, commandId: cmd.id, message: '设备已确认执行，但未在时限内回报新值' };
    return { ok: true, commandId: cmd.id, message: `设备已执行并回报 ${fieldDisplay(run.device_type, input.fieldCode, want)}` };
  }

  async function runStep(run: RunRow, target: CommandTarget, step: StepRow, since: number, deadline: number): Promise<Outcome | 'stopped'> {
    switch (step.kind) {
      case 'online': {
        const on = await waitFor(run.id, deadline, async () => {
          const d = await core.devices.byId(run.device_id);
          if (!d) return { ok: false, message: '设备已被删除' };
          return (d.online_until ?? 0) > Date.now() ? { ok: true, message: '设备在线' } : null;
        });
        if (on === 'timeout') return { ok: false, message: `设备在 ${run.step_timeout_s} 秒内未上线` };
        return on;
      }
      case 'write': {
        const kind = fieldOf(run.device_type, step.field_code!)?.kind;
        const value = kind === 'number' || kind === 'enum' || kind === 'bool' ? Number(step.value) : step.value!;
        return command(run, target, { fieldCode: step.field_code!, value }, deadline);
      }
      case 'action':
        return command(run, target, { action: step.value as DeviceAction }, deadline);
      case 'reading': {
        const codes = (step.value ?? '').split(',').filter(Boolean);
        const label = (c: string) => fieldOf(run.device_type, c)?.label ?? c;
        let last: { missing: string[]; bad: string[] } = { missing: codes, bad: [] };
        const got = await waitFor(run.id, deadline, async () => {
          const states = new Map((await stateOf(run.device_id, codes)).map((s) => [s.field_code, s]));
          const missing = codes.filter((c) => !states.has(c) || states.get(c)!.ts < since - CLOCK_SLACK_MS);
          const bad = codes.filter((c) => {
            const f = fieldOf(run.device_type, c);
            const n = states.get(c)?.num;
            return f?.kind === 'number' && n !== null && n !== undefined && ((f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max));
          });
          last = { missing, bad };
          return missing.length ? null : { ok: bad.length === 0, message: bad.length ? `超出量程：${bad.map(label).join('、')}` : '各项数据已上报且在量程内' };
        });
        if (got === 'timeout') return { ok: false, message: `时限内未上报：${last.missing.map(label).join('、')}` };
        return got;
      }
      default:
        return { ok: false, message: `未知步骤 ${step.kind}` };
    }
  }

  async function finish(runId: number, status: FactoryRunStatus, skipMessage: string) {
    const now = Date.now();
    await db.updateTable('factory_test_step').set({ status: 'skipped', message: skipMessage, finished_at: now })
      .where('run_id', '=', runId).where('status', 'in', ['pending', 'running']).execute();
    await db.updateTable('factory_test_run').set({ status, finished_at: now, heartbeat_at: now })
      .where('id', '=', runId).where('status', '=', 'running').execute();
  }

  async function execute(runId: number) {
    const run = await db.selectFrom('factory_test_run').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    const steps = await db.selectFrom('factory_test_step').selectAll().where('run_id', '=', runId).orderBy('seq').execute();
    const row = await core.devices.byId(run.device_id);
    if (!row) return finish(runId, 'aborted', '设备已被删除');
    const target = await core.devices.target(row);
    let passed = 0;
    let failed = 0;
    let since = run.started_at;
    for (const [i, step] of steps.entries()) {
      if (closing) return finish(runId, 'aborted', '服务停止，测试中断');
      if (!(await isRunning(runId))) return; // stopped by an operator (the stop already marked the rest)
      const startedAt = Date.now();
      await setStep(runId, step.seq, { status: 'running', started_at: startedAt });
      await db.updateTable('factory_test_run').set({ heartbeat_at: startedAt }).where('id', '=', runId).execute();
      const out = await runStep(run, target, step, since, startedAt + run.step_timeout_s * 1000);
      if (out === 'stopped') return finish(runId, 'aborted', closing ? '服务停止，测试中断' : '已手动停止');
      if (out.ok) passed++;
      else failed++;
      await setStep(runId, step.seq, { status: out.ok ? 'passed' : 'failed', message: out.message.slice(0, 200), command_id: out.commandId ?? null, finished_at: Date.now() });
      await db.updateTable('factory_test_run').set({ passed, failed, heartbeat_at: Date.now() }).where('id', '=', runId).execute();
      since = startedAt;
      // nothing else can be checked on a device that never came online
      if (step.kind === 'online' && !out.ok && i < steps.length - 1) return finish(runId, 'failed', '设备不在线，未执行');
    }
    await finish(runId, failed ? 'failed' : 'passed', '');
  }

  function launch(runId: number) {
    const p: Promise<void> = execute(runId)
      .catch(async (err) => {
        deps.onError(err);
        await finish(runId, 'aborted', '测试程序出错，已中断').catch(deps.onError);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  /** Runs left "running" by a process that died: interrupted, their open steps not executed. */
  async function reapStale(now = Date.now()) {
    const stale = await db.selectFrom('factory_test_run').select(['id', 'heartbeat_at', 'step_timeout_s']).where('status', '=', 'running').execute();
    for (const r of stale) {
      if (r.heartbeat_at + r.step_timeout_s * 1000 + STALE_GRACE_MS < now) await finish(r.id, 'aborted', '测试中断（服务重启或停止）');
    }
  }

  async function visibleRun(scope: Scope, id: number) {
    await reapStale();
    const run = await db.selectFrom('factory_test_run').selectAll().where('id', '=', id).executeTakeFirst();
    if (!run) throw notFound('测试记录');
    await deps.projects.project(scope, run.project_id).catch(() => {
      throw notFound('测试记录');
    });
    return run;
  }

  function runsQuery(projectId: number, q: { bench?: string; status?: string; keyword?: string; startedFrom?: number; startedTo?: number }) {
    let query = db.selectFrom('factory_test_run').selectAll().where('project_id', '=', projectId);
    if (q.bench) query = query.where('bench', '=', q.bench);
    if (q.status) query = query.where('status', '=', q.status);
    if (q.startedFrom !== undefined) query = query.where('started_at', '>=', q.startedFrom);
    if (q.startedTo !== undefined) query = query.where('started_at', '<=', q.startedTo);
    if (q.keyword) {
      const like = `%${q.keyword.toLowerCase()}%`;
      query = query.where((eb) => eb.or([eb(eb.fn('lower', ['device_code']), 'like', like), eb(eb.fn('lower', ['device_name']), 'like', like)]));
    }
    return query;
  }

  async function runView(scope: Scope, id: number): Promise<FactoryRunView> {
    const run = await visibleRun(scope, id);
    const steps = await db.selectFrom('factory_test_step').selectAll().where('run_id', '=', run.id).orderBy('seq').execute();
    return toRunView(run, steps);
  }

  return {
    run: runView,

    /** Starts one run per device (each device's steps one after another; devices in parallel). */
    async start(a: Actor, body: { bench: FactoryBench; deviceIds: number[]; stepTimeoutSeconds: number }): Promise<FactoryRunView[]> {
      const bench = FACTORY_BENCH_BY_CODE.get(body.bench)!;
      if (!a.user.codes.has(`${bench.code}:control`)) throw noPermission();
      const ids = [...new Set(body.deviceIds)];
      const rows = await core.devices.scopedDevices(a.scope).selectAll().where('id', 'in', ids).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      const scripts = ids.map((id) => {
        const d = byId.get(id);
        if (!d) throw invalid(`设备 ${id} 不存在`, ['deviceIds']);
        const def = DEVICE_TYPE_BY_CODE.get(d.device_type);
        if (!def || !bench.accepts(def)) throw invalid(`${def?.name ?? d.device_type}「${d.device_code}」不能在「${bench.title}」上测试`, ['deviceIds']);
        if (!d.enabled) throw invalid(`设备「${d.device_code}」已停用，不能测试`, ['deviceIds']);
        return { d, steps: bench.script(def) };
      });
      await reapStale();
      const busy = await db.selectFrom('factory_test_run').select('device_code').where('device_id', 'in', ids).where('status', '=', 'running').executeTakeFirst();
      if (busy) throw conflict(`设备「${busy.device_code}」正在测试中，请等待本轮结束或先停止`);
      const now = Date.now();
      const runs = await db.transaction().execute(async (trx) => {
        const made: RunRow[] = [];
        for (const { d, steps } of scripts) {
          const run = await trx.insertInto('factory_test_run').values({
            tenant_id: d.tenant_id, project_id: d.project_id, device_id: d.id, device_code: d.device_code, device_name: d.device_name,
            device_type: d.device_type, bench: bench.code, status: 'running', step_count: steps.length, passed: 0, failed: 0,
            step_timeout_s: body.stepTimeoutSeconds, user_id: a.user.id, username: a.user.username, started_at: now, finished_at: null, heartbeat_at: now,
          }).returningAll().executeTakeFirstOrThrow();
          await trx.insertInto('factory_test_step').values(steps.map((s, seq) => ({
            run_id: run.id, seq, kind: s.kind, label: s.label.slice(0, 200),
            field_code: s.kind === 'write' ? s.fieldCode : null,
            value: s.kind === 'write' ? String(s.value) : s.kind === 'action' ? s.action : s.kind === 'reading' ? s.fieldCodes.join(',') : null,
            status: 'pending', message: null, command_id: null, started_at: null, finished_at: null,
          }))).execute();
          made.push(run);
        }
        return made;
      });
      for (const r of runs) launch(r.id);
      return runs.map((r) => toRunView(r));
    },

    async stop(a: Actor, id: number) {
      const run = await visibleRun(a.scope, id);
      if (!a.user.codes.has(`${run.bench}:control`)) throw noPermission();
      if (run.status !== 'running') throw conflict('该测试已结束');
      await finish(run.id, 'aborted', '已手动停止');
      return runView(a.scope, id);
    },

    async runs(scope: Scope, q: { projectId: number; bench?: FactoryBench; status?: FactoryRunStatus; keyword?: string; startedFrom?: number; startedTo?: number; pageNo: number; pageSize: number }) {
      const p = await deps.projects.project(scope, q.projectId);
      await reapStale();
      const page = await paginate(runsQuery(p.id, q), q, (b) => b.orderBy('id', 'desc'));
      return { total: page.total, rows: page.rows.map((r) => toRunView(r)) };
    },

    /**
     * For the export: runs newest first in id batches, each with its steps. The project is checked before the
     * rows are handed out, so another tenant's project is a 404 and not a download that breaks off.
     */
    async allRuns(scope: Scope, q: { projectId: number; bench?: FactoryBench; status?: FactoryRunStatus; keyword?: string; startedFrom?: number; startedTo?: number }) {
      const p = await deps.projects.project(scope, q.projectId);
      return (async function* () {
        let before: number | null = null;
        for (;;) {
          let query = runsQuery(p.id, q).orderBy('id', 'desc').limit(500);
          if (before !== null) query = query.where('id', '<', before);
          const rows = await query.execute();
          if (!rows.length) return;
          const steps = await db.selectFrom('factory_test_step').selectAll().where('run_id', 'in', rows.map((r) => r.id)).orderBy('seq').execute();
          for (const r of rows) yield toRunView(r, steps.filter((s) => s.run_id === r.id));
          if (rows.length < 500) return;
          before = rows[rows.length - 1].id;
        }
      })();
    },

    /** testDeviceStatus: the project's devices (of the bench's types) with their latest run. */
    async devices(scope: Scope, q: { projectId: number; bench?: FactoryBench; keyword?: string; pageNo: number; pageSize: number }) {
      const p = await deps.projects.project(scope, q.projectId);
      await reapStale();
      let query = core.devices.scopedDevices(scope).selectAll().where('project_id', '=', p.id);
      const bench = q.bench ? FACTORY_BENCH_BY_CODE.get(q.bench)! : null;
      if (bench) query = query.where('device_type', 'in', DEVICE_TYPES.filter((t) => bench.accepts(t)).map((t) => t.code));
      if (q.keyword) {
        const like = `%${q.keyword.toLowerCase()}%`;
        query = query.where((eb) => eb.or([eb(eb.fn('lower', ['device_code']), 'like', like), eb(eb.fn('lower', ['device_name']), 'like', like)]));
      }
      const page = await paginate(query, q, (b) => b.orderBy('device_code'));
      const ids = page.rows.map((r) => r.id);
      const latest = ids.length
        ? await db.selectFrom('factory_test_run').selectAll()
          .where('id', 'in', (eb) => eb.selectFrom('factory_test_run').select((x) => x.fn.max('id').as('id')).where('device_id', 'in', ids).groupBy('device_id'))
          .execute()
        : [];
      const byDevice = new Map(latest.map((r) => [r.device_id, r]));
      const rows = await core.devices.toRows(scope, page.rows);
      return { total: page.total, rows: rows.map((d): FactoryDeviceRow => ({ ...d, lastRun: byDevice.has(d.id) ? toRunView(byDevice.get(d.id)!) : null })) };
    },

    /** Stops taking steps (runs in flight are marked interrupted) and waits for the runners to write that. */
    async close() {
      closing = true;
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type FactoryTestService = ReturnType<typeof createFactoryTestService>;
