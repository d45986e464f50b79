import { ruleSuite } from './endpoint-rules.ts';
import { ACCOUNT_ROWS, prepareAccounts } from './rules-accounts.ts';

ruleSuite('账户与资金的权限与租户隔离（表驱动）', ACCOUNT_ROWS, { prepare: prepareAccounts, projectScoped: true });
