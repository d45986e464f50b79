import type { Db } from '../db/index.ts';
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

export async function scopeOf(db: Db, user: AuthUser): Promise<Scope> {
  if (user.allProjects) return { userId: user.id, tenantId: user.tenantId, isPlatform: user.isPlatform, projectIds: null };
  const rows = await db.selectFrom('user_project').select('project_id').where('user_id', '=', user.id).execute();
  return { userId: user.id, tenantId: user.tenantId, isPlatform: false, projectIds: new Set(rows.map((r) => r.project_id)) };
}
