import type {
  DevicePlanRow, DeviceParamRow, DeviceRelationRole, DeviceRelationRow, Page, ProjectPlanBody, ProjectPlanRow, QuoteBody, QuoteResult,
  ShareMemberRow, ShareTeamBody, ShareTeamRow, TariffBody, TariffVersionDto,
} from '@kelvin/contracts';
import type { ListParams } from '../../components/data-table';
import { http } from '../../lib/http';

type Query = ListParams | Record<string, string | number | undefined>;
const B = '/api/v1/billing';

/** The device parameter body as the screens send it (contracts deviceParamBody, before zod's refinement). */
export interface DeviceParamSave { deviceIds: number[]; chargeRate?: string; ratedPower?: string; baseFeeFen?: number; effectiveFrom: number }

/**
 * Billing configuration (design §8): the project's versioned tariff document, the quote calculator (计费试算), device
 * parameters, share teams with their members and related devices, metering plans with their devices.
 */
export const billingConfigApi = {
  /** the version in force now (id 0 = the defaults, nothing saved yet) */
  tariff: (projectId: number) => http.get<TariffVersionDto>(`${B}/tariff/${projectId}`),
  /** every saved version, newest effective first */
  tariffVersions: (projectId: number) => http.get<TariffVersionDto[]>(`${B}/tariff/${projectId}/versions`),
  saveTariff: (projectId: number, body: TariffBody) => http.post<TariffVersionDto>(`${B}/tariff/${projectId}`, body),

  quote: (body: QuoteBody) => http.post<QuoteResult>(`${B}/quote`, body),

  deviceParams: (q: Query) => http.get<Page<DeviceParamRow>>(`${B}/deviceparams`, q),
  saveDeviceParams: (body: DeviceParamSave) => http.post<{ updated: number }>(`${B}/deviceparams`, body),
  /** the device's versions, newest first */
  deviceParamHistory: (deviceId: number, q: Query) => http.get<Page<DeviceParamRow>>(`${B}/deviceparams/${deviceId}/history`, q),

  shareTeams: (q: Query) => http.get<Page<ShareTeamRow>>(`${B}/shareteam`, q),
  createShareTeam: (body: ShareTeamBody) => http.post<{ id: number }>(`${B}/shareteam`, body),
  updateShareTeam: (id: number, body: ShareTeamBody) => http.put<{ id: number }>(`${B}/shareteam/${id}`, body),
  removeShareTeams: (ids: number[]) => http.post<{ removed: number }>(`${B}/shareteam/delete`, { ids }),

  shareMembers: (q: Query) => http.get<Page<ShareMemberRow>>(`${B}/sharegroup`, q),
  addShareMembers: (shareTeamId: number, accountIds: number[]) => http.post<{ added: number }>(`${B}/sharegroup`, { shareTeamId, accountIds }),
  moveShareMember: (id: number, shareTeamId: number) => http.put<{ id: number }>(`${B}/sharegroup/${id}`, { shareTeamId }),
  removeShareMembers: (ids: number[]) => http.post<{ removed: number }>(`${B}/sharegroup/delete`, { ids }),

  deviceRelations: (q: Query) => http.get<Page<DeviceRelationRow>>(`${B}/devicerelation`, q),
  addDeviceRelations: (shareTeamId: number, deviceIds: number[], role: DeviceRelationRole) => http.post<{ added: number; updated: number }>(`${B}/devicerelation`, { shareTeamId, deviceIds, role }),
  removeDeviceRelations: (ids: number[]) => http.post<{ removed: number }>(`${B}/devicerelation/delete`, { ids }),

  projectPlans: (q: Query) => http.get<Page<ProjectPlanRow>>(`${B}/projectplan`, q),
  createProjectPlan: (body: ProjectPlanBody) => http.post<{ id: number }>(`${B}/projectplan`, body),
  updateProjectPlan: (id: number, body: ProjectPlanBody) => http.put<{ id: number }>(`${B}/projectplan/${id}`, body),
  removeProjectPlans: (ids: number[]) => http.post<{ removed: number }>(`${B}/projectplan/delete`, { ids }),

  devicePlans: (q: Query) => http.get<Page<DevicePlanRow>>(`${B}/deviceplan`, q),
  addDevicePlans: (projectPlanId: number, deviceIds: number[], effectiveFrom: number) => http.post<{ added: number }>(`${B}/deviceplan`, { projectPlanId, deviceIds, effectiveFrom }),
  removeDevicePlans: (ids: number[]) => http.post<{ removed: number }>(`${B}/deviceplan/delete`, { ids }),
};
