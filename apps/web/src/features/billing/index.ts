/** Billing: what other features may use (the calls, the query keys and the 计费试算 panel). */
export { billingConfigApi, billingKeys } from './api';
export { QuoteLines, QuoteTrial } from './components/quote-trial';
