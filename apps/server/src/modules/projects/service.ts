import {
  AREA_LEVEL_LABELS, AREA_LEVELS, PROJECT_TYPE2, DEVICE_TYPES, deviceTypesForProjectType, PROJECT_TYPES, PROJECT_MAP_STATUS_LABELS,
  type AreaDetail, type AreaLevel, type AreaMatch, type AreaPatchBody, type AreaSearchQuery, type AreaTreeNode, type ProjectCounts, type ProjectDetail,
  type ProjectInfo, type ProjectMapItem, type ProjectMapStatus,
} from '@kelvin/contracts';
import { changesOf, type Db } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { platformScope, scopeKey, type Scope } from '../../lib/scope.ts';
import { epochCache } from '../../lib/epoch-cache.ts';
import { prepareJson, type PreparedJson } from '../../lib/cached-json.ts';
import { paginate } from '../../lib/pagination.ts';
import * as repo from './repository.ts';
import type { AreaRow } from './repository.ts';

export const CHILD_LEVEL: Record<AreaLevel, AreaLevel | null> = {
  region: 'project',
  project: 'building',
  building: 'floor',
  floor: 'room',
  room: null,
};

/**
 * Something another domain keeps on an area (devices, billing accounts, files). An area that still holds any of
 * them cannot be deleted; each domain registers its own check so this module never reads their tables.
 */
export interface AreaHolding {
  /** unit and noun for the refusal message, e.g. '台设备' */
  what: string;
  count(areaId: number): Promise<number>;
}

/** One area an import creates; its parent is an existing id or another planned node's key. */
export interface PlannedArea {
  key: string;
  parent: { id: number } | { key: string } | null;
  level: AreaLevel;
  name: string;
  cols: Partial<Pick<AreaRow, 'floor_area' | 'project_type' | 'project_type2' | 'billing_scheme' | 'address' | 'lng' | 'lat'>>;
}
export interface TreeImportPlan {
  create: PlannedArea[];
  update: { id: number; cols: PlannedArea['cols'] }[];
}

/** Device and alarm figures per project, supplied by the device and monitoring domains once they exist. */
export type ProjectStatsSource = (projectIds: number[]) => Promise<Map<number, Partial<Pick<ProjectCounts, 'devices' | 'online' | 'alarmsToday'>>>>;

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

/**
 * The project fields, then the area's own added onto that fresh object: not `{ ...toProjectInfo(a), more }`, which V8
 * builds on a slow path (~1 µs per property after the spread here: 10 µs a row against 0.09 µs this way), and a page
 * of 20 projects was then most of the project list's time.
 */
export function toAreaDetail(a: AreaRow): AreaDetail {
  return Object.assign(toProjectInfo(a), {
    parentId: a.parent_id,
    level: a.level as AreaLevel,
    floorArea: a.floor_area,
    contact: a.contact,
    phone: a.phone,
    remark: a.remark,
  });
}

/**
 * Names for `qty` siblings: a trailing number counts on with its width kept ("101" × 3 → 101, 102, 103;
 * "B01" → B01, B02 …), otherwise 1…qty is appended ("楼层" × 3 → 楼层1 … 楼层3).
 */
export function sequenceNames(name: string, qty: number): string[] {
  if (qty === 1) return [name];
  const m = /^(.*?)(\d+)$/.exec(name);
  if (!m) return Array.from({ length: qty }, (_, i) => `${name}${i + 1}`);
  const [, prefix, digits] = m;
  return Array.from({ length: qty }, (_, i) => `${prefix}${String(Number(digits) + i).padStart(digits.length, '0')}`);
}

export const levelLabel = (level: AreaLevel | null) => (level ? AREA_LEVEL_LABELS[level] : '（无下级）');

type AreaFields = Omit<AreaPatchBody, 'tenantId'>;

/** A patch → the area columns it changes (project fields only on projects; empty strings clear). */
function toColumns(level: AreaLevel, p: AreaFields) {
  const isProject = level === 'project';
  return {
    ...(p.name !== undefined && { name: p.name }),
    ...(p.floorArea !== undefined && { floor_area: p.floorArea }),
    ...(isProject && p.projectType !== undefined && { project_type: p.projectType }),
    ...(isProject && p.projectType2 !== undefined && { project_type2: p.projectType2 }),
    ...(isProject && p.billingScheme !== undefined && { billing_scheme: p.billingScheme }),
    ...(p.address !== undefined && { address: p.address || null }),
    ...(p.lng !== undefined && { lng: p.lng }),
    ...(p.lat !== undefined && { lat: p.lat }),
    ...(p.contact !== undefined && { contact: p.contact || null }),
    ...(p.phone !== undefined && { phone: p.phone || null }),
    ...(p.remark !== undefined && { remark: p.remark || null }),
  };
}

/** Rules that depend on the level, checked against the values the row will have after the change. */
function checkLevelFields(level: AreaLevel, p: AreaFields, current?: AreaRow) {
  if (p.floorArea != null && level !== 'room') throw invalid('只有房间可以填写面积', ['floorArea']);
  const lng = p.lng !== undefined ? p.lng : (current?.lng ?? null);
  const lat = p.lat !== undefined ? p.lat : (current?.lat ?? null);
  if ((lng === null) !== (lat === null)) throw invalid('经度和纬度需同时填写', [lng === null ? 'lng' : 'lat']);
}

export function mapStatus(c: ProjectCounts): ProjectMapStatus {
  if (c.devices === null) return 'unknown';
  if (c.devices === 0) return 'empty';
  if ((c.alarmsToday ?? 0) > 0) return 'alarm';
  if (c.online === 0) return 'offline';
  return 'normal';
}

/** What one scope sees of the area tree, built once per change of the area table (frozen: callers share it). */
interface VisibleAreas {
  rows: readonly AreaRow[];
  ids: ReadonlySet<number>;
  byId: ReadonlyMap<number, AreaRow>;
  /** building / floor / room of an area, filled as asked */
  paths: Map<number, string>;
  /** the whole tree, and each node of it by id */
  roots: readonly AreaTreeNode[];
  nodes: ReadonlyMap<number, AreaTreeNode>;
  /** the region/project tree (treeonlyproject) */
  projectRoots: readonly AreaTreeNode[];
  projectNodes: ReadonlyMap<number, AreaTreeNode>;
  /** every area below a node (-1: all) in tree order with its path from there, filled as searched */
  below: Map<number, readonly FoundArea[]>;
}
interface FoundArea { node: AreaTreeNode; path: string; lower: string }

/** `roots` and everything below them in tree order, each with its path from the roots' level (a root: its own name). */
function flatten(roots: readonly AreaTreeNode[], topIsRoot: boolean): FoundArea[] {
  const out: FoundArea[] = [];
  const visit = (n: AreaTreeNode, path: string) => {
    out.push({ node: n, path, lower: path.toLowerCase() });
    for (const c of n.children) visit(c, topIsRoot && n === roots[0] ? c.label : `${path} / ${c.label}`);
  };
  for (const r of roots) visit(r, r.label);
  return out;
}

function indexNodes(roots: AreaTreeNode[], out = new Map<number, AreaTreeNode>()): Map<number, AreaTreeNode> {
  for (const n of roots) {
    out.set(n.id, n);
    indexNodes(n.children, out);
    Object.freeze(n.children);
    Object.freeze(n);
  }
  return out;
}

/**
 * A copy of `node` down to `depth` levels below it: a node whose children are left out says how many it has. A tenant
 * of 58,000 areas is a 5 MB tree; the area screen loads it level by level as the operator opens nodes.
 */
function cutTree(node: AreaTreeNode, depth: number): AreaTreeNode {
  if (depth > 0) return { ...node, children: node.children.map((c) => cutTree(c, depth - 1)) };
  return node.children.length ? { ...node, children: [], childCount: node.children.length } : node;
}

function visibleOf(all: AreaRow[], scope: Scope): VisibleAreas {
  const rows = visibleAreas(all, scope);
  rows.forEach((r) => Object.freeze(r));
  const roots = buildTree(rows);
  const projectRoots = buildTree(rows.filter((r) => r.level === 'region' || r.level === 'project'));
  return {
    rows: Object.freeze(rows), ids: new Set(rows.map((r) => r.id)), byId: new Map(rows.map((r) => [r.id, r])), paths: new Map(),
    roots: Object.freeze(roots), nodes: indexNodes(roots),
    projectRoots: Object.freeze(projectRoots), projectNodes: indexNodes(projectRoots), below: new Map(),
  };
}

/** building / floor / room of an area: the names below its project, '' for a project or region. */
function pathOf(visible: VisibleAreas, areaId: number): string {
  let path = visible.paths.get(areaId);
  if (path === undefined) {
    const names: string[] = [];
    let cur = visible.byId.get(areaId);
    while (cur && cur.level !== 'project' && cur.level !== 'region') {
      names.unshift(cur.name);
      cur = cur.parent_id === null ? undefined : visible.byId.get(cur.parent_id);
    }
    path = names.join(' / ');
    visible.paths.set(areaId, path);
  }
  return path;
}

/** scopes kept per process (a scope is a tenant, or a user limited to some projects) */
const AREA_CACHE_MAX = 500;
/** answers for opened tree nodes kept per process */
const OPENED_NODES_MAX = 5_000;
/** area rows kept by id (a full cache is emptied and refilled as asked) */
const AREA_ROWS_MAX = 20_000;

export function createProjectService(db: Db) {
  const holdings: AreaHolding[] = [];
  const statsSources: ProjectStatsSource[] = [];
  const changes = changesOf(db);
  /**
   * The areas of each scope, read from the database once per change of the area table: every device list, detail and
   * tree names its buildings, floors and rooms from here (58,000 areas take ~0.2 s to read and arrange).
   */
  const areaCache = epochCache<string, VisibleAreas>(AREA_CACHE_MAX);

  function visibleTo(scope: Scope): Promise<VisibleAreas> {
    return areaCache.get(scopeKey(scope), changes.epoch(['area']), async () => visibleOf(await repo.listAreas(db, scope), scope));
  }

  /** The tree endpoints' answers, serialized and compressed once per change of the areas (a large tenant's is megabytes). */
  const treeAnswers = epochCache<string, PreparedJson>(AREA_CACHE_MAX);
  /** one node's few levels, as a screen opens it (kept apart: opening many nodes must not push the big trees out) */
  const openedNodeAnswers = epochCache<string, PreparedJson>(OPENED_NODES_MAX);
  const projectPages = epochCache<string, { total: number; rows: AreaRow[] }>(AREA_CACHE_MAX);

  /**
   * The scope's area tree, or only its regions and projects (treeonlyproject): whole (-1) or from one of its nodes,
   * `depth` levels below those (all without it).
   */
  async function tree(scope: Scope, rootId: number, projectsOnly = false, depth?: number): Promise<AreaTreeNode[]> {
    const visible = await visibleTo(scope);
    const [roots, nodes] = projectsOnly ? [visible.projectRoots, visible.projectNodes] : [visible.roots, visible.nodes];
    let top: readonly AreaTreeNode[];
    if (rootId === -1) top = roots;
    else {
      const hit = nodes.get(rootId);
      if (!hit) throw notFound('区域');
      top = [hit];
    }
    return depth === undefined ? [...top] : top.map((n) => cutTree(n, depth));
  }

  /**
   * Areas below `rootId` (-1: all the scope sees) whose path holds every word of the keyword, in tree order, or the
   * asked ids that lie there. From the cached areas, no query: ids by their parent chain, words over the node's flat
   * path list (`below`).
   */
  async function search(scope: Scope, q: AreaSearchQuery): Promise<{ total: number; rows: AreaMatch[] }> {
    const visible = await visibleTo(scope);
    const root = q.rootId === -1 ? null : visible.nodes.get(q.rootId);
    if (root === undefined) throw notFound('区域');
    const levels = q.levels && new Set(q.levels);
    const match = (n: AreaTreeNode, path: string): AreaMatch => ({
      id: n.id, label: n.label, level: n.level, parentId: visible.byId.get(n.id)!.parent_id, path, childCount: n.children.length,
    });
    const rows: AreaMatch[] = [];
    let total = 0;
    if (q.ids) {
      for (const id of new Set(q.ids)) {
        const names: string[] = [];
        let cur = visible.byId.get(id);
        while (cur && cur.id !== root?.id) {
          names.unshift(cur.name);
          cur = cur.parent_id === null ? undefined : visible.byId.get(cur.parent_id);
        }
        // found below the root (or it is the root), and of an asked level
        const node = visible.nodes.get(id);
        if (!node || (root ? cur?.id !== root.id : false) || (levels && !levels.has(node.level))) continue;
        total++;
        if (rows.length < q.limit) rows.push(match(node, node === root ? node.label : names.join(' / ')));
      }
      return { total, rows };
    }
    const words = q.keyword!.toLowerCase().split(/\s+/).filter(Boolean);
    // the flat list with paths is made once per node searched and change of the areas: a 10,000-room project's walk
    // with its path strings was ~2 ms a search, now a scan of lowercase paths
    let below = visible.below.get(q.rootId);
    if (!below) visible.below.set(q.rootId, (below = root ? flatten([root], true) : flatten(visible.roots, false)));
    for (const { node, path, lower } of below) {
      if ((levels && !levels.has(node.level)) || !words.every((w) => lower.includes(w))) continue;
      total++;
      if (rows.length < q.limit) rows.push(match(node, path));
    }
    return { total, rows };
  }

  /**
   * Area rows by id, each read once per change of the area table (frozen: callers share them). Nearly every call of
   * every screen checks its project here first; this was a query on the main connection each time.
   */
  const areaRows = epochCache<number, AreaRow | undefined>(AREA_ROWS_MAX);

  /** One area the scope may see, or 40400: another tenant's row does not exist for this user. */
  async function area(scope: Scope, id: number): Promise<AreaRow> {
    const row = await areaRows.get(id, changes.epoch(['area']), async () => {
      const found = await repo.findArea(db, platformScope, id);
      return found && Object.freeze(found);
    });
    if (!row || (!scope.isPlatform && row.tenant_id !== scope.tenantId)) throw notFound('区域');
    if (scope.projectIds && !(await visibleTo(scope)).ids.has(id)) throw notFound('区域');
    return row;
  }

  async function project(scope: Scope, id: number): Promise<AreaRow> {
    const row = await area(scope, id);
    if (row.level !== 'project') throw notFound('项目');
    return row;
  }

  /** The project an area belongs to (the area itself when it is one); regions belong to none. */
  async function projectOf(scope: Scope, areaId: number): Promise<AreaRow> {
    let row = await area(scope, areaId);
    while (row.level !== 'project') {
      if (row.parent_id === null || row.level === 'region') throw invalid('该区域不属于任何项目', ['areaId']);
      row = await area(scope, row.parent_id);
    }
    return row;
  }

  async function ensureUniqueNames(tenantId: number, parentId: number | null, names: string[], level: AreaLevel, exceptId?: number) {
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) throw conflict(`名称「${dup}」重复`);
    const taken = await repo.siblingNames(db, tenantId, parentId, names, exceptId);
    if (taken.length) throw conflict(`同一上级下已有名为「${taken[0]}」的${levelLabel(level)}`);
  }

  /** Device/alarm figures merged from every registered source; null where no source answers. */
  /** buildings, floors, rooms and room area of projects: they change only with the areas */
  const structures = epochCache<string, Awaited<ReturnType<typeof repo.structureCounts>>>(AREA_CACHE_MAX);

  async function countsOf(projectIds: number[]): Promise<Map<number, ProjectCounts>> {
    const structure = await structures.get(projectIds.join(','), changes.epoch(['area']), () => repo.structureCounts(db, projectIds));
    const stats = await Promise.all(statsSources.map((s) => s(projectIds)));
    const out = new Map<number, ProjectCounts>();
    for (const id of projectIds) {
      const { buildings, floors, rooms, floorArea } = structure.get(id)!;
      const c: ProjectCounts = { buildings, floors, rooms, floorArea, devices: null, online: null, onlineRate: null, alarmsToday: null };
      for (const s of stats) Object.assign(c, s.get(id) ?? {});
      if (c.devices !== null && c.online !== null) c.onlineRate = c.devices ? Math.round((c.online / c.devices) * 1000) / 10 : 0;
      out.set(id, c);
    }
    return out;
  }

  async function createChildren(scope: Scope, input: { parentId: number | null; level: AreaLevel; name: string; qty: number } & AreaFields) {
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
    // A user limited to granted projects would not see a project they create.
    if (input.level === 'project' && scope.projectIds) throw invalid('只有可访问全部项目的用户才能新建项目', ['parentId']);
    if (input.level === 'project' && !input.projectType) throw invalid('请选择项目类型', ['projectType']);
    checkLevelFields(input.level, input);
    const names = sequenceNames(input.name, input.qty);
    const tooLong = names.find((n) => n.length > 50);
    if (tooLong) throw invalid(`名称「${tooLong}」超过 50 个字符`, ['name']);
    await ensureUniqueNames(tenantId, input.parentId, names, input.level);
    const createdAt = Date.now();
    const cols = toColumns(input.level, input);
    const rows = names.map((name, i) => ({
      tenant_id: tenantId,
      parent_id: input.parentId,
      level: input.level,
      code: null,
      sort_no: i,
      floor_area: null,
      project_type: null,
      project_type2: null,
      billing_scheme: null,
      address: null,
      lng: null,
      lat: null,
      alias: null,
      created_at: createdAt,
      ...cols,
      name,
    }));
    const ids = await db.transaction().execute((trx) => repo.insertAreas(trx, rows));
    return ids.map((r) => r.id);
  }

  async function update(scope: Scope, id: number, patch: AreaFields) {
    const row = await area(scope, id);
    const level = row.level as AreaLevel;
    checkLevelFields(level, patch, row);
    if (level === 'project' && patch.projectType === null) throw invalid('请选择项目类型', ['projectType']);
    if (patch.name !== undefined && patch.name !== row.name) await ensureUniqueNames(row.tenant_id, row.parent_id, [patch.name], level, row.id);
    const cols = toColumns(level, patch);
    if (Object.keys(cols).length) await repo.updateArea(db, row.id, cols);
    return toAreaDetail((await repo.findArea(db, scope, id))!);
  }

  /** The new parent of `row` if the move is allowed: same tenant, the level right above, no name clash there. */
  async function moveTarget(scope: Scope, row: AreaRow, parentId: number): Promise<AreaRow> {
    const level = row.level as AreaLevel;
    if (level === 'region') throw invalid('区域是顶层节点，不能移动', ['parentId']);
    if (parentId === row.id) throw invalid('不能移动到自身下', ['parentId']);
    const parent = await area(scope, parentId);
    if (parent.tenant_id !== row.tenant_id) throw invalid('只能在同一租户内移动', ['parentId']);
    if (CHILD_LEVEL[parent.level as AreaLevel] !== level) {
      const want = AREA_LEVELS.find((l) => CHILD_LEVEL[l] === level)!;
      throw invalid(`${levelLabel(level)}只能移动到${levelLabel(want)}下`, ['parentId']);
    }
    return parent;
  }

  async function move(scope: Scope, id: number, parentId: number) {
    const row = await area(scope, id);
    const parent = await moveTarget(scope, row, parentId);
    if (parent.id === row.parent_id) return toAreaDetail(row);
    await ensureUniqueNames(row.tenant_id, parent.id, [row.name], row.level as AreaLevel, row.id);
    await repo.updateArea(db, row.id, { parent_id: parent.id });
    return toAreaDetail((await repo.findArea(db, scope, id))!);
  }

  /** projectedit: the fields and, when the region changes, the move, checked first and written together. */
  async function updateProject(scope: Scope, id: number, body: AreaFields & { regionId: number }) {
    const p = await project(scope, id);
    const parentId = body.regionId === p.parent_id ? p.parent_id : (await moveTarget(scope, p, body.regionId)).id;
    const name = body.name ?? p.name;
    checkLevelFields('project', body, p);
    if (name !== p.name || parentId !== p.parent_id) await ensureUniqueNames(p.tenant_id, parentId, [name], 'project', p.id);
    await repo.updateArea(db, p.id, { ...toColumns('project', body), parent_id: parentId });
    return toAreaDetail((await repo.findArea(db, scope, id))!);
  }

  async function remove(scope: Scope, id: number) {
    const row = await area(scope, id);
    const children = await repo.countChildren(db, row.id);
    if (children > 0) throw conflict(`「${row.name}」下还有 ${children} 个下级区域，不能删除`);
    for (const h of holdings) {
      const n = await h.count(row.id);
      if (n > 0) throw conflict(`「${row.name}」下还有 ${n} ${h.what}，请先移走或删除后再删除`);
    }
    await repo.deleteArea(db, row.id);
  }

  /**
   * Writes an import plan in one transaction, level by level: each level's new rows are inserted in chunks and read
   * back by (parent, name) so the next level can point at them. All or nothing.
   */
  async function applyTreeImport(tenantId: number, plan: TreeImportPlan) {
    const ids = new Map<string, number>();
    const createdAt = Date.now();
    const created: Record<string, number> = {};
    await db.transaction().execute(async (trx) => {
      for (const level of AREA_LEVELS) {
        const nodes = plan.create.filter((n) => n.level === level);
        if (!nodes.length) continue;
        created[level] = nodes.length;
        const parentOf = (n: PlannedArea) => (n.parent === null ? null : 'id' in n.parent ? n.parent.id : ids.get(n.parent.key)!);
        const rows = nodes.map((n, i) => ({
          tenant_id: tenantId, parent_id: parentOf(n), level, name: n.name, code: null, sort_no: i,
          floor_area: null, project_type: null, project_type2: null, billing_scheme: null, address: null, lng: null, lat: null, alias: null,
          created_at: createdAt, ...n.cols,
        }));
        for (let i = 0; i < rows.length; i += 500) await trx.insertInto('area').values(rows.slice(i, i + 500)).execute();
        const parents = [...new Set(rows.map((r) => r.parent_id))];
        const back = new Map<string, number>();
        const nonNull = parents.filter((p): p is number => p !== null);
        for (let i = 0; i < nonNull.length; i += 1000) {
          const got = await trx.selectFrom('area').select(['id', 'parent_id', 'name']).where('tenant_id', '=', tenantId)
            .where('level', '=', level).where('parent_id', 'in', nonNull.slice(i, i + 1000)).execute();
          for (const g of got) back.set(`${g.parent_id}\u0001${g.name}`, g.id);
        }
        if (parents.includes(null)) {
          const got = await trx.selectFrom('area').select(['id', 'name']).where('tenant_id', '=', tenantId).where('level', '=', level).where('parent_id', 'is', null).execute();
          for (const g of got) back.set(`null\u0001${g.name}`, g.id);
        }
        nodes.forEach((n, i) => ids.set(n.key, back.get(`${rows[i].parent_id}\u0001${n.name}`)!));
      }
      for (const u of plan.update) await trx.updateTable('area').set(u.cols).where('id', '=', u.id).where('tenant_id', '=', tenantId).execute();
    });
    return { created, updated: plan.update.length };
  }

  return {
    tree,
    search,
    /** `tree` as its prepared answer (lib/cached-json.ts) */
    treeAnswer(scope: Scope, rootId: number, projectsOnly = false, depth?: number): Promise<PreparedJson> {
      const key = `${scopeKey(scope)}|${rootId}|${projectsOnly}|${depth ?? ''}`;
      const cache = rootId !== -1 && depth !== undefined ? openedNodeAnswers : treeAnswers;
      return cache.get(key, changes.epoch(['area']), async () => prepareJson(await tree(scope, rootId, projectsOnly, depth)));
    },
    area,
    project,
    applyTreeImport,
    projectOf,
    /** Where each area is, as 楼栋 / 楼层 / 房间 names ('' for an area the scope cannot see, a project or none). */
    async areaPaths(scope: Scope, areaIds: readonly (number | null)[]): Promise<Map<number | null, string>> {
      const visible = await visibleTo(scope);
      const out = new Map<number | null, string>([[null, '']]);
      for (const id of areaIds) if (id !== null && !out.has(id)) out.set(id, pathOf(visible, id));
      return out;
    },
    /** Every area the scope may see (imports and exports match names against it). */
    async visibleAreaRows(scope: Scope): Promise<AreaRow[]> {
      return [...(await visibleTo(scope)).rows];
    },
    createChildren,
    update,
    move,
    updateProject,
    remove,
    countsOf,

    /** Other domains declare what they keep on areas (see AreaHolding). */
    /** A project's name whatever the caller: for what the system itself sends (SMS, notices). */
    async projectName(id: number): Promise<string> {
      return (await db.selectFrom('area').select('name').where('id', '=', id).executeTakeFirst())?.name ?? '';
    },

    registerHolding(h: AreaHolding) {
      holdings.push(h);
    },
    registerStats(source: ProjectStatsSource) {
      statsSources.push(source);
    },

    /** Projects visible to the scope (for other domains and the map). */
    async visibleProjects(scope: Scope): Promise<AreaRow[]> {
      return repo.sortAreas(await repo.projectsQuery(db, scope, {}).execute());
    },

    async projectPage(scope: Scope, q: { pageNo: number; pageSize: number; name?: string; projectType?: string }) {
      // a page of projects changes only with the areas
      const page = await projectPages.get(JSON.stringify([scopeKey(scope), q]), changes.epoch(['area']),
        () => paginate(repo.projectsQuery(db, scope, q), q, (b) => b.orderBy('sort_no').orderBy('id')));
      const counts = await countsOf(page.rows.map((r) => r.id));
      return {
        total: page.total,
        rows: page.rows.map((r) => Object.assign(toAreaDetail(r), { projectTypeName: projectTypeName(r.project_type), counts: counts.get(r.id)! })),
      };
    },

    async projectDetail(scope: Scope, id: number): Promise<ProjectDetail> {
      const p = await project(scope, id);
      const region = p.parent_id === null ? undefined : await repo.findArea(db, scope, p.parent_id);
      return {
        ...toAreaDetail(p),
        projectTypeName: projectTypeName(p.project_type),
        projectType2Name: PROJECT_TYPE2.find((t) => t.code === p.project_type2)?.name ?? null,
        regionName: region?.name ?? null,
        counts: (await countsOf([p.id])).get(p.id)!,
      };
    },

    /** projectindex: every visible project as a marker (projects without coordinates are listed, not placed). */
    async projectMap(scope: Scope): Promise<{ items: ProjectMapItem[]; statusLabels: typeof PROJECT_MAP_STATUS_LABELS }> {
      const rows = repo.sortAreas(await repo.projectsQuery(db, scope, {}).execute());
      const counts = await countsOf(rows.map((r) => r.id));
      const items = rows.map((r) => {
        const c = counts.get(r.id)!;
        return { id: r.id, name: r.name, alias: r.alias, projectType: r.project_type, address: r.address, lng: r.lng, lat: r.lat, status: mapStatus(c), counts: c };
      });
      return { items, statusLabels: PROJECT_MAP_STATUS_LABELS };
    },

    /**
     * The billing scheme of a project as the project row keeps it (project cards, menus). Billing calls these when a
     * tariff version takes effect; they act on a project the caller was already checked for.
     */
    async billingScheme(projectId: number): Promise<number | null> {
      return (await db.selectFrom('area').select('billing_scheme').where('id', '=', projectId).where('level', '=', 'project').executeTakeFirst())?.billing_scheme ?? null;
    },
    async setBillingScheme(projectId: number, scheme: number) {
      await db.updateTable('area').set({ billing_scheme: scheme }).where('id', '=', projectId).where('level', '=', 'project').execute();
    },

    async setAlias(scope: Scope, id: number, alias: string) {
      const p = await project(scope, id);
      await repo.updateArea(db, p.id, { alias: alias || null });
      return { projectId: p.id, alias: alias || null };
    },

    /** Device types a project's type uses (spec §6, design §8): the device registry's answer, gateways included. */
    /** The device types a project plans (its project type) or holds: the per-project menu check of spec §6 reads these. */
    async deviceTypesOf(p: AreaRow) {
      const held = await db.selectFrom('device').select('device_type').distinct().where('project_id', '=', p.id).execute();
      const codes = new Set([...deviceTypesForProjectType(p.project_type).map((t) => t.code), ...held.map((r) => r.device_type)]);
      return DEVICE_TYPES.filter((t) => codes.has(t.code)).map((t) => ({ code: t.code, name: t.name, category: t.category }));
    },

    projectTypeName,
  };
}

function projectTypeName(code: string | null) {
  return PROJECT_TYPES.find((t) => t.code === code)?.name ?? null;
}

export type ProjectService = ReturnType<typeof createProjectService>;
export { AREA_LEVELS };
