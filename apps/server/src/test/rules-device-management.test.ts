import { ruleSuite } from './endpoint-rules.ts';
import { DEVICE_ADMIN_ROWS, prepareDeviceAdmin } from './rules-device-management.ts';

ruleSuite('设备管理与出厂测试的权限与租户隔离（表驱动）', DEVICE_ADMIN_ROWS, { prepare: prepareDeviceAdmin, projectScoped: true });
