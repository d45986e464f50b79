/** Billing (tariffs and their configuration, runs, lines, bills, supply actions): what other features may use. */
export { billingKeys, engineApi } from './api';
