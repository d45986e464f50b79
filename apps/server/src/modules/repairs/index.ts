import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { REPAIR_PHOTO_MAX_BYTES } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { DeviceService } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { seedDemoRepairs } from './demo.ts';
import { repairRoutes } from './routes.ts';
import { createRepairService } from './service.ts';

export type { RepairService } from './service.ts';

/**
 * 维修记录 (repairRecord): repair work orders of a project with a server-enforced state machine
 * (待派单 → 处理中 → 已完成 / 已关闭), photos under the data dir and a timeline of who did what.
 */
export function createRepairs(deps: { db: Db; projects: ProjectService; devices: DeviceService; dataDir: string }) {
  const repairs = createRepairService(deps);
  // a project with repair records is not deleted from under them
  deps.projects.registerHolding({
    what: '条维修记录',
    async count(areaId) {
      const row = await deps.db.selectFrom('repair_record').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', areaId).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  });
  return {
    repairs,
    /** The demo tenant's repair records, through the service (once, after the demo tenant and its devices exist). */
    seedDemo: () => seedDemoRepairs(deps.db, repairs),
    async routes(app: FastifyInstance) {
      await app.register(async (scope) => {
        await scope.register(multipart, { limits: { fileSize: REPAIR_PHOTO_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
        await repairRoutes(scope, { repairs });
      });
    },
  };
}

export type Repairs = ReturnType<typeof createRepairs>;
