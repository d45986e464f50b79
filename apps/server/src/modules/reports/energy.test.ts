import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, type TenantWithProject, type TestClient } from '../../test/harness.ts';
import { createTestDevice, ingestKwh } from '../devices/test-fixtures.ts';
import { cst, startReportSuite, type ReportSuite } from './test-fixtures.ts';

/**
 * Energy reports on hand-built electric-meter readings (f70, kWh) written through the real ingest path, so the
 * roll-ups are the ones production keeps. Every value is a multiple of 1/4: sums are exact.
 *
 * Meter A (1号楼): 2025-03-31 23:00 → 100; 04-01 00:00 → 104; 04-01 12:00 → 110; 04-02 23:59:59 → 120;
 *                  04-03 00:00 → 121 (the 3rd);      a late reading 04-01 06:00 → 107 arrives last.
 *   use 04-01 = (104 − 100) + (110 − 104) = 10 (the step from March's last reading counts in the day it arrives);
 *   use 04-02 = 10; use 04-03 = 1 → April = 21.
 * Meter B (2号楼), replaced on 04-02: 04-01 00:00 → 500; 04-01 10:00 → 502.5; 04-02 08:00 → 3 (new meter);
 *                  04-02 20:00 → 5.25.
 *   use 04-01 = 2.5 (no reading before: counts from its first); 04-02 = 0 (the drop) + 2.25 = 2.25 → April = 4.75.
 * March 2024 (last year): meter A 2024-04-10 → 10, 2024-04-20 → 26: April 2024 = 16 → 同比 (21 − 16) / 16 = 31.25 %.
 */

let k: TestClient;
let a: TenantWithProject;
let token: string;
let get: ReportSuite['get'];
let meterA: number;
let meterB: number;
let building2: number;
const APRIL = cst('2025-04-01T00:00:00');
const MAY = cst('2025-05-01T00:00:00');

const batch = (readings: [number, string, number][]) => ingestKwh(k, a, readings);

beforeAll(async () => {
  ({ k, a, token, get } = await startReportSuite('energya', ['datacenter', 'datastats', 'annualData']));
  building2 = await createArea(k.db, { tenantId: a.tenantId, parentId: a.projectId, level: 'building', name: '2号楼' });
  meterA = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20090', areaId: a.buildingId })).id;
  meterB = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20090', areaId: building2 })).id;
  await batch([[meterA, '2024-04-10T09:00:00', 10], [meterA, '2024-04-20T09:00:00', 26]]);
  await batch([[meterA, '2025-03-31T23:00:00', 100], [meterA, '2025-04-01T00:00:00', 104], [meterA, '2025-04-01T12:00:00', 110], [meterB, '2025-04-01T00:00:00', 500], [meterB, '2025-04-01T10:00:00', 502.5]]);
  await batch([[meterA, '2025-04-02T23:59:59', 120], [meterB, '2025-04-02T08:00:00', 3], [meterB, '2025-04-02T20:00:00', 5.25]]);
  await batch([[meterA, '2025-04-03T00:00:00', 121]]);
  await batch([[meterA, '2025-04-01T06:00:00', 107]]); // late: inside a bucket already written
});
afterAll(() => k?.close());

describe('数据统计 datastats（设备汇总）', () => {
  const april = () => `projectId=${a.projectId}&from=${APRIL}&to=${MAY}&counter=f70`;

  it('by day: the day edges, the replaced meter and the late reading, the total and the chart', async () => {
    const page = await get(`/api/v1/datacenter/datastats?${april()}&grain=day&pageSize=31`);
    expect(page.total).toBe(30); // every day of April (a day without readings is a gap, not zero)
    const day = (d: string) => page.rows.find((r: { bucket: string }) => r.bucket === d);
    expect(day('2025-04-01')).toMatchObject({ usage: 12.5, devices: 2 }); // A 10 + B 2.5
    expect(day('2025-04-02')).toMatchObject({ usage: 12.25, devices: 2, change: -0.02 }); // A 10 + B 2.25; (12.25 − 12.5) / 12.5
    expect(day('2025-04-03')).toMatchObject({ usage: 1, devices: 1 });
    expect(day('2025-04-04')).toMatchObject({ usage: null, devices: 0, change: null });
    expect(page.totals).toEqual({ usage: 25.75 }); // 21 + 4.75
    expect(page.chart.x).toHaveLength(30);
    expect(page.chart.series.usage.slice(0, 4)).toEqual([12.5, 12.25, 1, null]);
  });

  it('by month, one building, by hour', async () => {
    expect((await get(`/api/v1/datacenter/datastats?${april()}&grain=month`)).rows).toEqual([{ bucket: '2025-04', usage: 25.75, devices: 2, change: null }]);
    expect((await get(`/api/v1/datacenter/datastats?${april()}&grain=month&areaId=${building2}`)).totals).toEqual({ usage: 4.75 });
    const hours = await get(`/api/v1/datacenter/datastats?projectId=${a.projectId}&from=${APRIL}&to=${APRIL + 86_400_000}&grain=hour&areaId=${a.buildingId}&pageSize=24`);
    // meter A on 04-01: 00:00 +4 (from 23:00's 100), 06:00 +3 (the late 107), 12:00 +3
    expect(hours.rows.filter((r: { usage: number | null }) => r.usage !== null).map((r: { bucket: string; usage: number }) => [r.bucket.slice(11), r.usage]))
      .toEqual([['00:00', 4], ['06:00', 3], ['12:00', 3]]);
    const tooLong = await k.call('GET', `/api/v1/datacenter/datastats?projectId=${a.projectId}&from=${APRIL}&to=${APRIL + 40 * 86_400_000}&grain=hour`, { token });
    expect(tooLong.body.msg).toContain('按小时统计最多 31 天');
  });

  it('ranks devices with their readings at both ends (useenergy)', async () => {
    const page = await get(`/api/v1/device/useenergy?${april()}`);
    expect(page.rows.map((r: { deviceId: number; usage: number; startValue: number | null; endValue: number }) => [r.deviceId, r.startValue, r.endValue, r.usage]))
      .toEqual([[meterA, 100, 121, 21], [meterB, null, 5.25, 4.75]]);
    expect(page.rows[0].share).toBeCloseTo(21 / 25.75, 6);
    expect(page.totals).toEqual({ usage: 25.75 });
  });
});

describe('年度数据 annualData', () => {
  it('twelve months against last year: 同比 (21 − 16) / 16 for meter A in April', async () => {
    const page = await get(`/api/v1/datacenter/annualData?projectId=${a.projectId}&year=2025&counter=f70&areaId=${a.buildingId}`);
    expect(page.rows).toHaveLength(12);
    expect(page.rows[3]).toEqual({ month: '4月', usage: 21, lastYear: 16, yoy: 0.3125 });
    // the meter was silent from 2024-04-20 (26) to 2025-03-31 (100): those 74 kWh arrive, and count, in March
    expect(page.rows[2]).toEqual({ month: '3月', usage: 74, lastYear: null, yoy: null });
    expect(page.rows[4]).toEqual({ month: '5月', usage: null, lastYear: null, yoy: null });
    expect(page.totals).toEqual({ usage: 95, lastYear: 16 });
    expect(page.chart.series.usage[3]).toBe(21);
  });
});

describe('the project devices and places the reports keep', () => {
  it('a renamed device, a renamed building and a moved meter show in the next report', async () => {
    const april = `projectId=${a.projectId}&from=${APRIL}&to=${MAY}&counter=f70`;
    const rowOf = async (id: number) => (await get(`/api/v1/device/useenergy?${april}`)).rows.find((r: { deviceId: number }) => r.deviceId === id);
    expect(await rowOf(meterB)).toMatchObject({ location: '2号楼' });
    expect((await get(`/api/v1/datacenter/datastats?${april}&grain=month&areaId=${building2}`)).totals).toEqual({ usage: 4.75 });

    const admin = await k.loginAdmin();
    const put = async (url: string, body: object) => expect((await k.call('PUT', url, { token: admin, body })).body.code).toBe(200);
    await put(`/api/v1/device/updatedevice/${meterB}`, { deviceName: '二号楼总表' });
    await put(`/api/v1/area/${building2}`, { name: '2号楼（南）' });
    expect(await rowOf(meterB)).toMatchObject({ deviceName: '二号楼总表', location: '2号楼（南）' });

    // meter B moves to building 1: building 2 has no meter now, building 1 has both
    expect((await k.call('PUT', `/api/v1/device/updatearea/${meterB}/${a.buildingId}`, { token: admin })).body.code).toBe(200);
    expect((await get(`/api/v1/datacenter/datastats?${april}&grain=month&areaId=${building2}`)).totals).toEqual({ usage: 0 });
    expect((await get(`/api/v1/datacenter/datastats?${april}&grain=month&areaId=${a.buildingId}`)).totals).toEqual({ usage: 25.75 });
  });
});
