import { ruleSuite } from './endpoint-rules.ts';
import { DEPARTMENT_ROWS, prepareDepartments } from './rules-departments.ts';

ruleSuite('部门能耗的权限与租户隔离（表驱动）', DEPARTMENT_ROWS, { prepare: prepareDepartments, projectScoped: true });
