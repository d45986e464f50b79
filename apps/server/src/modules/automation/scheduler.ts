import {
  addDays, encodeProgram, fieldOf, localParts, programFieldOf, type FieldWrite, type HolidayRule, type MissedPolicy, type PeriodicRule, type ProgramSlot,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import * as repo from './repository.ts';
import type { ProgramRow, RunRow, TaskRow } from './repository.ts';
import type { Clock, RunPlan, Runs } from './runs.ts';
import { occurrences, type CalendarDays, type Schedule } from './schedule.ts';

/** Holidays and 调休 days of a project between two dates (the system module's calendar). */
export type CalendarSource = (tenantId: number, projectId: number, start: string, end: string) => Promise<{ date: string; type: 'holiday' | 'workday' }[]>;

/** An occurrence found later than this after its time was missed (no process was running): per the task's policy. */
export const LATE_AFTER_MS = 60_000;
/** How far back a restart looks for missed occurrences. */
export const MAX_LOOKBACK_MS = 7 * 86_400_000;
const CALENDAR_TTL_MS = 60_000;
const NO_DAYS: CalendarDays = new Map();

interface Source {
  key: string;
  tenantId: number;
  projectId: number;
  name: string;
  cursor: number;
  schedule: Schedule;
  missedPolicy: MissedPolicy;
  plan(writes?: FieldWrite[]): RunPlan;
  nextAt: number | null;
}

const ids = (text: string) => repo.json<number[]>(text, []);
/** The power field an `off` holiday rule writes 0 to (null: the type has none). */
export const powerFieldOf = (deviceType: string) => (fieldOf(deviceType, 'f00')?.writable ? 'f00' : null);

export function taskPlan(t: TaskRow, program?: ProgramRow | null): RunPlan {
  const targets = { deviceIds: ids(t.device_ids), groupIds: ids(t.group_ids), areaIds: ids(t.area_ids) };
  if (t.kind === 'memory' && program) {
    const field = programFieldOf(program.device_type);
    const own = targets.deviceIds.length + targets.groupIds.length + targets.areaIds.length > 0;
    return {
      tenantId: t.tenant_id, projectId: t.project_id, taskId: t.id, programId: program.id, issuer: `记忆周期任务「${t.name}」`, deviceType: program.device_type,
      targets: own ? targets : { deviceIds: ids(program.device_ids), groupIds: ids(program.group_ids), areaIds: ids(program.area_ids) },
      writes: field ? [{ fieldCode: field, value: encodeProgram(repo.json<ProgramSlot[]>(program.slots, []), program.holiday_rule as HolidayRule) }] : [],
    };
  }
  return {
    tenantId: t.tenant_id, projectId: t.project_id, taskId: t.id, programId: null, issuer: `任务「${t.name}」`, deviceType: t.device_type,
    targets, writes: repo.json<FieldWrite[]>(t.writes, []),
  };
}

export function programPlan(p: ProgramRow, writes: FieldWrite[]): RunPlan {
  return {
    tenantId: p.tenant_id, projectId: p.project_id, taskId: null, programId: p.id, issuer: `周程序「${p.name}」`, deviceType: p.device_type,
    targets: { deviceIds: ids(p.device_ids), groupIds: ids(p.group_ids), areaIds: ids(p.area_ids) }, writes,
  };
}

export function taskSchedule(t: TaskRow): Schedule | null {
  switch (t.kind) {
    case 'once':
    case 'memory': return t.run_at ? { kind: 'once', runAt: t.run_at } : null;
    case 'periodic': return t.rule ? { kind: 'periodic', rule: repo.json<PeriodicRule>(t.rule, { every: 'daily', at: '00:00' }), skipHolidays: t.skip_holidays === 1 } : null;
    case 'holiday': return t.at ? { kind: 'holiday', at: t.at, holidayType: t.holiday_type === 'workday' ? 'workday' : 'holiday' } : null;
    default: return null;
  }
}

export function programSchedule(p: ProgramRow): Schedule {
  return { kind: 'program', slots: repo.json<ProgramSlot[]>(p.slots, []), holidayRule: p.holiday_rule as HolidayRule, powerField: powerFieldOf(p.device_type) };
}

/**
 * The scheduler: every process runs one, none leads. Each tick it finds the occurrences due since a source's cursor
 * and claims them in the database (automation_run's unique (source, scheduled_at)); the process that inserts the row
 * issues the commands, the others skip it. Occurrences found more than a minute late (nobody was running) are run
 * late (the latest one; older ones recorded as missed) or recorded as missed, per the source's policy.
 */
export function createScheduler(deps: { db: Db; runs: Runs; clock: Clock; calendar: CalendarSource; tickMs?: number; reloadMs?: number; onError(err: unknown): void }) {
  const { db, runs, clock } = deps;
  const tickMs = deps.tickMs ?? 1000;
  const reloadMs = deps.reloadMs ?? 5000;
  let sources = new Map<string, Source>();
  let loadedAt = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;
  let lastRecover = -Infinity;
  let lastSweep = -Infinity;
  const calendars = new Map<string, { at: number; days: Map<string, 'holiday' | 'workday'> }>();
  const programs = new Map<number, ProgramRow>();

  async function calendarOf(tenantId: number, projectId: number, now: number): Promise<CalendarDays> {
    const key = `${tenantId}:${projectId}`;
    const hit = calendars.get(key);
    if (hit && now - hit.at < CALENDAR_TTL_MS && Math.abs(now - hit.at) < CALENDAR_TTL_MS) return hit.days;
    const today = localParts(now).date;
    const rows = await deps.calendar(tenantId, projectId, addDays(today, -8), addDays(today, 10));
    const days = new Map(rows.map((r) => [r.date, r.type]));
    calendars.set(key, { at: now, days });
    return days;
  }

  async function load(now: number) {
    const [tasks, progs] = await Promise.all([repo.scheduledTasks(db), repo.enabledPrograms(db)]);
    programs.clear();
    for (const p of progs) programs.set(p.id, p);
    const next = new Map<string, Source>();
    for (const t of tasks) {
      const schedule = taskSchedule(t);
      if (!schedule) continue;
      const program = t.kind === 'memory' ? programs.get(t.program_id ?? -1) ?? null : null;
      if (t.kind === 'memory' && !program) continue;
      next.set(`t:${t.id}`, {
        key: `t:${t.id}`, tenantId: t.tenant_id, projectId: t.project_id, name: t.name, cursor: t.cursor_at, schedule,
        missedPolicy: t.missed_policy as MissedPolicy, plan: () => taskPlan(t, program), nextAt: null,
      });
    }
    for (const p of progs) {
      if (programFieldOf(p.device_type)) continue; // kept in the device's memory: pushed, not executed here
      next.set(`p:${p.id}`, {
        key: `p:${p.id}`, tenantId: p.tenant_id, projectId: p.project_id, name: p.name, cursor: p.cursor_at, schedule: programSchedule(p),
        missedPolicy: p.missed_policy as MissedPolicy, plan: (writes) => programPlan(p, writes ?? []), nextAt: null,
      });
    }
    for (const s of next.values()) {
      const old = sources.get(s.key);
      if (old && old.cursor > s.cursor) s.cursor = old.cursor;
      s.nextAt = await nextDue(s, now);
    }
    sources = next;
    loadedAt = now;
  }

  async function nextDue(s: Source, now: number): Promise<number | null> {
    if (s.schedule.kind === 'once') return s.schedule.runAt > s.cursor ? s.schedule.runAt : null;
    const cal = await calendarOf(s.tenantId, s.projectId, now);
    const from = Math.max(s.cursor, now - MAX_LOOKBACK_MS);
    // within the calendar's window; beyond it, look again in a day
    return occurrences(s.schedule, from, Math.max(now, from) + 8 * 86_400_000, cal)[0]?.at ?? now + 86_400_000;
  }

  async function tick() {
    const now = clock.now();
    // first what the cache knows is due (read at most reloadMs ago), then the refresh: a due minute is not held up by it
    if (loadedAt === -Infinity || now < loadedAt) await load(now);
    await fire(now);
    if (now - loadedAt >= reloadMs) {
      await load(now);
      await fire(now);
    }
    if (now - lastRecover >= 10_000) {
      lastRecover = now;
      await runs.recover((run) => planOfRun(run));
    }
    if (now - lastSweep >= 30_000) {
      lastSweep = now;
      await runs.sweepPending();
    }
  }

  async function fire(now: number) {
    const items: Parameters<Runs['claimAndIssue']>[0] = [];
    const due = [...sources.values()].filter((s) => s.nextAt !== null && s.nextAt <= now);
    for (const s of due) {
      const cal = s.schedule.kind === 'once' ? NO_DAYS : await calendarOf(s.tenantId, s.projectId, now);
      const occ = occurrences(s.schedule, Math.max(s.cursor, now - MAX_LOOKBACK_MS), now, cal);
      const missed = occ.filter((o) => now - o.at > LATE_AFTER_MS);
      const lateOne = s.missedPolicy === 'late' ? missed[missed.length - 1] : undefined;
      for (const o of occ) {
        const isMissed = missed.includes(o);
        const trigger = !isMissed ? 'schedule' : o === lateOne ? 'late' : 'schedule';
        const status = isMissed && o !== lateOne ? 'missed' : 'running';
        const plan = s.plan(o.writes);
        items.push({
          run: {
            tenant_id: s.tenantId, project_id: s.projectId, task_id: plan.taskId, program_id: plan.programId, source: s.key,
            scheduled_at: o.at, trigger, status, retry_of: null, started_at: null, finished_at: null,
          },
          plan,
        });
      }
    }
    if (items.length) await runs.claimAndIssue(items);
    await repo.advanceCursors(db, due.map((s) => s.key), now);
    for (const s of due) {
      s.cursor = now;
      s.nextAt = await nextDue(s, now);
    }
  }

  /** The plan of a claimed run (for a takeover): its source as it is now. */
  async function planOfRun(run: RunRow): Promise<RunPlan | null> {
    if (run.task_id) {
      const t = await db.selectFrom('automation_task').selectAll().where('id', '=', run.task_id).executeTakeFirst();
      if (!t) return null;
      const program = t.program_id ? await db.selectFrom('automation_program').selectAll().where('id', '=', t.program_id).executeTakeFirst() : null;
      return taskPlan(t, program);
    }
    if (run.program_id) {
      const p = await db.selectFrom('automation_program').selectAll().where('id', '=', run.program_id).executeTakeFirst();
      if (!p) return null;
      const o = run.scheduled_at ? occurrences(programSchedule(p), run.scheduled_at - 1, run.scheduled_at, await calendarOf(p.tenant_id, p.project_id, clock.now()))[0] : undefined;
      return programPlan(p, o?.writes ?? []);
    }
    return null;
  }

  function loop() {
    if (stopped) return;
    running = tick().catch(deps.onError).finally(() => {
      running = null;
      if (!stopped) {
        timer = setTimeout(loop, tickMs);
        timer.unref?.();
      }
    });
  }

  return {
    /** One pass now (tests drive the scheduler with a fake clock through this). */
    async tick() {
      while (running) await running;
      await tick();
    },
    /** Re-read the sources on the next tick (a task or program changed in this process). */
    invalidate() {
      loadedAt = -Infinity;
    },
    /** Forget cached calendars (a holiday changed). */
    invalidateCalendars() {
      calendars.clear();
    },
    async nextRunOf(key: string): Promise<number | null> {
      const s = sources.get(key);
      return s ? s.nextAt : null;
    },
    planOfRun,
    start() {
      if (!stopped) return;
      stopped = false;
      loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      while (running) await running;
      await runs.drain();
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
