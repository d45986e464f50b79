import { ruleSuite } from './endpoint-rules.ts';
import { MONITORING_ROWS, prepareMonitoring } from './rules-monitoring.ts';

ruleSuite('监控规则与告警的权限与租户隔离（表驱动）', MONITORING_ROWS, { prepare: prepareMonitoring, projectScoped: true });
