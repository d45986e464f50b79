import type {
  AreaDetail, AreaLevel, AreaMatch, AreaTreeNode, ImportModel, ImportResult, Page, ProjectDetail, ProjectFile, ProjectMapItem, ProjectMapStatus,
} from '@kelvin/contracts';
import { useQuery } from '@tanstack/react-query';
import { download, http } from '../../lib/http';

type Query = Record<string, string | number | undefined>;
export type ProjectRow = ProjectDetail;

/** Areas and projects (spec §7.2) as the project and area screens use them. */
export const areaApi = {
  /** `depth`: levels below the node (the roots for -1); the cut nodes carry childCount. None: the whole tree. */
  tree: (id = -1, depth?: number) => http.get<AreaTreeNode[]>(`/api/v1/area/tree/${id}`, { depth }),
  regions: () => http.get<AreaTreeNode[]>('/api/v1/area/treeonlyproject/-1'),
  /** areas below `rootId` whose path holds every word of `keyword`, or the asked `ids` found there (their paths) */
  search: (q: { rootId: number; keyword?: string; ids?: number[]; levels?: readonly AreaLevel[]; limit?: number }) =>
    http.get<Page<AreaMatch>>('/api/v1/area/search', { rootId: q.rootId, keyword: q.keyword, ids: q.ids?.join(','), levels: q.levels?.join(','), limit: q.limit }),
  get: (id: number) => http.get<AreaDetail>(`/api/v1/area/${id}`),
  create: (qty: number, body: unknown) => http.post<number[]>(`/api/v1/area/create/${qty}`, body),
  update: (id: number, body: unknown) => http.put<AreaDetail>(`/api/v1/area/${id}`, body),
  move: (id: number, parentId: number) => http.post<AreaDetail>(`/api/v1/area/move/${id}`, { parentId }),
  remove: (id: number) => http.post<null>(`/api/v1/area/deletebyid/${id}`),
  exportArea: (areaId: number) => download('/api/v1/area/exportArea', { query: { areaId } }),
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
  downloadFile: (f: ProjectFile) => download(`/api/v1/static/downloadProjectFile/${f.id}`, { fallbackName: f.name }),
  upload: (projectId: number, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return http.post<ProjectFile>(`/api/v1/static/uploadProjectFile?projectId=${projectId}`, form, { timeout: 120_000 });
  },
};

/**
 * Query keys of areas and projects, one per resource: the area tree of a project is cached once, whoever shows it
 * (device screens included), so invalidating `areaKeys.all` after an area change refreshes every tree.
 */
export const areaKeys = {
  all: ['area'] as const,
  /** -1: every visible region and project; depth: as far down as it goes ('all': the whole tree) */
  tree: (rootId: number | null, depth?: number) => ['area', 'tree', rootId, depth ?? 'all'] as const,
  regions: ['area', 'regions'] as const,
  search: (rootId: number, what: string, levels: readonly AreaLevel[] | undefined) => ['area', 'search', rootId, what, levels?.join(',')] as const,
  detail: (id: number | null) => ['area', 'detail', id] as const,
};

export const projectKeys = {
  all: ['project'] as const,
  list: ['project', 'list'] as const,
  detail: (projectId: number | null) => ['project', 'detail', projectId] as const,
  alias: (projectId: number | null) => ['project', 'alias', projectId] as const,
  map: ['project', 'map'] as const,
  files: (projectId: number) => ['project', 'files', projectId] as const,
  /** projects to pick from: one tenant's (platform) or the visible ones ('own') */
  options: (scope: number | 'own' | undefined) => ['project', 'options', scope] as const,
};

/**
 * A project's buildings → floors → rooms (or, with -1, every visible region and project); with `depth` only that many
 * levels below it (2: buildings and floors, all a filter needs — a 10,000-room project's rooms stay on the server).
 */
export function useAreaTree(rootId: number | null, depth?: number) {
  return useQuery({ queryKey: areaKeys.tree(rootId, depth), queryFn: () => areaApi.tree(rootId!, depth), enabled: rootId !== null });
}

/** Levels of a project tree that building and floor filters need. */
export const BUILDINGS_AND_FLOORS = 2;

/** Regions of the visible tree, for the project form's 所属区域. */
export function regionOptions(roots: AreaTreeNode[]) {
  return roots.filter((n) => n.level === 'region').map((n) => ({ value: n.id, label: n.label }));
}

/** Buildings and floors of a project tree as filter options (「1号楼」「1号楼 / 2层」). */
export function buildingFloorOptions(roots: AreaTreeNode[] | undefined) {
  const out: { label: string; value: number }[] = [];
  for (const b of roots?.[0]?.children ?? []) {
    out.push({ label: b.label, value: b.id });
    for (const f of b.children) out.push({ label: `${b.label} / ${f.label}`, value: f.id });
  }
  return out;
}
