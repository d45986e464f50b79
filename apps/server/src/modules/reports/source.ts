import type { ReportChartData, ReportDef, ReportQuery, ReportRow } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { Actor } from '../../lib/scope.ts';
import type { AreaRow } from '../projects/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectPlaces } from './places.ts';
import type { ReportDevice } from './project-devices.ts';

/** The filters of a request after the service resolved them: a period is always [from, to) in ms. */
export interface ReportFilters extends Omit<ReportQuery, 'pageNo' | 'pageSize' | 'from' | 'to'> {
  from: number;
  to: number;
}

/** What a report query is given: the caller, the project (already checked against the caller's scope and §6 rules). */
export interface ReportContext {
  db: Db;
  core: DeviceCore;
  actor: Actor;
  def: ReportDef;
  project: AreaRow;
  filters: ReportFilters;
  /** the project's areas: names, paths and subtrees (for locations and the building filter) */
  places: ProjectPlaces;
  /** every device of the project with its location, in id order (cached: filter, never change) */
  devices(): Promise<readonly ReportDevice[]>;
  now: number;
}

export interface SortSpec {
  key: string;
  order: 'asc' | 'desc';
}

/**
 * What a report query answers: the rows the filters select, in pages or all (export, print), the totals of the
 * `total` columns and the chart, both over everything selected.
 */
export interface ReportSource {
  count(): Promise<number>;
  page(offset: number, limit: number, sort: SortSpec): Promise<ReportRow[]>;
  all(sort: SortSpec): AsyncIterable<ReportRow>;
  totals(): Promise<Record<string, number>>;
  chart(): Promise<ReportChartData | undefined>;
  notes: string[];
}

export type ReportQueryFn = (ctx: ReportContext) => Promise<ReportSource>;

/** Sums of the registry's `total` columns over the rows (numbers only). */
export function sumTotals(def: ReportDef, rows: Iterable<ReportRow>): Record<string, number> {
  const keys = def.columns.filter((c) => c.total).map((c) => c.key);
  const out: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  for (const r of rows) for (const k of keys) if (typeof r[k] === 'number') out[k] += r[k] as number;
  // money columns are integer fen; quantities get 6 decimals at most (no float dust such as 0.30000000000000004)
  for (const k of keys) out[k] = Math.round(out[k] * 1e6) / 1e6;
  return out;
}

export function compareRows(sort: SortSpec): (a: ReportRow, b: ReportRow) => number {
  const dir = sort.order === 'asc' ? 1 : -1;
  return (a, b) => {
    const x = a[sort.key];
    const y = b[sort.key];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'zh-CN')) * dir;
  };
}

/**
 * A report computed whole in memory (aggregates: one row per device, day, account …). Used where the row count is
 * bounded by the project's size, never by history: the heavy lifting happened in SQL over roll-ups or the ledger.
 */
export function memorySource(def: ReportDef, rows: ReportRow[], extra: { chart?: ReportChartData; notes?: string[]; totals?: Record<string, number> } = {}): ReportSource {
  const sorted = (sort: SortSpec) => [...rows].sort(compareRows(sort));
  return {
    count: async () => rows.length,
    page: async (offset, limit, sort) => sorted(sort).slice(offset, offset + limit),
    async *all(sort) {
      yield* sorted(sort);
    },
    totals: async () => extra.totals ?? sumTotals(def, rows),
    chart: async () => extra.chart,
    notes: extra.notes ?? [],
  };
}

/**
 * A report over a large table (a log, the ledger): the query counts, pages and streams in SQL. `fetch` answers one
 * slice in the given order; `all` walks it in slices of 2,000 so an export never holds more than one slice.
 */
export function sqlSource(opts: {
  count(): Promise<number>;
  fetch(offset: number, limit: number, sort: SortSpec): Promise<ReportRow[]>;
  totals(): Promise<Record<string, number>>;
  chart?(): Promise<ReportChartData | undefined>;
  notes?: string[];
}): ReportSource {
  return {
    count: opts.count,
    page: opts.fetch,
    async *all(sort) {
      const slice = 2000;
      for (let offset = 0; ; offset += slice) {
        const rows = await opts.fetch(offset, slice, sort);
        yield* rows;
        if (rows.length < slice) return;
      }
    },
    totals: opts.totals,
    chart: async () => opts.chart?.(),
    notes: opts.notes ?? [],
  };
}

/** Day buckets of [from, to) in China Standard Time, as YYYY-MM-DD labels with their start (for charts with every day). */
export function dayLabels(from: number, to: number): { start: number; label: string }[] {
  const DAY = 86_400_000;
  const CST = 8 * 3600_000;
  const out: { start: number; label: string }[] = [];
  for (let t = Math.floor((from + CST) / DAY) * DAY - CST; t < to; t += DAY) out.push({ start: t, label: cstDate(t) });
  return out;
}

/** YYYY-MM-DD (or YYYY-MM with `month`) of an instant in China Standard Time. */
export function cstDate(ms: number, month = false): string {
  const d = new Date(ms + 8 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return month ? `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}` : `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}`;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
const CST = 8 * HOUR;
export type Grain = 'hour' | 'day' | 'month';

/** The start of the hour/day/month bucket an instant falls in (China Standard Time). */
export function bucketStart(ms: number, grain: Grain): number {
  if (grain === 'hour') return Math.floor(ms / HOUR) * HOUR;
  if (grain === 'day') return Math.floor((ms + CST) / DAY) * DAY - CST;
  const d = new Date(ms + CST);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - CST;
}

export function bucketLabel(start: number, grain: Grain): string {
  if (grain === 'month') return cstDate(start, true);
  if (grain === 'day') return cstDate(start);
  return `${cstDate(start)} ${String(new Date(start + CST).getUTCHours()).padStart(2, '0')}:00`;
}

/** Every bucket of [from, to), for charts that show the quiet days too. */
export function buckets(from: number, to: number, grain: Grain): { start: number; label: string }[] {
  if (grain === 'day') return dayLabels(from, to);
  const out: { start: number; label: string }[] = [];
  for (let t = bucketStart(from, grain); t < to;) {
    out.push({ start: t, label: bucketLabel(t, grain) });
    if (grain === 'hour') t += HOUR;
    else {
      const d = new Date(t + CST);
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - CST;
    }
  }
  return out;
}

