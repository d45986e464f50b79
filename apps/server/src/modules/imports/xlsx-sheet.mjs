// The first sheet of an uploaded .xlsx as the text each cell shows. Plain JavaScript so the parsing worker thread
// (xlsx-sheet.worker.mjs) loads it as is: unpacking and parsing a workbook of thousands of rows takes the CPU for a
// second or more, which on the main thread would hold up the broker and the API.
import ExcelJS from 'exceljs';

/** The text a cell shows, whatever exceljs made of it (numbers, rich text, formulas, hyperlinks, dates). */
export function cellText(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((t) => t.text).join('').trim();
    if ('text' in value) return cellText(value.text);
    if ('result' in value) return cellText(value.result);
    if ('error' in value) return '';
  }
  return String(value).trim();
}

/** { rows: [row number, cell texts by column (1-based: index 0 unused)][] } of the first sheet, or { error }. */
export async function firstSheetTexts(buffer) {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buffer);
  } catch {
    return { error: 'invalid' };
  }
  const sheet = wb.worksheets[0];
  if (!sheet) return { error: 'empty' };
  const rows = [];
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    if (!row.hasValues) continue;
    const cells = [''];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col] = cellText(cell.value);
    });
    rows.push([r, Array.from(cells, (c) => c ?? '')]);
  }
  return { rows };
}
