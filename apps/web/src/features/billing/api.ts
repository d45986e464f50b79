/**
 * Billing calls (configuration: api-config.ts; runs, bills and supply: api-engine.ts) and the one query-key factory.
 * Keys nest so one invalidation refreshes every screen showing a resource: a tariff save refreshes the current
 * version and the history; a member or relation change refreshes the team counts; a run changes lines, bills,
 * balances and supply actions at once (invalidate `billingKeys.engine` after one).
 */
export * from './api-config';
export * from './api-engine';

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
  // billing: runs, bills and supply
  engine: ['billing', 'engine'] as const,
  runs: (projectId: number | null) => ['billing', 'engine', 'runs', projectId] as const,
  run: (runId: number | null) => ['billing', 'engine', 'run', runId] as const,
  lines: (projectId: number | null) => ['billing', 'engine', 'lines', projectId] as const,
  chargeData: (projectId: number | null) => ['billing', 'engine', 'charge-data', projectId] as const,
  bills: (projectId: number | null) => ['billing', 'engine', 'bills', projectId] as const,
  supply: (projectId: number | null) => ['billing', 'engine', 'supply', projectId] as const,
};
