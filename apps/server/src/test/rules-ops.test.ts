import { ruleSuite } from './endpoint-rules.ts';
import { OPS_ROWS } from './rules-ops.ts';

ruleSuite('服务监控的权限（表驱动，仅平台）', OPS_ROWS);
