import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { InstanceRole } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { FinishedRequest } from '../../plugins/trace.ts';
import type { DeviceCore } from '../devices/index.ts';
import { createOpsActions, type Reloader } from './actions.ts';
import { createOtlpExporter } from './otlp.ts';
import { createRegistry, type Clock } from './registry.ts';
import { opsRoutes } from './routes.ts';
import { createTraceStore } from './traces.ts';

export type { Reloader } from './actions.ts';
export type { Clock } from './registry.ts';

/**
 * Operating Kelvin itself (/monitorManager): the registry of server processes (服务注册中心), request traces kept
 * when failed or slow and exported over OTLP when a collector is configured (调用链路追踪), and the service monitor's
 * actions (reload, MQTT broadcast, 4G RTU refresh).
 */
export function createOps(deps: {
  db: Db; core: DeviceCore; version: string; roles: InstanceRole[]; reloaders: Reloader[];
  trace: { slowMs: number; keep: number; otlpEndpoint?: string };
  devicesConnected(): number | null; onError(err: unknown): void; clock?: Clock; heartbeatMs?: number;
}) {
  const instanceId = `${os.hostname().slice(0, 40)}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  const exporter = deps.trace.otlpEndpoint
    ? createOtlpExporter({ endpoint: deps.trace.otlpEndpoint, resource: { serviceName: 'kelvin', version: deps.version, instanceId, host: os.hostname() } })
    : null;
  const traces = createTraceStore({ db: deps.db, instanceId, slowMs: deps.trace.slowMs, keep: deps.trace.keep, exporter, onError: deps.onError });
  const registry = createRegistry({
    db: deps.db, id: instanceId, roles: deps.roles, version: deps.version, clock: deps.clock, intervalMs: deps.heartbeatMs, onError: deps.onError,
    figures: { devicesConnected: deps.devicesConnected, requestsPerMinute: () => traces.requestsPerMinute() },
  });
  const actions = createOpsActions({ db: deps.db, core: deps.core, instanceId, reloaders: deps.reloaders });
  return {
    instanceId,
    registry,
    traces,
    exporter,
    actions,
    /** every finished API request (plugins/trace.ts) */
    onRequestFinished: (r: FinishedRequest) => traces.accept(r),
    start: () => registry.start(),
    async routes(app: FastifyInstance) {
      await app.register(opsRoutes, { registry, traces, actions });
    },
    async stop() {
      await registry.stop();
      await traces.close();
      await exporter?.close();
    },
  };
}

export type Ops = ReturnType<typeof createOps>;
