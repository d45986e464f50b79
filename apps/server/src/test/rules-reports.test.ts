import { ruleSuite } from './endpoint-rules.ts';
import { DATADEMO_ROWS, REPORT_ROWS } from './rules-reports.ts';

ruleSuite('数据中心报表（列表与导出）的权限与租户隔离（表驱动）', [...REPORT_ROWS, ...DATADEMO_ROWS], { projectScoped: true });
