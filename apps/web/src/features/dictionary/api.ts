import { useQuery } from '@tanstack/react-query';
import type { DictDto, DictLabels, DictSummary } from '@kelvin/contracts';
import { http } from '../../lib/http';
import { getStored } from '../../lib/storage';

/** 数据字典: the registries as dictionaries and the tenant's own display names. */
export const dictApi = {
  list: (keyword?: string) => http.get<DictSummary[]>('/api/v1/dict', { keyword }),
  get: (code: string) => http.get<DictDto>(`/api/v1/dict/${encodeURIComponent(code)}`),
  labels: () => http.get<DictLabels>('/api/v1/dict/labels', undefined, { silent: true }),
  setLabel: (code: string, value: string, label: string) => http.put<DictDto>(`/api/v1/dict/${encodeURIComponent(code)}/override`, { value, label }),
  reset: (code: string, value: string) => http.post<DictDto>(`/api/v1/dict/${encodeURIComponent(code)}/reset`, { value }),
  exportUrl: '/api/v1/dict/export',
};

export const dictKeys = {
  all: ['dict'] as const,
  list: (keyword: string) => ['dict', 'list', keyword] as const,
  items: (code: string | null) => ['dict', 'items', code] as const,
  /** the tenant's display names, shared by every screen that shows a renamed label */
  labels: ['dict', 'labels'] as const,
};

/** The signed-in tenant's display names (empty until loaded; a screen falls back to the registry's names). */
export function useDictLabels() {
  return useQuery({ queryKey: dictKeys.labels, queryFn: dictApi.labels, enabled: !!getStored('token'), staleTime: 60_000 });
}
