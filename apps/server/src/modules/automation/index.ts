import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { automationRoutes } from './routes.ts';
import { createRuns, type Clock, type GroupMembers } from './runs.ts';
import { createScheduler, type CalendarSource } from './scheduler.ts';
import { createAutomationService } from './service.ts';
import { createStrategyEngine } from './strategy.ts';

export type { CalendarSource } from './scheduler.ts';
export type { Clock, GroupMembers } from './runs.ts';

const systemClock: Clock = { now: () => Date.now() };

/**
 * Automation: week programs, program schemes, tasks (once, periodic, holiday, strategy, memory), their runs with the
 * outcome of every device's command, retry of the failed devices, and the overtime pool. The scheduler fires each
 * occurrence once across restarts and processes (a claim row per occurrence); strategy tasks run on the core's
 * "a report arrived"; outcomes come from the core's "a command finished". Commands go through `issueCommand` only.
 */
export function createAutomation(deps: {
  db: Db; core: DeviceCore; projects: ProjectService; calendar: CalendarSource; groupMembers: GroupMembers; onError(err: unknown): void;
  clock?: Clock; tickMs?: number; reloadMs?: number;
}) {
  const clock = deps.clock ?? systemClock;
  const areaSubtree = async (scope: Parameters<ProjectService['tree']>[0], areaId: number) => {
    const out: number[] = [];
    const walk = (n: { id: number; children: unknown[] }) => {
      out.push(n.id);
      for (const c of n.children) walk(c as never);
    };
    for (const n of await deps.projects.tree(scope, areaId)) walk(n);
    return out;
  };
  const runs = createRuns({ db: deps.db, core: deps.core, clock, groupMembers: deps.groupMembers, areaSubtree, onError: deps.onError });
  const scheduler = createScheduler({ db: deps.db, runs, clock, calendar: deps.calendar, tickMs: deps.tickMs, reloadMs: deps.reloadMs, onError: deps.onError });
  const strategy = createStrategyEngine({ db: deps.db, runs, clock, onError: deps.onError });
  const automation = createAutomationService({ db: deps.db, core: deps.core, projects: deps.projects, runs, scheduler, strategy, clock, calendar: deps.calendar });
  return {
    automation,
    scheduler,
    strategy,
    runs,
    /** the core's "a command finished": records the outcome on the run's device row */
    onCommandFinished: runs.onCommandFinished,
    /** the core's "a report arrived": strategy tasks */
    onReport: strategy.onReport,
    /** A deleted tenant's programs, schemes, tasks, runs and pools go with it (registered with the tenants' cleanup). */
    async removeTenant(trx: Db, tenantId: number) {
      const runIds = trx.selectFrom('automation_run').select('id').where('tenant_id', '=', tenantId);
      await trx.deleteFrom('automation_run_result').where('run_id', 'in', runIds).execute();
      const taskIds = trx.selectFrom('automation_task').select('id').where('tenant_id', '=', tenantId);
      await trx.deleteFrom('automation_cooldown').where('task_id', 'in', taskIds).execute();
      for (const table of ['automation_run', 'automation_task', 'automation_program', 'automation_scheme', 'automation_overtime'] as const) {
        await trx.deleteFrom(table).where('tenant_id', '=', tenantId).execute();
      }
      scheduler.invalidate();
    },
    /** Re-read every schedule source, calendar and strategy task (iot reload). */
    reload() {
      scheduler.invalidate();
      scheduler.invalidateCalendars();
      strategy.invalidate();
      return '定时任务、周程序与节假日日历将在下一秒重新读取，策略任务在下一次上报时重新读取';
    },
    start: () => scheduler.start(),
    stop: () => scheduler.stop(),
    async routes(app: FastifyInstance) {
      await app.register(automationRoutes, { automation });
    },
  };
}

export type Automation = ReturnType<typeof createAutomation>;
