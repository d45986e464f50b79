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

export function createTelemetryService(db: Db, readDb: Db = db) {
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
      const bucketMs = Math.max(1, Math.ceil((q.to - q.from) / HISTORY_MAX_POINTS));
      // literals (validated integers), so the grouped expression reads the same in SELECT and GROUP BY on PostgreSQL
      const bucket = sql<number>`cast((ts - ${sql.lit(q.from)}) / ${sql.lit(bucketMs)} as bigint)`;
      const rows = wanted.length
        ? await readDb.selectFrom('device_history')
          .select([
            'field_code',
            bucket.as('bucket'),
            sql<number>`min(ts)`.as('t'),
            sql<number>`avg(num)`.as('avg'),
            sql<number>`min(num)`.as('min'),
            sql<number>`max(num)`.as('max'),
            sql<number>`count(*)`.as('n'),
          ])
          .where('device_id', '=', device.id)
          .where('field_code', 'in', wanted)
          .where('ts', '>=', q.from)
          .where('ts', '<', q.to)
          .where('num', 'is not', null)
          .groupBy(['field_code', bucket])
          .orderBy('field_code')
          .orderBy(sql`min(ts)`)
          .execute()
        : [];
      const round = (v: number) => Math.round(v * 1000) / 1000;
      const steps = wanted.filter((c) => isStepField(fieldOf(def, c)));
      // a set point or a state holds its value: each bucket gives the last value reported in it, at its time
      const last = steps.length
        ? (await sql<{ field_code: string; t: number; v: number }>`
          select field_code, t, v from (
            select field_code, ts as t, num as v,
              row_number() over (partition by field_code, cast((ts - ${sql.lit(q.from)}) / ${sql.lit(bucketMs)} as bigint) order by ts desc) as rn
            from device_history
            where device_id = ${device.id} and field_code in (${sql.join(steps)}) and ts >= ${q.from} and ts < ${q.to} and num is not null
          ) x where rn = 1 order by field_code, t`.execute(readDb)).rows
        : [];
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
