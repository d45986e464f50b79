import type { Db } from '../../db/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { createGateLogService } from './gate-log.ts';
import { createGroupService, createGroupTypeService } from './groups.ts';
import { createElementService, createMenuService } from './menus.ts';
import type { AdminServices } from './routes.ts';
import { createTenantService } from './tenants.ts';
import { createUserService } from './users.ts';

export function createAdminServices(db: Db, projects: ProjectService): AdminServices {
  return {
    tenants: createTenantService(db, projects),
    users: createUserService(db, projects),
    groups: createGroupService(db),
    groupTypes: createGroupTypeService(db),
    menus: createMenuService(db),
    elements: createElementService(db),
    gateLog: createGateLogService(db),
  };
}
