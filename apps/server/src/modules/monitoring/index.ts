import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { LiveHub } from '../../plugins/live.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { createAlarmEngine, type AlarmNotify } from './engine.ts';
import { createExceptions } from './exceptions.ts';
import { createFaultService } from './faults.ts';
import { monitoringRoutes } from './routes.ts';
import * as repo from './repository.ts';
import { createMonitoringService } from './service.ts';

export type { AlarmNotify } from './engine.ts';
export type { MessageRow as AlarmRow } from './repository.ts';

/**
 * Monitoring rules and alarms: rules on device fields (or silence) per project, evaluated as reports arrive from
 * the device core; alarms with their lifecycle (active → cleared, unread → read), the bell's unread count, SSE;
 * exception data (implausible readings) and the project's fault list and running figures.
 */
export function createMonitoring(deps: { db: Db; core: DeviceCore; live: LiveHub; projects: ProjectService; notify: AlarmNotify; onError(err: unknown): void }) {
  const engine = createAlarmEngine({ db: deps.db, core: deps.core, live: deps.live, notify: deps.notify, onError: deps.onError });
  const monitoring = createMonitoringService({ db: deps.db, projects: deps.projects, engine });
  const exceptions = createExceptions({ db: deps.db, core: deps.core, projects: deps.projects, onError: deps.onError });
  const faults = createFaultService({ db: deps.db, core: deps.core, projects: deps.projects });
  return {
    engine,
    monitoring,
    /** exception data: judge each report (`exceptions.onReport`), a daily sweep for frozen values (`start`) */
    exceptions,
    /** Alarms raised today (Asia/Shanghai) per project, for the project figures. */
    async alarmsToday(projectIds: number[]) {
      const CST = 8 * 3_600_000;
      const midnight = Math.floor((Date.now() + CST) / 86_400_000) * 86_400_000 - CST;
      const counts = await repo.raisedSince(deps.db, projectIds, midnight);
      return new Map(projectIds.map((id) => [id, { alarmsToday: counts.get(id) ?? 0 }]));
    },
    /** Active alarms per device of a project (the device monitor's statistic). */
    async activeAlarmCounts(projectId: number) {
      const bySeverity = await repo.activeAlarmsByDevice(deps.db, projectId);
      return new Map([...bySeverity].map(([deviceId, severities]) => [deviceId, severities.length]));
    },
    /** The newest active alarms of projects the caller was checked for, and the active count per project (big screens). */
    activeAlarms: (projectIds: number[], limit: number) => repo.activeAlarmsOf(deps.db, projectIds, limit),
    async routes(app: FastifyInstance) {
      await app.register(monitoringRoutes, {
        monitoring, exceptions, faults, projectName: async (scope, id) => (await deps.projects.project(scope, id)).name,
      });
    },
  };
}

export type Monitoring = ReturnType<typeof createMonitoring>;
