import type {
  Page, RepairAssign, RepairAssigneeDto, RepairCreate, RepairDetailDto, RepairDeviceDto, RepairDto, RepairPhotoDto, RepairUpdate,
} from '@kelvin/contracts';
import type { ListParams } from '../../components/data-table';
import { fetchBlob, http } from '../../lib/http';

/** 维修记录 (repairRecord): work orders, their moves, photos and timeline. */
export const repairApi = {
  list: (q: ListParams) => http.get<Page<RepairDto>>('/api/v1/repair', q),
  get: (id: number) => http.get<RepairDetailDto>(`/api/v1/repair/${id}`),
  create: (body: RepairCreate) => http.post<RepairDetailDto>('/api/v1/repair', body),
  update: (id: number, body: RepairUpdate) => http.put<RepairDetailDto>(`/api/v1/repair/${id}`, body),
  assign: (id: number, body: RepairAssign) => http.post<RepairDetailDto>(`/api/v1/repair/${id}/assign`, body),
  finish: (id: number, result?: string) => http.post<RepairDetailDto>(`/api/v1/repair/${id}/finish`, { result }),
  close: (id: number, result: string) => http.post<RepairDetailDto>(`/api/v1/repair/${id}/close`, { result }),
  remove: (ids: number[]) => http.post<{ deleted: number }>('/api/v1/repair/delete', { ids }),
  assignees: (projectId: number) => http.get<RepairAssigneeDto[]>('/api/v1/repair/assignees', { projectId }),
  devices: (projectId: number, keyword?: string) => http.get<RepairDeviceDto[]>('/api/v1/repair/devices', { projectId, keyword }),
  uploadPhoto: (id: number, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return http.post<RepairPhotoDto>(`/api/v1/repair/${id}/photo`, form, { timeout: 60_000 });
  },
  photo: (photoId: number) => fetchBlob(`/api/v1/repair/photo/${photoId}`),
  removePhoto: (photoId: number) => http.del<null>(`/api/v1/repair/photo/${photoId}`),
};

export const repairKeys = {
  all: ['repairs'] as const,
  list: (projectId: number | null) => ['repairs', 'list', projectId] as const,
  detail: (id: number | null) => ['repairs', 'detail', id] as const,
  assignees: (projectId: number | null) => ['repairs', 'assignees', projectId] as const,
  devices: (projectId: number | null, keyword: string) => ['repairs', 'devices', projectId, keyword] as const,
  photo: (photoId: number) => ['repairs', 'photo', photoId] as const,
};
