// Hourly and daily roll-ups of numeric readings (device_rollup_hour / device_rollup_day), kept by both ingest sinks
// in the transaction of the history insert, from the history rows that insert actually added (a re-delivered report
// adds none, so it changes nothing). Plain JavaScript: the SQLite writer (a worker thread, .mjs) and the PostgreSQL
// sink (TypeScript, through rollup.d.mts) share it.
//
// Per batch: the inserted rows are aggregated here per (device, field, bucket), then one multi-row upsert per table
// merges them into the stored rows: n and sum add, min/max, first if earlier, last if later, and delta — when the
// batch starts after the stored row's last reading — old delta + batch delta + the step between the two (if ≥ 0).
// A batch reaching into or before the stored range (a late reading) gets delta = -1 (never a real value: deltas are
// sums of positive steps) and returns the row; the writer then recomputes that bucket from device_history, still
// inside the same transaction (`aggregate` again, written with the `replace` upsert).

export const HOUR = 3_600_000;
export const DAY = 86_400_000;
/** Asia/Shanghai is UTC+8 all year. */
export const CST = 8 * HOUR;

export const GRAINS = [
  { table: 'device_rollup_hour', span: HOUR, bucketOf: (ts) => Math.floor(ts / HOUR) * HOUR },
  { table: 'device_rollup_day', span: DAY, bucketOf: (ts) => Math.floor((ts + CST) / DAY) * DAY - CST },
];

/** Columns of one roll-up row, in the order of the flat arrays below. */
export const ROLLUP_COLUMNS = ['device_id', 'field_code', 'bucket', 'n', 'sum', 'min', 'max', 'first_ts', 'first_num', 'last_ts', 'last_num', 'delta'];
export const ROLLUP_WIDTH = ROLLUP_COLUMNS.length;

const byDeviceFieldTs = (a, b) => (a[0] - b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || (a[2] - b[2]);

/**
 * Readings [device_id, field_code, ts, num] (any order; num null is skipped) → per grain, the roll-up rows of these
 * readings alone as one flat array (ROLLUP_WIDTH values per row).
 */
export function aggregate(readings, grains = GRAINS) {
  const rows = readings.filter((r) => r[3] !== null && r[3] !== undefined).sort(byDeviceFieldTs);
  return grains.map(({ bucketOf }) => {
    const out = [];
    let cur = null;
    for (const [device, field, ts, num] of rows) {
      const bucket = bucketOf(ts);
      if (cur && cur[0] === device && cur[1] === field && cur[2] === bucket) {
        cur[3] += 1;
        cur[4] += num;
        if (num < cur[5]) cur[5] = num;
        if (num > cur[6]) cur[6] = num;
        if (num > cur[10]) cur[11] += num - cur[10];
        cur[9] = ts;
        cur[10] = num;
      } else {
        if (cur) out.push(...cur);
        cur = [device, field, bucket, 1, num, num, num, ts, num, ts, num, 0];
      }
    }
    if (cur) out.push(...cur);
    return out;
  });
}

/**
 * The upsert of `rows` roll-up rows into `table`. `merge`: add a batch to what is stored (late batches come back
 * with delta -1 through RETURNING); `replace`: overwrite with a recomputed bucket. PostgreSQL takes one array per
 * column (unnest), SQLite a VALUES list of `rows` tuples.
 */
export function upsertSql(dialect, table, mode, rows) {
  const pg = dialect === 'postgres';
  const least = pg ? 'least' : 'min';
  const greatest = pg ? 'greatest' : 'max';
  const cols = ROLLUP_COLUMNS.map((c) => `"${c}"`).join(', ');
  const source = pg
    ? 'SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::bigint[], $4::bigint[], $5::float8[], $6::float8[], $7::float8[], $8::bigint[], $9::float8[], $10::bigint[], $11::float8[], $12::float8[])'
    : `VALUES ${Array(rows).fill(`(${Array(ROLLUP_WIDTH).fill('?').join(',')})`).join(',')}`;
  const t = table;
  const set = mode === 'replace'
    ? ROLLUP_COLUMNS.slice(3).map((c) => `"${c}" = excluded."${c}"`).join(', ')
    : [
      `n = ${t}.n + excluded.n`,
      `"sum" = ${t}."sum" + excluded."sum"`,
      `"min" = ${least}(${t}."min", excluded."min")`,
      `"max" = ${greatest}(${t}."max", excluded."max")`,
      `first_ts = CASE WHEN excluded.first_ts < ${t}.first_ts THEN excluded.first_ts ELSE ${t}.first_ts END`,
      `first_num = CASE WHEN excluded.first_ts < ${t}.first_ts THEN excluded.first_num ELSE ${t}.first_num END`,
      `last_ts = CASE WHEN excluded.last_ts > ${t}.last_ts THEN excluded.last_ts ELSE ${t}.last_ts END`,
      `last_num = CASE WHEN excluded.last_ts > ${t}.last_ts THEN excluded.last_num ELSE ${t}.last_num END`,
      `delta = CASE WHEN excluded.first_ts > ${t}.last_ts THEN ${t}.delta + excluded.delta + ${greatest}(excluded.first_num - ${t}.last_num, 0) ELSE -1 END`,
    ].join(', ');
  return `INSERT INTO ${t} (${cols}) ${source} ON CONFLICT (device_id, field_code, bucket) DO UPDATE SET ${set}`
    + (mode === 'merge' ? ' RETURNING device_id, field_code, bucket, delta' : '');
}

/** Of the rows a merge returned ([device_id, field_code, bucket, delta]), the buckets to recompute: [device_id, field_code, from, to). */
export function lateBuckets(grain, returned) {
  const out = [];
  for (const r of returned) if (r[3] < 0) out.push([Number(r[0]), r[1], Number(r[2]), Number(r[2]) + grain.span]);
  return out;
}
