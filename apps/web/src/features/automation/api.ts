import type { Page } from '@kelvin/contracts';
import type {
  OvertimePoolBody, OvertimePoolRow, ProgramSchemeBody, ProgramSchemeRow, TaskBody, TaskKind, TaskRow, TaskRunRow, WeekProgramBody, WeekProgramRow,
} from '@kelvin/contracts/automation';
import type { ListParams } from '../../components/data-table';
import { http } from '../../lib/http';

/** Automation API: week programs (spec §7.3 weekprogram/*), program schemes, tasks of every kind with their runs, the overtime pool. */
const P = '/api/v1/weekprogram';

export const automationApi = {
  programs: (q: ListParams) => http.get<Page<WeekProgramRow>>(P, q),
  program: (id: number) => http.get<WeekProgramRow>(`${P}/${id}`),
  createProgram: (body: WeekProgramBody) => http.post<{ id: number }>(`${P}/`, body),
  updateProgram: (id: number, body: WeekProgramBody) => http.put<{ id: number }>(`${P}/${id}`, body),
  removePrograms: (ids: number[]) => http.post<{ deleted: number }>(`${P}/delete`, { ids }),
  /** runs the program now: the slot in force right now is sent (memory types: the program is pushed) */
  executeProgram: (id: number) => http.post<TaskRunRow>(`${P}/executetask/${id}`),
  programsByArea: (areaId: number) => http.get<WeekProgramRow[]>(`${P}/listbyarea/${areaId}`),
  programsByDevice: (deviceId: number) => http.get<WeekProgramRow[]>(`${P}/listbydevice/${deviceId}`),
  programRuns: (id: number, q: ListParams) => http.get<Page<TaskRunRow>>(`${P}/${id}/runs`, q),
  /** re-sends the failed (rejected / expired) commands of a run to those devices only (a new run) */
  retryRun: (owner: 'task' | 'program', runId: number) => http.post<TaskRunRow>(`${owner === 'task' ? '/api/v1/task' : P}/run/${runId}/retry`, {}),

  schemes: (q: ListParams) => http.get<Page<ProgramSchemeRow>>('/api/v1/programscheme', q),
  createScheme: (body: ProgramSchemeBody) => http.post<{ id: number }>('/api/v1/programscheme', body),
  updateScheme: (id: number, body: ProgramSchemeBody) => http.put<{ id: number }>(`/api/v1/programscheme/${id}`, body),
  removeSchemes: (ids: number[]) => http.post<{ deleted: number }>('/api/v1/programscheme/delete', { ids }),

  tasks: (q: ListParams) => http.get<Page<TaskRow>>('/api/v1/task', q),
  createTask: (body: TaskBody) => http.post<{ id: number }>('/api/v1/task', body),
  updateTask: (id: number, body: TaskBody) => http.put<{ id: number }>(`/api/v1/task/${id}`, body),
  enableTask: (id: number, enabled: boolean) => http.post<{ id: number }>(`/api/v1/task/${id}/enable`, { enabled }),
  removeTasks: (ids: number[]) => http.post<{ deleted: number }>('/api/v1/task/delete', { ids }),
  executeTask: (id: number) => http.post<TaskRunRow>(`/api/v1/task/${id}/execute`),
  taskRuns: (id: number, q: ListParams) => http.get<Page<TaskRunRow>>(`/api/v1/task/${id}/runs`, q),

  overtime: (q: ListParams) => http.get<Page<OvertimePoolRow>>('/api/v1/overtimepool', q),
  saveOvertime: (body: OvertimePoolBody, id?: number) => (id ? http.put<{ id: number }>(`/api/v1/overtimepool/${id}`, body) : http.post<{ id: number }>('/api/v1/overtimepool', body)),
  removeOvertime: (ids: number[]) => http.post<{ deleted: number }>('/api/v1/overtimepool/delete', { ids }),
};

/** The element codes the server checks: every week program endpoint takes 温控器编程's, whichever screen calls it. */
export const PROGRAM_MENU = 'thermostatprogram';

/** Query keys of the automation screens, one per resource. */
export const automationKeys = {
  all: ['automation'] as const,
  programs: (projectId: number | null) => ['automation', 'programs', projectId] as const,
  programsBy: (what: 'area' | 'device', id: number | null) => ['automation', 'programs', 'by', what, id] as const,
  schemes: (projectId: number | null) => ['automation', 'schemes', projectId] as const,
  tasks: (projectId: number | null, kind: TaskKind) => ['automation', 'tasks', projectId, kind] as const,
  runs: (owner: 'task' | 'program', id: number) => ['automation', 'runs', owner, id] as const,
  overtime: (projectId: number | null) => ['automation', 'overtime', projectId] as const,
};
