import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { bigScreenRoutes } from './routes.ts';
import { createBigScreenService } from './service.ts';
import type { SummaryDeps } from './summary.ts';

export type { BigScreenService } from './service.ts';
export { DATAVIEW_LIMITS } from './service.ts';

/**
 * 大屏: the comprehensive screen (all the caller's projects), the project screen and its public share links
 * (/dataviews). Reads the core's state and roll-ups and the monitoring module's active alarms; owns dataview_share.
 */
export function createBigScreens(deps: { db: Db; core: DeviceCore; projects: ProjectService; activeAlarms: SummaryDeps['activeAlarms'] }) {
  const screens = createBigScreenService(deps);
  return {
    screens,
    async routes(app: FastifyInstance) {
      await app.register(bigScreenRoutes, { screens });
    },
  };
}
