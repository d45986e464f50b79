import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { InstanceRole } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { FinishedRequest } from '../../plugins/trace.ts';
import type { AuthUser } from '../../types.ts';
import type { DeviceCore } from '../devices/index.ts';
import { createOpsActions, type Reloader } from './actions.ts';
import { createMetrics, metricsRoutes, type HttpMetrics, type MetricSources } from './metrics.ts';
import { createOtlpExporter } from './otlp.ts';
import { createRegistry, type Clock } from './registry.ts';
import { opsRoutes } from './routes.ts';
import { createTraceStore } from './traces.ts';

export type { Reloader } from './actions.ts';
export { createHttpMetrics, type HttpMetrics } from './metrics.ts';
export type { Clock } from './registry.ts';

/**
 * Operating Kelvin itself (/monitorManager): the registry of server processes (服务注册中心), request traces kept
 * when failed or slow and exported over OTLP when a collector is configured (调用链路追踪), the service monitor's
 * actions (reload, MQTT broadcast, 4G RTU refresh), and the same figures for Prometheus at /metrics.
 */
export function createOps(deps: {
  db: Db; core: DeviceCore; version: string; roles: InstanceRole[]; reloaders: Reloader[];
  trace: { slowMs: number; keep: number; otlpEndpoint?: string };
  devicesConnected(): number | null; onError(err: unknown): void; clock?: Clock; heartbeatMs?: number;
  /** every HTTP answer's latency and the requests per minute (its hook installed by app.ts before any route) */
  http: HttpMetrics;
  /** /metrics: what it reads at a scrape, the scrape token (KELVIN_METRICS_TOKEN), the sign-in check for everyone else */
  metrics: Omit<MetricSources, 'http'>;
  scrapeToken?: string;
  authenticate(token: string | undefined): Promise<AuthUser>;
}) {
  const instanceId = `${os.hostname().slice(0, 40)}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  const exporter = deps.trace.otlpEndpoint
    ? createOtlpExporter({ endpoint: deps.trace.otlpEndpoint, resource: { serviceName: 'kelvin', version: deps.version, instanceId, host: os.hostname() } })
    : null;
  const traces = createTraceStore({ db: deps.db, instanceId, slowMs: deps.trace.slowMs, keep: deps.trace.keep, exporter, onError: deps.onError });
  const registry = createRegistry({
    db: deps.db, id: instanceId, roles: deps.roles, version: deps.version, clock: deps.clock, intervalMs: deps.heartbeatMs, onError: deps.onError,
    figures: { devicesConnected: deps.devicesConnected, requestsPerMinute: () => deps.http.requestsPerMinute() },
  });
  const metrics = createMetrics({ http: deps.http, ...deps.metrics });
  const actions = createOpsActions({ db: deps.db, core: deps.core, instanceId, reloaders: deps.reloaders });
  return {
    instanceId,
    registry,
    traces,
    exporter,
    actions,
    metrics,
    /** every finished API request (plugins/trace.ts) */
    onRequestFinished: (r: FinishedRequest) => traces.accept(r),
    start: () => registry.start(),
    async routes(app: FastifyInstance) {
      await app.register(opsRoutes, { registry, traces, actions });
      await app.register(metricsRoutes, { metrics, scrapeToken: deps.scrapeToken, authenticate: deps.authenticate });
    },
    async stop() {
      await registry.stop();
      await traces.close();
      await exporter?.close();
    },
  };
}

export type Ops = ReturnType<typeof createOps>;
