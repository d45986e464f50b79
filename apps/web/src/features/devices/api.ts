import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { AreaTreeNode, Page } from '@kelvin/contracts';
import type {
  CommandView, DeviceDetail, DeviceRow, HistoryAnswer, LiveCommandEvent, LiveDeviceEvent, OperationLogRow,
} from '@kelvin/contracts/device';
import type { ListParams } from '../../components/data-table';
import { http, withQuery } from '../../lib/http';
import { getStored } from '../../lib/storage';

/** Device API (spec §7.3 under /api/v1/device/, issue 3 contract). */
export interface ProjectDeviceType {
  code: string;
  name: string;
  category: string;
  categoryName: string;
  route: string;
  total: number;
  online: number;
}

export interface CommandAnswer {
  commandId: number;
  status: CommandView['status'];
  command: CommandView;
}

export const deviceApi = {
  list: (q: ListParams) => http.get<Page<DeviceRow>>('/api/v1/device/devicelist', q),
  detail: (id: number) => http.get<DeviceDetail>(`/api/v1/device/detail/${id}`),
  types: (projectId: number) => http.get<ProjectDeviceType[]>(`/api/v1/device/getdevicetypelist/${projectId}`),
  history: (q: { deviceId: number; fields: string; from: number; to: number }) => http.get<HistoryAnswer>('/api/v1/device/history', q),
  write: (deviceId: number, fieldCode: string, value: string | number) =>
    http.post<CommandAnswer>(`/api/v1/device/writedeviceattr/${deviceId}/${fieldCode}/${encodeURIComponent(String(value))}`),
  operate: (deviceId: number, eventType: string) => http.post<CommandAnswer>(withQuery(`/api/v1/device/operation/${deviceId}`, { eventType })),
  command: (id: number) => http.get<CommandView>(`/api/v1/device/command/${id}`, undefined, { silent: true }),
  operationLog: (q: ListParams) => http.get<Page<OperationLogRow>>('/api/v1/device/operationlog', q),
  projectTree: (projectId: number) => http.get<AreaTreeNode[]>(`/api/v1/area/tree/${projectId}`),
};

export const DEVICE_LIST_KEY = ['devices', 'list'] as const;

/** A live device event applied to every cached device list page: fields merged, online window moved. */
function patchLists(client: QueryClient, e: LiveDeviceEvent) {
  client.setQueriesData<Page<DeviceRow>>({ queryKey: DEVICE_LIST_KEY }, (page) => {
    if (!page?.rows.some((r) => r.id === e.deviceId)) return page;
    return {
      ...page,
      rows: page.rows.map((r) => (r.id === e.deviceId
        ? { ...r, online: true, lastReportAt: e.lastReportAt, onlineUntil: e.onlineUntil, fields: { ...r.fields, ...e.fields } }
        : r)),
    };
  });
}

/** Command status changes for whoever shows them (the control drawer). */
export const commandEvents = new EventTarget();

/**
 * The live stream (GET /api/v1/live, SSE) of one project while a screen is open: device lists update in place, the
 * control drawer hears its commands. EventSource reconnects by itself.
 */
export function useLiveDevices(projectId: number | null) {
  const client = useQueryClient();
  useEffect(() => {
    const token = getStored('token');
    if (!projectId || !token) return;
    const source = new EventSource(withQuery('/api/v1/live', { token, projectId }));
    source.addEventListener('device', (m) => {
      const e = JSON.parse((m as MessageEvent).data) as LiveDeviceEvent;
      patchLists(client, e);
      client.setQueryData<DeviceDetail>(['devices', 'detail', e.deviceId], (d) => d && {
        ...d, online: true, lastReportAt: e.lastReportAt, onlineUntil: e.onlineUntil, fields: { ...d.fields, ...e.fields },
        fieldTimes: { ...d.fieldTimes, ...Object.fromEntries(Object.keys(e.fields).map((k) => [k, e.ts])) },
      });
    });
    source.addEventListener('command', (m) => {
      commandEvents.dispatchEvent(new CustomEvent<LiveCommandEvent>('command', { detail: JSON.parse((m as MessageEvent).data) }));
    });
    return () => source.close();
  }, [projectId, client]);
}
