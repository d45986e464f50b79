import type { FastifyReply } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import { XLSX_MIME, asDownload } from './download.ts';
import { xlsxJob, type SheetValue } from './xlsx-encoder.ts';

export interface ExcelColumn<T> {
  header: string;
  width?: number;
  value: (row: T) => string | number | Date | null | undefined;
}

/**
 * Streams rows into an .xlsx download (design §5): rows are written as they come, so an export of many thousand
 * rows never sits in memory whole. `rows` is usually a keyset-paged async generator over the database.
 * The first row is read before any header goes out, so a refusal found there (unknown project, no right to it)
 * is answered with the envelope; a failure once bytes have left can only cut the download short, and is logged.
 */
export async function streamXlsx<T>(reply: FastifyReply, fileName: string, sheetName: string, columns: ExcelColumn<T>[], rows: AsyncIterable<T>) {
  const it = rows[Symbol.asyncIterator]();
  const first = await it.next();
  const job = xlsxJob({ sheetName, columns: columns.map((c) => ({ width: c.width ?? 16 })) });
  job.line(columns.map((c) => c.header), { bold: true });
  void (async () => {
    try {
      for (let r = first; !r.done; r = await it.next()) {
        if (job.line(columns.map((c) => c.value(r.value) ?? null))) {
          await job.flush();
          if (job.out.destroyed) return; // the browser went away: stop reading rows
        }
      }
      await job.finish();
    } catch (err) {
      reply.log.error({ err }, 'excel export failed after the download started');
      job.out.destroy(err as Error);
    }
  })();
  return asDownload(reply, fileName, XLSX_MIME).send(job.out);
}

/** Walks a query newest first in batches by id, for exports. */
export async function* byIdDescending<T extends { id: number }>(fetch: (beforeId: number | null, limit: number) => Promise<T[]>, batch = 1000): AsyncGenerator<T> {
  let before: number | null = null;
  for (;;) {
    const rows = await fetch(before, batch);
    yield* rows;
    if (rows.length < batch) return;
    before = rows[rows.length - 1].id;
  }
}

/** byIdDescending over a filtered query of one table (its column `id`): what an export of a list streams. */
export function queryByIdDescending<DB, TB extends keyof DB, O extends { id: number }>(query: SelectQueryBuilder<DB, TB, O>, batch?: number): AsyncGenerator<O> {
  // the one column every exported table has; the query's own table types cannot say so to the compiler
  const q = query as SelectQueryBuilder<any, any, O>;
  return byIdDescending((before, limit) => (before === null ? q : q.where('id', '<', before)).orderBy('id', 'desc').limit(limit).execute(), batch);
}

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM-DD HH:mm:ss in China Standard Time (UTC+8, no daylight saving) for exported sheets, whatever the server's zone. */
export function cstTime(ms: number): string {
  const d = new Date(ms + 8 * 3600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Excel number formats of the report formats (fen is written as 元). */
const REPORT_NUM_FMT: Record<string, string | undefined> = {
  num0: '#,##0', num1: '#,##0.0', num2: '#,##0.00', num3: '#,##0.000', fen: '#,##0.00', percent: '0.0%', datetime: 'yyyy-mm-dd hh:mm:ss', date: 'yyyy-mm-dd',
};

export interface SheetColumn {
  label: string;
  unit?: string;
  /** a report format (contracts ReportFormat) */
  format: string;
  width?: number;
  key: string;
}

/** A cell value in its sheet form: fen → 元, ms → a date (China Standard Time wall clock, as Excel has no zones). */
function sheetValue(value: unknown, format: string): SheetValue {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'number') return String(value);
  if (format === 'fen') return value / 100;
  if (format === 'datetime' || format === 'date') return new Date(value + 8 * 3600_000);
  return value;
}

/**
 * Streams a titled report sheet: the title, the filters as applied, the generation time, a header row, the rows as
 * they come (one slice at a time, memory stays flat) with number formats, and the total row at the end. The workbook
 * is written on the encoder thread (xlsx-encoder.ts); rows are made only as fast as the browser takes the file.
 */
export async function streamReportXlsx(reply: FastifyReply, opts: {
  fileName: string; title: string; applied: { label: string; value: string }[]; columns: SheetColumn[];
  rows: AsyncIterable<Record<string, unknown>>; totals: () => Promise<Record<string, number>>; generatedAt: number; notes?: string[];
  /** rows the export will hold: sent as x-report-rows so the browser can show progress */
  rowCount?: number;
}) {
  const { columns } = opts;
  const job = xlsxJob({
    sheetName: opts.title.slice(0, 31),
    columns: columns.map((c) => ({ width: c.width ? Math.max(8, Math.round(c.width / 7)) : 16, numFmt: REPORT_NUM_FMT[c.format] })),
  });
  job.line([opts.title], { bold: true, size: 14 });
  job.line([opts.applied.map((a) => `${a.label}：${a.value}`).join('　') || '筛选：全部']);
  job.line([`生成时间：${cstTime(opts.generatedAt)}`]);
  for (const n of opts.notes ?? []) job.line([`说明：${n}`]);
  job.line(columns.map((c) => (c.unit ? `${c.label}（${c.unit}）` : c.label)), { bold: true });
  void (async () => {
    try {
      let count = 0;
      for await (const r of opts.rows) {
        count++;
        if (job.line(columns.map((c) => sheetValue(r[c.key], c.format)))) {
          await job.flush();
          if (job.out.destroyed) return; // the browser went away: stop reading rows
        }
      }
      const totals = await opts.totals();
      if (Object.keys(totals).length) {
        job.line(columns.map((c, i) => (i === 0 ? `合计（${count} 条）` : c.key in totals ? sheetValue(totals[c.key], c.format) : null)), { bold: true });
      } else job.line([`共 ${count} 条`]);
      await job.finish();
    } catch (err) {
      reply.log.error({ err }, 'report export failed after the download started');
      job.out.destroy(err as Error);
    }
  })();
  if (opts.rowCount !== undefined) reply.header('x-report-rows', String(opts.rowCount)).header('access-control-expose-headers', 'x-report-rows');
  return asDownload(reply, opts.fileName, XLSX_MIME).send(job.out);
}
