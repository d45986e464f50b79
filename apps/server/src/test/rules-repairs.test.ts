import { ruleSuite } from './endpoint-rules.ts';
import { REPAIR_ROWS, prepareRepairs } from './rules-repairs.ts';

ruleSuite('维修记录的权限与租户隔离（表驱动）', REPAIR_ROWS, { prepare: prepareRepairs, projectScoped: true });
