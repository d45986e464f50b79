import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { XLSX_MIME, asDownload } from './download.ts';

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
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width ?? 16 }));
  sheet.getRow(1).font = { bold: true };
  void (async () => {
    try {
      for (let r = first; !r.done; r = await it.next()) {
        sheet.addRow(Object.fromEntries(columns.map((c, i) => [`c${i}`, c.value(r.value) ?? null]))).commit();
      }
      sheet.commit();
      await workbook.commit();
    } catch (err) {
      reply.log.error({ err }, 'excel export failed after the download started');
      out.destroy(err as Error);
    }
  })();
  return asDownload(reply, fileName, XLSX_MIME).send(out);
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

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM-DD HH:mm:ss in China Standard Time (UTC+8, no daylight saving) for exported sheets, whatever the server's zone. */
export function cstTime(ms: number): string {
  const d = new Date(ms + 8 * 3600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
