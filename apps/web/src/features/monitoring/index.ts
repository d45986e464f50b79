/** Monitoring rules and alarms: what other features may use. */
export { monitoringApi, monitoringKeys } from './api';
