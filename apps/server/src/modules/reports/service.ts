import {
  DEVICE_TYPE_BY_CODE, ENERGY_COUNTERS, MENU_BY_CODE, menuFitsProject, periodRange, reportMenuCode,
  type PeriodPreset, type ReportDef, type ReportPage, type ReportQuery, type ReportRow,
} from '@kelvin/contracts';
import { changesOf, type Db } from '../../db/index.ts';
import { epochCache } from '../../lib/epoch-cache.ts';
import { forbidden, invalid, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/scope.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { loadPlaces } from './places.ts';
import { readProjectDevices, type ReportDevice } from './project-devices.ts';
import { cstDate, type ReportContext, type ReportFilters, type ReportQueryFn, type ReportSource, type SortSpec } from './source.ts';

const DAY = 86_400_000;
const CST = 8 * 3600_000;
/** the longest period a report answers (a year by day is 366 rows; by hour a month is 744) */
const MAX_RANGE = { hour: 31 * DAY, day: 2 * 366 * DAY, month: 5 * 366 * DAY } as const;

export interface PreparedReport {
  def: ReportDef;
  ctx: ReportContext;
  source: ReportSource;
  sort: SortSpec;
  applied: ReportPage['applied'];
}

/**
 * Any report of the registry: checks the caller's project (scope, 404 outside it) and the report's spec §6 rules for
 * that project, resolves the filters (a period preset when none was given, month/year to their range), then asks
 * the report's query for a source and answers a page, the totals, the chart and the notes.
 */
export interface ReportDeps {
  /** the database reports read (on SQLite the reader threads) */
  db: Db;
  /**
   * the main connection: what is cached by its change counters is read there (a reader thread could read before a
   * transaction in progress commits, after its counters already moved, and keep the old rows)
   */
  primaryDb: Db;
  core: DeviceCore;
  projects: ProjectService;
}

export function createReportService(deps: ReportDeps & { queries: ReadonlyMap<string, ReportQueryFn> }) {
  const { db, primaryDb, core, projects, queries } = deps;
  /**
   * Each project's devices with their locations, read once per change of the devices or areas (a 10,000-device
   * project's list and paths were read and built again by every report request, on the main thread).
   */
  const projectDevices = epochCache<string, readonly ReportDevice[]>(500);

  async function prepare(actor: Actor, def: ReportDef, q: Omit<ReportQuery, 'pageNo' | 'pageSize'>, now = Date.now()): Promise<PreparedReport> {
    const project = await projects.project(actor.scope, q.projectId);
    const menu = MENU_BY_CODE.get(reportMenuCode(def))!;
    if (!menuFitsProject(menu, { projectType: project.project_type, projectType2: project.project_type2, billingScheme: project.billing_scheme })) {
      throw forbidden(`项目「${project.name}」不提供${menu.title}`);
    }
    const query = queries.get(def.code);
    if (!query) throw notFound('报表');
    const places = await loadPlaces(primaryDb, project.tenant_id, project.id);
    const filters = resolveFilters(def, q, now);
    if (filters.areaId !== undefined && !places.has(filters.areaId)) throw invalid('所选楼栋不属于该项目', ['areaId']);
    for (const f of def.filters) {
      if (f.required && f.kind !== 'period' && f.kind !== 'month' && f.kind !== 'year' && (filters as unknown as Record<string, unknown>)[f.name] === undefined) {
        throw invalid(`请选择${f.label}`, [f.name]);
      }
    }
    const sort = sortOf(def, q.sortBy, q.sortOrder);
    const devices = () => projectDevices.get(`${project.tenant_id}:${project.id}`, changesOf(primaryDb).epoch(['device', 'area']), () => readProjectDevices(primaryDb, project, places));
    const ctx: ReportContext = { db, core, actor, def, project, filters, places, devices, now };
    const source = await query(ctx);
    const group = filters.groupId === undefined ? undefined
      : await db.selectFrom('device_group').select('name').where('id', '=', filters.groupId).where('project_id', '=', project.id).executeTakeFirst();
    if (filters.groupId !== undefined && !group) throw invalid('所选分组不属于该项目', ['groupId']);
    return { def, ctx, source, sort, applied: appliedFilters(def, filters, (id) => places.pathOf(id) || project.name, group?.name) };
  }

  return {
    prepare,
    async page(actor: Actor, def: ReportDef, q: ReportQuery): Promise<ReportPage> {
      const p = await prepare(actor, def, q);
      const [total, rows, totals, chart] = await Promise.all([
        p.source.count(), p.source.page((q.pageNo - 1) * q.pageSize, q.pageSize, p.sort), p.source.totals(), p.source.chart(),
      ]);
      return { total, rows, totals, chart, notes: p.source.notes, applied: p.applied };
    },
    /** every selected row in order, for export */
    rows: (p: PreparedReport): AsyncIterable<ReportRow> => p.source.all(p.sort),
  };
}

export type ReportService = ReturnType<typeof createReportService>;

function resolveFilters(def: ReportDef, q: Omit<ReportQuery, 'pageNo' | 'pageSize'>, now: number): ReportFilters {
  const { from: qFrom, to: qTo, ...rest } = q;
  const has = (kind: string) => def.filters.some((f) => f.kind === kind);
  let from = 0;
  let to = now;
  if (has('period')) {
    if (qFrom !== undefined || qTo !== undefined) {
      if (qFrom === undefined || qTo === undefined) throw invalid('请选择完整的起止时间', ['from']);
      if (qTo <= qFrom) throw invalid('结束时间必须晚于开始时间', ['to']);
      [from, to] = [qFrom, qTo];
    } else {
      const initial = (def.filters.find((f) => f.kind === 'period')?.initial ?? 'month') as Exclude<PeriodPreset, 'custom'>;
      [from, to] = periodRange(initial, now);
    }
  } else if (has('month')) {
    const [y, m] = (q.month ?? cstDate(now, true)).split('-').map(Number);
    [from, to] = [Date.UTC(y, m - 1, 1) - CST, Date.UTC(y, m, 1) - CST];
  } else if (has('year')) {
    const y = q.year ?? new Date(now + CST).getUTCFullYear();
    [from, to] = [Date.UTC(y, 0, 1) - CST, Date.UTC(y + 1, 0, 1) - CST];
    rest.year = y;
  }
  const grainFilter = def.filters.find((f) => f.kind === 'grain');
  const grain = grainFilter ? (q.grain ?? (grainFilter.initial as 'day' | 'month')) : q.grain;
  if (grain && to - from > MAX_RANGE[grain]) {
    throw invalid(grain === 'hour' ? '按小时统计最多 31 天，请缩短时间范围或改为按日' : grain === 'day' ? '按日统计最多两年，请缩短时间范围或改为按月' : '时间范围最多五年', ['from']);
  }
  const counterFilter = def.filters.find((f) => f.kind === 'counter');
  return { ...rest, from, to, grain, counter: counterFilter ? (q.counter ?? (counterFilter.initial as ReportFilters['counter'])) : q.counter };
}

function sortOf(def: ReportDef, sortBy: string | undefined, sortOrder: 'asc' | 'desc' | undefined): SortSpec {
  // without a default sort, rows come in the order the query made them (months of a year, buckets of a period)
  const fallback = def.defaultSort ?? { key: '', order: 'asc' as const };
  if (!sortBy) return fallback;
  const column = def.columns.find((c) => c.key === sortBy);
  if (!column || !(column.sortable || sortBy === fallback.key)) throw invalid(`不能按「${column?.label ?? sortBy}」排序`, ['sortBy']);
  return { key: sortBy, order: sortOrder ?? 'asc' };
}

/** The filters as words, for the print and export headers (and the screen's note of what is shown). */
function appliedFilters(def: ReportDef, f: ReportFilters, place: (id: number) => string, groupName?: string): ReportPage['applied'] {
  const out: ReportPage['applied'] = [];
  for (const filter of def.filters) {
    const value = (() => {
      switch (filter.kind) {
        case 'period': return `${cstDate(f.from)} 至 ${cstDate(f.to - 1)}`;
        case 'month': return cstDate(f.from, true);
        case 'year': return `${f.year} 年`;
        case 'grain': return filter.options?.find((o) => o.value === f.grain)?.label;
        case 'counter': return f.counter && `${ENERGY_COUNTERS[f.counter].label}（${ENERGY_COUNTERS[f.counter].unit}）`;
        case 'building': return f.areaId !== undefined ? place(f.areaId) : undefined;
        case 'deviceType': return f.deviceType && (DEVICE_TYPE_BY_CODE.get(f.deviceType)?.name ?? f.deviceType);
        case 'group': return groupName;
        default: {
          const v = (f as unknown as Record<string, string | undefined>)[filter.name];
          return v === undefined ? undefined : filter.options?.find((o) => o.value === v)?.label ?? v;
        }
      }
    })();
    if (value) out.push({ label: filter.label, value });
  }
  return out;
}
