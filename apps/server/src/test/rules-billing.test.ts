import { ruleSuite } from './endpoint-rules.ts';
import { BILLING_ROWS, prepareBilling } from './rules-billing.ts';

ruleSuite('计费配置（计费版本、设备参数、分摊组、计费方案）的权限与租户隔离（表驱动）', BILLING_ROWS, { prepare: prepareBilling, projectScoped: true });
