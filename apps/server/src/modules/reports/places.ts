import { changesOf, type Db } from '../../db/index.ts';
import { epochCache } from '../../lib/epoch-cache.ts';

/** The areas of one project, read once per change of the areas: names, paths for the 位置 column, subtrees for 楼栋. */
export interface ProjectPlaces {
  /** "1号楼 / 3层 / 301" below the project ('' for the project itself or an unknown area) */
  pathOf(areaId: number | null): string;
  /** the area and everything below it (the building filter) */
  subtree(areaId: number): Set<number>;
  /** the building (first level below the project) an area lies in */
  buildingOf(areaId: number | null): { id: number; name: string } | null;
  name(areaId: number): string | undefined;
  has(areaId: number): boolean;
  /** floor area of a room (m²) */
  floorArea(areaId: number): number | null;
}

/** per database (a process has one; tests several): the places of each project while the area table is unwritten */
const caches = new WeakMap<Db, ReturnType<typeof epochCache<string, ProjectPlaces>>>();

export function loadPlaces(db: Db, tenantId: number, projectId: number): Promise<ProjectPlaces> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = epochCache(500)));
  return cache.get(`${tenantId}:${projectId}`, changesOf(db).epoch(['area']), () => readPlaces(db, tenantId, projectId));
}

async function readPlaces(db: Db, tenantId: number, projectId: number): Promise<ProjectPlaces> {
  const rows = await db.selectFrom('area').select(['id', 'parent_id', 'name', 'floor_area']).where('tenant_id', '=', tenantId).where('level', '!=', 'region').execute();
  const children = new Map<number, number[]>();
  for (const r of rows) if (r.parent_id !== null) children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r.id]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const path = new Map<number, string>();
  const building = new Map<number, { id: number; name: string }>();
  const walk = (id: number, prefix: string, top: { id: number; name: string } | null) => {
    for (const c of children.get(id) ?? []) {
      const row = byId.get(c)!;
      const p = prefix ? `${prefix} / ${row.name}` : row.name;
      const b = top ?? { id: c, name: row.name };
      path.set(c, p);
      building.set(c, b);
      walk(c, p, b);
    }
  };
  path.set(projectId, '');
  walk(projectId, '', null);
  return {
    pathOf: (id) => (id === null ? '' : path.get(id) ?? ''),
    subtree(id) {
      const out = new Set<number>();
      const stack = path.has(id) ? [id] : [];
      while (stack.length) {
        const x = stack.pop()!;
        out.add(x);
        stack.push(...(children.get(x) ?? []));
      }
      return out;
    },
    buildingOf: (id) => (id === null ? null : building.get(id) ?? null),
    name: (id) => byId.get(id)?.name,
    has: (id) => path.has(id),
    floorArea: (id) => byId.get(id)?.floor_area ?? null,
  };
}
