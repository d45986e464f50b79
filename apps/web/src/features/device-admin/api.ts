import type {
  DeviceCredentials, DeviceImportResult, DeviceRow, Page, ReplaceResult, StorageRow,
} from '@kelvin/contracts';
import { http } from '../../lib/http';

type Query = Record<string, string | number | undefined>;
export type Created = { device: DeviceRow; credentials: DeviceCredentials | null };

/** Device management as deviceList_n and its storage tab use it (device lists and types: the devices feature). */
export const deviceAdminApi = {
  create: (projectId: number, areaId: number, deviceType: string, body: unknown) => http.post<Created>(`/api/v1/device/create/${projectId}/${areaId}/${deviceType}`, body),
  update: (id: number, body: unknown) => http.put<DeviceRow>(`/api/v1/device/updatedevice/${id}`, body),
  move: (deviceIds: number[], areaId: number) => http.post<{ moved: number }>('/api/v1/device/updatearea', { deviceIds, areaId }),
  remove: (id: number) => http.post<{ deleted: number }>('/api/v1/device/deletedevice', { id }),
  backUp: (id: number) => http.post<DeviceRow>('/api/v1/device/backUpDevice', { id }),
  replace: (oldDeviceCode: string, newDeviceCode: string) => http.post<ReplaceResult>(`/api/v1/device/replaceDevice?oldDeviceCode=${encodeURIComponent(oldDeviceCode)}&newDeviceCode=${encodeURIComponent(newDeviceCode)}`),
  credentials: (id: number) => http.post<DeviceCredentials>(`/api/v1/device/credentials/${id}`),
  storage: (q: Query) => http.get<Page<StorageRow>>('/api/v1/deviceStorage/getProjectAllDeviceStorage', q),
  rename: (id: number, deviceName: string) => http.post<DeviceRow>('/api/v1/deviceStorage/updateDeviceStorageName', { id, deviceName }),
  addToStorage: (body: unknown) => http.post<Created>('/api/v1/deviceStorage/add', body),
  importDevices: (kind: 'deviceimport' | 'gatewayimport', projectId: number, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return http.post<DeviceImportResult>(`/api/v1/device/${kind}?projectId=${projectId}`, form, { timeout: 120_000, silent: true });
  },
};

/** The storage tab's list (installed devices are device lists: `deviceKeys.lists`). */
export const deviceAdminKeys = { storage: ['device-admin', 'storage'] as const };

/** The one-time secrets of imported devices as a CSV the installer keeps (never shown again). */
export function saveCredentialsCsv(rows: { deviceCode: string; password: string }[], name: string) {
  const csv = '\ufeff设备编号,接入密钥\n' + rows.map((r) => `${r.deviceCode},${r.password}`).join('\n');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
