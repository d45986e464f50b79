import { ruleSuite } from './endpoint-rules.ts';
import { REGISTRATION_ROWS } from './rules-registration.ts';

ruleSuite('入驻申请审核的权限（表驱动）', REGISTRATION_ROWS);
