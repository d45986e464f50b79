/** The data center's report feature: one page renders any entry of the report registry. */
export { reportApi, reportKeys } from './api';
