import { Worker } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { firstSheetTexts } from './xlsx-sheet.mjs';
import { IMPORT_MAX_ROWS, type ImportModel, type ImportRowError } from '@kelvin/contracts';
import { AppError, invalid } from '../../lib/errors.ts';
import { ResultCode } from '@kelvin/contracts';

export interface SheetRow {
  /** Excel row number (header = 1) */
  row: number;
  values: Record<string, string>;
}

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFDDEBF7' } };
const REQUIRED_FONT: Partial<ExcelJS.Font> = { bold: true, color: { argb: 'FFC00000' } };

/** Header text → column title (required columns carry a trailing *). */
const bareTitle = (s: string) => s.replace(/[*＊\s]/g, '');

/**
 * A template: the data sheet with the column titles (required ones marked *), a dropdown where `choices` gives
 * allowed values, and a 说明 sheet with each column's note and example. No example row sits in the data sheet,
 * so an untouched template imports nothing.
 */
export async function buildTemplate(model: ImportModel, choices: Record<string, string[]> = {}): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Kelvin';
  const sheet = wb.addWorksheet(model.name.replace(/模板$/, ''));
  sheet.columns = model.columns.map((c) => ({ header: c.required ? `${c.title}*` : c.title, key: c.key, width: Math.max(12, c.title.length * 2 + 6) }));
  const header = sheet.getRow(1);
  model.columns.forEach((c, i) => {
    const cell = header.getCell(i + 1);
    cell.fill = HEADER_FILL;
    cell.font = c.required ? REQUIRED_FONT : { bold: true };
    cell.note = c.note || c.title;
  });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];

  const notes = wb.addWorksheet('说明');
  notes.columns = [{ header: '列', width: 16 }, { header: '必填', width: 8 }, { header: '说明', width: 60 }, { header: '示例', width: 28 }];
  notes.getRow(1).font = { bold: true };
  for (const c of model.columns) notes.addRow([c.title, c.required ? '是' : '否', c.note, c.example]);
  notes.addRow([]);
  notes.addRow(['', '', '第一行是列名，请勿修改；从第二行起每行一条数据；整份文件有任何一行出错时不会导入任何数据。']);

  let listCol = 6;
  for (const [key, values] of Object.entries(choices)) {
    const index = model.columns.findIndex((c) => c.key === key);
    if (index < 0 || !values.length) continue;
    // Allowed values live on the 说明 sheet; the dropdown refers to them (an inline list is capped at 255 characters).
    const letter = String.fromCharCode(64 + listCol++);
    notes.getCell(`${letter}1`).value = `${model.columns[index].title}可选值`;
    values.forEach((v, i) => (notes.getCell(`${letter}${i + 2}`).value = v));
    const range = `'说明'!$${letter}$2:$${letter}$${values.length + 1}`;
    const colLetter = sheet.getColumn(index + 1).letter;
    for (let r = 2; r <= 2001; r++) {
      sheet.getCell(`${colLetter}${r}`).dataValidation = { type: 'list', allowBlank: true, formulae: [range], showErrorMessage: false };
    }
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * Reads the first sheet of an uploaded .xlsx by the model's column titles. A file that lacks a required column is
 * the wrong template; empty rows are skipped.
 */
export async function readRows(buffer: Buffer, model: ImportModel): Promise<SheetRow[]> {
  const sheet = await parseOffThread(buffer);
  if (sheet.error !== undefined) throw invalid(sheet.error === 'invalid' ? '文件不是有效的 Excel（.xlsx）文件' : '文件中没有工作表', ['file']);
  // the title row is row 1 (a sheet whose first row is empty has no titles)
  const [header, ...body]: [number, string[]][] = sheet.rows[0]?.[0] === 1 ? sheet.rows : [[1, []], ...sheet.rows];
  const titles = new Map<string, number>();
  header[1].forEach((text, colNumber) => {
    const t = bareTitle(text);
    if (t && !titles.has(t)) titles.set(t, colNumber);
  });
  const missing = model.columns.filter((c) => c.required && !titles.has(bareTitle(c.title)));
  if (missing.length) {
    throw invalid(`模板不正确：缺少列「${missing.map((c) => c.title).join('」「')}」，请下载「${model.name}」重新填写`, ['file']);
  }
  const columns = model.columns.map((c) => [c.key, titles.get(bareTitle(c.title))] as const);
  const rows: SheetRow[] = [];
  for (const [r, cells] of body) {
    const values: Record<string, string> = {};
    let any = false;
    for (const [key, colNumber] of columns) {
      const v = colNumber ? cells[colNumber] ?? '' : '';
      values[key] = v;
      if (v) any = true;
    }
    if (!any) continue;
    rows.push({ row: r, values });
    if (rows.length > IMPORT_MAX_ROWS) throw invalid(`一次最多导入 ${IMPORT_MAX_ROWS} 行，请拆分文件`, ['file']);
  }
  if (!rows.length) throw invalid('文件中没有数据行：请从第 2 行起每行填写一条数据（各列的填写示例见「说明」工作表）', ['file']);
  return rows;
}

/** The workbook parsed in a worker thread of its own (xlsx-sheet.worker.mjs), which exits when it has answered. */
function parseOffThread(buffer: Buffer): ReturnType<typeof firstSheetTexts> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./xlsx-sheet.worker.mjs', import.meta.url), { workerData: { buffer } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`表格解析线程退出（${code}）`)));
  });
}

/** Collects row errors; `fail()` rejects the whole import with every reason (all or nothing). */
export class RowErrors {
  readonly list: ImportRowError[] = [];
  add(row: number, column: string | null, message: string) {
    this.list.push({ row, column, message });
  }
  get any() {
    return this.list.length > 0;
  }
  fail(totalRows: number): never {
    const rows = new Set(this.list.map((e) => e.row)).size;
    const first = this.list[0];
    throw new AppError(
      ResultCode.VALIDATION,
      `导入失败：${rows} 行有误，未导入任何数据。第 ${first.row} 行${first.column ? `「${first.column}」` : ''}：${first.message}`,
      { errors: this.list.slice(0, 1000), errorCount: this.list.length, totalRows },
    );
  }
}

/** A decimal cell or null; NaN marks a value that is not a number. */
export function numberCell(v: string): number | null {
  if (!v) return null;
  const n = Number(v.replace(/,/g, ''));
  return Number.isFinite(n) ? n : Number.NaN;
}

/** Every row of a paginated list, page by page (exports reuse the list's own filters and visibility). */
export async function* allPages<T>(fetch: (pageNo: number, pageSize: number) => Promise<{ rows: T[] }>, pageSize = 200): AsyncGenerator<T> {
  for (let pageNo = 1; ; pageNo++) {
    const page = await fetch(pageNo, pageSize);
    yield* page.rows;
    if (page.rows.length < pageSize) return;
  }
}
