import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DeviceCardTable } from '../../db/schema.ts';
export type CardRow = Selectable<DeviceCardTable>;

export async function cardsOf(db: Db, tenantIds: number[], codes: string[]) {
  if (!codes.length) return new Map<string, CardRow>();
  const rows = await db.selectFrom('device_card').selectAll().where('tenant_id', 'in', [...new Set(tenantIds)]).where('device_code', 'in', codes).execute();
  return new Map(rows.map((r) => [`${r.tenant_id}:${r.device_code}`, r]));
}

export const likeName = (name: string) => `%${name.toLowerCase()}%`;
