import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type ExcelJS from 'exceljs';

/** One sheet of a download: its name and each column's width and Excel number format. */
export interface SheetSpec {
  sheetName: string;
  columns: { width: number; numFmt?: string }[];
}

export type SheetValue = string | number | Date | null;

/** A workbook being written on the encoder thread: lines in, the file's bytes out of `out`. */
export interface XlsxJob {
  /** the file as it is written (what the reply sends) */
  out: PassThrough;
  /** one row of cells, in column order; answers true when a batch is full and the caller should `await flush()` */
  line(values: SheetValue[], font?: Partial<ExcelJS.Font>): boolean;
  /**
   * Hands the lines so far to the thread and waits until it is ready for more and the download has taken what it
   * was given (its backpressure): rows are made only as fast as the browser takes the file.
   */
  flush(): Promise<void>;
  /** the last lines, then the file is closed */
  finish(): Promise<void>;
}

interface Job {
  out: PassThrough;
  /** batches handed over and not yet taken by the thread */
  unacked: number;
  onAck: (() => void) | null;
}

interface Encoder {
  worker: Worker;
  jobs: Map<number, Job>;
}

let shared: Encoder | null = null;
let nextId = 1;

/** The one encoder thread of this process, started with the first export and kept (it loads ExcelJS once). */
function encoder(): Encoder {
  if (shared) return shared;
  const worker = new Worker(new URL('./xlsx-encoder.worker.mjs', import.meta.url));
  const self: Encoder = { worker, jobs: new Map() };
  worker.on('message', (m: { id: number; chunk?: Uint8Array; ack?: true; done?: true; error?: string }) => {
    const job = self.jobs.get(m.id);
    if (!job) return;
    if (m.chunk) job.out.write(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength));
    else if (m.ack) {
      job.unacked--;
      job.onAck?.();
    } else if (m.done) {
      self.jobs.delete(m.id);
      job.out.end();
    } else if (m.error !== undefined) {
      self.jobs.delete(m.id);
      job.out.destroy(new Error(`表格生成失败：${m.error}`));
    }
  });
  // a thread that dies cuts its downloads short; the next export starts another
  const fail = (err: Error) => {
    if (shared === self) shared = null;
    for (const job of self.jobs.values()) job.out.destroy(err);
    self.jobs.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('表格生成线程已退出')));
  worker.unref();
  shared = self;
  return self;
}

/** lines handed to the thread per message */
const BATCH_LINES = 500;

/** Starts a workbook of one sheet on the encoder thread. */
export function xlsxJob(spec: SheetSpec): XlsxJob {
  const enc = encoder();
  const id = nextId++;
  const out = new PassThrough();
  const job: Job = { out, unacked: 0, onAck: null };
  enc.jobs.set(id, job);
  enc.worker.postMessage({ id, start: spec });
  let batch: { values: SheetValue[]; font?: Partial<ExcelJS.Font> }[] = [];
  let finished = false;
  // the browser went away: the thread drops the workbook (and whoever waits for it goes on, to find it closed)
  out.on('close', () => {
    job.onAck?.();
    if (!enc.jobs.has(id)) return;
    enc.jobs.delete(id);
    enc.worker.postMessage({ id, abort: true });
  });
  const send = (end: boolean) => {
    if (!enc.jobs.has(id)) return;
    if (batch.length || end) {
      if (!end) job.unacked++;
      enc.worker.postMessage({ id, lines: batch, end });
      batch = [];
    }
  };
  /** one batch may wait at the thread while the next is made; the download's buffer must be below its mark */
  const ready = async () => {
    while (job.unacked > 1 && enc.jobs.has(id)) await new Promise<void>((resolve) => (job.onAck = resolve));
    job.onAck = null;
    if (out.writableNeedDrain && !out.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          out.off('drain', done);
          out.off('close', done);
          resolve();
        };
        out.on('drain', done);
        out.on('close', done);
      });
    }
  };
  return {
    out,
    line(values, font) {
      if (finished) throw new Error('workbook already finished');
      batch.push(font ? { values, font } : { values });
      return batch.length >= BATCH_LINES;
    },
    async flush() {
      send(false);
      await ready();
    },
    async finish() {
      finished = true;
      send(true);
    },
  };
}
