import type { z } from 'zod';
import type {
  billIssueBody, billPayBody, BillLineRow, BillingRunRow, chargeDataBody, ChargeSummaryRow, ExpenseBillRow, Page, RunResult, runBody,
  SupplyActionRow,
} from '@kelvin/contracts';
import type { ListParams } from '../../components/data-table';
import { download, http, type RequestOptions } from '../../lib/http';

type Query = ListParams | Record<string, string | number | undefined>;

/** a list that also answers the total of every matching row (not only the page) */
export type MoneyPage<T> = Page<T> & { totalFen: number };
export type ChargeDataBody = z.input<typeof chargeDataBody>;

/**
 * The billing engine's calls: charge runs and their lines (with the readings each came from), the per-device charge
 * data of spec §7.3, postpaid expense bills (issue, pay — with the dialog's Idempotency-Key) and the prepaid loop's
 * supply actions.
 */
export const engineApi = {
  run: (body: z.input<typeof runBody>) => http.post<RunResult>('/api/v1/billing/run', body, { timeout: 120_000 }),
  runs: (q: Query) => http.get<Page<BillingRunRow>>('/api/v1/billing/runs', q),
  runDetail: (id: number) => http.get<BillingRunRow>(`/api/v1/billing/runs/${id}`),
  lines: (q: Query) => http.get<MoneyPage<BillLineRow>>('/api/v1/billing/lines', q),

  chargeSummary: (body: ChargeDataBody) => http.post<MoneyPage<ChargeSummaryRow>>('/api/v1/device/calcdevicechargedatasummary', body),
  chargeDetail: (body: ChargeDataBody) => http.post<MoneyPage<BillLineRow>>('/api/v1/device/calcdevicechargedatadetail', body),

  bills: (q: Query) => http.get<MoneyPage<ExpenseBillRow>>('/api/v1/billing/bills', q),
  issueBills: (body: z.input<typeof billIssueBody>) => http.post<{ issued: number; totalFen: number }>('/api/v1/billing/bills/issue', body, { timeout: 120_000 }),
  payBill: (id: number, body: z.input<typeof billPayBody>, key: string, opts?: RequestOptions) =>
    http.post<ExpenseBillRow>(`/api/v1/billing/bills/${id}/pay`, body, { ...opts, headers: { 'Idempotency-Key': key } }),

  supply: (q: Query) => http.get<Page<SupplyActionRow>>('/api/v1/billing/supply', q),
  retrySupply: (id: number) => http.post<SupplyActionRow>(`/api/v1/billing/supply/${id}/retry`),
  /** the lines of a range as .xlsx (what the summary adds up) */
  exportLines: (query: { projectId: number; startTime?: number; endTime?: number }) => download('/api/v1/billing/lines/export', { query }),
};

/** GET downloads with the list's filters (DataTable's 导出 or `download`) */
export const ENGINE_EXPORTS = {
  lines: '/api/v1/billing/lines/export',
  bills: '/api/v1/billing/bills/export',
} as const;
