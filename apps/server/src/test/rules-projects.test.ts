import { ruleSuite } from './endpoint-rules.ts';
import { PROJECT_ROWS, prepareProjects } from './rules-projects.ts';

ruleSuite('区域、项目、项目文件与导入导出的权限与租户隔离（表驱动）', PROJECT_ROWS, { prepare: prepareProjects, projectScoped: true });
