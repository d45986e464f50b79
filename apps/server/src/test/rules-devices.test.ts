import { ruleSuite } from './endpoint-rules.ts';
import { DEVICE_ROWS, prepareDevices } from './rules-devices.ts';

ruleSuite('设备读取、数据、指令与实时流的权限与租户隔离（表驱动）', DEVICE_ROWS, { prepare: prepareDevices, projectScoped: true });
