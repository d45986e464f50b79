export * from './api-engine';

/**
 * Query keys of billing, one per resource, all under 'billing' (a run changes lines, bills, balances and supply
 * actions at once: invalidate `billingKeys.engine` after one).
 */
export const billingKeys = {
  all: ['billing'] as const,
  // billing: runs, bills and supply
  engine: ['billing', 'engine'] as const,
  runs: (projectId: number | null) => ['billing', 'engine', 'runs', projectId] as const,
  run: (runId: number | null) => ['billing', 'engine', 'run', runId] as const,
  lines: (projectId: number | null) => ['billing', 'engine', 'lines', projectId] as const,
  chargeData: (projectId: number | null) => ['billing', 'engine', 'charge-data', projectId] as const,
  bills: (projectId: number | null) => ['billing', 'engine', 'bills', projectId] as const,
  supply: (projectId: number | null) => ['billing', 'engine', 'supply', projectId] as const,
};
