import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ExceptionDeviceRow, ExceptionRow, FaultDeviceRow, MonitorMessageRow, MonitorOverview, MonitorRuleBody, MonitorRuleRow, Page } from '@kelvin/contracts';
import type { ListParams } from '../../components/data-table';
import { http } from '../../lib/http';
import { openLiveStream } from '../../lib/live';

/** Query keys of the monitoring screens: one per resource, so a change invalidates exactly what shows it. */
export const monitoringKeys = {
  all: ['monitoring'] as const,
  rules: (projectId: number | null) => ['monitoring', 'rules', projectId] as const,
  messages: (projectId: number | null) => ['monitoring', 'messages', projectId] as const,
  unread: (projectId: number | null) => ['monitoring', 'unread', projectId] as const,
  exceptions: (projectId: number | null) => ['monitoring', 'exceptions', projectId] as const,
  faults: (projectId: number | null) => ['monitoring', 'faults', projectId] as const,
  overview: (projectId: number | null) => ['monitoring', 'overview', projectId] as const,
};

export const monitoringApi = {
  rules: (q: ListParams) => http.get<Page<MonitorRuleRow>>('/api/v1/monitorrule', q),
  createRule: (body: MonitorRuleBody) => http.post<{ id: number }>('/api/v1/monitorrule', body),
  updateRule: (id: number, body: MonitorRuleBody) => http.put<{ id: number }>(`/api/v1/monitorrule/${id}`, body),
  removeRules: (ids: number[]) => http.post<{ deleted: number }>('/api/v1/monitorrule/delete', { ids }),
  messages: (q: ListParams) => http.get<Page<MonitorMessageRow>>('/api/v1/device/monitormessage', q),
  unread: (projectId: number) => http.get<number>(`/api/v1/device/monitormessageqty/${projectId}`),
  acknowledge: (ids: number[], comment?: string) => http.post<{ updated: number }>('/api/v1/device/monitormessage/ack', { ids, comment }),
  close: (ids: number[], comment?: string) => http.post<{ updated: number }>('/api/v1/device/closemessage', { ids, comment }),
  exceptions: (q: ListParams) => http.get<Page<ExceptionRow>>('/api/v1/device/exceptiondata', q),
  exceptionDevices: (projectId: number) => http.get<ExceptionDeviceRow[]>('/api/v1/device/exceptiondevice', { projectId }),
  handleExceptions: (ids: number[], note: string) => http.post<{ updated: number }>('/api/v1/device/exceptiondevicehandle', { ids, note }),
  faults: (q: ListParams) => http.get<Page<FaultDeviceRow>>('/api/v1/device/faultdevice', q),
  overview: (projectId: number) => http.get<MonitorOverview>(`/api/v1/device/monitoroverview/${projectId}`),
};

/** While the screen is open, alarms raised, cleared or read anywhere reload its lists (SSE event `alarm`). */
export function useLiveAlarms(projectId: number | null) {
  const client = useQueryClient();
  useEffect(() => {
    const source = projectId ? openLiveStream(projectId) : null;
    if (!source) return;
    source.addEventListener('alarm', () => {
      void client.invalidateQueries({ queryKey: monitoringKeys.messages(projectId) });
      void client.invalidateQueries({ queryKey: monitoringKeys.rules(projectId) });
      void client.invalidateQueries({ queryKey: monitoringKeys.faults(projectId) });
      void client.invalidateQueries({ queryKey: monitoringKeys.overview(projectId) });
    });
    return () => source.close();
  }, [projectId, client]);
}
