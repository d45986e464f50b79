/** Accounts and money: what other features may use (the 元 formatter and the account reads). */
export { accountApi, accountKeys } from './api';
export { formatFen, formatYuan, parseYuan } from './money';
export { AccountSelect } from './components/account-select';
/** every money action's dialog (a confirmation repeating the amount, one Idempotency-Key per opening) */
export { MoneyDialog } from './components/money-dialog';
