import {
  HISTORY_MAX_POINTS, INGEST_COUNTER_LABELS, INGEST_REJECT_REASONS, chartFields, fieldOf, isStepField, type DeviceTypeDef, type HistoryAnswer, type IngestCounterName,
  type IngestRejectRow, type Page, type ServiceStatus,
} from '@kelvin/contracts';
import { sql } from 'kysely';
import { dialectOf } from '../../../db/dialect.ts';
import { pingDb, type Db } from '../../../db/index.ts';
import { paginate } from '../../../lib/pagination.ts';
import type { MqttHub } from '../../../plugins/mqtt.ts';
import { processHealth } from '../../../lib/process-health.ts';

/** Counters that only grow: a bucket shows its last (largest) value, not an average. */
const isCounter = (def: DeviceTypeDef, code: string) => {
  const mode = fieldOf(def, code)?.sim.mode;
  return mode === 'accumulate' || mode === 'integrate';
};

const HOUR = 3_600_000;

/** One bucket of a field: its first report time, count, mean, range (measurements); last value and time (steps). */
interface BucketRow { field_code: string; t: number; avg: number; min: number; max: number; n: number }
interface LastRow { field_code: string; t: number; v: number }

export function createTelemetryService(db: Db, readDb: Db = db) {
  /** Buckets of `bucketMs` from `q.from`, aggregated in the database from the history rows. */
  async function bucketsFromHistory(deviceId: number, wanted: string[], steps: string[], q: { from: number; to: number }, bucketMs: number) {
    // literals (validated integers), so the grouped expression reads the same in SELECT and GROUP BY on PostgreSQL
    const bucket = sql<number>`cast((ts - ${sql.lit(q.from)}) / ${sql.lit(bucketMs)} as bigint)`;
    const rows: BucketRow[] = await readDb.selectFrom('device_history')
      .select([
        'field_code',
        sql<number>`min(ts)`.as('t'),
        sql<number>`avg(num)`.as('avg'),
        sql<number>`min(num)`.as('min'),
        sql<number>`max(num)`.as('max'),
        sql<number>`count(*)`.as('n'),
      ])
      .where('device_id', '=', deviceId)
      .where('field_code', 'in', wanted)
      .where('ts', '>=', q.from)
      .where('ts', '<', q.to)
      .where('num', 'is not', null)
      .groupBy(['field_code', bucket])
      .orderBy('field_code')
      .orderBy(sql`min(ts)`)
      .execute();
    // a set point or a state holds its value: each bucket gives the last value reported in it, at its time
    const last: LastRow[] = steps.length
      ? (await sql<LastRow>`
        select field_code, t, v from (
          select field_code, ts as t, num as v,
            row_number() over (partition by field_code, cast((ts - ${sql.lit(q.from)}) / ${sql.lit(bucketMs)} as bigint) order by ts desc) as rn
          from device_history
          where device_id = ${deviceId} and field_code in (${sql.join(steps)}) and ts >= ${q.from} and ts < ${q.to} and num is not null
        ) x where rn = 1 order by field_code, t`.execute(readDb)).rows
      : [];
    return { rows, last };
  }

  /**
   * The same buckets from the hourly roll-ups: buckets of whole hours from the hour `q.from` falls in, the hours wholly
   * inside the range added up per bucket in the database (a year of three fields is 26,280 hour rows and ~1,500 bucket
   * rows: only those cross from the reader thread), the partial hours at its two ends from the history, added here.
   */
  async function bucketsFromRollups(deviceId: number, wanted: string[], steps: string[], q: { from: number; to: number }, bucketMs: number) {
    const origin = Math.floor(q.from / HOUR) * HOUR;
    const firstWhole = Math.ceil(q.from / HOUR) * HOUR;
    const lastWhole = Math.floor(q.to / HOUR) * HOUR;
    const measured = wanted.filter((c) => !steps.includes(c));
    // literals (validated integers), so the grouped expression reads the same in SELECT and GROUP BY on PostgreSQL
    const k = sql<number>`cast((bucket - ${sql.lit(origin)}) / ${sql.lit(bucketMs)} as bigint)`;
    const [sums, lasts, edges] = await Promise.all([
      measured.length
        ? readDb.selectFrom('device_rollup_hour')
          .select([
            'field_code', k.as('k'), sql<number>`sum(n)`.as('n'), sql<number>`sum(${sql.ref('sum')})`.as('sum'),
            sql<number>`min(${sql.ref('min')})`.as('min'), sql<number>`max(${sql.ref('max')})`.as('max'), sql<number>`min(first_ts)`.as('first'),
          ])
          .where('device_id', '=', deviceId).where('field_code', 'in', measured)
          .where('bucket', '>=', firstWhole).where('bucket', '<', lastWhole)
          .groupBy(['field_code', k]).execute()
        : [],
      // a set point or a state: the last value of each bucket, at its time
      steps.length
        ? sql<{ field_code: string; k: number; t: number; v: number }>`
          select field_code, k, t, v from (
            select field_code, ${k} as k, last_ts as t, last_num as v,
              row_number() over (partition by field_code, ${k} order by last_ts desc) as rn
            from device_rollup_hour
            where device_id = ${deviceId} and field_code in (${sql.join(steps)}) and bucket >= ${firstWhole} and bucket < ${lastWhole}
          ) x where rn = 1`.execute(readDb).then((r) => r.rows)
        : [],
      readDb.selectFrom('device_history').select(['field_code', 'ts', 'num'])
        .where('device_id', '=', deviceId).where('field_code', 'in', wanted).where('num', 'is not', null)
        .where((eb) => eb.or([
          eb.and([eb('ts', '>=', q.from), eb('ts', '<', firstWhole)]),
          eb.and([eb('ts', '>=', lastWhole), eb('ts', '<', q.to)]),
        ])).execute(),
    ]);
    const key = (field: string, bucket: number) => `${field}|${bucket}`;
    const sumOf = new Map<string, { field: string; t: number; n: number; sum: number; min: number; max: number }>();
    const lastOf = new Map<string, { field: string; t: number; v: number }>();
    for (const r of sums) {
      sumOf.set(key(r.field_code, Number(r.k)), { field: r.field_code, t: Number(r.first), n: Number(r.n), sum: Number(r.sum), min: Number(r.min), max: Number(r.max) });
    }
    for (const r of lasts) lastOf.set(key(r.field_code, Number(r.k)), { field: r.field_code, t: Number(r.t), v: Number(r.v) });
    for (const e of edges) {
      const ts = Number(e.ts);
      const v = Number(e.num);
      const at = key(e.field_code, Math.floor((ts - origin) / bucketMs));
      if (steps.includes(e.field_code)) {
        const b = lastOf.get(at);
        if (!b || ts > b.t) lastOf.set(at, { field: e.field_code, t: ts, v });
        continue;
      }
      const b = sumOf.get(at);
      if (!b) {
        sumOf.set(at, { field: e.field_code, t: ts, n: 1, sum: v, min: v, max: v });
        continue;
      }
      b.t = Math.min(b.t, ts);
      b.n += 1;
      b.sum += v;
      b.min = Math.min(b.min, v);
      b.max = Math.max(b.max, v);
    }
    const rows: BucketRow[] = [...sumOf.values()].sort((a, b) => a.field.localeCompare(b.field) || a.t - b.t)
      .map((b) => ({ field_code: b.field, t: b.t, avg: b.sum / b.n, min: b.min, max: b.max, n: b.n }));
    const last: LastRow[] = [...lastOf.values()].sort((a, b) => a.field.localeCompare(b.field) || a.t - b.t)
      .map((b) => ({ field_code: b.field, t: b.t, v: b.v }));
    return { rows, last };
  }

  /** ingest_counter: each counter summed over every process */
  const counterTotals = async () => new Map((await db.selectFrom('ingest_counter').select(['name', 'value']).execute()).map((r) => [r.name, Number(r.value)]));

  return {
    /** In which time buckets each device reported any of `fields` (the history primary key answers it). */
    async reportHours(deviceIds: number[], fields: string[], from: number, to: number, bucketMs: number) {
      if (!deviceIds.length || !fields.length) return [];
      // a literal divisor so the grouped expression reads the same in SELECT and GROUP BY on PostgreSQL
      const bucket = sql<number>`cast(ts / ${sql.lit(bucketMs)} as bigint)`;
      const rows = await readDb.selectFrom('device_history')
        .select(['device_id', bucket.as('b')])
        .where('device_id', 'in', deviceIds)
        .where('field_code', 'in', fields)
        .where('ts', '>=', from)
        .where('ts', '<', to)
        .groupBy(['device_id', bucket])
        .execute();
      return rows.map((r) => ({ deviceId: r.device_id, bucket: Number(r.b) }));
    },

    /**
     * History of numeric fields, downsampled on the server to at most HISTORY_MAX_POINTS per field: the range is cut
     * into equal buckets and each bucket gives one point (average, or maximum for counters) at its first report time.
     */
    async history(device: { id: number; type: DeviceTypeDef }, q: { from: number; to: number; fields?: string }): Promise<HistoryAnswer> {
      const def = device.type;
      const wanted = q.fields ? [...new Set(q.fields.split(',').filter(Boolean))] : chartFields(def).map((f) => f.code);
      const steps = wanted.filter((c) => isStepField(fieldOf(def, c)));
      const exact = Math.max(1, Math.ceil((q.to - q.from) / HISTORY_MAX_POINTS));
      // a range of weeks or more: whole-hour buckets from the hour `from` falls in, read from the hourly roll-ups (a
      // year of 1-minute readings is 525,600 rows of history, 8,760 of roll-up); shorter ranges from the history itself
      const fromRollups = exact >= HOUR && wanted.length > 0;
      const bucketMs = fromRollups ? Math.ceil((q.to - Math.floor(q.from / HOUR) * HOUR) / HISTORY_MAX_POINTS / HOUR) * HOUR : exact;
      const { rows, last } = !wanted.length ? { rows: [], last: [] }
        : fromRollups ? await bucketsFromRollups(device.id, wanted, steps, q, bucketMs)
          : await bucketsFromHistory(device.id, wanted, steps, q, bucketMs);
      const round = (v: number) => Math.round(v * 1000) / 1000;
      const points = new Map<string, [number, number][]>(wanted.map((c) => [c, []]));
      const bands = new Map<string, [number, number, number][]>();
      for (const r of last) points.get(r.field_code)!.push([Number(r.t), round(Number(r.v))]);
      for (const r of rows) {
        if (steps.includes(r.field_code)) continue;
        const counter = isCounter(def, r.field_code);
        points.get(r.field_code)!.push([Number(r.t), round(Number(counter ? r.max : r.avg))]);
        if (!counter && Number(r.n) > 1) {
          if (!bands.has(r.field_code)) bands.set(r.field_code, []);
          bands.get(r.field_code)!.push([Number(r.t), round(Number(r.min)), round(Number(r.max))]);
        }
      }
      return {
        deviceId: device.id,
        from: q.from,
        to: q.to,
        bucketMs,
        series: wanted.map((code) => {
          const f = fieldOf(def, code);
          return { field: code, label: f?.label ?? code, unit: f?.unit ?? '', points: points.get(code)!, ...(bands.has(code) && { bands: bands.get(code) }) };
        }),
      };
    },

    /** serviceMonitorManager: this process, its database and broker, the devices, the ingest counters (every process). */
    async serviceStatus(ctx: { mqtt: MqttHub | null; external: boolean; startedAt: number; version: string }): Promise<ServiceStatus> {
      const now = Date.now();
      const count = (online: boolean) => {
        let q = db.selectFrom('device').select((eb) => eb.fn.countAll<number>().as('n'));
        if (online) q = q.where('online_until', '>', now);
        return q.executeTakeFirstOrThrow().then((r) => Number(r.n));
      };
      const [total, online, stored, databaseUp] = await Promise.all([count(false), count(true), counterTotals(), pingDb(db)]);
      const counters = Object.fromEntries(Object.keys(INGEST_COUNTER_LABELS).map((k) => [k, stored.get(k) ?? 0])) as Record<IngestCounterName, number>;
      return {
        version: ctx.version,
        startedAt: ctx.startedAt,
        node: process.version,
        database: dialectOf(db) === 'postgres' ? 'PostgreSQL' : 'SQLite',
        databaseUp,
        mqtt: { status: ctx.mqtt?.status() ?? 'off', mode: ctx.mqtt ? (ctx.external ? 'external' : 'embedded') : 'off', port: ctx.mqtt?.port ?? null },
        devices: { total, online, connected: ctx.mqtt?.connectedCount() ?? null },
        counters,
        process: processHealth(),
        at: now,
      };
    },

    /** Refused messages and connections, newest first (a sample: one per device and reason per minute). */
    async ingestRejects(q: { reason?: string; keyword?: string; pageNo: number; pageSize: number }): Promise<Page<IngestRejectRow>> {
      let query = db.selectFrom('ingest_reject').leftJoin('tenant', 'tenant.id', 'ingest_reject.tenant_id')
        .select(['ingest_reject.id', 'ingest_reject.at', 'tenant.code as tenant_code', 'ingest_reject.device_code', 'ingest_reject.topic', 'ingest_reject.reason', 'ingest_reject.detail']);
      if (q.reason) query = query.where('ingest_reject.reason', '=', q.reason);
      if (q.keyword) query = query.where('ingest_reject.device_code', 'like', `%${q.keyword}%`);
      const page = await paginate(query, q, (x) => x.orderBy('ingest_reject.id', 'desc'));
      return {
        total: page.total,
        rows: page.rows.map((r) => ({
          id: r.id, at: r.at, tenantCode: r.tenant_code, deviceCode: r.device_code, topic: r.topic, reason: r.reason,
          reasonLabel: INGEST_REJECT_REASONS[r.reason as keyof typeof INGEST_REJECT_REASONS] ?? r.reason, detail: r.detail,
        })),
      };
    },

    /** The ingest counters summed over every process, and the latest refused messages. */
    async ingestStats(tenantId: number | null) {
      let rejects = db.selectFrom('ingest_reject').select(['device_code', 'topic', 'reason', 'detail', 'at']).orderBy('id', 'desc').limit(100);
      if (tenantId !== null) rejects = rejects.where('tenant_id', '=', tenantId);
      return {
        counters: tenantId === null ? Object.fromEntries(await counterTotals()) : null,
        rejects: (await rejects.execute()).map((r) => ({ deviceCode: r.device_code, topic: r.topic, reason: r.reason, detail: r.detail, at: r.at })),
      };
    },
  };
}

export type TelemetryService = ReturnType<typeof createTelemetryService>;
