import type { SpanKind, TraceSpan } from '@kelvin/contracts';

/**
 * OTLP/HTTP JSON export of spans (`POST {endpoint}/v1/traces`), written here rather than pulling in the OpenTelemetry
 * SDK: the encoding is a few nested arrays. Batched (every `intervalMs` or `maxBatch` spans), never awaited by a
 * request; a batch the collector refuses or cannot take (down, slow) is dropped and counted.
 */

const KIND: Record<SpanKind, number> = { internal: 1, server: 2, client: 3, producer: 4 };
/** OTLP status codes: 0 unset, 1 ok, 2 error */
const STATUS_ERROR = 2;

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };
const anyValue = (v: string | number | boolean): AnyValue =>
  typeof v === 'string' ? { stringValue: v } : typeof v === 'boolean' ? { boolValue: v } : Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
const keyValues = (attrs: Record<string, string | number | boolean>) => Object.entries(attrs).map(([key, v]) => ({ key, value: anyValue(v) }));

/** Epoch ms (fractional) as the decimal string of nanoseconds (past 2^53, so not a JS number). */
export function unixNano(ms: number): string {
  const whole = Math.floor(ms);
  return (BigInt(whole) * 1_000_000n + BigInt(Math.round((ms - whole) * 1e6))).toString();
}

export interface Resource {
  serviceName: string;
  version: string;
  instanceId: string;
  host: string;
}

/** The OTLP JSON document of some spans of one process. */
export function encodeOtlp(resource: Resource, spans: TraceSpan[], traceIdOf: (s: TraceSpan) => string) {
  return {
    resourceSpans: [{
      resource: {
        attributes: keyValues({
          'service.name': resource.serviceName, 'service.version': resource.version,
          'service.instance.id': resource.instanceId, 'host.name': resource.host,
        }),
      },
      scopeSpans: [{
        scope: { name: 'kelvin', version: resource.version },
        spans: spans.map((s) => ({
          traceId: traceIdOf(s),
          spanId: s.spanId,
          ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
          name: s.name,
          kind: KIND[s.kind],
          startTimeUnixNano: unixNano(s.start),
          endTimeUnixNano: unixNano(Math.max(s.start, s.end)),
          attributes: keyValues(s.attributes),
          status: s.error ? { code: STATUS_ERROR, message: s.error } : { code: 0 },
        })),
      }],
    }],
  };
}

export interface OtlpStats {
  exported: number;
  dropped: number;
  queued: number;
}

export function createOtlpExporter(opts: { endpoint: string; resource: Resource; intervalMs?: number; maxBatch?: number; maxQueue?: number; timeoutMs?: number }) {
  const url = `${opts.endpoint.replace(/\/+$/, '')}/v1/traces`;
  const maxBatch = opts.maxBatch ?? 512;
  const maxQueue = opts.maxQueue ?? 8 * maxBatch;
  const queue: { traceId: string; span: TraceSpan }[] = [];
  const stats = { exported: 0, dropped: 0 };
  let sending: Promise<void> | null = null;

  async function sendBatch() {
    const batch = queue.splice(0, maxBatch);
    const traceOf = new Map(batch.map((b) => [b.span, b.traceId]));
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(encodeOtlp(opts.resource, batch.map((b) => b.span), (s) => traceOf.get(s)!)),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) stats.exported += batch.length;
      else stats.dropped += batch.length;
    } catch {
      stats.dropped += batch.length;
    }
  }

  /** Sends what is queued, a batch at a time (one send in flight). */
  function flush(): Promise<void> {
    if (sending) return sending;
    if (!queue.length) return Promise.resolve();
    sending = (async () => {
      try {
        while (queue.length) await sendBatch();
      } finally {
        sending = null;
      }
    })();
    return sending;
  }

  const timer = setInterval(() => void flush(), opts.intervalMs ?? 2_000);
  timer.unref();

  return {
    /** Queues a request's spans; over the queue's bound they are dropped and counted. */
    add(traceId: string, spans: TraceSpan[]) {
      if (queue.length + spans.length > maxQueue) {
        stats.dropped += spans.length;
        return;
      }
      for (const span of spans) queue.push({ traceId, span });
      if (queue.length >= maxBatch) void flush();
    },
    flush,
    stats: (): OtlpStats => ({ ...stats, queued: queue.length }),
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

export type OtlpExporter = ReturnType<typeof createOtlpExporter>;
