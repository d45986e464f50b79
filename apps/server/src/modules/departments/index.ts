import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { seedDemoDepartments } from './demo.ts';
import { departmentRoutes } from './routes.ts';
import { createDepartmentService } from './service.ts';

export type { DepartmentService } from './service.ts';

/**
 * 部门能耗 (departmentEnergy): departments of a project, the meters and rooms assigned to them over time, their energy
 * from the device core's roll-ups (children rolled into parents, per person and per m²), comparisons and budgets.
 */
export function createDepartments(deps: { db: Db; projects: ProjectService; core: DeviceCore }) {
  const departments = createDepartmentService(deps);
  // a project with departments is not deleted from under them
  deps.projects.registerHolding({
    what: '个部门',
    async count(areaId) {
      const row = await deps.db.selectFrom('department').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', areaId).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  });
  return {
    departments,
    /** The demo tenant's departments with their meters and rooms, through the service (once). */
    seedDemo: () => seedDemoDepartments(deps.db, departments),
    routes: (app: FastifyInstance) => app.register(departmentRoutes, { departments }),
  };
}

export type Departments = ReturnType<typeof createDepartments>;
