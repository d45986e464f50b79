import { AREA_LEVEL_LABELS, AREA_LEVELS, MENUS, PROJECT_TYPES, type AreaLevel, type AreaTreeNode, type ProjectInfo } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import type { Scope } from '../../lib/scope.ts';
import { paginate } from '../../lib/pagination.ts';
import * as repo from './repository.ts';
import type { AreaRow } from './repository.ts';

const CHILD_LEVEL: Record<AreaLevel, AreaLevel | null> = {
  region: 'project',
  project: 'building',
  building: 'floor',
  floor: 'room',
  room: null,
};

/** Areas the scope may see: all of its tenant(s), or granted projects with their ancestors and descendants. */
function visibleAreas(all: AreaRow[], scope: Scope): AreaRow[] {
  if (!scope.projectIds) return all;
  const byId = new Map(all.map((a) => [a.id, a]));
  const keep = new Set<number>();
  for (const pid of scope.projectIds) {
    let cur = byId.get(pid);
    while (cur) {
      keep.add(cur.id);
      cur = cur.parent_id === null ? undefined : byId.get(cur.parent_id);
    }
  }
  // descendants: areas whose ancestor chain reaches a granted project
  for (const a of all) {
    let cur: AreaRow | undefined = a;
    while (cur && !scope.projectIds.has(cur.id)) cur = cur.parent_id === null ? undefined : byId.get(cur.parent_id);
    if (cur) keep.add(a.id);
  }
  return all.filter((a) => keep.has(a.id));
}

function buildTree(rows: AreaRow[]): AreaTreeNode[] {
  const nodes = new Map<number, AreaTreeNode>();
  for (const r of rows) {
    nodes.set(r.id, { id: r.id, label: r.name, value: r.id, level: r.level as AreaLevel, attr4: r.project_type, children: [] });
  }
  const roots: AreaTreeNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id)!;
    const parent = r.parent_id === null ? undefined : nodes.get(r.parent_id);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export function toProjectInfo(a: AreaRow): ProjectInfo {
  return {
    id: a.id,
    tenantId: a.tenant_id,
    name: a.name,
    alias: a.alias,
    projectType: a.project_type,
    projectType2: a.project_type2,
    billingScheme: a.billing_scheme,
    address: a.address,
    lng: a.lng,
    lat: a.lat,
  };
}

export function createProjectService(db: Db) {
  async function tree(scope: Scope, rootId: number, levels?: AreaLevel[]): Promise<AreaTreeNode[]> {
    const rows = visibleAreas(await repo.listAreas(db, scope), scope).filter((r) => !levels || levels.includes(r.level as AreaLevel));
    const roots = buildTree(rows);
    if (rootId === -1) return roots;
    const find = (list: AreaTreeNode[]): AreaTreeNode | undefined => {
      for (const n of list) {
        if (n.id === rootId) return n;
        const hit = find(n.children);
        if (hit) return hit;
      }
      return undefined;
    };
    const hit = find(roots);
    if (!hit) throw notFound('区域');
    return [hit];
  }

  /** One area the scope may see, or 40400: another tenant's row does not exist for this user. */
  async function area(scope: Scope, id: number): Promise<AreaRow> {
    const row = await repo.findArea(db, scope, id);
    if (!row) throw notFound('区域');
    if (scope.projectIds) {
      const visible = visibleAreas(await repo.listAreas(db, scope), scope);
      if (!visible.some((a) => a.id === id)) throw notFound('区域');
    }
    return row;
  }

  async function project(scope: Scope, id: number): Promise<AreaRow> {
    const row = await area(scope, id);
    if (row.level !== 'project') throw notFound('项目');
    return row;
  }

  return {
    tree,
    area,
    project,

    async projectPage(scope: Scope, q: { pageNo: number; pageSize: number; name?: string; projectType?: string }) {
      const page = await paginate(repo.projectsQuery(db, scope, q), q, (b) => b.orderBy('sort_no').orderBy('id'));
      return { total: page.total, rows: page.rows.map(toProjectInfo) };
    },

    /** Device types a project's type implies (spec §6), until the device registry answers this. */
    deviceTypesOf(p: AreaRow) {
      return MENUS.filter((m) => m.parent === 'deviceTypes' && m.projectTypes?.includes(p.project_type ?? ''))
        .map((m) => ({ code: m.code, name: m.title }));
    },

    projectTypeName(code: string | null) {
      return PROJECT_TYPES.find((t) => t.code === code)?.name ?? null;
    },

    async createChildren(scope: Scope, input: { parentId: number | null; level: AreaLevel; name: string; qty: number; floorArea?: number | null } & Partial<Pick<ProjectInfo, 'projectType' | 'projectType2' | 'billingScheme' | 'address' | 'lng' | 'lat'>>) {
      let tenantId = scope.tenantId;
      if (input.parentId !== null) {
        const parent = await area(scope, input.parentId);
        if (CHILD_LEVEL[parent.level as AreaLevel] !== input.level) {
          throw invalid(`${parent.name} 下只能新建${levelLabel(CHILD_LEVEL[parent.level as AreaLevel])}`, ['level']);
        }
        tenantId = parent.tenant_id;
      } else {
        if (input.level !== 'region') throw invalid('顶层只能新建区域', ['level']);
        if (scope.projectIds) throw invalid('只有可访问全部项目的用户才能新建区域', ['parentId']);
      }
      const createdAt = Date.now();
      const rows = Array.from({ length: input.qty }, (_, i) => ({
        tenant_id: tenantId,
        parent_id: input.parentId,
        level: input.level,
        name: input.qty > 1 ? `${input.name}${i + 1}` : input.name,
        sort_no: i,
        floor_area: input.floorArea ?? null,
        project_type: input.level === 'project' ? input.projectType ?? null : null,
        project_type2: input.level === 'project' ? input.projectType2 ?? null : null,
        billing_scheme: input.level === 'project' ? input.billingScheme ?? null : null,
        address: input.address ?? null,
        lng: input.lng ?? null,
        lat: input.lat ?? null,
        alias: null,
        code: null,
        created_at: createdAt,
      }));
      const ids = await db.transaction().execute((trx) => repo.insertAreas(trx, rows));
      return ids.map((r) => r.id);
    },

    async update(scope: Scope, id: number, patch: { name?: string; floorArea?: number | null; projectType?: string | null; projectType2?: number | null; billingScheme?: number | null; address?: string | null; lng?: number | null; lat?: number | null }) {
      const row = await area(scope, id);
      await repo.updateArea(db, row.id, {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.floorArea !== undefined && { floor_area: patch.floorArea }),
        ...(row.level === 'project' && patch.projectType !== undefined && { project_type: patch.projectType }),
        ...(row.level === 'project' && patch.projectType2 !== undefined && { project_type2: patch.projectType2 }),
        ...(row.level === 'project' && patch.billingScheme !== undefined && { billing_scheme: patch.billingScheme }),
        ...(patch.address !== undefined && { address: patch.address }),
        ...(patch.lng !== undefined && { lng: patch.lng }),
        ...(patch.lat !== undefined && { lat: patch.lat }),
      });
      return toProjectInfo((await repo.findArea(db, scope, id))!);
    },

    async remove(scope: Scope, id: number) {
      const row = await area(scope, id);
      if ((await repo.countChildren(db, row.id)) > 0) throw conflict(`「${row.name}」下还有下级区域，不能删除`);
      await repo.deleteArea(db, row.id);
    },
  };
}

function levelLabel(level: AreaLevel | null) {
  return level ? AREA_LEVEL_LABELS[level] : '（无下级）';
}

export type ProjectService = ReturnType<typeof createProjectService>;
export { AREA_LEVELS };
