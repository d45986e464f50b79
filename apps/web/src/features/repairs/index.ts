/** 维修记录: what other features may use. */
export { repairApi, repairKeys } from './api';
