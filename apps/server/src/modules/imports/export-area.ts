import ExcelJS from 'exceljs';
import type { AreaLevel } from '@kelvin/contracts';
import type { Scope } from '../../lib/scope.ts';
import type { AreaRow } from '../projects/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { IMPORT_MODELS } from './models.ts';

const LEVEL_KEY: Record<AreaLevel, string> = { region: 'region', project: 'project', building: 'building', floor: 'floor', room: 'room' };

/** Extra sheets an export carries (the device domain adds its devices of the exported areas). */
export type AreaExportSheet = (scope: Scope, areaIds: number[]) => Promise<{ name: string; columns: string[]; rows: (string | number | null)[][] } | null>;

/**
 * exportArea (spec §7.2): the tree under an area as rows of the project import template (full paths from the
 * region, project details on the project's first row), so an export edited and imported again changes only what
 * was edited.
 */
export async function exportAreaTree(projects: ProjectService, scope: Scope, areaId: number, extraSheets: AreaExportSheet[]) {
  const root = await projects.area(scope, areaId);
  const all = await projects.visibleAreaRows(scope);
  const byId = new Map(all.map((a) => [a.id, a]));
  const children = new Map<number, AreaRow[]>();
  for (const a of all) if (a.parent_id !== null) children.set(a.parent_id, [...(children.get(a.parent_id) ?? []), a]);

  const ancestors: AreaRow[] = [];
  for (let cur = root.parent_id === null ? undefined : byId.get(root.parent_id); cur; cur = cur.parent_id === null ? undefined : byId.get(cur.parent_id)) ancestors.unshift(cur);

  const model = IMPORT_MODELS.project;
  const rows: Record<string, string | number | null>[] = [];
  const subtree: number[] = [];
  const projectDone = new Set<number>();
  const walk = (node: AreaRow, path: AreaRow[]) => {
    subtree.push(node.id);
    const here = [...path, node];
    const kids = children.get(node.id) ?? [];
    if (kids.length) {
      for (const k of kids) walk(k, here);
      return;
    }
    const row: Record<string, string | number | null> = {};
    for (const a of here) row[LEVEL_KEY[a.level as AreaLevel]] = a.name;
    const project = here.find((a) => a.level === 'project');
    if (project && !projectDone.has(project.id)) {
      projectDone.add(project.id);
      Object.assign(row, { projectType: project.project_type, address: project.address, lng: project.lng, lat: project.lat });
    }
    if (node.level === 'room') row.floorArea = node.floor_area;
    rows.push(row);
  };
  walk(root, ancestors);

  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('区域');
  sheet.columns = model.columns.map((c) => ({ header: c.required ? `${c.title}*` : c.title, key: c.key, width: Math.max(12, c.title.length * 2 + 6) }));
  sheet.getRow(1).font = { bold: true };
  for (const r of rows) sheet.addRow(r);
  for (const extra of extraSheets) {
    const s = await extra(scope, subtree);
    if (!s) continue;
    const ws = wb.addWorksheet(s.name);
    ws.addRow(s.columns).font = { bold: true };
    for (const r of s.rows) ws.addRow(r);
  }
  return { fileName: `${root.name}-区域导出.xlsx`, buffer: Buffer.from(await wb.xlsx.writeBuffer()), rows: rows.length };
}
