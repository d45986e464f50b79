import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, sqliteFileOf, writeGateOf, type Db } from './index.ts';

// The SQLite write gate (write-gate.ts): the main thread waits for the ingest writer asynchronously, not asleep in
// SQLite's busy handler. The writer here is a thread doing what sqlite-writer.worker.mjs does: gate, then BEGIN
// IMMEDIATE on its own connection, hold for a while, commit, release.
const sqliteOnly = !process.env.DATABASE_URL?.startsWith('postgres');

const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require('better-sqlite3');
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 5000');
const gate = new Int32Array(workerData.gate);
parentPort.on('message', (holdMs) => {
  while (Atomics.compareExchange(gate, 0, 0, 2) !== 0) Atomics.wait(gate, 0, Atomics.load(gate, 0), 50);
  db.exec('BEGIN IMMEDIATE');
  db.prepare('INSERT INTO t (v) VALUES (?)').run('writer');
  parentPort.postMessage('holding');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, holdMs);
  db.exec('COMMIT');
  Atomics.store(gate, 0, 0);
  Atomics.notify(gate, 0);
  parentPort.postMessage('released');
});`;

describe.runIf(sqliteOnly)('SQLite 写入闸门', () => {
  let dir: string;
  let db: Db;
  let writer: Worker;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-gate-'));
    db = createDb({ dataDir: dir });
    await db.schema.createTable('t').addColumn('v', 'text').execute();
    writer = new Worker(WRITER, { eval: true, workerData: { file: sqliteFileOf(dir), gate: writeGateOf(db) } });
  });
  afterAll(async () => {
    await writer?.terminate();
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const next = (what: string) => new Promise<void>((resolve) => {
    const on = (m: string) => {
      if (m !== what) return;
      writer.off('message', on);
      resolve();
    };
    writer.on('message', on);
  });

  it('a write on the main thread waits for the writer thread without stopping the event loop, then succeeds', async () => {
    const holding = next('holding');
    const released = next('released');
    writer.postMessage(300);
    await holding;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    await db.insertInto('t' as never).values({ v: 'main' } as never).execute();
    const waited = Date.now() - started;
    clearInterval(timer);
    await released;
    expect(waited).toBeGreaterThanOrEqual(200);
    // the loop kept turning while the write waited (asleep in busy_timeout it would not have ticked at all)
    expect(ticks).toBeGreaterThan(5);
    const rows = (await db.selectFrom('t' as never).select('v' as never).execute()) as { v: string }[];
    expect(rows.map((r) => r.v)).toEqual(['writer', 'main']);
  });

  it('a transaction holds the gate from its first write to its commit: the writer thread waits for the commit', async () => {
    let writerDone = 0;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('t' as never).values({ v: 'trx-1' } as never).execute();
      const released = next('released');
      writer.postMessage(0);
      void released.then(() => (writerDone = Date.now()));
      await new Promise((r) => setTimeout(r, 150));
      await trx.insertInto('t' as never).values({ v: 'trx-2' } as never).execute();
    });
    const committed = Date.now();
    await new Promise((r) => setTimeout(r, 100));
    expect(writerDone).toBeGreaterThanOrEqual(committed);
    const rows = (await db.selectFrom('t' as never).select('v' as never).execute()) as { v: string }[];
    expect(rows.map((r) => r.v).slice(-3)).toEqual(['trx-1', 'trx-2', 'writer']);
  });
});
