import type { Page } from '@kelvin/contracts';
import type { DatademoDevice, DatademoSeries } from '@kelvin/contracts/reports';
import type { ListParams } from '../../components/data-table';
import { http } from '../../lib/http';

/** 数据示例 (datademo): the project's devices, one field's readings (at most 7 days of raw history). */
export const datademoApi = {
  devices: (projectId: number, keyword?: string) => http.get<DatademoDevice[]>('/api/v1/datacenter/datademo/devices', { projectId, keyword }),
  series: (q: { deviceId: number; field: string; from: number; to: number }) => http.get<DatademoSeries>('/api/v1/datacenter/datademo/series', q),
  readings: (q: ListParams) => http.get<Page<{ ts: number; value: number }>>('/api/v1/datacenter/datademo/readings', q),
};

export const datademoKeys = {
  all: ['datademo'] as const,
  devices: (projectId: number | null, keyword: string) => ['datademo', 'devices', projectId, keyword] as const,
  series: (deviceId: number, field: string, from: number, to: number) => ['datademo', 'series', deviceId, field, from, to] as const,
  readings: ['datademo', 'readings'] as const,
};
