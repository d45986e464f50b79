import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { INGEST_COUNTER_LABELS, ResultCode, type ServiceStatus } from '@kelvin/contracts';
import type { PoolStats } from '../../db/index.ts';
import { createHistogram, exposition, PROMETHEUS_CONTENT_TYPE, type Family } from '../../lib/metrics.ts';
import { tokenOf } from '../../plugins/access.ts';
import type { Readiness } from '../../plugins/health.ts';
import type { AuthUser } from '../../types.ts';

/** seconds; HTTP answers from a cached read (~1 ms) to a year's report or an export (seconds) */
const HTTP_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** seconds; an ingest transaction of up to 2,000 messages */
const BATCH_BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** the route label of a request no route matched (as its trace names it) */
export const UNMATCHED_ROUTE = '（未匹配的路径）';

/**
 * Every HTTP answer of this process: latency by route template (never the raw URL, so ids do not make new series),
 * method and status class; and the API requests of the last minute (the registry's heartbeat figure). Counted in one
 * onResponse hook, whether tracing is on or off.
 */
export function createHttpMetrics() {
  const latency = createHistogram(HTTP_BOUNDS);
  /** finished API requests per second of the last minute (a ring of 60 counters) */
  const perSecond = new Uint32Array(60);
  let ringSecond = Math.floor(Date.now() / 1000);

  /** moves the ring to `now`, zeroing the seconds passed since */
  function advance(now: number): number {
    const second = Math.floor(now / 1000);
    if (second > ringSecond) {
      for (let s = ringSecond + 1; s <= second && s - ringSecond <= 60; s++) perSecond[s % 60] = 0;
      ringSecond = second;
    }
    return second;
  }

  return {
    install(app: FastifyInstance) {
      app.addHook('onResponse', (request, reply, done) => {
        latency.observe(
          { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: `${Math.floor(reply.statusCode / 100)}xx` },
          reply.elapsedTime / 1000,
        );
        if (request.url.startsWith('/api')) perSecond[advance(Date.now()) % 60]!++;
        done();
      });
    },
    /** API requests finished in the last 60 seconds */
    requestsPerMinute(now = Date.now()): number {
      advance(now);
      let n = 0;
      for (const c of perSecond) n += c;
      return n;
    },
    families(): Family[] {
      return [{ name: 'kelvin_http_request_duration_seconds', help: 'HTTP 请求耗时（按路由模板、方法、状态类）', type: 'histogram', samples: latency.samples() }];
    },
  };
}

export type HttpMetrics = ReturnType<typeof createHttpMetrics>;

/** What /metrics reads at each scrape, from the modules that keep it (wired in app.ts). */
export interface MetricSources {
  http: HttpMetrics;
  /** the service monitor's own figures (/api/v1/monitor/service): database, broker, devices, ingest counters, process */
  serviceStatus(): Promise<ServiceStatus>;
  readiness(): Promise<Readiness>;
  /** commands by status, every process */
  commandCounts(): Promise<Record<string, number>>;
  /** the ingest batch writer of this process */
  ingest: { queued(): number; onBatch(listener: (t: { messages: number; seconds: number; ok: boolean }) => void): void };
  pool(): PoolStats;
}

/** The collector: figures read at the scrape plus the ingest batches seen since start. */
export function createMetrics(sources: MetricSources) {
  const batches = createHistogram(BATCH_BOUNDS);
  let committed = 0;
  let failed = 0;
  sources.ingest.onBatch((t) => {
    if (!t.ok) return void failed++;
    committed += t.messages;
    batches.observe({}, t.seconds);
  });

  async function families(): Promise<Family[]> {
    const [status, ready, commands] = await Promise.all([sources.serviceStatus(), sources.readiness(), sources.commandCounts()]);
    const memory = process.memoryUsage();
    const pool = sources.pool();
    const loop = status.process.eventLoopDelayMs;
    const gauge = (name: string, help: string, samples: Family['samples']): Family => ({ name, help, type: 'gauge', samples });
    const counter = (name: string, help: string, samples: Family['samples']): Family => ({ name, help, type: 'counter', samples });
    const out: Family[] = [
      gauge('kelvin_info', '版本与运行环境（值恒为 1）', [{ labels: { version: status.version, node: status.node, database: status.database }, value: 1 }]),
      gauge('kelvin_ready', '就绪检查各项（1 正常，0 未就绪）', Object.entries(ready.checks).map(([check, c]) => ({ labels: { check }, value: c.ok ? 1 : 0 }))),
      gauge('kelvin_mqtt_up', 'MQTT 服务（内置在监听，或已连接外部服务器）', [{ labels: { mode: status.mqtt.mode }, value: status.mqtt.status === 'up' ? 1 : 0 }]),
      gauge('kelvin_devices', '设备数：登记的、在线的（心跳窗口内有上报）、连接本进程的', [
        { labels: { state: 'total' }, value: status.devices.total },
        { labels: { state: 'online' }, value: status.devices.online },
        ...(status.devices.connected === null ? [] : [{ labels: { state: 'connected' }, value: status.devices.connected }]),
      ]),
      // the ingest_counter rows: summed over every process of the installation (each process answers the same totals)
      counter('kelvin_ingest_total', '接入计数（全部进程合计，与服务运行监控相同）：收到、入库、重复、格式错误、拒绝……；接入速率 = rate(kelvin_ingest_total{counter="messages_stored"}[1m])',
        Object.keys(INGEST_COUNTER_LABELS).map((c) => ({ labels: { counter: c, label: INGEST_COUNTER_LABELS[c as keyof typeof INGEST_COUNTER_LABELS] }, value: status.counters[c as keyof typeof status.counters] ?? 0 }))),
      counter('kelvin_ingest_committed_messages_total', '本进程写入数据库的上报条数（已提交）', [{ value: committed }]),
      counter('kelvin_ingest_failed_batches_total', '本进程写入失败的批次（逐条重试）', [{ value: failed }]),
      { name: 'kelvin_ingest_batch_duration_seconds', help: '本进程每个接入批次（一个事务）的写入耗时', type: 'histogram', samples: batches.samples() },
      gauge('kelvin_ingest_queue_depth', '等待写入的上报条数（本进程的批量写入队列）', [{ value: sources.ingest.queued() }]),
      gauge('kelvin_commands', '设备指令数（按状态，全部进程）', Object.entries(commands).map(([s, n]) => ({ labels: { status: s }, value: n }))),
      ...sources.http.families(),
      gauge('kelvin_event_loop_delay_seconds', '事件循环延迟（上一个完整分钟；启动后第一分钟内没有）', loop
        ? [{ labels: { stat: 'mean' }, value: loop.mean / 1000 }, { labels: { stat: 'p99' }, value: loop.p99 / 1000 }, { labels: { stat: 'max' }, value: loop.max / 1000 }]
        : []),
      gauge('process_resident_memory_bytes', '常驻内存（RSS）', [{ value: memory.rss }]),
      gauge('nodejs_heap_used_bytes', 'V8 堆已用', [{ value: memory.heapUsed }]),
      gauge('nodejs_heap_total_bytes', 'V8 堆已分配', [{ value: memory.heapTotal }]),
      gauge('process_start_time_seconds', '进程启动时间（Unix 秒）', [{ value: Math.round((Date.now() - process.uptime() * 1000) / 1000) }]),
    ];
    if (pool.dialect === 'postgres') {
      out.push(
        gauge('kelvin_db_pool_connections', 'PostgreSQL 连接池：已建立、空闲、上限', [
          { labels: { state: 'total' }, value: pool.total }, { labels: { state: 'idle' }, value: pool.idle }, { labels: { state: 'max' }, value: pool.max },
        ]),
        gauge('kelvin_db_pool_waiting', 'PostgreSQL 连接池：等待连接的查询', [{ value: pool.waiting }]),
      );
    } else {
      out.push(
        gauge('kelvin_db_connections', 'SQLite 连接：主线程（接口读写）、读取线程（长查询）、接入写入线程、检查点线程', [
          { labels: { role: 'main' }, value: 1 }, { labels: { role: 'reader' }, value: pool.readersBusy.length },
          { labels: { role: 'ingest_writer' }, value: 1 }, { labels: { role: 'checkpointer' }, value: 1 },
        ]),
        gauge('kelvin_db_reader_busy', 'SQLite 读取线程上进行中的查询（每个线程）', pool.readersBusy.map((n, i) => ({ labels: { reader: String(i) }, value: n }))),
      );
    }
    return out;
  }

  return { families, render: async () => exposition(await families()) };
}

export type Metrics = ReturnType<typeof createMetrics>;

const sha = (s: string) => crypto.createHash('sha256').update(s).digest();

/**
 * GET /metrics (outside /api, not in the API document): a platform administrator's token, or the scrape token
 * KELVIN_METRICS_TOKEN (Bearer) when one is configured. No token or a wrong one: 401; a tenant's user: 403 (audited).
 */
export async function metricsRoutes(app: FastifyInstance, opts: { metrics: Metrics; scrapeToken?: string; authenticate(token: string | undefined): Promise<AuthUser> }) {
  const scrape = opts.scrapeToken ? sha(opts.scrapeToken) : null;
  app.get('/metrics', { schema: { hide: true }, config: { access: 'public', operation: false } }, async (req, reply) => {
    const token = tokenOf(req);
    const byScrapeToken = !!(scrape && token && crypto.timingSafeEqual(sha(token), scrape));
    if (!byScrapeToken) {
      // the sign-in check answers 401 (40101) for a missing, wrong or expired token
      const user = await opts.authenticate(token);
      req.user = user; // the gate log names who was refused
      if (!user.isPlatform) return reply.status(403).send({ code: ResultCode.NO_PERMISSION, msg: '只有平台管理员或配置的采集令牌可以读取运行指标', data: null });
    }
    return reply.type(PROMETHEUS_CONTENT_TYPE).header('cache-control', 'no-store').send(await opts.metrics.render());
  });
}
