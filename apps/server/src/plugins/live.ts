import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { z } from 'zod';
import { decimal } from '@kelvin/contracts';
import type { LiveAlarmEvent, LiveCommandEvent, LiveDeviceEvent } from '@kelvin/contracts';
import type { Db } from '../db/index.ts';
import type { Scope } from '../lib/scope.ts';
import type { AuthService } from '../modules/auth/index.ts';
import type { ProjectService } from '../modules/projects/index.ts';
import { actorOf, tokenOf } from './access.ts';

/**
 * Live updates to browsers (design §1): device state and command status changes as server-sent events.
 * Fan-out: PostgreSQL LISTEN/NOTIFY, so a browser on one process sees a report ingested by another; SQLite runs a
 * single process and uses an in-process emitter.
 */
export type LiveMessage =
  | { kind: 'device'; tenantId: number; projectId: number; data: LiveDeviceEvent }
  | { kind: 'command'; tenantId: number; projectId: number; data: LiveCommandEvent }
  | { kind: 'alarm'; tenantId: number; projectId: number; data: LiveAlarmEvent };

export interface LiveHub {
  /** false when nobody can be listening, so producers skip building events */
  wanted(): boolean;
  publish(messages: LiveMessage[]): void;
  subscribe(fn: (m: LiveMessage) => void): () => void;
  close(): Promise<void>;
}

const NOTIFY_LIMIT = 7000; // PostgreSQL refuses NOTIFY payloads of 8000 bytes or more

export async function createLiveHub(opts: { db: Db; databaseUrl?: string; schema?: string; onError(err: unknown): void }): Promise<LiveHub> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const deliver = (m: LiveMessage) => emitter.emit('m', m);
  const subscribe = (fn: (m: LiveMessage) => void) => {
    emitter.on('m', fn);
    return () => void emitter.off('m', fn);
  };
  if (!opts.databaseUrl?.startsWith('postgres')) {
    return {
      wanted: () => emitter.listenerCount('m') > 0,
      publish: (messages) => messages.forEach(deliver),
      subscribe,
      close: async () => void emitter.removeAllListeners(),
    };
  }

  // one channel per schema: test schemas (and deployments) sharing a database do not hear each other
  const channel = `kelvin_live_${(opts.schema ?? 'public').replace(/\W/g, '')}`.slice(0, 63);
  let listener: pg.Client | null = null;
  let closed = false;
  const listen = async () => {
    const client = new pg.Client({ connectionString: opts.databaseUrl });
    client.on('notification', (n) => {
      try {
        for (const m of JSON.parse(n.payload ?? '[]') as LiveMessage[]) deliver(m);
      } catch (err) {
        opts.onError(err);
      }
    });
    client.on('error', (err) => {
      opts.onError(err);
      listener = null;
      client.end().catch(() => {});
      if (!closed) setTimeout(() => void listen().catch(opts.onError), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    listener = client;
  };
  await listen();

  return {
    wanted: () => true,
    publish(messages) {
      let chunk: string[] = [];
      let size = 2;
      const send = () => {
        if (!chunk.length) return;
        const payload = `[${chunk.join(',')}]`;
        chunk = [];
        size = 2;
        opts.db.executeQuery(CompiledQuery.raw('select pg_notify($1, $2)', [channel, payload])).catch(opts.onError);
      };
      for (const m of messages) {
        const text = JSON.stringify(m);
        if (text.length + 1 > NOTIFY_LIMIT) continue;
        if (size + text.length + 1 > NOTIFY_LIMIT) send();
        chunk.push(text);
        size += text.length + 1;
      }
      send();
    },
    subscribe,
    async close() {
      closed = true;
      emitter.removeAllListeners();
      await listener?.end().catch(() => {});
    },
  };
}

const liveQuery = z.object({
  token: z.string().max(2000).optional(),
  projectId: decimal(z.number({ error: '项目编号必须是数字' }).int().positive('项目编号必须大于 0')).optional(),
  deviceId: decimal(z.number({ error: '设备编号必须是数字' }).int().positive('设备编号必须大于 0')).optional(),
});

const PING_MS = 15_000;
const REAUTH_MS = 60_000;
const MAX_BUFFERED = 1024 * 1024;

function visible(scope: Scope, filter: { projectId?: number; deviceId?: number }, m: LiveMessage) {
  if (!scope.isPlatform && m.tenantId !== scope.tenantId) return false;
  if (scope.projectIds && !scope.projectIds.has(m.projectId)) return false;
  if (filter.projectId !== undefined && m.projectId !== filter.projectId) return false;
  if (filter.deviceId !== undefined && m.data.deviceId !== filter.deviceId) return false;
  return true;
}

/** GET /api/v1/live: the token comes in Authorization or ?token= (EventSource cannot set headers). */
export async function liveRoutes(app: FastifyInstance, opts: { hub: LiveHub; auth: AuthService; projects: ProjectService }) {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/live', {
    schema: { tags: ['实时'], summary: '实时事件流（SSE）：设备状态、指令状态与告警变化（event: device | command | alarm）', querystring: liveQuery },
    config: { access: 'login' },
  }, async (req, reply) => {
    const scope = actorOf(req).scope;
    if (req.query.projectId !== undefined) await opts.projects.project(scope, req.query.projectId);
    const filter = { projectId: req.query.projectId, deviceId: req.query.deviceId };
    const token = tokenOf(req);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\nevent: ready\ndata: {}\n\n');
    open.add(res);
    const off = opts.hub.subscribe((m) => {
      if (!visible(scope, filter, m)) return;
      if (res.writableLength > MAX_BUFFERED) return void res.destroy(); // a reader this slow reconnects and reloads
      res.write(`event: ${m.kind}\ndata: ${JSON.stringify(m.data)}\n\n`);
    });
    const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
    // a revoked session or a disabled user stops receiving within a minute
    const reauth = setInterval(() => {
      opts.auth.authenticate(token).catch(() => res.end());
    }, REAUTH_MS);
    const cleanup = () => {
      off();
      clearInterval(ping);
      clearInterval(reauth);
      open.delete(res);
    };
    res.on('close', cleanup);
  });
}
