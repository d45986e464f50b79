import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { xlsxJob, type XlsxJob } from './xlsx-encoder.ts';

async function sheetOf(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb.worksheets[0];
}

/** Writes `n` numbered rows, flushing when the job asks to, then finishes. */
async function fill(job: XlsxJob, n: number, tag: string) {
  for (let i = 1; i <= n; i++) if (job.line([`${tag}${i}`, i * 1.5, new Date(Date.UTC(2026, 10, 28, 0, 0, i))])) await job.flush();
  await job.finish();
}

describe('xlsx encoder thread', () => {
  it('two workbooks written at once come out whole and apart: cells, bold header, number formats, widths', async () => {
    const spec = { sheetName: '报表', columns: [{ width: 20 }, { width: 12, numFmt: '#,##0.00' }, { width: 18, numFmt: 'yyyy-mm-dd hh:mm:ss' }] };
    const a = xlsxJob(spec);
    const b = xlsxJob({ ...spec, sheetName: '另一张' });
    a.line(['名称', '金额', '时间'], { bold: true });
    b.line(['名称', '金额', '时间'], { bold: true });
    const [bytesA, bytesB] = await Promise.all([buffer(a.out), buffer(b.out), fill(a, 1_200, 'A'), fill(b, 700, 'B')]);
    const sa = await sheetOf(bytesA);
    const sb = await sheetOf(bytesB);
    expect(sa.name).toBe('报表');
    expect(sb.name).toBe('另一张');
    expect(sa.rowCount).toBe(1_201);
    expect(sb.rowCount).toBe(701);
    expect(sa.getRow(1).getCell(1).value).toBe('名称');
    expect(sa.getRow(1).font?.bold).toBe(true);
    expect(sa.getRow(2).font?.bold).toBeFalsy();
    expect(sa.getRow(1_201).values).toEqual([undefined, 'A1200', 1800, new Date(Date.UTC(2026, 10, 28, 0, 20, 0))]);
    expect(sb.getRow(701).getCell(1).value).toBe('B700');
    expect(sa.getRow(2).getCell(2).numFmt).toBe('#,##0.00');
    expect(sa.getColumn(1).width).toBe(20);
  });

  it('a download the browser leaves is dropped by the thread; the next one is unaffected', async () => {
    const left = xlsxJob({ sheetName: '中断', columns: [{ width: 10 }] });
    for (let i = 0; i < 600; i++) if (left.line([i])) await left.flush();
    left.out.destroy();
    await left.flush(); // returns although nothing will take the file any more
    expect(left.out.destroyed).toBe(true);

    const next = xlsxJob({ sheetName: '之后', columns: [{ width: 10 }] });
    const bytes = buffer(next.out);
    await fill(next, 10, 'N');
    expect((await sheetOf(await bytes)).rowCount).toBe(10);
  });

  it('rows are made at the pace the file is read: with nobody reading, flush waits', async () => {
    const job = xlsxJob({ sheetName: '慢', columns: [{ width: 60 }] });
    // text that does not compress: the backpressure is on the file's (zipped) bytes
    let lines = 0;
    let waiting = false;
    const writer = (async () => {
      for (;;) {
        lines++;
        if (job.line([`${lines} ${randomBytes(200).toString('hex')}`])) {
          waiting = true;
          await job.flush();
          waiting = false;
        }
        if (job.out.destroyed || lines > 1_000_000) return;
      }
    })();
    // it stops: no more lines over 300 ms, waiting in flush (how many lines the buffers hold before that depends on
    // the machine: 2,000 to 7,000 have been seen)
    let previous = -1;
    for (let waited = 0; waited < 10_000 && lines !== previous; waited += 300) {
      previous = lines;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(lines).toBe(previous);
    expect(waiting).toBe(true);
    expect(lines).toBeLessThan(100_000);
    job.out.destroy();
    await writer;
  });
});
