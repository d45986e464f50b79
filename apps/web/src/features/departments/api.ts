import type {
  AssignCandidateDto, AssignmentBody, AssignmentDto, AssignmentMove, AssignmentUpdate, DepartmentBody, DepartmentCompareResult, DepartmentCounter, DepartmentDto,
  DepartmentEnergyPage, DepartmentOverview, DepartmentUpdate, Page,
} from '@kelvin/contracts';
import type { ListParams } from '../../components/data-table';
import { http } from '../../lib/http';

export interface PeriodParams { projectId: number; counter: DepartmentCounter; grain: 'day' | 'month'; month?: string; year?: number }

/** 部门能耗: the department tree, assignments of meters and rooms, energy, comparison and budgets. */
export const departmentApi = {
  tree: (projectId: number) => http.get<DepartmentDto[]>('/api/v1/department/tree', { projectId }),
  create: (body: DepartmentBody) => http.post<DepartmentDto>('/api/v1/department', body),
  update: (id: number, body: DepartmentUpdate) => http.put<DepartmentDto>(`/api/v1/department/${id}`, body),
  remove: (id: number) => http.del<{ id: number }>(`/api/v1/department/${id}`),
  assignments: (q: ListParams) => http.get<Page<AssignmentDto>>('/api/v1/department/assignment', q),
  candidates: (projectId: number) => http.get<AssignCandidateDto[]>('/api/v1/department/candidates', { projectId }),
  assign: (body: AssignmentBody) => http.post<AssignmentDto>('/api/v1/department/assignment', body),
  updateAssignment: (id: number, body: AssignmentUpdate) => http.put<AssignmentDto>(`/api/v1/department/assignment/${id}`, body),
  move: (id: number, body: AssignmentMove) => http.post<AssignmentDto>(`/api/v1/department/assignment/${id}/move`, body),
  unassign: (id: number) => http.del<{ id: number }>(`/api/v1/department/assignment/${id}`),
  overview: (projectId: number, counter: DepartmentCounter) => http.get<DepartmentOverview>('/api/v1/department/overview', { projectId, counter }),
  energy: (q: ListParams) => http.get<DepartmentEnergyPage>('/api/v1/department/energy', q),
  compare: (q: PeriodParams & { departmentIds: string }) => http.get<DepartmentCompareResult>('/api/v1/department/compare', { ...q }),
  energyExportUrl: '/api/v1/department/energy/export',
  compareExportUrl: '/api/v1/department/compare/export',
};

/** One key per resource: a change to departments or assignments refreshes every department screen. */
export const departmentKeys = {
  all: ['departments'] as const,
  tree: (projectId: number | null) => ['departments', 'tree', projectId] as const,
  assignments: (projectId: number | null, departmentId: number | null) => ['departments', 'assignments', projectId, departmentId] as const,
  candidates: (projectId: number | null) => ['departments', 'candidates', projectId] as const,
  overview: (projectId: number | null, counter: string) => ['departments', 'overview', projectId, counter] as const,
  energy: (projectId: number | null) => ['departments', 'energy', projectId] as const,
  compare: (q: object) => ['departments', 'compare', q] as const,
};
