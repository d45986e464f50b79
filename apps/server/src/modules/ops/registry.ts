import os from 'node:os';
import { HEARTBEAT_MS, INSTANCE_KEEP_MS, instanceStatus, type InstanceDto, type InstanceRole } from '@kelvin/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { OpsInstanceTable } from '../../db/schema.ts';
import { loopDelayHistogram, loopDelayMs, processHealth } from '../../lib/process-health.ts';

export interface Clock {
  now(): number;
}

/** What a heartbeat reports besides the process's own memory and event loop. */
export interface InstanceFigures {
  devicesConnected(): number | null;
  requestsPerMinute(): number;
}

/** prune gone rows every this many beats (about every 5 minutes) */
const PRUNE_EVERY_BEATS = 60;

/**
 * 服务注册中心: this process's row in ops_instance, written on start and every HEARTBEAT_MS with its figures, marked
 * stopped on a graceful close. Every process of an installation (PostgreSQL) shares the table, so any of them lists
 * all; one silent for GONE_AFTER_BEATS intervals shows as 已离线 (killed, or its host gone), and rows gone for
 * INSTANCE_KEEP_MS are pruned by whichever process beats.
 */
export function createRegistry(deps: {
  db: Db; id: string; roles: InstanceRole[]; version: string; figures: InstanceFigures; clock?: Clock; intervalMs?: number; onError(err: unknown): void;
}) {
  const { db } = deps;
  const clock = deps.clock ?? { now: () => Date.now() };
  const intervalMs = deps.intervalMs ?? HEARTBEAT_MS;
  const startedAt = clock.now();
  // event-loop delay over each heartbeat interval (process-health.ts keeps the last full minute for the monitor)
  const loop = loopDelayHistogram();
  let timer: NodeJS.Timeout | null = null;
  let beats = 0;

  function figures() {
    const health = processHealth();
    const p99 = loop.count ? loopDelayMs(loop.percentile(99)) : null;
    loop.reset();
    return {
      load1: Math.round(os.loadavg()[0]! * 100) / 100,
      rss_mb: health.rssMb,
      heap_mb: health.heapUsedMb,
      devices_connected: deps.figures.devicesConnected(),
      loop_p99_ms: p99,
      requests_per_min: deps.figures.requestsPerMinute(),
    };
  }

  const register = (now: number) => db.insertInto('ops_instance').values({
    id: deps.id, host: os.hostname().slice(0, 128), pid: process.pid, version: deps.version.slice(0, 32), node: process.version.slice(0, 16),
    roles: deps.roles.join(','), started_at: startedAt, heartbeat_at: now, stopped_at: null, ...figures(),
  }).execute();

  async function beat() {
    const now = clock.now();
    const res = await db.updateTable('ops_instance').set({ heartbeat_at: now, ...figures() }).where('id', '=', deps.id).executeTakeFirst();
    // pruned meanwhile (a process whose clock ran a week ahead): register again
    if (Number(res.numUpdatedRows) === 0) await register(now);
    if (++beats % PRUNE_EVERY_BEATS === 0) await prune(now);
  }

  async function prune(now = clock.now()) {
    await db.deleteFrom('ops_instance').where('heartbeat_at', '<', now - INSTANCE_KEEP_MS).where('id', '<>', deps.id).execute();
  }

  const toDto = (r: Selectable<OpsInstanceTable>, now: number): InstanceDto => ({
    id: r.id, host: r.host, pid: r.pid, version: r.version, node: r.node, roles: r.roles.split(',').filter(Boolean) as InstanceRole[],
    startedAt: r.started_at, heartbeatAt: r.heartbeat_at, stoppedAt: r.stopped_at,
    status: instanceStatus({ heartbeatAt: r.heartbeat_at, stoppedAt: r.stopped_at }, now, intervalMs),
    load1: r.load1, rssMb: r.rss_mb, heapUsedMb: r.heap_mb, devicesConnected: r.devices_connected, loopP99Ms: r.loop_p99_ms,
    requestsPerMin: r.requests_per_min, self: r.id === deps.id,
  });

  return {
    id: deps.id,
    /** Registers this process and starts beating. */
    async start() {
      const now = clock.now();
      await register(now);
      await prune(now);
      timer = setInterval(() => void beat().catch(deps.onError), intervalMs);
      timer.unref();
    },
    /** One heartbeat now (tests drive it with a fake clock). */
    beat,
    prune,
    /** Every registered process, running first, then by start time. */
    async list(): Promise<InstanceDto[]> {
      const now = clock.now();
      const rows = await db.selectFrom('ops_instance').selectAll().orderBy('started_at', 'desc').execute();
      const order = { up: 0, gone: 1, stopped: 2 } as const;
      return rows.map((r) => toDto(r, now)).sort((a, b) => order[a.status] - order[b.status] || b.startedAt - a.startedAt);
    },
    /** Graceful close: the row says stopped (not gone). */
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      loop.disable();
      await db.updateTable('ops_instance').set({ stopped_at: clock.now() }).where('id', '=', deps.id).execute().catch(deps.onError);
    },
  };
}

export type Registry = ReturnType<typeof createRegistry>;
