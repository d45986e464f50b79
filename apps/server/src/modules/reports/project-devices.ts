import type { Db } from '../../db/index.ts';
import type { AreaRow } from '../projects/index.ts';
import type { ProjectPlaces } from './places.ts';

/** A device as the reports show it: its codes, type and place. */
export interface ReportDevice { id: number; code: string; name: string; type: string; areaId: number | null; location: string }

/**
 * Every device of a project with its location, in id order. The reports' cache (service.ts) shares the answer between
 * requests, so it is frozen, as the cached area rows are.
 */
export async function readProjectDevices(db: Db, project: Pick<AreaRow, 'id' | 'tenant_id'>, places: ProjectPlaces): Promise<readonly ReportDevice[]> {
  const rows = await db.selectFrom('device').select(['id', 'device_code', 'device_name', 'device_type', 'area_id'])
    .where('project_id', '=', project.id).where('tenant_id', '=', project.tenant_id).orderBy('id').execute();
  return Object.freeze(rows.map((d) => Object.freeze({
    id: d.id, code: d.device_code, name: d.device_name, type: d.device_type, areaId: d.area_id, location: places.pathOf(d.area_id),
  })));
}
