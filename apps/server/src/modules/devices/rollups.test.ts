import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillRollups } from '../../db/migrations/013-rollups.ts';
import { createTenantWithProject, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { createTestDevice } from './test-fixtures.ts';

/**
 * Roll-ups (hour: UTC hour; day: Asia/Shanghai day) written by the real ingest path (the batch writer and its sink:
 * the SQLite worker, or PostgreSQL with DATABASE_URL) and read through the device core, on hand-built readings with
 * known results. Every value is a multiple of 1/4, so sums are exact in floating point whatever the order.
 */
let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;

const H = 3_600_000;
const DAY = 24 * H;
/** 00:00 of a day in Shanghai */
const cst = (iso: string) => Date.parse(`${iso}+08:00`);

beforeAll(async () => {
  k = await startTestKelvin();
  a = await createTenantWithProject(k.db, 'rollupa', ['devicemonitor']);
});
afterAll(() => k?.close());

const core = () => k.kelvin.devices;
const newDevice = async () => (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20130' })).id;

type Reading = [deviceId: number, ts: number, fields: Record<string, number>];

/** One ingest batch (one transaction) holding these reports. */
async function batch(readings: Reading[]) {
  const writer = core().ingest.writer;
  const done = readings.map(([deviceId, ts, fields]) => writer.enqueue({
    deviceId, deviceType: 'device20130', tenantId: a.tenantId, projectId: a.projectId, heartbeatMs: 60_000, receivedAt: Date.now(), ts,
    points: Object.entries(fields).map(([code, num]) => ({ code, num, txt: null })),
  }));
  await writer.flush();
  await Promise.all(done);
}

const rows = (deviceId: number, grain: 'hour' | 'day', field = 'f48') =>
  core().rollups({ deviceIds: [deviceId], fields: [field], grain, from: 0, to: Date.parse('2100-01-01') });
const pick = (r: { bucket: number; n: number; first_num: number; last_num: number; delta: number }) =>
  ({ bucket: r.bucket, n: r.n, first: r.first_num, last: r.last_num, delta: r.delta });

describe('设备汇总：按时/按日（上海时区）', () => {
  it('a reading at 23:59:59 belongs to that day, one at 00:00:00 to the next (CST), and usage adds the step between them', async () => {
    const dev = await newDevice();
    const midnight = cst('2030-03-01T00:00:00');
    await batch([[dev, midnight - 2 * H, { f48: 100, f03: 20 }], [dev, midnight - 1000, { f48: 105, f03: 22 }]]);
    await batch([[dev, midnight, { f48: 106, f03: 18 }], [dev, midnight + 30 * 60_000, { f48: 110, f03: 19 }]]);

    expect((await rows(dev, 'day')).map(pick)).toEqual([
      { bucket: midnight - DAY, n: 2, first: 100, last: 105, delta: 5 },
      { bucket: midnight, n: 2, first: 106, last: 110, delta: 4 },
    ]);
    expect((await rows(dev, 'hour')).map(pick)).toEqual([
      { bucket: midnight - 2 * H, n: 1, first: 100, last: 100, delta: 0 },
      { bucket: midnight - H, n: 1, first: 105, last: 105, delta: 0 },
      { bucket: midnight, n: 2, first: 106, last: 110, delta: 4 },
    ]);
    const day = await core().usage({ deviceIds: [dev], field: 'f48', grain: 'day', from: midnight - DAY, to: midnight + DAY });
    expect(day).toEqual([{ device_id: dev, bucket: midnight - DAY, usage: 5 }, { device_id: dev, bucket: midnight, usage: 5 }]);
    const hour = await core().usage({ deviceIds: [dev], field: 'f48', grain: 'hour', from: midnight - 2 * H, to: midnight + H });
    expect(hour.map((r) => r.usage)).toEqual([0, 5, 5]);
    // February and March in Shanghai: the midnight step falls to March
    const month = await core().usage({ deviceIds: [dev], field: 'f48', grain: 'month', from: cst('2030-02-01T00:00:00'), to: cst('2030-04-01T00:00:00') });
    expect(month).toEqual([{ device_id: dev, bucket: cst('2030-02-01T00:00:00'), usage: 5 }, { device_id: dev, bucket: midnight, usage: 5 }]);
    const stats = await core().stats({ deviceIds: [dev], fields: ['f03'], grain: 'day', from: midnight - DAY, to: midnight + DAY });
    expect(stats).toEqual([
      { device_id: dev, field_code: 'f03', bucket: midnight - DAY, n: 2, min: 20, max: 22, avg: 21 },
      { device_id: dev, field_code: 'f03', bucket: midnight, n: 2, min: 18, max: 19, avg: 18.5 },
    ]);
    const monthly = await core().stats({ deviceIds: [dev], fields: ['f03'], grain: 'month', from: cst('2030-02-01T00:00:00'), to: cst('2030-04-01T00:00:00') });
    expect(monthly.map((s) => [s.bucket, s.n, s.min, s.max, s.avg])).toEqual([[cst('2030-02-01T00:00:00'), 2, 20, 22, 21], [midnight, 2, 18, 19, 18.5]]);
  });

  it('a replaced meter (the counter drops) counts 0 for the drop and goes on from the new value, inside a bucket and across buckets', async () => {
    const dev = await newDevice();
    const d1 = cst('2030-04-01T00:00:00');
    // day 1: 500 → 520, replaced, 3 → 10; day 2: a new meter again, 2 → 6
    await batch([[dev, d1 + 8 * H, { f48: 500 }], [dev, d1 + 9 * H, { f48: 520 }], [dev, d1 + 10 * H, { f48: 3 }], [dev, d1 + 11 * H, { f48: 10 }]]);
    await batch([[dev, d1 + DAY + 8 * H, { f48: 2 }], [dev, d1 + DAY + 9 * H, { f48: 6 }]]);
    expect((await rows(dev, 'day')).map(pick)).toEqual([
      { bucket: d1, n: 4, first: 500, last: 10, delta: 27 },
      { bucket: d1 + DAY, n: 2, first: 2, last: 6, delta: 4 },
    ]);
    const usage = await core().usage({ deviceIds: [dev], field: 'f48', grain: 'day', from: d1, to: d1 + 2 * DAY });
    expect(usage.map((u) => u.usage)).toEqual([27, 4]);
    // the drop arrives in a later batch than the bucket's earlier readings: the merge must not count it either
    await batch([[dev, d1 + DAY + 10 * H, { f48: 1 }]]);
    await batch([[dev, d1 + DAY + 11 * H, { f48: 5.5 }]]);
    expect((await rows(dev, 'day'))[1]).toMatchObject({ n: 4, first_num: 2, last_num: 5.5, delta: 8.5 });
  });

  it('a late reading inside a bucket and one before its first reading: the bucket is recomputed from history', async () => {
    const dev = await newDevice();
    const d = cst('2030-05-01T00:00:00');
    // the old meter read 500 at 10:00, the new one 3 at 12:00
    await batch([[dev, d + 10 * H, { f48: 500, f03: 20 }], [dev, d + 12 * H, { f48: 3, f03: 24 }]]);
    expect((await rows(dev, 'day')).map(pick)).toEqual([{ bucket: d, n: 2, first: 500, last: 3, delta: 0 }]);
    // the old meter's last reading (510 at 11:00) arrives late: 500 → 510 counts, 510 → 3 does not
    await batch([[dev, d + 11 * H, { f48: 510, f03: 30 }]]);
    expect((await rows(dev, 'day')).map(pick)).toEqual([{ bucket: d, n: 3, first: 500, last: 3, delta: 10 }]);
    // one before the first reading of the day (490 at 08:00): first moves, 490 → 500 counts
    await batch([[dev, d + 8 * H, { f48: 490, f03: 16 }]]);
    const [day] = await rows(dev, 'day');
    expect(day).toMatchObject({ bucket: d, n: 4, sum: 1503, min: 3, max: 510, first_ts: d + 8 * H, first_num: 490, last_ts: d + 12 * H, last_num: 3, delta: 20 });
    const [temps] = await core().stats({ deviceIds: [dev], fields: ['f03'], grain: 'day', from: d, to: d + DAY });
    expect(temps).toMatchObject({ n: 4, min: 16, max: 30, avg: 22.5 });
    // late inside an hour bucket: 12:00 then 12:40 then (late) 12:20
    await batch([[dev, d + 12 * H + 40 * 60_000, { f48: 9 }]]);
    await batch([[dev, d + 12 * H + 20 * 60_000, { f48: 1 }]]);
    const hour = (await rows(dev, 'hour')).find((r) => r.bucket === d + 12 * H)!;
    expect(pick(hour)).toEqual({ bucket: d + 12 * H, n: 3, first: 3, last: 9, delta: 8 });
    expect(await rowsEqualHistory(dev)).toBe(true);
  });

  it('the same report delivered twice (in two batches and twice in one batch) changes nothing', async () => {
    const dev = await newDevice();
    const d = cst('2030-06-01T00:00:00');
    const first: Reading[] = [[dev, d + H, { f48: 10, f03: 20 }], [dev, d + 2 * H, { f48: 12, f03: 21 }]];
    await batch(first);
    const before = { hour: await rows(dev, 'hour'), day: await rows(dev, 'day') };
    await batch(first);
    await batch([first[1], first[1], first[0]]);
    expect({ hour: await rows(dev, 'hour'), day: await rows(dev, 'day') }).toEqual(before);
    expect(before.day.map(pick)).toEqual([{ bucket: d, n: 2, first: 10, last: 12, delta: 2 }]);
    // a new reading together with a duplicate: only the new one is added
    await batch([first[1], [dev, d + 3 * H, { f48: 15 }]]);
    expect((await rows(dev, 'day')).map(pick)).toEqual([{ bucket: d, n: 3, first: 10, last: 15, delta: 5 }]);
  });

  it('usage over a range whose previous bucket lies before the range (days and months earlier) counts the step from it', async () => {
    const dev = await newDevice();
    const other = await newDevice();
    const jan = cst('2030-01-15T00:00:00');
    const mar = cst('2030-03-01T00:00:00');
    await batch([[dev, jan + 9 * H, { f48: 1000 }], [dev, jan + 10 * H, { f48: 1001 }], [other, jan + 9 * H, { f48: 50 }]]);
    await batch([[dev, mar + 9 * H, { f48: 1007 }], [dev, mar + 10 * H, { f48: 1010 }], [other, mar + 9 * H, { f48: 40 }], [other, mar + 10 * H, { f48: 42 }]]);
    const days = await core().usage({ deviceIds: [dev, other], field: 'f48', grain: 'day', from: mar, to: mar + DAY });
    // dev: 3 inside the day + 6 since January; other: replaced meter (50 → 40) counts from its first reading
    expect(days).toEqual([{ device_id: dev, bucket: mar, usage: 9 }, { device_id: other, bucket: mar, usage: 2 }]);
    const months = await core().usage({ deviceIds: [dev], field: 'f48', grain: 'month', from: cst('2030-02-01T00:00:00'), to: cst('2030-04-01T00:00:00') });
    expect(months).toEqual([{ device_id: dev, bucket: mar, usage: 9 }]);
    const hours = await core().usage({ deviceIds: [dev], field: 'f48', grain: 'hour', from: mar, to: mar + DAY });
    expect(hours).toEqual([{ device_id: dev, bucket: mar + 9 * H, usage: 6 }, { device_id: dev, bucket: mar + 10 * H, usage: 3 }]);
    // the whole year: January 1 + February nothing + March 9
    const year = await core().usage({ deviceIds: [dev], field: 'f48', grain: 'month', from: cst('2030-01-01T00:00:00'), to: cst('2031-01-01T00:00:00') });
    expect(year.map((m) => m.usage)).toEqual([1, 9]);

    // added up per bucket in the database: dev + other, with how many devices each bucket and the whole range count
    const third = await newDevice(); // no readings: counted by neither
    const ids = [dev, other, third];
    expect(await core().usageTotals({ deviceIds: ids, field: 'f48', grain: 'day', from: mar, to: mar + DAY }))
      .toEqual({ buckets: [{ bucket: mar, usage: 11, devices: 2 }], devices: 2 });
    // hours of 1 March: 09:00 dev 6 (1001 → 1007) + other 0 (replaced: counts from 40); 10:00 dev 3 + other 2
    expect(await core().usageTotals({ deviceIds: ids, field: 'f48', grain: 'hour', from: mar, to: mar + DAY }))
      .toEqual({ buckets: [{ bucket: mar + 9 * H, usage: 6, devices: 2 }, { bucket: mar + 10 * H, usage: 5, devices: 2 }], devices: 2 });
    // months of the year: January dev 1 + other 0 (its first reading); March 11
    expect(await core().usageTotals({ deviceIds: ids, field: 'f48', grain: 'month', from: cst('2030-01-01T00:00:00'), to: cst('2031-01-01T00:00:00') }))
      .toEqual({ buckets: [{ bucket: cst('2030-01-01T00:00:00'), usage: 1, devices: 2 }, { bucket: mar, usage: 11, devices: 2 }], devices: 2 });
    expect(await core().usageTotals({ deviceIds: [third], field: 'f48', grain: 'day', from: mar, to: mar + DAY })).toEqual({ buckets: [], devices: 0 });
  });

  it('after random batches (late, duplicate, resets) each roll-up equals the aggregate of history, and the backfill writes the same rows', async () => {
    const base = cst('2030-07-01T00:00:00');
    const reading = fc.tuple(fc.integer({ min: 0, max: 3 * 24 * 4 - 1 }), fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 400 }));
    await fc.assert(fc.asyncProperty(fc.array(fc.array(reading, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 6 }), async (batches) => {
      const dev = await newDevice();
      for (const b of batches) {
        // readings every 15 minutes over three days; values in quarters; a batch may repeat earlier readings
        await batch(b.map(([slot, energy, temp]) => [dev, base + slot * 15 * 60_000, { f48: energy / 4, f03: temp / 4 }]));
      }
      expect(await rowsEqualHistory(dev)).toBe(true);
    }), { numRuns: 15 });

    const snapshot = async () => ({
      hour: await k.db.selectFrom('device_rollup_hour').selectAll().orderBy('device_id').orderBy('field_code').orderBy('bucket').execute(),
      day: await k.db.selectFrom('device_rollup_day').selectAll().orderBy('device_id').orderBy('field_code').orderBy('bucket').execute(),
    });
    const built = await snapshot();
    expect(built.day.length).toBeGreaterThan(20);
    await k.db.deleteFrom('device_rollup_hour').execute();
    await k.db.deleteFrom('device_rollup_day').execute();
    await backfillRollups(k.db);
    expect(await snapshot()).toEqual(built);
  });
});

/** The roll-up rows of a device, both grains, against an aggregate computed here from its history. */
async function rowsEqualHistory(deviceId: number): Promise<boolean> {
  const history = await k.db.selectFrom('device_history').select(['field_code', 'ts', 'num']).where('device_id', '=', deviceId).where('num', 'is not', null)
    .orderBy('field_code').orderBy('ts').execute();
  for (const [grain, bucketOf] of [['hour', (ts: number) => ts - (ts % H)], ['day', (ts: number) => ts - ((ts + 8 * H) % DAY)]] as const) {
    const expected = new Map<string, { n: number; sum: number; min: number; max: number; first_ts: number; first_num: number; last_ts: number; last_num: number; delta: number }>();
    for (const h of history) {
      const key = `${h.field_code}|${bucketOf(h.ts)}`;
      const num = h.num!;
      const e = expected.get(key);
      if (!e) {
        expected.set(key, { n: 1, sum: num, min: num, max: num, first_ts: h.ts, first_num: num, last_ts: h.ts, last_num: num, delta: 0 });
        continue;
      }
      Object.assign(e, {
        n: e.n + 1, sum: e.sum + num, min: Math.min(e.min, num), max: Math.max(e.max, num),
        delta: e.delta + Math.max(num - e.last_num, 0), last_ts: h.ts, last_num: num,
      });
    }
    const stored = await core().rollups({ deviceIds: [deviceId], fields: ['f48', 'f03'], grain, from: 0, to: Date.parse('2100-01-01') });
    const actual = new Map(stored.map(({ device_id: _d, field_code, bucket, ...rest }) => [`${field_code}|${bucket}`, rest]));
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
  }
  return true;
}
