// Writes the .xlsx downloads on a background thread (lib/xlsx-encoder.ts sends the lines, this sends the bytes):
// ExcelJS's XML and the zip's deflate are the CPU of an export, and on the main thread they took turns with every
// API answer and every committed batch of the ingest. At nice 10, like the reader threads: an export gives way.
// Plain JavaScript so it loads the same under tsx, vitest and node.
import { PassThrough } from 'node:stream';
import { parentPort } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { lowerThisThread } from './thread-priority.mjs';

lowerThisThread(10);

/** the workbooks being written, by job id */
const jobs = new Map();

function start(id, { sheetName, columns }) {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c, i) => ({ key: `c${i}`, width: c.width, style: c.numFmt ? { numFmt: c.numFmt } : {} }));
  out.on('data', (chunk) => {
    // a chunk may share its memory with others: a copy of its own is handed over, not copied again
    const bytes = new Uint8Array(chunk);
    parentPort.postMessage({ id, chunk: bytes }, [bytes.buffer]);
  });
  out.on('end', () => {
    jobs.delete(id);
    parentPort.postMessage({ id, done: true });
  });
  jobs.set(id, { sheet, workbook, out });
}

function lines(job, list) {
  for (const { values, font } of list) {
    const row = job.sheet.addRow(values);
    if (font) row.font = font;
    row.commit();
  }
}

async function end(job) {
  job.sheet.commit();
  await job.workbook.commit();
}

parentPort.on('message', (m) => {
  try {
    if (m.start) {
      start(m.id, m.start);
      return;
    }
    const job = jobs.get(m.id);
    if (!job) return; // aborted meanwhile
    if (m.abort) {
      jobs.delete(m.id);
      job.out.destroy();
      return;
    }
    if (m.lines) lines(job, m.lines);
    if (m.end) {
      end(job).catch((err) => fail(m.id, err));
      return;
    }
    parentPort.postMessage({ id: m.id, ack: true });
  } catch (err) {
    fail(m.id, err);
  }
});

function fail(id, err) {
  jobs.get(id)?.out.destroy();
  jobs.delete(id);
  parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
}
