import { Worker } from 'node:worker_threads';
import { CompiledQuery } from 'kysely';
import type { Db } from '../../../db/index.ts';
import type { CounterDeltas } from './counters.ts';
import { GRAINS, ROLLUP_WIDTH, aggregate, lateBuckets, upsertSql, type Reading } from './rollup.mjs';

/** One batch as flat parameter arrays (history and state: 5 columns per row; devices: id, at, until). */
export interface BatchRows {
  history: unknown[];
  state: unknown[];
  devices: unknown[];
  counters: CounterDeltas['counters'];
  rejects: CounterDeltas['rejects'];
  now: number;
}

export interface BatchOutcome {
  /** history rows inserted (the rest were duplicates) */
  inserted: number;
  /** devices of the batch with commands waiting for them */
  pending: number[];
}

/** Where batches are committed, each in one transaction that also adds points_stored / points_duplicate. */
export interface BatchSink {
  write(batch: BatchRows): Promise<BatchOutcome>;
  close(): Promise<void>;
}

const columns = (flat: unknown[], width: number) => Array.from({ length: width }, (_, c) => {
  const out: unknown[] = [];
  for (let i = c; i < flat.length; i += width) out.push(flat[i]);
  return out;
});

/** Adds inserted readings to both roll-ups (see rollup.mjs); buckets that got a late reading are recomputed from history. */
async function rollUpPostgres(trx: Db, readings: Reading[]) {
  const batches = aggregate(readings);
  for (const [g, grain] of GRAINS.entries()) {
    if (!batches[g].length) continue;
    const merged = await trx.executeQuery<{ device_id: number; field_code: string; bucket: number; delta: number }>(
      CompiledQuery.raw(upsertSql('postgres', grain.table, 'merge', 0), columns(batches[g], ROLLUP_WIDTH)),
    );
    const late = lateBuckets(grain, merged.rows.map((x) => [x.device_id, x.field_code, x.bucket, x.delta]));
    if (!late.length) continue;
    const history = await trx.executeQuery<{ device_id: number; field_code: string; ts: number; num: number }>(CompiledQuery.raw(
      'SELECT h.device_id, h.field_code, h.ts, h.num FROM unnest($1::bigint[], $2::varchar[], $3::bigint[], $4::bigint[]) AS b(device_id, field_code, lo, hi) '
      + 'JOIN device_history h ON h.device_id = b.device_id AND h.ts >= b.lo AND h.ts < b.hi AND h.field_code = b.field_code WHERE h.num IS NOT NULL',
      columns(late.flat(), 4),
    ));
    const [recomputed] = aggregate(history.rows.map((x): Reading => [x.device_id, x.field_code, x.ts, x.num]), [grain]);
    await trx.executeQuery(CompiledQuery.raw(upsertSql('postgres', grain.table, 'replace', 0), columns(recomputed, ROLLUP_WIDTH)));
  }
}

/** PostgreSQL: one array parameter per column through unnest(), whatever the row count. */
export function postgresSink(db: Db): BatchSink {
  return {
    async write(b) {
      return db.transaction().execute(async (trx) => {
        let inserted = 0;
        if (b.history.length) {
          // RETURNING: the rows really added (not the duplicates) feed the roll-ups
          const r = await trx.executeQuery<{ device_id: number; field_code: string; ts: number; num: number | null }>(CompiledQuery.raw(
            'INSERT INTO device_history (device_id, field_code, ts, num, txt) SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::bigint[], $4::float8[], $5::varchar[]) '
            + 'ON CONFLICT DO NOTHING RETURNING device_id, field_code, ts, num',
            columns(b.history, 5),
          ));
          inserted = r.rows.length;
          if (inserted) await rollUpPostgres(trx, r.rows.map((x): Reading => [x.device_id, x.field_code, x.ts, x.num]));
          await trx.executeQuery(CompiledQuery.raw(
            'INSERT INTO device_state (device_id, field_code, num, txt, ts) SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::float8[], $4::varchar[], $5::bigint[]) '
            + 'ON CONFLICT (device_id, field_code) DO UPDATE SET num = excluded.num, txt = excluded.txt, ts = excluded.ts WHERE excluded.ts >= device_state.ts',
            columns(b.state, 5),
          ));
        }
        const pending: number[] = [];
        if (b.devices.length) {
          const r = await trx.executeQuery<{ id: number; pending: number | null }>(CompiledQuery.raw(
            'UPDATE device SET last_report_at = v.at, online_until = v.until FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS v(id, at, until) '
            + 'WHERE device.id = v.id RETURNING device.id AS id, device.command_pending_at AS pending',
            columns(b.devices, 3),
          ));
          for (const row of r.rows) if (row.pending !== null) pending.push(Number(row.id));
        }
        const counters = [...b.counters, ['points_stored', inserted], ['points_duplicate', b.history.length / 5 - inserted]] as const;
        for (const [name, value] of counters) {
          if (!value) continue;
          await trx.insertInto('ingest_counter').values({ name, value, updated_at: b.now })
            .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ value: eb('ingest_counter.value', '+', eb.ref('excluded.value')), updated_at: b.now })))
            .execute();
        }
        if (b.rejects.length) {
          await trx.insertInto('ingest_reject').values(b.rejects.map((s) => ({
            tenant_id: s.tenantId, device_code: s.deviceCode, topic: s.topic, reason: s.reason, detail: s.detail, at: s.at,
          }))).execute();
        }
        return { inserted, pending };
      });
    },
    close: async () => {},
  };
}

/**
 * SQLite: batches go to a worker thread with its own connection (sqlite-writer.worker.mjs). better-sqlite3 blocks
 * its thread while it writes; there it blocks the worker, not the broker and the API, and uses the second core.
 */
export function sqliteSink(file: string, gate: SharedArrayBuffer | null): BatchSink {
  let seq = 0;
  const waiting = new Map<number, { resolve(o: BatchOutcome): void; reject(err: Error): void }>();
  let closed: (() => void) | null = null;
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  // started on the first batch: with the embedded broker the broker thread has a writer of its own, and this one
  // only serves an external broker's ingest and the tests that write readings directly
  let worker: Worker | null = null;
  const started = () => {
    if (worker) return worker;
    const w = new Worker(new URL('./sqlite-writer.worker.mjs', import.meta.url), { workerData: { file, gate } });
    w.on('message', (m: { id?: number; closed?: boolean; error?: string } & Partial<BatchOutcome>) => {
      if (m.closed) return closed?.();
      const p = waiting.get(m.id!);
      waiting.delete(m.id!);
      if (!p) return;
      if (m.error) p.reject(new Error(m.error));
      else p.resolve({ inserted: m.inserted!, pending: m.pending! });
    });
    w.on('error', (err) => failAll(err));
    w.on('exit', () => failAll(new Error('ingest writer stopped')));
    return (worker = w);
  };
  return {
    write(batch) {
      const id = ++seq;
      return new Promise<BatchOutcome>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        started().postMessage({ id, batch });
      });
    },
    async close() {
      if (!worker) return;
      const w = worker;
      await new Promise<void>((resolve) => {
        closed = resolve;
        w.postMessage({ close: true });
      });
      await w.terminate();
    },
  };
}
