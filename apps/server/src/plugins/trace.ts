import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { finishTrace, newTrace, runInTrace, type ActiveTrace, type RequestFacts } from '../lib/trace.ts';

/** A finished request with its trace; `spans()` builds the spans (ids included) only for a consumer that keeps them. */
export interface FinishedRequest {
  trace: ActiveTrace;
  facts: RequestFacts;
  path: string;
  durationMs: number;
  error: string | null;
  spans(): ReturnType<typeof finishTrace>;
}

/**
 * Every /api request gets a trace: the W3C `traceparent` it came with is honoured (same trace id, the caller's span as
 * parent), else a new one; `x-trace-id` and `traceparent` go back on the response, and the error envelope carries the
 * id (plugins/errors.ts). The handler's time is a span of its own; database queries and MQTT publishes land in the
 * trace through lib/trace.ts. Registered before the access plugin, so the sign-in check is inside the trace.
 */
export function installTracing(app: FastifyInstance, opts: { onFinished(r: FinishedRequest): void }) {
  app.decorateRequest('trace', null);
  app.decorateRequest('traceError', null);

  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/api')) return done();
    const trace = newTrace(request.headers.traceparent);
    request.trace = trace;
    reply.header('x-trace-id', trace.traceId);
    reply.header('traceparent', `00-${trace.traceId}-${trace.spanId}-01`);
    runInTrace(trace, done);
  });
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.trace) request.trace.handlerStart = performance.now();
    done();
  });
  app.addHook('onError', (request, _reply, error, done) => {
    request.traceError = error.message?.slice(0, 500) ?? String(error);
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    const t = request.trace;
    if (t && t.handlerStart !== null && t.handlerEnd === null) t.handlerEnd = performance.now();
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const trace = request.trace;
    if (!trace) return done();
    const end = performance.now();
    const facts: RequestFacts = {
      method: request.method,
      route: request.routeOptions.url ?? '（未匹配的路径）',
      status: reply.statusCode,
      userId: request.user?.id ?? null,
      username: request.user?.username ?? null,
      tenantId: request.user?.tenantId ?? null,
    };
    const error = request.traceError ?? (reply.statusCode >= 500 ? `HTTP ${reply.statusCode}` : null);
    try {
      opts.onFinished({
        trace, facts, path: request.url, durationMs: end - trace.start, error,
        spans: () => finishTrace(trace, facts, end, error),
      });
    } catch (err) {
      request.log.error({ err }, 'trace sink failed');
    }
    done();
  });
}
