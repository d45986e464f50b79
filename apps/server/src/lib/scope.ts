import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import type { AuthUser } from '../types.ts';

/**
 * Tenancy (design §6): what a request may see is derived from the authenticated user only.
 * `projectIds === null` means every project of the tenant (or of every tenant for the platform).
 */
export interface Scope {
  userId: number;
  tenantId: number;
  isPlatform: boolean;
  projectIds: ReadonlySet<number> | null;
}

/** Who is calling: the signed-in user and what they may see. The access hook computes it once per request. */
export interface Actor {
  user: AuthUser;
  scope: Scope;
}

export async function scopeOf(db: Db, user: AuthUser): Promise<Scope> {
  if (user.allProjects) return { userId: user.id, tenantId: user.tenantId, isPlatform: user.isPlatform, projectIds: null };
  const rows = await db.selectFrom('user_project').select('project_id').where('user_id', '=', user.id).execute();
  return { userId: user.id, tenantId: user.tenantId, isPlatform: false, projectIds: new Set(rows.map((r) => r.project_id)) };
}

/**
 * The scope of system work for one tenant (a charge run, the prepaid loop, a rule's evaluation): every project of the
 * tenant, no user. The right to it was checked when the work was set up.
 */
export const systemScope = (tenantId: number): Scope => ({ userId: 0, tenantId, isPlatform: false, projectIds: null });

/** Every tenant's rows, for the server's own work across tenants (sweeps, caches that check the tenant themselves). */
export const platformScope: Scope = Object.freeze({ userId: 0, tenantId: 0, isPlatform: true, projectIds: null });

/** What a scope sees, as a string: the key of whatever is cached per scope (two users with equal scopes share it). */
export function scopeKey(scope: Scope): string {
  const projects = scope.projectIds ? [...scope.projectIds].sort((a, b) => a - b).join(',') : 'all';
  return `${scope.isPlatform ? '*' : scope.tenantId}:${projects}`;
}

/** Whether a row of (tenant, project) is inside the scope. */
export function inScope(scope: Scope, tenantId: number, projectId: number | null): boolean {
  if (!scope.isPlatform && tenantId !== scope.tenantId) return false;
  return !scope.projectIds || (projectId !== null && scope.projectIds.has(projectId));
}

/**
 * The one tenancy filter of a query: the scope's tenant (every tenant for the platform) and, when the caller is
 * limited to some projects, those projects. `project` names the project column, or null for tables without one.
 */
export function scoped<T extends keyof Database & string, O>(
  q: SelectQueryBuilder<Database, T, O>,
  scope: Scope,
  columns: { tenant?: string; project?: string | null } = {},
): SelectQueryBuilder<Database, T, O> {
  const tenant = (columns.tenant ?? 'tenant_id') as never;
  const project = (columns.project === undefined ? 'project_id' : columns.project) as never;
  let out = q;
  if (!scope.isPlatform) out = out.where(tenant, '=', scope.tenantId as never);
  if (project && scope.projectIds) out = out.where(project, 'in', (scope.projectIds.size ? [...scope.projectIds] : [-1]) as never);
  return out;
}
