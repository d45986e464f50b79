import {
  DEVICE_TYPE_BY_CODE, HOLIDAY_RULES, RUN_RESULT_STATUS, RUN_STATUS, RUN_TRIGGERS, ResultCode, STRATEGY_OPERATORS, TASK_KIND_MENUS, TASK_KINDS,
  describeRule, describeSlots, encodeProgram, fieldOf, localParts, programFieldOf, validateFieldWrite,
  type FieldWrite, type HolidayRule, type MissedPolicy, type OvertimePoolBody, type OvertimePoolRow, type PeriodicRule, type ProgramSchemeBody,
  type ProgramSchemeRow, type ProgramSlot, type RunResultStatus, type RunStatus, type RunTrigger, type StrategyCondition, type TaskBody, type TaskKind,
  type TaskRow as TaskView, type TaskRunRow, type WeekProgramBody, type WeekProgramRow,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { AppError, invalid, notFound } from '../../lib/errors.ts';
import { cstTime } from '../../lib/excel.ts';
import { paginate } from '../../lib/pagination.ts';
import { scoped, type Actor, type Scope } from '../../lib/scope.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { computeOvertime } from './overtime.ts';
import * as repo from './repository.ts';
import type { ProgramRow, ResultRow, RunRow, SchemeRow, TaskRow } from './repository.ts';
import type { Clock, RunPlan, Runs } from './runs.ts';
import { occurrences, nextOccurrence } from './schedule.ts';
import { programPlan, programSchedule, taskPlan, taskSchedule, type CalendarSource, type Scheduler } from './scheduler.ts';
import type { StrategyEngine } from './strategy.ts';

const ids = (t: string) => repo.json<number[]>(t, []);
const denied = () => new AppError(ResultCode.NO_PERMISSION, '权限不足，无法执行该操作');

function need(actor: Actor, code: string) {
  if (!actor.user.codes.has(code)) throw denied();
}

export function toRunRows(runs: RunRow[], results: ResultRow[]): TaskRunRow[] {
  const byRun = new Map<number, ResultRow[]>();
  for (const r of results) {
    if (!byRun.has(r.run_id)) byRun.set(r.run_id, []);
    byRun.get(r.run_id)!.push(r);
  }
  return runs.map((run) => {
    const rs = byRun.get(run.id) ?? [];
    const counts: Record<RunResultStatus, number> = { pending: 0, acked: 0, rejected: 0, expired: 0 };
    for (const r of rs) counts[r.status as RunResultStatus] = (counts[r.status as RunResultStatus] ?? 0) + 1;
    return {
      id: run.id, taskId: run.task_id, programId: run.program_id, scheduledAt: run.scheduled_at, startedAt: run.started_at, finishedAt: run.finished_at,
      trigger: run.trigger as RunTrigger, triggerLabel: RUN_TRIGGERS[run.trigger as RunTrigger] ?? run.trigger,
      status: run.status as RunStatus, statusLabel: RUN_STATUS[run.status as RunStatus] ?? run.status, retryOf: run.retry_of, counts,
      results: rs.map((r) => ({
        deviceId: r.device_id, deviceCode: r.device_code, deviceName: r.device_name, commandId: r.command_id, fieldCode: r.field_code, value: r.value,
        status: r.status as RunResultStatus, statusLabel: RUN_RESULT_STATUS[r.status as RunResultStatus] ?? r.status, error: r.error,
      })),
    };
  });
}

function describeTask(t: TaskRow, programName?: string): string {
  switch (t.kind) {
    case 'once': return t.run_at ? `${cstTime(t.run_at).slice(0, 16)} 执行一次` : '执行一次';
    case 'periodic': return `${describeRule(repo.json<PeriodicRule>(t.rule, { every: 'daily', at: '00:00' }))}${t.skip_holidays ? '（节假日不执行）' : ''}`;
    case 'holiday': return `每个${t.holiday_type === 'workday' ? '调休工作日' : '节假日'} ${t.at}`;
    case 'strategy': {
      const c = repo.json<StrategyCondition | null>(t.condition, null);
      if (!c) return '策略';
      const label = (t.device_type && fieldOf(t.device_type, c.fieldCode)?.label) || c.fieldCode;
      const who = c.source === 'sensor' ? `传感器 #${c.sensorDeviceId} ` : '';
      return `${who}${label} ${STRATEGY_OPERATORS[c.operator]} ${c.threshold}${c.forMinutes ? ` 持续 ${c.forMinutes} 分钟` : ''}，冷却 ${t.cooldown_minutes} 分钟`;
    }
    case 'memory': return `下发周程序「${programName ?? t.program_id}」${t.run_at ? `于 ${cstTime(t.run_at).slice(0, 16)}` : '（立即）'}`;
    default: return t.kind;
  }
}

/**
 * Week programs, program schemes, tasks, runs (history, retry), run-now, and the overtime pool. Scoped by the
 * caller's tenant and projects; a task's changes need the codes of its kind's menu.
 */
export function createAutomationService(deps: {
  db: Db; core: DeviceCore; projects: ProjectService; runs: Runs; scheduler: Scheduler; strategy: StrategyEngine; clock: Clock; calendar: CalendarSource;
}) {
  const { db, core, projects, runs, scheduler, strategy, clock } = deps;

  const tasksOf = (scope: Scope) => scoped(db.selectFrom('automation_task'), scope);
  const programsOf = (scope: Scope) => scoped(db.selectFrom('automation_program'), scope);
  const schemesOf = (scope: Scope) => scoped(db.selectFrom('automation_scheme'), scope);

  async function task(scope: Scope, id: number) {
    const row = await tasksOf(scope).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('任务');
    return row;
  }
  async function program(scope: Scope, id: number) {
    const row = await programsOf(scope).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('周程序');
    return row;
  }
  async function scheme(scope: Scope, id: number) {
    const row = await schemesOf(scope).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('编程方案');
    return row;
  }

  /** The targets named in a body: devices of the project (else "设备 … 不存在"), areas the caller can see. Returns the devices' types. */
  async function checkTargets(scope: Scope, projectId: number, t: { deviceIds: number[]; groupIds: number[]; areaIds: number[] }, deviceType?: string | null) {
    if (!t.deviceIds.length && !t.groupIds.length && !t.areaIds.length) throw invalid('请选择设备、分组或区域', ['deviceIds']);
    const found = t.deviceIds.length
      ? await core.devices.scopedDevices(scope).select(['id', 'device_type']).where('project_id', '=', projectId).where('id', 'in', t.deviceIds).execute()
      : [];
    const missing = t.deviceIds.filter((id) => !found.some((d) => d.id === id));
    if (missing.length) throw invalid(`设备 ${missing.slice(0, 5).join('、')} 不存在`, ['deviceIds']);
    if (deviceType) {
      const other = found.find((d) => d.device_type !== deviceType);
      if (other) throw invalid(`设备 ${other.id} 不是${DEVICE_TYPE_BY_CODE.get(deviceType)?.name ?? deviceType}`, ['deviceIds']);
    }
    for (const a of t.areaIds) {
      const owner = await projects.projectOf(scope, a);
      if (owner.id !== projectId) throw invalid(`区域 ${a} 不属于该项目`, ['areaIds']);
    }
    return new Set(found.map((d) => d.device_type));
  }

  function checkWrites(types: Iterable<string>, writes: FieldWrite[]) {
    for (const type of types) {
      for (const [i, w] of writes.entries()) {
        const check = validateFieldWrite(type, w.fieldCode, w.value);
        if (!check.ok) throw invalid(check.message, ['writes', String(i)]);
        if (check.field.hidden) throw invalid(`「${check.field.label}」由记忆周期任务下发，不能直接写入`, ['writes', String(i)]);
      }
    }
  }

  async function calendarDays(tenantId: number, projectId: number, from: number, to: number) {
    const rows = await deps.calendar(tenantId, projectId, localParts(from).date, localParts(to).date);
    return new Map(rows.map((r) => [r.date, r.type]));
  }

  async function lastRuns(column: 'task_id' | 'program_id', idList: number[]) {
    if (!idList.length) return new Map<number, RunRow>();
    const latest = await db.selectFrom('automation_run').select([column, (eb) => eb.fn.max('id').as('id')]).where(column, 'in', idList).groupBy(column).execute();
    const rows = latest.length ? await db.selectFrom('automation_run').selectAll().where('id', 'in', latest.map((l) => Number(l.id))).execute() : [];
    return new Map(rows.map((r) => [r[column]!, r]));
  }

  async function deviceCount(plan: RunPlan) {
    return (await runs.resolveDevices(plan)).length;
  }

  async function toTaskViews(rows: TaskRow[]): Promise<TaskView[]> {
    const now = clock.now();
    const last = await lastRuns('task_id', rows.map((r) => r.id));
    const programIds = rows.map((r) => r.program_id).filter((x): x is number => x !== null);
    const progs = new Map((programIds.length ? await db.selectFrom('automation_program').selectAll().where('id', 'in', programIds).execute() : []).map((p) => [p.id, p]));
    return Promise.all(rows.map(async (t) => {
      const schedule = taskSchedule(t);
      let nextRunAt: number | null = null;
      if (schedule && t.enabled) {
        nextRunAt = schedule.kind === 'once' ? (schedule.runAt > t.cursor_at ? schedule.runAt : null)
          : nextOccurrence(schedule, Math.max(now, t.cursor_at), await calendarDays(t.tenant_id, t.project_id, now, now + 9 * 86_400_000));
      }
      const program = t.program_id ? progs.get(t.program_id) : undefined;
      const l = last.get(t.id);
      return {
        id: t.id, projectId: t.project_id, name: t.name, kind: t.kind as TaskKind, kindLabel: TASK_KINDS[t.kind as TaskKind] ?? t.kind,
        deviceType: t.device_type, deviceIds: ids(t.device_ids), groupIds: ids(t.group_ids), areaIds: ids(t.area_ids),
        deviceCount: await deviceCount(taskPlan(t, program)), writes: repo.json<FieldWrite[]>(t.writes, []), runAt: t.run_at,
        rule: repo.json<PeriodicRule | null>(t.rule, null), skipHolidays: t.skip_holidays === 1, at: t.at,
        holidayType: (t.holiday_type as 'holiday' | 'workday' | null), condition: repo.json<StrategyCondition | null>(t.condition, null),
        cooldownMinutes: t.cooldown_minutes, programId: t.program_id, missedPolicy: t.missed_policy as MissedPolicy, enabled: t.enabled === 1,
        remark: t.remark, description: describeTask(t, program?.name), nextRunAt, lastRunAt: l ? l.started_at ?? l.created_at : null,
        lastRunStatus: (l?.status as RunStatus | undefined) ?? null, updatedAt: t.updated_at, updatedBy: t.updated_by,
      };
    }));
  }

  async function toProgramViews(rows: ProgramRow[]): Promise<WeekProgramRow[]> {
    const now = clock.now();
    return Promise.all(rows.map(async (p) => {
      const slots = repo.json<ProgramSlot[]>(p.slots, []);
      const memory = !!programFieldOf(p.device_type);
      const nextRunAt = memory || !p.enabled ? null
        : nextOccurrence(programSchedule(p), Math.max(now, p.cursor_at), await calendarDays(p.tenant_id, p.project_id, now, now + 9 * 86_400_000));
      return {
        id: p.id, projectId: p.project_id, name: p.name, deviceType: p.device_type, typeName: DEVICE_TYPE_BY_CODE.get(p.device_type)?.name ?? p.device_type,
        slots, description: describeSlots(p.device_type, slots), holidayRule: p.holiday_rule as HolidayRule,
        holidayRuleLabel: HOLIDAY_RULES[p.holiday_rule as HolidayRule] ?? p.holiday_rule, deviceIds: ids(p.device_ids), groupIds: ids(p.group_ids),
        areaIds: ids(p.area_ids), deviceCount: await deviceCount(programPlan(p, [])), memory, schemeId: p.scheme_id,
        missedPolicy: p.missed_policy as MissedPolicy, enabled: p.enabled === 1, nextRunAt, updatedAt: p.updated_at, updatedBy: p.updated_by,
      };
    }));
  }

  const toSchemeView = (s: SchemeRow): ProgramSchemeRow => {
    const slots = repo.json<ProgramSlot[]>(s.slots, []);
    return {
      id: s.id, projectId: s.project_id, name: s.name, deviceType: s.device_type, typeName: DEVICE_TYPE_BY_CODE.get(s.device_type)?.name ?? s.device_type,
      slots, description: describeSlots(s.device_type, slots), remark: s.remark ?? null, updatedAt: s.updated_at, updatedBy: s.updated_by,
    };
  };

  async function runView(run: RunRow): Promise<TaskRunRow> {
    const fresh = await db.selectFrom('automation_run').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
    return toRunRows([fresh], await repo.resultsOf(db, [run.id]))[0]!;
  }

  async function runsPage(column: 'task_id' | 'program_id', id: number, page: { pageNo: number; pageSize: number }) {
    const p = await paginate(db.selectFrom('automation_run').selectAll().where(column, '=', id), page, (q) => q.orderBy('id', 'desc'));
    return { total: p.total, rows: toRunRows(p.rows, await repo.resultsOf(db, p.rows.map((r) => r.id))) };
  }

  /** Pushes a program to the devices of a memory type (a run of the program, trigger `push`). */
  async function pushProgram(p: ProgramRow, trigger: RunTrigger = 'push') {
    const field = programFieldOf(p.device_type)!;
    const plan = programPlan(p, [{ fieldCode: field, value: encodeProgram(repo.json<ProgramSlot[]>(p.slots, []), p.holiday_rule as HolidayRule) }]);
    return runs.runNow(plan, `p:${p.id}`, trigger);
  }

  function changed(projectId?: number) {
    scheduler.invalidate();
    strategy.invalidate(projectId);
  }

  async function taskValues(actor: Actor, b: TaskBody, now: number) {
    const scope = actor.scope;
    const p = await projects.project(scope, b.projectId);
    const targets = { deviceIds: b.deviceIds, groupIds: b.groupIds, areaIds: b.areaIds };
    let deviceType: string | null = null;
    let writes: FieldWrite[] = [];
    let programId: number | null = null;
    if (b.kind === 'memory') {
      const prog = await program(scope, b.programId);
      if (prog.project_id !== p.id) throw invalid('周程序不属于该项目', ['programId']);
      if (!programFieldOf(prog.device_type)) throw invalid(`${DEVICE_TYPE_BY_CODE.get(prog.device_type)?.name ?? prog.device_type}不在设备中保存程序，请用周程序由服务器执行`, ['programId']);
      const own = targets.deviceIds.length + targets.groupIds.length + targets.areaIds.length > 0;
      if (own) await checkTargets(scope, p.id, targets, prog.device_type);
      deviceType = prog.device_type;
      programId = prog.id;
    } else {
      const types = await checkTargets(scope, p.id, targets, b.deviceType ?? null);
      deviceType = b.deviceType ?? (types.size === 1 ? [...types][0]! : null);
      checkWrites(b.deviceType ? [b.deviceType] : types, b.writes);
      writes = b.writes;
    }
    const runAt = b.kind === 'once' ? b.runAt : b.kind === 'memory' ? b.runAt ?? null : null;
    if (runAt !== null && runAt < now - 60_000) throw invalid('执行时间已过，请选择以后的时间', ['runAt']);
    if (b.kind === 'strategy' && b.condition.source === 'sensor') {
      const sensor = await core.devices.scopedDevices(scope).select(['id', 'device_type']).where('project_id', '=', p.id).where('id', '=', b.condition.sensorDeviceId!).executeTakeFirst();
      if (!sensor) throw invalid(`设备 ${b.condition.sensorDeviceId} 不存在`, ['condition', 'sensorDeviceId']);
      if (!fieldOf(sensor.device_type, b.condition.fieldCode)) throw invalid('传感器没有这个字段', ['condition', 'fieldCode']);
    }
    if (b.kind === 'strategy' && b.condition.source === 'device' && deviceType && !fieldOf(deviceType, b.condition.fieldCode)) {
      throw invalid('该设备类型没有这个字段', ['condition', 'fieldCode']);
    }
    return {
      tenant_id: p.tenant_id, project_id: p.id, name: b.name, kind: b.kind, device_type: deviceType,
      device_ids: JSON.stringify(targets.deviceIds), group_ids: JSON.stringify(targets.groupIds), area_ids: JSON.stringify(targets.areaIds),
      writes: JSON.stringify(writes), run_at: runAt, rule: b.kind === 'periodic' ? JSON.stringify(b.rule) : null,
      skip_holidays: b.kind === 'periodic' && b.skipHolidays ? 1 : 0, at: b.kind === 'holiday' ? b.at : null,
      holiday_type: b.kind === 'holiday' ? b.holidayType : null, condition: b.kind === 'strategy' ? JSON.stringify(b.condition) : null,
      cooldown_minutes: b.kind === 'strategy' ? b.cooldownMinutes : null, program_id: programId, missed_policy: b.missedPolicy,
      enabled: b.enabled ? 1 : 0, remark: b.remark ?? null,
      // a one-off due within the last minute still fires; anything else counts from now
      cursor_at: runAt !== null ? Math.min(now, runAt - 1) : now,
      updated_by: actor.user.username, updated_at: now,
    };
  }

  async function programValues(actor: Actor, b: WeekProgramBody, now: number) {
    const p = await projects.project(actor.scope, b.projectId);
    await checkTargets(actor.scope, p.id, { deviceIds: b.deviceIds, groupIds: b.groupIds, areaIds: b.areaIds }, b.deviceType);
    if (b.schemeId) await scheme(actor.scope, b.schemeId);
    return {
      tenant_id: p.tenant_id, project_id: p.id, name: b.name, device_type: b.deviceType, slots: JSON.stringify(b.slots), holiday_rule: b.holidayRule,
      device_ids: JSON.stringify(b.deviceIds), group_ids: JSON.stringify(b.groupIds), area_ids: JSON.stringify(b.areaIds), scheme_id: b.schemeId ?? null,
      missed_policy: b.missedPolicy, enabled: b.enabled ? 1 : 0, cursor_at: now, updated_by: actor.user.username, updated_at: now,
    };
  }

  /** Programs of a project whose devices include one of `deviceIds` or which name one of `areaIds`. */
  async function programsTouching(scope: Scope, projectId: number, deviceIds: Set<number>, areaIds: Set<number>) {
    const rows = await programsOf(scope).selectAll().where('project_id', '=', projectId).orderBy('id').execute();
    const out: ProgramRow[] = [];
    for (const p of rows) {
      if (ids(p.area_ids).some((a) => areaIds.has(a))) {
        out.push(p);
        continue;
      }
      const devices = await runs.resolveDevices(programPlan(p, []));
      if (devices.some((d) => deviceIds.has(d.id))) out.push(p);
    }
    return toProgramViews(out);
  }

  return {
    // ─────────────────────────────────────────────── tasks
    async tasks(actor: Actor, q: { projectId: number; kind?: TaskKind; keyword?: string; pageNo: number; pageSize: number }) {
      const kinds = (Object.keys(TASK_KINDS) as TaskKind[]).filter((k) => (!q.kind || k === q.kind) && actor.user.codes.has(TASK_KIND_MENUS[k]));
      if (!kinds.length) throw denied();
      const p = await projects.project(actor.scope, q.projectId);
      let query = tasksOf(actor.scope).selectAll().where('project_id', '=', p.id).where('kind', 'in', kinds);
      if (q.keyword) query = query.where('name', 'like', `%${q.keyword}%`);
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      return { total: page.total, rows: await toTaskViews(page.rows) };
    },

    async task(actor: Actor, id: number) {
      const t = await task(actor.scope, id);
      need(actor, TASK_KIND_MENUS[t.kind as TaskKind]);
      return (await toTaskViews([t]))[0]!;
    },

    async createTask(actor: Actor, b: TaskBody) {
      need(actor, `${TASK_KIND_MENUS[b.kind]}:btn_add`);
      const now = clock.now();
      const values = await taskValues(actor, b, now);
      const row = await db.insertInto('automation_task').values({ ...values, created_at: now }).returningAll().executeTakeFirstOrThrow();
      changed(row.project_id);
      if (row.kind === 'memory' && row.run_at === null && row.enabled) {
        const prog = await db.selectFrom('automation_program').selectAll().where('id', '=', row.program_id!).executeTakeFirstOrThrow();
        await runs.runNow(taskPlan(row, prog), `t:${row.id}`, 'push');
      }
      return { id: row.id };
    },

    async updateTask(actor: Actor, id: number, b: TaskBody) {
      const t = await task(actor.scope, id);
      need(actor, `${TASK_KIND_MENUS[t.kind as TaskKind]}:btn_edit`);
      if (b.kind !== t.kind) throw invalid('不能修改任务类型', ['kind']);
      if (b.projectId !== t.project_id) throw invalid('不能把任务移到另一个项目', ['projectId']);
      const now = clock.now();
      const values = await taskValues(actor, b, now);
      await db.updateTable('automation_task').set({ ...values, cursor_at: Math.max(values.cursor_at, t.cursor_at) }).where('id', '=', t.id).execute();
      changed(t.project_id);
      return { id: t.id };
    },

    async removeTasks(actor: Actor, idList: number[]) {
      const rows = await tasksOf(actor.scope).selectAll().where('id', 'in', idList).execute();
      if (rows.length !== new Set(idList).size) throw notFound('任务');
      for (const t of rows) need(actor, `${TASK_KIND_MENUS[t.kind as TaskKind]}:btn_del`);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('automation_cooldown').where('task_id', 'in', idList).execute();
        await trx.deleteFrom('automation_task').where('id', 'in', idList).execute();
      });
      changed();
      return { removed: rows.length };
    },

    async enableTask(actor: Actor, id: number, enabled: boolean) {
      const t = await task(actor.scope, id);
      need(actor, `${TASK_KIND_MENUS[t.kind as TaskKind]}:btn_edit`);
      // re-enabling does not fire what passed while it was off
      await db.updateTable('automation_task').set({ enabled: enabled ? 1 : 0, cursor_at: Math.max(t.cursor_at, clock.now()), updated_by: actor.user.username, updated_at: clock.now() })
        .where('id', '=', t.id).execute();
      changed(t.project_id);
      return { id: t.id, enabled };
    },

    async executeTask(actor: Actor, id: number) {
      const t = await task(actor.scope, id);
      need(actor, `${TASK_KIND_MENUS[t.kind as TaskKind]}:btn_edit`);
      const prog = t.program_id ? await program(actor.scope, t.program_id) : null;
      const run = await runs.runNow({ ...taskPlan(t, prog), issuer: `${actor.user.username} 手动执行「${t.name}」` }, `t:${t.id}`, t.kind === 'memory' ? 'push' : 'manual');
      return runView(run);
    },

    async taskRuns(actor: Actor, id: number, page: { pageNo: number; pageSize: number }) {
      const t = await task(actor.scope, id);
      need(actor, TASK_KIND_MENUS[t.kind as TaskKind]);
      return runsPage('task_id', t.id, page);
    },

    /** Re-sends the failed commands of a run (rejected or expired), to those devices only, as a new run. */
    async retry(actor: Actor, runId: number, of: 'task' | 'program', deviceIds?: number[]) {
      const run = await scoped(db.selectFrom('automation_run'), actor.scope).selectAll().where('id', '=', runId).executeTakeFirst();
      if (!run || (of === 'task' ? run.task_id === null : run.program_id === null || run.task_id !== null)) throw notFound('执行记录');
      if (of === 'task') {
        const t = await task(actor.scope, run.task_id!);
        need(actor, `${TASK_KIND_MENUS[t.kind as TaskKind]}:btn_edit`);
      }
      const plan = await scheduler.planOfRun(run);
      if (!plan) throw notFound(of === 'task' ? '任务' : '周程序');
      const failed = (await repo.resultsOf(db, [run.id])).filter((r) => (r.status === 'rejected' || r.status === 'expired') && (!deviceIds || deviceIds.includes(r.device_id)));
      if (!failed.length) throw invalid('这次执行没有失败的设备', ['runId']);
      const retried = await runs.runNow({ ...plan, issuer: `${actor.user.username} 重试` }, run.source, 'retry', run.id,
        failed.map((r) => ({ device_id: r.device_id, device_code: r.device_code, device_name: r.device_name, field_code: r.field_code, value: r.value })));
      return runView(retried);
    },

    // ─────────────────────────────────────────────── week programs
    async programs(scope: Scope, q: { projectId: number; deviceType?: string; keyword?: string; pageNo: number; pageSize: number }) {
      const p = await projects.project(scope, q.projectId);
      let query = programsOf(scope).selectAll().where('project_id', '=', p.id);
      if (q.deviceType) query = query.where('device_type', '=', q.deviceType);
      if (q.keyword) query = query.where('name', 'like', `%${q.keyword}%`);
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      return { total: page.total, rows: await toProgramViews(page.rows) };
    },

    async program(scope: Scope, id: number) {
      return (await toProgramViews([await program(scope, id)]))[0]!;
    },

    async createProgram(actor: Actor, b: WeekProgramBody) {
      const now = clock.now();
      const row = await db.insertInto('automation_program').values({ ...(await programValues(actor, b, now)), created_at: now }).returningAll().executeTakeFirstOrThrow();
      changed();
      if (programFieldOf(row.device_type) && row.enabled) await pushProgram(row);
      return { id: row.id };
    },

    async updateProgram(actor: Actor, id: number, b: WeekProgramBody) {
      const old = await program(actor.scope, id);
      if (b.projectId !== old.project_id) throw invalid('不能把周程序移到另一个项目', ['projectId']);
      const now = clock.now();
      const values = await programValues(actor, b, now);
      const row = await db.updateTable('automation_program').set({ ...values, cursor_at: Math.max(now, old.cursor_at) }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      changed();
      if (programFieldOf(row.device_type) && row.enabled) await pushProgram(row);
      return { id };
    },

    async removePrograms(actor: Actor, idList: number[]) {
      const rows = await programsOf(actor.scope).select(['id']).where('id', 'in', idList).execute();
      if (rows.length !== new Set(idList).size) throw notFound('周程序');
      const used = await db.selectFrom('automation_task').select(['name']).where('program_id', 'in', idList).executeTakeFirst();
      if (used) throw invalid(`周程序被记忆周期任务「${used.name}」使用，请先删除该任务`, ['ids']);
      const pooled = await db.selectFrom('automation_overtime').select(['id']).where('program_id', 'in', idList).executeTakeFirst();
      if (pooled) throw invalid('周程序被超时池用作标准时间，请先修改超时池', ['ids']);
      await db.deleteFrom('automation_program').where('id', 'in', idList).execute();
      changed();
      return { removed: rows.length };
    },

    /** executetask/{id}: a memory type gets the program pushed; otherwise the slot in effect now is applied now. */
    async executeProgram(actor: Actor, id: number) {
      const p = await program(actor.scope, id);
      if (programFieldOf(p.device_type)) return runView(await pushProgram(p, 'manual'));
      const now = clock.now();
      const cal = await calendarDays(p.tenant_id, p.project_id, now - 8 * 86_400_000, now);
      const past = occurrences(programSchedule(p), now - 7 * 86_400_000, now, cal);
      const current = past[past.length - 1];
      if (!current?.writes?.length) throw invalid('该周程序没有时段', ['slots']);
      const run = await runs.runNow({ ...programPlan(p, current.writes), issuer: `${actor.user.username} 立即执行周程序「${p.name}」` }, `p:${p.id}`, 'manual');
      return runView(run);
    },

    async programRuns(scope: Scope, id: number, page: { pageNo: number; pageSize: number }) {
      const p = await program(scope, id);
      return runsPage('program_id', p.id, page);
    },

    async programsByArea(scope: Scope, areaId: number) {
      const project = await projects.projectOf(scope, areaId);
      const [node] = await projects.tree(scope, areaId);
      const areaIds = new Set<number>();
      const walk = (n: { id: number; children: { id: number; children: unknown[] }[] }) => {
        areaIds.add(n.id);
        for (const c of n.children) walk(c as never);
      };
      if (node) walk(node);
      const devices = await core.devices.scopedDevices(scope).select(['id']).where('project_id', '=', project.id).where('area_id', 'in', areaIds.size ? [...areaIds] : [-1]).execute();
      return programsTouching(scope, project.id, new Set(devices.map((d) => d.id)), areaIds);
    },

    async programsByDevice(scope: Scope, deviceId: number) {
      const device = await core.devices.deviceById(scope, deviceId);
      if (!device) throw notFound('设备');
      return programsTouching(scope, device.project_id, new Set([device.id]), new Set(device.area_id ? [device.area_id] : []));
    },

    // ─────────────────────────────────────────────── program schemes
    async schemes(scope: Scope, q: { projectId: number; deviceType?: string; keyword?: string; pageNo: number; pageSize: number }) {
      const p = await projects.project(scope, q.projectId);
      let query = schemesOf(scope).selectAll().where('project_id', '=', p.id);
      if (q.deviceType) query = query.where('device_type', '=', q.deviceType);
      if (q.keyword) query = query.where('name', 'like', `%${q.keyword}%`);
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      return { total: page.total, rows: page.rows.map(toSchemeView) };
    },

    async createScheme(actor: Actor, b: ProgramSchemeBody) {
      const p = await projects.project(actor.scope, b.projectId);
      const now = clock.now();
      const row = await db.insertInto('automation_scheme').values({
        tenant_id: p.tenant_id, project_id: p.id, name: b.name, device_type: b.deviceType, slots: JSON.stringify(b.slots), remark: b.remark ?? null,
        updated_by: actor.user.username, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      return { id: row.id };
    },

    async updateScheme(actor: Actor, id: number, b: ProgramSchemeBody) {
      const s = await scheme(actor.scope, id);
      if (b.projectId !== s.project_id) throw invalid('不能把方案移到另一个项目', ['projectId']);
      await db.updateTable('automation_scheme').set({
        name: b.name, device_type: b.deviceType, slots: JSON.stringify(b.slots), remark: b.remark ?? null, updated_by: actor.user.username, updated_at: clock.now(),
      }).where('id', '=', s.id).execute();
      return { id };
    },

    async removeSchemes(actor: Actor, idList: number[]) {
      const rows = await schemesOf(actor.scope).select(['id']).where('id', 'in', idList).execute();
      if (rows.length !== new Set(idList).size) throw notFound('编程方案');
      await db.deleteFrom('automation_scheme').where('id', 'in', idList).execute();
      return { removed: rows.length };
    },

    // ─────────────────────────────────────────────── overtime pool
    async overtime(scope: Scope, q: { projectId: number; month?: string; pageNo: number; pageSize: number }): Promise<{ total: number; rows: OvertimePoolRow[] }> {
      const p = await projects.project(scope, q.projectId);
      let query = scoped(db.selectFrom('automation_overtime'), scope).selectAll().where('project_id', '=', p.id);
      if (q.month) query = query.where('month', '=', q.month);
      const page = await paginate(query, q, (b) => b.orderBy('month', 'desc').orderBy('id'));
      const rows: OvertimePoolRow[] = [];
      for (const o of page.rows) {
        const prog = await db.selectFrom('automation_program').selectAll().where('id', '=', o.program_id).executeTakeFirst();
        const area = await projects.area(scope, o.area_id).catch(() => null);
        const usage = prog ? await computeOvertime({ core, projects, scope, program: prog, areaId: o.area_id, month: o.month, now: clock.now() }) : { standardHoursPerWeek: 0, usedMinutes: 0 };
        const approved = o.approved_minutes / 60;
        const used = Math.round(usage.usedMinutes / 6) / 10;
        rows.push({
          id: o.id, projectId: o.project_id, programId: o.program_id, programName: prog?.name ?? '（已删除）', areaId: o.area_id, areaName: area?.name ?? '（已删除）',
          accountName: o.account_name, month: o.month, standardHoursPerWeek: usage.standardHoursPerWeek, approvedHours: approved, usedHours: used,
          leftHours: Math.round((approved - used) * 10) / 10, updatedAt: o.updated_at,
        });
      }
      return { total: page.total, rows };
    },

    async saveOvertime(actor: Actor, id: number | null, b: OvertimePoolBody) {
      const p = await projects.project(actor.scope, b.projectId);
      const prog = await program(actor.scope, b.programId);
      if (prog.project_id !== p.id) throw invalid('周程序不属于该项目', ['programId']);
      const owner = await projects.projectOf(actor.scope, b.areaId);
      if (owner.id !== p.id) throw invalid(`区域 ${b.areaId} 不属于该项目`, ['areaId']);
      const now = clock.now();
      const values = {
        tenant_id: p.tenant_id, project_id: p.id, program_id: prog.id, area_id: b.areaId, account_name: b.accountName ?? null, month: b.month,
        approved_minutes: Math.round(b.approvedHours * 60), updated_by: actor.user.username, updated_at: now,
      };
      const clash = await db.selectFrom('automation_overtime').select('id').where('area_id', '=', b.areaId).where('month', '=', b.month).executeTakeFirst();
      if (clash && clash.id !== id) throw new AppError(ResultCode.CONFLICT, '该房间这个月已有超时池');
      if (id === null) {
        const row = await db.insertInto('automation_overtime').values({ ...values, created_at: now }).returning('id').executeTakeFirstOrThrow();
        return { id: row.id };
      }
      const old = await scoped(db.selectFrom('automation_overtime'), actor.scope).select(['id', 'project_id']).where('id', '=', id).executeTakeFirst();
      if (!old) throw notFound('超时池');
      if (old.project_id !== p.id) throw invalid('不能把超时池移到另一个项目', ['projectId']);
      await db.updateTable('automation_overtime').set(values).where('id', '=', id).execute();
      return { id };
    },

    async removeOvertime(actor: Actor, idList: number[]) {
      const rows = await scoped(db.selectFrom('automation_overtime'), actor.scope).select(['id']).where('id', 'in', idList).execute();
      if (rows.length !== new Set(idList).size) throw notFound('超时池');
      await db.deleteFrom('automation_overtime').where('id', 'in', idList).execute();
      return { removed: rows.length };
    },

  };
}

export type AutomationService = ReturnType<typeof createAutomationService>;
