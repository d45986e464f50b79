import { ruleSuite } from './endpoint-rules.ts';
import { AUTOMATION_ROWS } from './rules-automation.ts';

ruleSuite('周程序、任务与超时池的权限与租户隔离（表驱动）', AUTOMATION_ROWS, { projectScoped: true });
