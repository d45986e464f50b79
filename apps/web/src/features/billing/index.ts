/** Billing (tariffs and their configuration, runs, lines, bills, supply actions): what other features may use (the calls, the query keys and the 计费试算 panel). */
export { billingConfigApi, billingKeys, engineApi } from './api';
export { QuoteLines, QuoteTrial } from './components/quote-trial';
