import { PROJECT_TYPES, type AreaLevel, type ImportResult } from '@kelvin/contracts';
import { invalid } from '../../lib/errors.ts';
import type { Scope } from '../../lib/scope.ts';
import type { AreaRow } from '../projects/index.ts';
import type { PlannedArea, ProjectService, TreeImportPlan } from '../projects/index.ts';
import { IMPORT_MODELS } from './models.ts';
import { RowErrors, numberCell, type SheetRow } from './excel-io.ts';

const SEP = '\u0001';
const PATH: { key: 'region' | 'project' | 'building' | 'floor' | 'room'; level: AreaLevel }[] = [
  { key: 'region', level: 'region' },
  { key: 'project', level: 'project' },
  { key: 'building', level: 'building' },
  { key: 'floor', level: 'floor' },
  { key: 'room', level: 'room' },
];
const title = (key: string) => IMPORT_MODELS.project.columns.find((c) => c.key === key)!.title;

/** Path keys (region␁project␁…) of every visible area, for matching the file's names against the tree. */
export function areaPaths(rows: AreaRow[]): Map<string, AreaRow> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keyOf = new Map<number, string | null>();
  const resolve = (r: AreaRow): string | null => {
    if (keyOf.has(r.id)) return keyOf.get(r.id)!;
    let key: string | null = null;
    if (r.parent_id === null) key = r.level === 'region' ? r.name : null;
    else {
      const parent = byId.get(r.parent_id);
      const pk = parent ? resolve(parent) : null;
      key = pk === null ? null : `${pk}${SEP}${r.name}`;
    }
    keyOf.set(r.id, key);
    return key;
  };
  const out = new Map<string, AreaRow>();
  for (const r of rows) {
    const key = resolve(r);
    if (key !== null && !out.has(key)) out.set(key, r);
  }
  return out;
}

function projectTypeOf(v: string): string | null {
  const t = PROJECT_TYPES.find((p) => p.code.toLowerCase() === v.toLowerCase() || p.name === v);
  return t?.code ?? null;
}

type ProjectAttr = 'project_type' | 'address' | 'lng' | 'lat';

/**
 * projectimport (spec §7.2): every row is a path region → project → building → floor → room. Existing areas are
 * matched by name and reused, missing ones are created, a room's area is set; the project's type, address and
 * coordinates may be given on any of its rows but must agree. Every row is checked before anything is written.
 */
export async function importProjectTree(projects: ProjectService, scope: Scope, rows: SheetRow[]): Promise<ImportResult> {
  if (scope.isPlatform) throw invalid('平台管理员不属于任何租户，请使用租户账号导入', ['file']);
  const existing = areaPaths(await projects.visibleAreaRows(scope));
  const errors = new RowErrors();
  const planned = new Map<string, PlannedArea & { row: number }>();
  const updates = new Map<number, PlannedArea['cols']>();
  const roomRows = new Map<string, number>();
  const projectAttrs = new Map<string, Partial<Record<ProjectAttr, { value: string | number; row: number }>>>();

  for (const { row, values: v } of rows) {
    const before = errors.list.length;
    const err = (key: string | null, msg: string) => errors.add(row, key ? title(key) : null, msg);
    if (!v.region) err('region', '请填写区域');
    if (!v.project) err('project', '请填写项目');
    for (const p of PATH) if (v[p.key].length > 50) err(p.key, '名称最多 50 个字符');
    if (v.floor && !v.building) err('building', '填了楼层时必须填写楼栋');
    if (v.room && !v.floor) err('floor', '填了房间时必须填写楼层');
    const area = numberCell(v.floorArea);
    if (area !== null) {
      if (!v.room) err('floorArea', '只有房间可以填写面积');
      else if (Number.isNaN(area) || area <= 0 || area > 1e6) err('floorArea', '面积必须是大于 0 且不超过 1000000 的数字');
    }
    const type = v.projectType ? projectTypeOf(v.projectType) : null;
    if (v.projectType && !type) err('projectType', `项目类型「${v.projectType}」不存在`);
    const lng = numberCell(v.lng);
    const lat = numberCell(v.lat);
    if (lng !== null && (Number.isNaN(lng) || lng < -180 || lng > 180)) err('lng', '经度必须是 -180～180 的数字');
    if (lat !== null && (Number.isNaN(lat) || lat < -90 || lat > 90)) err('lat', '纬度必须是 -90～90 的数字');
    if ((lng === null) !== (lat === null)) err(lng === null ? 'lng' : 'lat', '经度和纬度需同时填写');
    if (v.address.length > 200) err('address', '地址最多 200 个字符');
    if (errors.list.length > before) continue;

    // Walk the path: reuse what exists (in the database or earlier in the file), plan the rest.
    let parentKey: string | null = null;
    let parentRef: PlannedArea['parent'] = null;
    for (const p of PATH) {
      const name = v[p.key];
      if (!name) break;
      const key: string = parentKey === null ? name : `${parentKey}${SEP}${name}`;
      const found = existing.get(key);
      if (found) {
        if (found.level !== p.level) {
          err(p.key, `「${name}」已存在但不是${title(p.key)}`);
          break;
        }
        parentRef = { id: found.id };
      } else {
        if (!planned.has(key)) {
          if (scope.projectIds && (p.level === 'region' || p.level === 'project')) {
            err(p.key, `无权新建${title(p.key)}「${name}」（只有可访问全部项目的用户才能新建）`);
            break;
          }
          planned.set(key, { key, parent: parentRef, level: p.level, name, cols: {}, row });
        }
        parentRef = { key };
      }
      parentKey = key;
    }
    if (errors.list.length > before) continue;

    if (v.room) {
      const key = [v.region, v.project, v.building, v.floor, v.room].join(SEP);
      const first = roomRows.get(key);
      if (first !== undefined) err('room', `与第 ${first} 行重复`);
      roomRows.set(key, row);
      if (area !== null) {
        const room = existing.get(key);
        if (room && room.floor_area !== area) updates.set(room.id, { floor_area: area });
        else if (!room) planned.get(key)!.cols.floor_area = area;
      }
    }

    const projectKey = `${v.region}${SEP}${v.project}`;
    const attrs = projectAttrs.get(projectKey) ?? {};
    projectAttrs.set(projectKey, attrs);
    const given: [ProjectAttr, string | number | null, string][] = [['project_type', type, 'projectType'], ['address', v.address || null, 'address'], ['lng', lng, 'lng'], ['lat', lat, 'lat']];
    for (const [attr, value, key] of given) {
      if (value === null) continue;
      const seen = attrs[attr];
      if (seen && seen.value !== value) err(key, `与第 ${seen.row} 行填写的${title(key)}「${seen.value}」不一致`);
      else if (!seen) attrs[attr] = { value, row };
    }
  }

  for (const [key, attrs] of projectAttrs) {
    const current = existing.get(key);
    const cols: PlannedArea['cols'] = {};
    for (const [attr, seen] of Object.entries(attrs) as [ProjectAttr, { value: string | number; row: number }][]) {
      if (current && attr === 'project_type' && current.project_type !== seen.value) {
        errors.add(seen.row, title('projectType'), `项目「${current.name}」已存在，项目类型为 ${current.project_type ?? '未设置'}，与本行不一致`);
      } else if (!current || current[attr] !== seen.value) (cols as Record<string, unknown>)[attr] = seen.value;
    }
    const plannedProject = planned.get(key);
    if (plannedProject) {
      if (!attrs.project_type) errors.add(plannedProject.row, title('projectType'), `新项目「${plannedProject.name}」需填写项目类型`);
      Object.assign(plannedProject.cols, cols);
    } else if (current && Object.keys(cols).length) updates.set(current.id, { ...updates.get(current.id), ...cols });
  }

  if (errors.any) errors.fail(rows.length);
  const plan: TreeImportPlan = { create: [...planned.values()], update: [...updates].map(([id, cols]) => ({ id, cols })) };
  const result = await projects.applyTreeImport(scope.tenantId, plan);
  return { rows: rows.length, ...result };
}
