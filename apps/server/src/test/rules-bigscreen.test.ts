import { ruleSuite } from './endpoint-rules.ts';
import { BIGSCREEN_ROWS } from './rules-bigscreen.ts';

ruleSuite('大屏的权限与租户隔离（表驱动）', BIGSCREEN_ROWS, { projectScoped: true });
