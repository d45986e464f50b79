import type {
  AddressChangeRow, BatchParaAnswer, BindRecord, DeviceBindRow, DeviceCard, DeviceCardBody, DeviceCredentials, DeviceGroup, DeviceImportResult, DeviceRow, Device4gRow,
  FactoryDeviceRow, FactoryRunView, MqttSettingView, OnlineHistory, OnlineNowRow, Page, ReplaceResult, StorageRow,
} from '@kelvin/contracts';
import type { ListParams } from '../../components/data-table';
import { QR_DOWNLOAD_TIMEOUT_MS, download, http } from '../../lib/http';

/** Device-management screens (the device list and storage, groups, batch writes, SIM cards, statistics, addresses, MQTT, factory bench); device lists, types and logs are the devices feature's. */
export const dmApi = {
  bindList: (q: ListParams) => http.get<Page<DeviceBindRow>>('/api/v1/device/bind/list', q),
  bind: (deviceId: number, areaId: number) => http.post<DeviceRow>(`/api/v1/device/bind/${deviceId}`, { areaId }),
  unbind: (deviceId: number) => http.post<DeviceRow>(`/api/v1/device/unbind/${deviceId}`),
  bindRecords: (q: ListParams) => http.get<Page<BindRecord>>('/api/v1/device/bindrecord', q),

  groups: (projectId: number) => http.get<DeviceGroup[]>('/api/v1/device/group/list', { projectId }),
  createGroup: (body: { projectId: number; name: string; remark?: string | null }) => http.post<{ id: number }>('/api/v1/device/group/create', body),
  updateGroup: (id: number, body: { name?: string; remark?: string | null }) => http.put<{ id: number }>(`/api/v1/device/group/${id}`, body),
  removeGroup: (id: number) => http.post<null>(`/api/v1/device/group/delete/${id}`),
  groupMembers: (id: number, change: { add?: number[]; remove?: number[] }) => http.post<{ id: number; deviceCount: number }>(`/api/v1/device/group/members/${id}`, change),
  groupDevices: (id: number, q: ListParams) => http.get<Page<DeviceRow>>(`/api/v1/device/group/groupDeviceListByType/${id}`, q),

  batchPara: (body: { deviceIds: number[]; fieldCode: string; value: number | string; ttl?: number }) =>
    http.post<BatchParaAnswer>('/api/v1/device/batchpara', body, { timeout: 120_000 }),

  cards: (q: ListParams) => http.get<Page<Device4gRow>>('/api/v1/device/card/list', q),
  saveCard: (body: DeviceCardBody) => http.post<Device4gRow & { card: DeviceCard | null }>('/api/v1/device/card/save', body),
  removeCard: (deviceCode: string) => http.post<null>('/api/v1/device/card/delete', { deviceCode }),

  onlineNow: (projectId: number) => http.get<OnlineNowRow[]>(`/api/v1/device/report/online/${projectId}`),
  onlineHistory: (projectId: number, q: { from: number; to: number; deviceType?: string }) => http.get<OnlineHistory>(`/api/v1/device/report/online/v2/${projectId}`, q),

  addressChanges: (q: ListParams) => http.get<Page<AddressChangeRow>>('/api/v1/device/address/list', q),
  requestAddress: (body: { projectId: number; deviceIds: number[]; host: string; port: number; remark?: string }) =>
    http.post<{ created: number; rows: AddressChangeRow[] }>('/api/v1/device/address/request', body),
  closeAddress: (id: number, body: { status: 'confirmed' | 'cancelled'; remark?: string }) => http.post<AddressChangeRow>(`/api/v1/device/address/close/${id}`, body),

  mqttSetting: (projectId: number) => http.get<MqttSettingView>('/api/v1/device/mqtt/setting', { projectId }),
  saveMqttSetting: (body: { projectId: number; host: string; port: number; tls: boolean }) => http.post<MqttSettingView>('/api/v1/device/mqtt/setting', body),
  reissue: (deviceId: number) => http.post<DeviceCredentials>(`/api/v1/device/mqtt/credentials/${deviceId}`),

  startTest: (body: { bench: string; deviceIds: number[]; stepTimeoutSeconds: number }) => http.post<FactoryRunView[]>('/api/v1/device/factorytest/run', body),
  stopTest: (id: number) => http.post<FactoryRunView>(`/api/v1/device/factorytest/runs/${id}/stop`),
  testRun: (id: number) => http.get<FactoryRunView>(`/api/v1/device/factorytest/runs/${id}`),
  testRuns: (q: ListParams) => http.get<Page<FactoryRunView>>('/api/v1/device/factorytest/runs', q),
  testDevices: (q: ListParams) => http.get<Page<FactoryDeviceRow>>('/api/v1/device/factorytest/devices', q),

  subDevices: (gatewayId: number, q: ListParams) => http.get<Page<DeviceRow>>(`/api/v1/device/getviewlistbyareabypage_forpdevice/-1/${gatewayId}`, q),

  /** The device's QR label (SVG) for printing; spec §9 gives QR downloads 300 s. */
  qrCode: (deviceId: number, deviceCode: string) => download(`/api/v1/device/qrcode/${deviceId}`, { timeout: QR_DOWNLOAD_TIMEOUT_MS, fallbackName: `设备二维码-${deviceCode}.svg` }),

  // deviceList_n and its storage tab (device lists and types are the devices feature's)
  create: (projectId: number, areaId: number, deviceType: string, body: unknown) => http.post<Created>(`/api/v1/device/create/${projectId}/${areaId}/${deviceType}`, body),
  update: (id: number, body: unknown) => http.put<DeviceRow>(`/api/v1/device/updatedevice/${id}`, body),
  move: (deviceIds: number[], areaId: number) => http.post<{ moved: number }>('/api/v1/device/updatearea', { deviceIds, areaId }),
  remove: (id: number) => http.post<{ deleted: number }>('/api/v1/device/deletedevice', { id }),
  backUp: (id: number) => http.post<DeviceRow>('/api/v1/device/backUpDevice', { id }),
  replace: (oldDeviceCode: string, newDeviceCode: string) => http.post<ReplaceResult>(`/api/v1/device/replaceDevice?oldDeviceCode=${encodeURIComponent(oldDeviceCode)}&newDeviceCode=${encodeURIComponent(newDeviceCode)}`),
  credentials: (id: number) => http.post<DeviceCredentials>(`/api/v1/device/credentials/${id}`),
  storage: (q: ListParams) => http.get<Page<StorageRow>>('/api/v1/deviceStorage/getProjectAllDeviceStorage', q),
  rename: (id: number, deviceName: string) => http.post<DeviceRow>('/api/v1/deviceStorage/updateDeviceStorageName', { id, deviceName }),
  addToStorage: (body: unknown) => http.post<Created>('/api/v1/deviceStorage/add', body),
  importDevices: (kind: 'deviceimport' | 'gatewayimport', projectId: number, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return http.post<DeviceImportResult>(`/api/v1/device/${kind}?projectId=${projectId}`, form, { timeout: 120_000, silent: true });
  },
};

/** Query keys of the device-management resources, one per resource. */
export const dmKeys = {
  all: ['dm'] as const,
  binds: (projectId: number | null) => ['dm', 'binds', projectId] as const,
  bindHistory: (deviceId: number | null) => ['dm', 'bind-history', deviceId] as const,
  groups: ['dm', 'groups'] as const,
  groupList: (projectId: number | null) => ['dm', 'groups', projectId] as const,
  groupMembers: (groupId: number) => ['dm', 'groups', 'members', groupId] as const,
  cards: ['dm', 'cards'] as const,
  bareCards: (projectId: number | null) => ['dm', 'cards', 'bare', projectId] as const,
  addresses: ['dm', 'addresses'] as const,
  mqttSetting: (projectId: number | null) => ['dm', 'mqtt', projectId] as const,
  online: (projectId: number | null) => ['dm', 'online', projectId] as const,
  onlineHistory: (projectId: number | null, from?: number, to?: number, deviceType?: string) => ['dm', 'online-history', projectId, from, to, deviceType] as const,
  bench: ['dm', 'bench'] as const,
  benchDevices: (bench: string) => ['dm', 'bench', bench] as const,
  testRun: (id: number) => ['dm', 'test-run', id] as const,
  testRuns: ['dm', 'test-runs'] as const,
  gatewaySubs: (gatewayId: number) => ['dm', 'gateway-subs', gatewayId] as const,
  /** the storage tab's list (installed devices are device lists: `deviceKeys.lists`) */
  storage: ['dm', 'storage'] as const,
};

export type Created = { device: DeviceRow; credentials: DeviceCredentials | null };

/** The one-time secrets of imported devices as a CSV the installer keeps (never shown again). */
export function saveCredentialsCsv(rows: { deviceCode: string; password: string }[], name: string) {
  const csv = '\ufeff设备编号,接入密钥\n' + rows.map((r) => `${r.deviceCode},${r.password}`).join('\n');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
