import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_TYPE_BY_CODE, HISTORY_MAX_POINTS } from '@kelvin/contracts';
import { createTenantWithProject, startTestKelvin, type TenantWithProject, type TestClient } from '../../../test/harness.ts';
import { createTestDevice } from '../test-fixtures.ts';
import { createTelemetryService } from './service.ts';

const HOUR = 3_600_000;
let k: TestClient;
let t: TenantWithProject;
let deviceId: number;
// 40 days of a thermostat every 10 minutes from a time that is not on the hour: room temperature (a measurement) and
// the set point (a step), and a second device's counter
const start = Date.parse('2026-03-01T00:07:00+08:00');
const days = 40;

beforeAll(async () => {
  k = await startTestKelvin();
  t = await createTenantWithProject(k.db, 'hist', ['devicemonitor']);
  deviceId = (await createTestDevice(k, { tenantId: t.tenantId, projectId: t.projectId, type: 'device20020' })).id;
  const writer = k.kelvin.devices.ingest.writer;
  const done = [];
  for (let ts = start, i = 0; ts < start + days * 24 * HOUR; ts += 600_000, i++) {
    done.push(writer.enqueue({
      deviceId, deviceType: 'device20020', tenantId: t.tenantId, projectId: t.projectId, heartbeatMs: 60_000, receivedAt: Date.now(), ts,
      points: [
        { code: 'f03', num: 18 + ((i * 7) % 50) / 10, txt: null },
        { code: 'f04', num: 20 + (Math.floor(i / 37) % 6), txt: null },
      ],
    }));
  }
  await writer.flush();
  await Promise.all(done);
});
afterAll(() => k?.close());

describe('长时间范围的历史曲线', () => {
  it('a month from the hourly roll-ups gives the same points, ranges and last values as the history itself', async () => {
    const telemetry = createTelemetryService(k.db);
    const device = { id: deviceId, type: DEVICE_TYPE_BY_CODE.get('device20020')! };
    // not on the hour at either end: the partial hours come from the history
    const q = { from: start + 3 * 24 * HOUR + 17 * 60_000, to: start + 33 * 24 * HOUR + 41 * 60_000, fields: 'f03,f04' };
    const fromRollups = await telemetry.history(device, q);
    expect(fromRollups.bucketMs % HOUR).toBe(0);
    expect(fromRollups.bucketMs).toBeGreaterThanOrEqual((q.to - q.from) / HISTORY_MAX_POINTS);

    // the reference: the same whole-hour buckets computed from every history row in the range
    const rows = await k.db.selectFrom('device_history').select(['field_code', 'ts', 'num']).where('device_id', '=', deviceId)
      .where('ts', '>=', q.from).where('ts', '<', q.to).orderBy('ts').execute();
    const origin = Math.floor(q.from / HOUR) * HOUR;
    const buckets = new Map<string, { t: number; vs: number[]; lastT: number; last: number }>();
    for (const r of rows) {
      const key = `${r.field_code}|${Math.floor((Number(r.ts) - origin) / fromRollups.bucketMs)}`;
      const b = buckets.get(key) ?? { t: Number(r.ts), vs: [], lastT: 0, last: 0 };
      b.vs.push(Number(r.num));
      Object.assign(b, { lastT: Number(r.ts), last: Number(r.num) });
      buckets.set(key, b);
    }
    const round = (v: number) => Math.round(v * 1000) / 1000;
    const of = (field: string) => [...buckets].filter(([key]) => key.startsWith(`${field}|`)).map(([, b]) => b).sort((a, b) => a.t - b.t);
    const temp = fromRollups.series.find((s) => s.field === 'f03')!;
    expect(temp.points).toEqual(of('f03').map((b) => [b.t, round(b.vs.reduce((x, y) => x + y, 0) / b.vs.length)]));
    expect(temp.bands).toEqual(of('f03').map((b) => [b.t, round(Math.min(...b.vs)), round(Math.max(...b.vs))]));
    const setPoint = fromRollups.series.find((s) => s.field === 'f04')!;
    expect(setPoint.points).toEqual(of('f04').map((b) => [b.lastT, b.last]));
    expect(temp.points.length).toBeLessThanOrEqual(HISTORY_MAX_POINTS);
    expect(temp.points.length).toBeGreaterThan(300);
  });

  it('a week still comes from the history, bucketed from its start', async () => {
    const res = await k.call('GET', `/api/v1/device/history?deviceId=${deviceId}&from=${start}&to=${start + 7 * 24 * HOUR}&fields=f03`, { token: await k.login(t.username, t.password) });
    expect(res.body.code).toBe(200);
    expect(res.body.data.bucketMs).toBe(Math.ceil((7 * 24 * HOUR) / HISTORY_MAX_POINTS));
    expect(res.body.data.series[0].points[0][0]).toBe(start);
  });
});
