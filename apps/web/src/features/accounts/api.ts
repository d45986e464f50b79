import type {
  AccountCreate, AccountDto, AccountGroupBody, AccountGroupDto, AccountImportResult, AccountUpdate, BalanceEventDto, DepositAction,
  DepositBatchDto, DepositBody, DepositCollectPage, DepositDirectBody, DepositDirectResult, LedgerEntryDto, MoneyMoveResult, MoneySettingsBody, MoneySettingsDto, OrderDto, OrderStatus, Page, PaymentAccountBody,
  PaymentAccountDto, ReceiptDto, ReconcileResult, RefundBody, RefundDto, RefundResult, SettlementBody, SettlementPreview,
  SettlementResult, TopupBody, TopupResult,
} from '@kelvin/contracts';
import type { ListParams } from '../../components/data-table';
import { download, http, type RequestOptions } from '../../lib/http';

type Query = ListParams | Record<string, string | number | undefined>;

/** the header every money-changing call carries (one key per dialog opening — see idempotency.ts) */
const idem = (key: string, opts?: RequestOptions) => ({ ...opts, headers: { 'Idempotency-Key': key } });

/** Accounts and money (contracts ACCOUNT_API): accounts, money moves, ledger, refunds, groups, settings, orders. */
export const accountApi = {
  list: (q: Query) => http.get<Page<AccountDto>>('/api/v1/account', q),
  get: (id: number) => http.get<AccountDto>(`/api/v1/account/${id}`),
  create: (body: AccountCreate) => http.post<{ id: number }>('/api/v1/account', body),
  update: (id: number, body: AccountUpdate) => http.put<AccountDto>(`/api/v1/account/${id}`, body),
  importFile: (projectId: number, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return http.post<AccountImportResult>(`/api/v1/account/import?projectId=${projectId}`, form, { timeout: 120_000, silent: true });
  },
  importTemplate: () => download('/api/v1/account/import/template', { fallbackName: '用户登记导入模板.xlsx' }),

  topup: (id: number, body: TopupBody, key: string, opts?: RequestOptions) => http.post<TopupResult>(`/api/v1/account/${id}/topup`, body, idem(key, opts)),
  refund: (id: number, body: RefundBody, key: string) => http.post<RefundResult>(`/api/v1/account/${id}/refund`, body, idem(key)),
  deposit: (action: DepositAction, body: DepositBody, key: string) => http.post<MoneyMoveResult>(`/api/v1/user/admindeposit/${action}`, body, idem(key)),
  leaveCheck: (id: number) => http.get<SettlementPreview>(`/api/v1/account/${id}/leave/check`),
  leaveClean: (id: number, body: SettlementBody, key: string) => http.post<SettlementResult>(`/api/v1/account/${id}/leave/clean`, body, idem(key)),

  depositCollects: (q: Query) => http.get<DepositCollectPage>('/api/v1/account/deposit/collect', q),
  depositDirect: (body: DepositDirectBody, key: string) => http.post<DepositDirectResult>('/api/v1/account/deposit/direct', body, idem(key, { timeout: 120_000 })),
  depositBatches: (q: Query) => http.get<Page<DepositBatchDto>>('/api/v1/account/deposit/direct', q),
  depositBatch: (batchKey: string) => http.get<LedgerEntryDto[]>(`/api/v1/account/deposit/direct/${encodeURIComponent(batchKey)}`),

  ledger: (id: number, q: Query) => http.get<Page<LedgerEntryDto>>(`/api/v1/account/${id}/ledger`, q),
  chargelog: (q: Query) => http.get<Page<LedgerEntryDto>>('/api/v1/account/chargelog', q),
  receipt: (entryId: number) => http.get<ReceiptDto>(`/api/v1/account/entry/${entryId}/receipt`),
  balanceEvents: (q: Query) => http.get<Page<BalanceEventDto>>('/api/v1/account/balanceevent', q),

  refunds: (q: Query) => http.get<Page<RefundDto>>('/api/v1/account/refund', q),
  approveRefund: (refundId: number, comment?: string) => http.post<RefundResult>(`/api/v1/account/refund/${refundId}/approve`, { comment }),
  rejectRefund: (refundId: number, comment?: string) => http.post<RefundResult>(`/api/v1/account/refund/${refundId}/reject`, { comment }),

  settings: (projectId: number, silent = false) => http.get<MoneySettingsDto>(`/api/v1/account/settings/${projectId}`, undefined, { silent }),
  saveSettings: (projectId: number, body: MoneySettingsBody) => http.put<MoneySettingsDto>(`/api/v1/account/settings/${projectId}`, body),
  reconcile: (projectId: number) => http.get<ReconcileResult>('/api/v1/account/reconcile', { projectId }),

  groups: (q: Query) => http.get<Page<AccountGroupDto>>('/api/v1/account/group', q),
  createGroup: (body: AccountGroupBody) => http.post<AccountGroupDto>('/api/v1/account/group', body),
  updateGroup: (id: number, body: AccountGroupBody) => http.put<AccountGroupDto>(`/api/v1/account/group/${id}`, body),
  setGroupMembers: (id: number, accountIds: number[]) => http.put<AccountGroupDto>(`/api/v1/account/group/${id}/members`, { accountIds }),
  removeGroups: (ids: number[]) => http.post<{ deleted: number }>('/api/v1/account/group/delete', { ids }),

  orders: (q: Query) => http.get<Page<OrderDto>>('/api/v1/deviceWxOrder/list', q),
  createOrder: (id: number, amountFen: number, key: string) => http.post<OrderDto>(`/api/v1/account/${id}/order`, { amountFen }, idem(key)),
  closeOrder: (orderId: number) => http.post<OrderDto>(`/api/v1/deviceWxOrder/${orderId}/close`),
  /** the sandbox plays the payer and delivers its signed notification; answers what the notification did */
  sandboxPay: (orderNo: string) => http.post<{ orderNo: string; status: OrderStatus; entryId: number | null; duplicate: boolean }>(`/api/v1/payment/sandbox/${encodeURIComponent(orderNo)}/pay`),

  paymentAccount: (projectId: number) => http.get<PaymentAccountDto | null>(`/api/v1/payment/account/${projectId}`),
  savePaymentAccount: (body: PaymentAccountBody) => http.post<PaymentAccountDto>('/api/v1/payment/account', body),
  removePaymentAccount: (projectId: number) => http.del<null>(`/api/v1/payment/account/${projectId}`),
};

/**
 * Query keys, one per resource. A money move changes the account, its ledger, the lists that show its balance and the
 * refunds: invalidate `accountKeys.all` after one (cheap: only mounted queries refetch).
 */
export const accountKeys = {
  all: ['accounts'] as const,
  list: (projectId: number | null) => ['accounts', 'list', projectId] as const,
  detail: (id: number | null) => ['accounts', 'detail', id] as const,
  ledger: (id: number, book?: string) => ['accounts', 'ledger', id, book ?? 'all'] as const,
  chargelog: (projectId: number | null, book?: string) => ['accounts', 'chargelog', projectId, book ?? 'all'] as const,
  refunds: (projectId: number | null, status?: string) => ['accounts', 'refunds', projectId, status ?? 'all'] as const,
  settings: (projectId: number | null) => ['accounts', 'settings', projectId] as const,
  groups: (projectId: number | null) => ['accounts', 'groups', projectId] as const,
  orders: (projectId: number | null, accountId?: number) => ['accounts', 'orders', projectId, accountId ?? 'all'] as const,
  events: (projectId: number | null) => ['accounts', 'events', projectId] as const,
  leave: (id: number | null) => ['accounts', 'leave', id] as const,
  paymentAccount: (projectId: number | null) => ['accounts', 'payment-account', projectId] as const,
  depositCollects: (projectId: number | null) => ['accounts', 'deposit-collects', projectId] as const,
  depositBatches: (projectId: number | null) => ['accounts', 'deposit-batches', projectId] as const,
  depositBatch: (batchKey: string | null) => ['accounts', 'deposit-batch', batchKey] as const,
};
