import { traceKeptAs, type TraceDetail, type TraceKept, type TraceQuery, type TraceRow, type TraceSpan } from '@kelvin/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { OpsTraceTable } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { redactUri } from '../../lib/redact.ts';
import type { FinishedRequest } from '../../plugins/trace.ts';
import type { OtlpExporter } from './otlp.ts';

/** Kept traces wait this long (or for FLUSH_ROWS of them) before one insert; a request never waits for it. */
const FLUSH_MS = 1_000;
const FLUSH_ROWS = 200;
/** pending rows beyond this (the database is stuck) are dropped and counted */
const MAX_PENDING = 5_000;
/** the cap is enforced once this many rows went in since the last prune (a batch delete, not one per insert) */
const PRUNE_EVERY = 500;

type NewTrace = Omit<Selectable<OpsTraceTable>, 'id'>;

function toRow(r: Omit<Selectable<OpsTraceTable>, 'spans' | 'user_id' | 'dropped_spans'>): TraceRow {
  return {
    id: r.id, traceId: r.trace_id, instanceId: r.instance_id, at: r.at, durationMs: r.duration_ms, method: r.method, route: r.route,
    path: r.path, status: r.status, username: r.username, tenantId: r.tenant_id, kept: r.kept as TraceKept, spanCount: r.span_count,
  };
}

/**
 * 调用链路追踪: every finished API request passes through `accept` (plugins/trace.ts). Failed (5xx, and 4xx but the 401
 * and 404 noise) and slow ones are kept in ops_trace — the newest `keep` rows — with their spans as JSON, and with a
 * collector configured their spans also go to the OTLP exporter (the sampling: kept requests only).
 */
export function createTraceStore(deps: { db: Db; instanceId: string; slowMs: number; keep: number; exporter: OtlpExporter | null; onError(err: unknown): void }) {
  const { db } = deps;
  let pending: NewTrace[] = [];
  let writing: Promise<void> | null = null;
  let sincePrune = 0;
  let dropped = 0;
  async function write() {
    while (pending.length) {
      const rows = pending;
      pending = [];
      await db.insertInto('ops_trace').values(rows).execute();
      sincePrune += rows.length;
      if (sincePrune >= PRUNE_EVERY) {
        sincePrune = 0;
        await prune();
      }
    }
  }

  /** Keeps the newest `keep` rows: ids grow, so everything at or below (max id − keep) goes, in one statement. */
  async function prune() {
    const top = await db.selectFrom('ops_trace').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
    const max = Number(top?.id ?? 0);
    if (max > deps.keep) await db.deleteFrom('ops_trace').where('id', '<=', max - deps.keep).execute();
  }

  function flush(): Promise<void> {
    if (writing) return writing.then(() => (pending.length ? flush() : undefined));
    if (!pending.length) return Promise.resolve();
    writing = write().catch(deps.onError).finally(() => {
      writing = null;
    });
    return writing;
  }

  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();

  return {
    accept(r: FinishedRequest) {
      const kept = traceKeptAs(r.facts.status, r.durationMs, deps.slowMs);
      // the exporter gets the kept traces only: exporting every request cost about 60 % of the throughput of a small
      // signed-in read in scripts/bench-trace.mjs (encoding and posting its spans), keeping them ~10 %
      if (!kept) return;
      const spans = r.spans();
      deps.exporter?.add(r.trace.traceId, spans);
      if (pending.length >= MAX_PENDING) {
        dropped++;
        return;
      }
      pending.push({
        trace_id: r.trace.traceId, instance_id: deps.instanceId, at: r.trace.startEpoch, duration_ms: Math.round(r.durationMs),
        method: r.facts.method.slice(0, 8), route: r.facts.route.slice(0, 200), path: redactUri(r.path).slice(0, 500), status: r.facts.status,
        user_id: r.facts.userId, username: r.facts.username, tenant_id: r.facts.tenantId, kept, span_count: spans.length,
        dropped_spans: r.trace.dropped, spans: JSON.stringify(spans),
      });
      if (pending.length >= FLUSH_ROWS) void flush();
    },

    /** Writes what waits (tests; shutdown). */
    flush,
    prune,
    stats: () => ({ pending: pending.length, dropped }),

    async search(q: TraceQuery) {
      let query = db.selectFrom('ops_trace').select([
        'id', 'trace_id', 'instance_id', 'at', 'duration_ms', 'method', 'route', 'path', 'status', 'username', 'tenant_id', 'kept', 'span_count',
      ]);
      if (q.traceId) query = query.where('trace_id', '=', q.traceId);
      if (q.path) query = query.where('path', 'like', `%${q.path}%`);
      if (q.status !== undefined) query = query.where('status', '=', q.status);
      if (q.minDuration !== undefined) query = query.where('duration_ms', '>=', q.minDuration);
      if (q.username) query = query.where('username', '=', q.username);
      if (q.kept) query = query.where('kept', '=', q.kept);
      if (q.from !== undefined) query = query.where('at', '>=', q.from);
      if (q.to !== undefined) query = query.where('at', '<', q.to);
      const page = await paginate(query, q, (x) => x.orderBy('id', 'desc'));
      return { total: page.total, rows: page.rows.map(toRow) };
    },

    /** A kept trace with its spans (the newest request of that trace id). */
    async detail(traceId: string): Promise<TraceDetail> {
      const row = await db.selectFrom('ops_trace').selectAll().where('trace_id', '=', traceId).orderBy('id', 'desc').executeTakeFirst();
      if (!row) throw notFound('调用链路');
      return { ...toRow(row), spans: JSON.parse(row.spans) as TraceSpan[], droppedSpans: row.dropped_spans };
    },

    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

export type TraceStore = ReturnType<typeof createTraceStore>;
