import { useEffect } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DeviceCategory, Page } from '@kelvin/contracts';
import type {
  CommandView, DeviceDetail, DeviceMonitorStatistic, DeviceRow, HistoryAnswer, LiveCommandEvent, LiveDeviceEvent, OfflineMessageRow, OperationLogRow,
} from '@kelvin/contracts/device';
import type { ListParams } from '../../components/data-table';
import { http, withQuery } from '../../lib/http';
import { openLiveStream } from '../../lib/live';

type Query = Record<string, string | number | undefined>;

/** Device API (spec §7.3 under /api/v1/device/). */
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

/** Devices of one area (a project, building or floor), grouped by room. */
export type AreaDevices = { areaId: number; areaPath: string; devices: DeviceRow[] };

/** The one wrapper of the device endpoints every feature uses (device lists, types, state, commands, log). */
/** getviewbyarea's narrowing: only the devices on the area itself, only one kind of device */
type AreaDeviceFilter = { own?: boolean; category?: DeviceCategory };

export const deviceApi = {
  list: (q: ListParams | Query) => http.get<Page<DeviceRow>>('/api/v1/device/devicelist', q),
  detail: (id: number) => http.get<DeviceDetail>(`/api/v1/device/detail/${id}`),
  types: (projectId: number) => http.get<ProjectDeviceType[]>(`/api/v1/device/getdevicetypelist/${projectId}`),
  /** devices under an area grouped by where they sit; `own`: only those on the area itself; `category`: only that kind */
  byArea: (areaId: number, only: AreaDeviceFilter = {}) =>
    http.get<AreaDevices[]>(`/api/v1/device/getviewbyarea/${areaId}`, { own: only.own ? 1 : undefined, category: only.category }),
  history: (q: { deviceId: number; fields: string; from: number; to: number }) => http.get<HistoryAnswer>('/api/v1/device/history', q),
  write: (deviceId: number, fieldCode: string, value: string | number) =>
    http.post<CommandAnswer>(`/api/v1/device/writedeviceattr/${deviceId}/${fieldCode}/${encodeURIComponent(String(value))}`),
  operate: (deviceId: number, eventType: string) => http.post<CommandAnswer>(withQuery(`/api/v1/device/operation/${deviceId}`, { eventType })),
  command: (id: number) => http.get<CommandView>(`/api/v1/device/command/${id}`, undefined, { silent: true }),
  operationLog: (q: ListParams) => http.get<Page<OperationLogRow>>('/api/v1/device/operationlog', q),
  /** the monitor's extras (spec §7.5): over the devices the monitor table shows (same filters) */
  monitorStatistic: (q: Query) => http.get<DeviceMonitorStatistic>('/api/v1/device/monitor/statistic', q),
  offlineMessages: (q: ListParams | Query) => http.get<Page<OfflineMessageRow>>('/api/v1/device/monitor/offlinemessage', q),
  monitorExportUrl: '/api/v1/device/monitor/export',
};

/**
 * Query keys of device data, one per resource. Every device list lives under `deviceKeys.lists` (live reports patch
 * them all, a device change invalidates them all); `deviceKeys.all` refreshes everything about devices.
 */
export const deviceKeys = {
  all: ['devices'] as const,
  lists: ['devices', 'list'] as const,
  /** a list screen's own key (its paging and filters are appended by the table) */
  list: (screen: string) => ['devices', 'list', screen] as const,
  detail: (id: number | null) => ['devices', 'detail', id] as const,
  types: (projectId: number | null) => ['devices', 'types', projectId] as const,
  byArea: (areaId: number | null | undefined, only: AreaDeviceFilter = {}) => ['devices', 'by-area', areaId, only.own ? 'own' : 'below', only.category ?? 'all'] as const,
  history: (id: number, from: number, to: number, fields: string[]) => ['devices', 'history', id, from, to, fields.join(',')] as const,
  /** the monitor's statistic and offline messages (not lists: live reports patch rows of DeviceRow only) */
  monitorStatistic: (q: Query) => ['devices', 'monitor', 'statistic', q] as const,
  offlineMessages: ['devices', 'monitor', 'offline'] as const,
  oplogs: ['devices', 'oplog'] as const,
  oplog: (deviceId: number | null) => ['devices', 'oplog', deviceId] as const,
};

/** The device types of a project with their counts (one cache entry per project, shared by every screen). */
export function useDeviceTypes(projectId: number | null, opts: { enabled?: boolean; refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: deviceKeys.types(projectId),
    queryFn: () => deviceApi.types(projectId!),
    enabled: projectId !== null && opts.enabled !== false,
    refetchInterval: opts.refetchInterval,
  });
}

/** One device in full (the detail and control drawers share the entry; live reports patch it). */
export function useDeviceDetail(deviceId: number | null) {
  return useQuery({ queryKey: deviceKeys.detail(deviceId), queryFn: () => deviceApi.detail(deviceId!), enabled: deviceId !== null });
}

/** A live device event applied to every cached device list page: fields merged, online window moved. */
function patchLists(client: QueryClient, e: LiveDeviceEvent) {
  client.setQueriesData<Page<DeviceRow>>({ queryKey: deviceKeys.lists }, (page) => {
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
    const source = projectId ? openLiveStream(projectId) : null;
    if (!source) return;
    source.addEventListener('device', (m) => {
      const e = JSON.parse((m as MessageEvent).data) as LiveDeviceEvent;
      patchLists(client, e);
      client.setQueryData<DeviceDetail>(deviceKeys.detail(e.deviceId), (d) => d && {
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
