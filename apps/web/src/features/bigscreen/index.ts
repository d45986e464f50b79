/** 大屏: what other features may use. */
export { bigScreenApi, bigScreenKeys } from './api';
