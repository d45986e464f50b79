/** 数据示例 (datademo): what other features may use. */
export { datademoApi, datademoKeys } from './api';
