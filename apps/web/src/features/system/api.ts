import type { Page } from '@kelvin/contracts';
import type { HolidayDto, SmsKind, SmsRecordDto, SmsSettings, SmsTemplateDto, SystemParams } from '@kelvin/contracts/system';
import type { IngestRejectRow, ServiceStatus } from '@kelvin/contracts/service-monitor';
import type {
  BroadcastAction, BroadcastResult, InstanceDto, OpsTarget, ReloadResult, RtuRefreshResult, TraceDetail, TraceRow,
} from '@kelvin/contracts/ops';
import type { ListParams } from '../../components/data-table';
import { http } from '../../lib/http';

/** System settings API (spec §7.5 paths for parameters and holidays; SMS under /api/v1/sms). */
export interface SmsKindInfo {
  kind: SmsKind;
  name: string;
  vars: string[];
  defaultContent: string;
  template: SmsTemplateDto | null;
}

export const systemApi = {
  params: () => http.get<SystemParams>('/api/v1/system/getSystemParam'),
  editParams: (patch: Partial<SystemParams>) => http.post<SystemParams>('/api/v1/system/editSystemParam', patch),
};

export const holidayApi = {
  page: (q: ListParams) => http.get<Page<HolidayDto>>('/api/v1/holiday/getAll', q),
  save: (body: unknown) => http.post<HolidayDto>('/api/v1/holiday/update', body),
  remove: (ids: number[]) => http.post<{ deleted: number }>('/api/v1/holiday/delete', { ids }),
};

export const smsApi = {
  kinds: () => http.get<SmsKindInfo[]>('/api/v1/sms/kinds'),
  createTemplate: (body: unknown) => http.post<SmsTemplateDto>('/api/v1/sms/template', body),
  updateTemplate: (id: number, body: unknown) => http.put<SmsTemplateDto>(`/api/v1/sms/template/${id}`, body),
  removeTemplate: (id: number) => http.del<null>(`/api/v1/sms/template/${id}`),
  test: (body: { phone: string; kind: SmsKind }) => http.post<SmsRecordDto>('/api/v1/sms/test', body),
  settings: () => http.get<SmsSettings>('/api/v1/sms/setting'),
  saveSettings: (body: unknown) => http.put<SmsSettings>('/api/v1/sms/setting', body),
  records: (q: ListParams) => http.get<Page<SmsRecordDto>>('/api/v1/sms/record/page', q),
  recordExportUrl: '/api/v1/sms/record/export',
};

/** 服务运行监控 (platform only). */
export const monitorApi = {
  status: () => http.get<ServiceStatus>('/api/v1/monitor/service'),
  rejects: (q: ListParams) => http.get<Page<IngestRejectRow>>('/api/v1/monitor/ingestrejects', q),
  targets: () => http.get<OpsTarget[]>('/api/v1/monitor/targets'),
  reload: () => http.post<ReloadResult>('/api/v1/monitor/iotreload'),
  broadcast: (body: { tenantId?: number; projectId?: number; action: BroadcastAction }) => http.post<BroadcastResult>('/api/v1/monitor/mqttbroadcast', body),
  rtuRefresh: (body: { tenantId?: number; projectId?: number }) => http.post<RtuRefreshResult>('/api/v1/monitor/rturefresh', body),
};

/** 服务注册中心 and 调用链路追踪 (platform only). */
export const opsApi = {
  instances: () => http.get<InstanceDto[]>('/api/v1/monitor/instances'),
  traces: (q: ListParams) => http.get<Page<TraceRow>>('/api/v1/monitor/traces', q),
  trace: (traceId: string) => http.get<TraceDetail>(`/api/v1/monitor/traces/${traceId}`),
};

/** Query keys of the system settings and the service monitor, one per resource. */
export const systemKeys = {
  params: ['system', 'params'] as const,
  smsSetting: ['system', 'sms-setting'] as const,
  smsKinds: ['system', 'sms-kinds'] as const,
  smsRecords: ['system', 'sms-record'] as const,
  holidays: ['system', 'holiday'] as const,
  monitorStatus: ['monitor', 'service'] as const,
  monitorRejects: ['monitor', 'rejects'] as const,
  monitorTargets: ['monitor', 'targets'] as const,
  instances: ['monitor', 'instances'] as const,
  traces: ['monitor', 'traces'] as const,
  trace: (traceId: string) => ['monitor', 'traces', traceId] as const,
};
