import { ruleSuite } from './endpoint-rules.ts';
import { ADMIN_ROWS, prepareAdmin } from './rules-admin.ts';

ruleSuite('每个管理接口的权限与租户隔离（表驱动）', ADMIN_ROWS, { prepare: prepareAdmin });
