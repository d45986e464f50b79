import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { LogEvent } from 'kysely';
import type { SpanKind, TraceSpan } from '@kelvin/contracts';

/**
 * The current request's trace (AsyncLocalStorage). Recording is cheap on purpose — a span is a small object pushed
 * on an array, without ids, attributes copied or strings built — because most requests are neither failed nor slow
 * and are thrown away; ids and the exported shape are made only for a trace someone keeps (`finishTrace`).
 */

/** A request making more spans than this (a loop of queries) keeps the first ones and counts the rest. */
const MAX_SPANS = 300;
const MAX_SQL = 400;

interface RawSpan {
  name: string;
  kind: SpanKind;
  /** performance.now() */
  start: number;
  end: number;
  /** recorded while the handler ran: the handler is its parent (else the request) */
  inHandler: boolean;
  attributes?: Record<string, string | number | boolean>;
  error?: string;
}

export interface ActiveTrace {
  traceId: string;
  /** the request's own span */
  spanId: string;
  /** the caller's span (W3C traceparent), when one was sent */
  parentSpanId: string | null;
  startEpoch: number;
  start: number;
  handlerStart: number | null;
  handlerEnd: number | null;
  spans: RawSpan[];
  dropped: number;
}

const storage = new AsyncLocalStorage<ActiveTrace>();

let pool = Buffer.alloc(0);
let offset = 0;
/** Random hex from a pooled buffer: one randomBytes call per few hundred ids. */
export function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  const out = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return out;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The trace id and parent span of a W3C `traceparent` header, or null when absent or malformed. */
export function parseTraceparent(header: string | string[] | undefined): { traceId: string; parentSpanId: string } | null {
  if (typeof header !== 'string') return null;
  const m = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!m || m[1] === 'ff' || (m[1] === '00' && header.trim().length !== 55)) return null;
  if (m[2] === ZERO_TRACE || m[3] === ZERO_SPAN) return null;
  return { traceId: m[2]!, parentSpanId: m[3]! };
}

export function newTrace(traceparent?: string | string[]): ActiveTrace {
  const parent = parseTraceparent(traceparent);
  return {
    traceId: parent?.traceId ?? randomHex(16),
    spanId: randomHex(8),
    parentSpanId: parent?.parentSpanId ?? null,
    startEpoch: Date.now(),
    start: performance.now(),
    handlerStart: null,
    handlerEnd: null,
    spans: [],
    dropped: 0,
  };
}

/** Runs `fn` (and everything it starts) inside the trace. */
export const runInTrace = <T>(trace: ActiveTrace, fn: () => T): T => storage.run(trace, fn);
export const currentTrace = (): ActiveTrace | undefined => storage.getStore();

function push(t: ActiveTrace, span: RawSpan) {
  if (t.spans.length >= MAX_SPANS) t.dropped++;
  else t.spans.push(span);
}

/** Records one finished span in the current trace (nothing outside a request). */
export function recordSpan(name: string, kind: SpanKind, start: number, end: number, attributes?: RawSpan['attributes'], error?: string) {
  const t = storage.getStore();
  if (!t) return;
  push(t, { name, kind, start, end, inHandler: t.handlerStart !== null && t.handlerEnd === null, attributes, error });
}

/** Times `fn` as a span of the current trace (just `fn` outside a request). */
export async function withSpan<T>(name: string, kind: SpanKind, attributes: RawSpan['attributes'], fn: () => Promise<T>): Promise<T> {
  if (!storage.getStore()) return fn();
  const start = performance.now();
  try {
    const out = await fn();
    recordSpan(name, kind, start, performance.now(), attributes);
    return out;
  } catch (err) {
    recordSpan(name, kind, start, performance.now(), attributes, err instanceof Error ? err.message : String(err));
    throw err;
  }
}

/**
 * Kysely's `log` hook: every query of a request as a span (the SQL text only — parameters may hold secrets). Called
 * after the query, in the caller's async context.
 */
export function logQuerySpan(event: LogEvent) {
  if (process.env.DEBUG_SLOW_SQL && event.queryDurationMillis > Number(process.env.DEBUG_SLOW_SQL)) console.error('SLOWSQL', event.queryDurationMillis.toFixed(1), storage.getStore() ? 'req' : 'bg', event.query.sql.slice(0, 300));
  const t = storage.getStore();
  if (!t) return;
  const end = performance.now();
  push(t, {
    name: 'SQL', kind: 'client', start: end - event.queryDurationMillis, end,
    inHandler: t.handlerStart !== null && t.handlerEnd === null,
    attributes: { 'db.statement': event.query.sql },
    error: event.level === 'error' ? (event.error instanceof Error ? event.error.message : String(event.error)) : undefined,
  });
}

export interface RequestFacts {
  method: string;
  route: string;
  status: number;
  userId: number | null;
  username: string | null;
  tenantId: number | null;
}

/** The trace's spans with ids, in epoch ms: the request, its handler, and what they did. */
export function finishTrace(t: ActiveTrace, facts: RequestFacts, end: number, error: string | null): TraceSpan[] {
  const epoch = (p: number) => t.startEpoch + (p - t.start);
  const root: TraceSpan = {
    spanId: t.spanId, parentSpanId: t.parentSpanId, name: `${facts.method} ${facts.route}`, kind: 'server',
    start: epoch(t.start), end: epoch(end),
    attributes: {
      'http.method': facts.method, 'http.route': facts.route, 'http.status_code': facts.status,
      ...(facts.username !== null && { 'enduser.id': facts.username }), ...(facts.tenantId !== null && { 'kelvin.tenant_id': facts.tenantId }),
    },
    error,
  };
  const out = [root];
  let handlerId = t.spanId;
  if (t.handlerStart !== null) {
    handlerId = randomHex(8);
    out.push({
      spanId: handlerId, parentSpanId: t.spanId, name: `处理 ${facts.route}`, kind: 'internal',
      start: epoch(t.handlerStart), end: epoch(t.handlerEnd ?? end), attributes: {}, error: null,
    });
  }
  for (const s of t.spans) {
    const attributes = s.attributes?.['db.statement'] !== undefined
      ? { ...s.attributes, 'db.statement': String(s.attributes['db.statement']).slice(0, MAX_SQL) }
      : (s.attributes ?? {});
    out.push({
      spanId: randomHex(8), parentSpanId: s.inHandler ? handlerId : t.spanId, name: s.name, kind: s.kind,
      start: epoch(s.start), end: epoch(s.end), attributes, error: s.error ?? null,
    });
  }
  return out;
}
