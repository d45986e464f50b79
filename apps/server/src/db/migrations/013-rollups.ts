import { sql, type Kysely } from 'kysely';
import { bigint, dialectOf, notNull } from '../dialect.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Asia/Shanghai is UTC+8 all year (no daylight saving): a day starts at 16:00 UTC of the day before. */
const CST = 8 * HOUR;

/**
 * Hourly and daily roll-ups of numeric readings per device and field (device core): the reports over a month or a
 * year read these instead of device_history. Key (device, field, bucket); bucket = start of the UTC hour, or start
 * of the day in Asia/Shanghai. n, sum, min, max over the readings; first/last reading; delta = the sum of the
 * positive steps between consecutive readings inside the bucket (a drop is a counter reset or a replaced meter and
 * counts 0). The ingest writer keeps them in the transaction of the history insert (telemetry/rollup.mjs); this
 * migration fills them once from the history there is.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  for (const table of ['device_rollup_hour', 'device_rollup_day']) {
    let t = db.schema.createTable(table)
      .addColumn('device_id', bigint, notNull)
      .addColumn('field_code', 'varchar(16)', notNull)
      .addColumn('bucket', bigint, notNull)
      .addColumn('n', bigint, notNull)
      .addColumn('sum', 'double precision', notNull)
      .addColumn('min', 'double precision', notNull)
      .addColumn('max', 'double precision', notNull)
      .addColumn('first_ts', bigint, notNull)
      .addColumn('first_num', 'double precision', notNull)
      .addColumn('last_ts', bigint, notNull)
      .addColumn('last_num', 'double precision', notNull)
      .addColumn('delta', 'double precision', notNull)
      .addPrimaryKeyConstraint(`${table}_pk`, ['device_id', 'field_code', 'bucket']);
    if (!postgres) t = t.modifyEnd(sql`without rowid`);
    await t.execute();
  }
  await backfillRollups(db);
}

/**
 * Fills both roll-ups from device_history in one statement each (window functions, the same on both databases):
 * per (device, field, bucket) the count, sum, min, max, first and last reading and the sum of positive steps.
 * Exported for the test that checks it against the ingest path.
 */
export async function backfillRollups(db: Kysely<any>): Promise<void> {
  const grains = [
    { table: 'device_rollup_hour', bucket: sql`(ts / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}` },
    { table: 'device_rollup_day', bucket: sql`((ts + ${sql.lit(CST)}) / ${sql.lit(DAY)}) * ${sql.lit(DAY)} - ${sql.lit(CST)}` },
  ];
  for (const { table, bucket } of grains) {
    await sql`
      INSERT INTO ${sql.table(table)} (device_id, field_code, bucket, n, "sum", "min", "max", first_ts, first_num, last_ts, last_num, delta)
      SELECT device_id, field_code, bucket, count(*), sum(num), min(num), max(num), min(ts), min(first_num), max(ts), min(last_num),
             sum(CASE WHEN step > 0 THEN step ELSE 0 END)
      FROM (
        SELECT device_id, field_code, ts, num, bucket,
               num - lag(num) OVER (PARTITION BY device_id, field_code, bucket ORDER BY ts) AS step,
               first_value(num) OVER (PARTITION BY device_id, field_code, bucket ORDER BY ts) AS first_num,
               first_value(num) OVER (PARTITION BY device_id, field_code, bucket ORDER BY ts DESC) AS last_num
        FROM (SELECT device_id, field_code, ts, num, ${bucket} AS bucket FROM device_history WHERE num IS NOT NULL) h
      ) w
      GROUP BY device_id, field_code, bucket
    `.execute(db);
  }
}
