import type {
  AreaDetail, AreaTreeNode, ImportModel, ImportResult, Page, ProjectDetail, ProjectFile, ProjectMapItem, ProjectMapStatus,
} from '@kelvin/contracts';
import { http } from '../../lib/http';

type Query = Record<string, string | number | undefined>;
export type ProjectRow = ProjectDetail;

/** Areas and projects (spec §7.2) as the project and area screens use them. */
export const areaApi = {
  tree: (id = -1) => http.get<AreaTreeNode[]>(`/api/v1/area/tree/${id}`),
  regions: () => http.get<AreaTreeNode[]>('/api/v1/area/treeonlyproject/-1'),
  get: (id: number) => http.get<AreaDetail>(`/api/v1/area/${id}`),
  create: (qty: number, body: unknown) => http.post<number[]>(`/api/v1/area/create/${qty}`, body),
  update: (id: number, body: unknown) => http.put<AreaDetail>(`/api/v1/area/${id}`, body),
  move: (id: number, parentId: number) => http.post<AreaDetail>(`/api/v1/area/move/${id}`, { parentId }),
  remove: (id: number) => http.post<null>(`/api/v1/area/deletebyid/${id}`),
  importModels: (list: string) => http.get<ImportModel[]>(`/api/v1/area/${list}`),
  importTree: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return http.post<ImportResult>('/api/v1/area/projectimport', form, { timeout: 120_000, silent: true });
  },
};

export const projectApi = {
  page: (q: Query) => http.get<Page<ProjectRow>>('/api/v1/area/project/list', q),
  detail: (projectId: number) => http.get<ProjectDetail>('/api/v1/area/index/getProjectIndexMessage', { projectId }),
  create: (body: unknown) => http.post<{ id: number }>('/api/v1/area/project', body),
  update: (id: number, body: unknown) => http.put<AreaDetail>(`/api/v1/area/project/${id}`, body),
  remove: (id: number) => http.post<null>(`/api/v1/area/project/delete/${id}`),
  map: () => http.get<{ items: ProjectMapItem[]; statusLabels: Record<ProjectMapStatus, string> }>('/api/v1/area/projectmap'),
  alias: (projectId: number) => http.get<{ projectId: number; alias: string | null }>('/api/v1/project/getProjectAlias', { projectId }),
  setAlias: (projectId: number, alias: string) => http.post<{ alias: string | null }>(`/api/v1/project/setProjectAlias?projectId=${projectId}`, { alias }),
  files: (projectId: number) => http.post<ProjectFile[]>('/api/v1/static/getProjectFile', { projectId }),
  removeFile: (fileId: number) => http.post<null>('/api/v1/static/removeProjectFile', { fileId }),
  upload: (projectId: number, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return http.post<ProjectFile>(`/api/v1/static/uploadProjectFile?projectId=${projectId}`, form, { timeout: 120_000 });
  },
};

/** Regions of the visible tree, for the project form's 所属区域. */
export function regionOptions(roots: AreaTreeNode[]) {
  return roots.filter((n) => n.level === 'region').map((n) => ({ value: n.id, label: n.label }));
}
