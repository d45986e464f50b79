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

const byTs = (a, b) => a[2] - b[2];

/**
 * Readings [device_id, field_code, ts, num] (any order; num null is skipped) → per grain, the roll-up rows of these
 * readings alone as one flat array (ROLLUP_WIDTH values per row), ordered by device, field and bucket. The readings
 * are grouped per device and field, and only a group's few readings sorted by time (they arrive in order as a rule):
 * sorting a whole batch's readings with a three-key comparison was 8 % of the SQLite writer's time at 10,000 msg/s.
 */
export function aggregate(readings, grains = GRAINS) {
  const byDevice = new Map();
  for (const r of readings) {
    if (r[3] === null || r[3] === undefined) continue;
    let fields = byDevice.get(r[0]);
    if (!fields) byDevice.set(r[0], (fields = new Map()));
    const group = fields.get(r[1]);
    if (group) group.push(r);
    else fields.set(r[1], [r]);
  }
  /** [device, field, readings in time order], by device and field (one order of upserts for every writer) */
  const groups = [];
  for (const device of [...byDevice.keys()].sort((a, b) => a - b)) {
    const fields = byDevice.get(device);
    for (const field of [...fields.keys()].sort()) {
      const group = fields.get(field);
      for (let i = 1; i < group.length; i++) {
        if (group[i][2] < group[i - 1][2]) {
          group.sort(byTs);
          break;
        }
      }
      groups.push(group);
    }
  }
  return grains.map(({ bucketOf }) => {
    // sized first: a batch's rows are a large array, and growing one (copied into fresh memory each time) was most
    // of the time here
    let rows = 0;
    for (const group of groups) {
      let bucket = NaN;
      for (let i = 0; i < group.length; i++) {
        const b = bucketOf(group[i][2]);
        if (b !== bucket) {
          rows++;
          bucket = b;
        }
      }
    }
    const out = new Array(rows * ROLLUP_WIDTH);
    let o = 0;
    const put = (device, field, bucket, n, sum, min, max, firstTs, firstNum, lastTs, lastNum, delta) => {
      out[o++] = device;
      out[o++] = field;
      out[o++] = bucket;
      out[o++] = n;
      out[o++] = sum;
      out[o++] = min;
      out[o++] = max;
      out[o++] = firstTs;
      out[o++] = firstNum;
      out[o++] = lastTs;
      out[o++] = lastNum;
      out[o++] = delta;
    };
    for (const group of groups) {
      // the open row's values, written once its bucket ends
      const device = group[0][0];
      const field = group[0][1];
      let bucket = NaN, n = 0, sum = 0, min = 0, max = 0, firstTs = 0, firstNum = 0, lastTs = 0, lastNum = 0, delta = 0;
      for (let i = 0; i < group.length; i++) {
        const ts = group[i][2];
        const num = group[i][3];
        const b = bucketOf(ts);
        if (b === bucket) {
          n += 1;
          sum += num;
          if (num < min) min = num;
          if (num > max) max = num;
          if (num > lastNum) delta += num - lastNum;
          lastTs = ts;
          lastNum = num;
        } else {
          if (n) put(device, field, bucket, n, sum, min, max, firstTs, firstNum, lastTs, lastNum, delta);
          bucket = b;
          n = 1;
          sum = min = max = firstNum = lastNum = num;
          firstTs = lastTs = ts;
          delta = 0;
        }
      }
      put(device, field, bucket, n, sum, min, max, firstTs, firstNum, lastTs, lastNum, delta);
    }
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
