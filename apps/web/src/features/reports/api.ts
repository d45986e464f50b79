import type { ReportPage } from '@kelvin/contracts';
import { http } from '../../lib/http';

export type ReportParams = Record<string, string | number | undefined>;

/** Any report of the registry: one page (rows, totals, chart, notes) with the filters, sort and page as parameters. */
export const reportApi = {
  page: (code: string, params: ReportParams) => http.get<ReportPage>(`/api/v1/datacenter/${code}`, params),
  exportUrl: (code: string) => `/api/v1/datacenter/${code}/export`,
};

export const reportKeys = {
  all: ['report'] as const,
  page: (code: string) => ['report', code] as const,
};
