/**
 * Billing calls (configuration: api-config.ts; runs, bills and supply: api-engine.ts) and the one query-key factory.
 * Keys nest so one invalidation refreshes every screen showing a resource: a tariff save refreshes the current
 * version and the history; a member or relation change refreshes the team counts.
 */
export * from './api-config';

export const billingKeys = {
  all: ['billing'] as const,
  tariff: (projectId: number | null) => ['billing', 'tariff', projectId] as const,
  tariffVersions: (projectId: number | null) => ['billing', 'tariff', projectId, 'versions'] as const,
  deviceParams: (projectId: number | null) => ['billing', 'deviceparams', projectId] as const,
  deviceParamHistories: ['billing', 'deviceparams', 'history'] as const,
  deviceParamHistory: (deviceId: number | null) => ['billing', 'deviceparams', 'history', deviceId] as const,
  share: ['billing', 'share'] as const,
  shareTeams: (projectId: number | null) => ['billing', 'share', 'teams', projectId] as const,
  shareMembers: (shareTeamId: number | null) => ['billing', 'share', 'members', shareTeamId] as const,
  deviceRelations: (projectId: number | null, shareTeamId?: number | null) => ['billing', 'share', 'relations', projectId, shareTeamId ?? 'all'] as const,
  plans: ['billing', 'plans'] as const,
  projectPlans: (projectId: number | null) => ['billing', 'plans', 'project', projectId] as const,
  devicePlans: (projectPlanId: number | null) => ['billing', 'plans', 'device', projectPlanId] as const,
};
