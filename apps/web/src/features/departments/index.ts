/** 部门能耗: what other features may use. */
export { departmentApi, departmentKeys } from './api';
