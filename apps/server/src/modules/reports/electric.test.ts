import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TARIFF } from '@kelvin/contracts';
import { createArea, type TenantWithProject, type TestClient } from '../../test/harness.ts';
import { createTestDevice, ingestKwh } from '../devices/test-fixtures.ts';
import { cst, startReportSuite, type ReportSuite } from './test-fixtures.ts';

/**
 * 电表能耗视图 by hand. The tariff's default periods: 08–11 峰, 11–18 平, 18–22 峰, 22–08 谷 (TOU pricing off until
 * 04-02); from 2025-04-02 a version with TOU on and holidays billed as 谷, and 04-02 is a holiday.
 * Meter A (1号楼), 2025-04-01: 00:30 → 100 (first reading), 01:30 → 104 (+4 谷), 09:30 → 110 (+6 峰), 12:30 → 113 (+3 平),
 *   19:30 → 121 (+8 峰), 23:30 → 122 (+1 谷)  ⇒ 峰 14, 平 3, 谷 5, 合计 22.
 * Meter B (2号楼), 2025-04-02 (holiday): 10:30 → 0, 10:45 → 2 (+2 at 10:00, a 峰 hour but the holiday is 谷) ⇒ 谷 2.
 */

let k: TestClient;
let a: TenantWithProject;
let get: ReportSuite['get'];
const APRIL = cst('2025-04-01T00:00:00');
const MAY = cst('2025-05-01T00:00:00');

const batch = (readings: [number, string, number][]) => ingestKwh(k, a, readings);

beforeAll(async () => {
  ({ k, a, get } = await startReportSuite('elecv', ['project', 'electricMeterEnergyView', 'electricMeterEnergyView:export']));
  const building2 = await createArea(k.db, { tenantId: a.tenantId, parentId: a.projectId, level: 'building', name: '2号楼' });
  const meterA = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20090', areaId: a.buildingId, name: '电表A' })).id;
  const meterB = (await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20090', areaId: building2, name: '电表B' })).id;
  const doc = { ...DEFAULT_TARIFF, tou: { ...DEFAULT_TARIFF.tou, enabled: true, holidayKind: 'valley' } };
  await k.db.insertInto('billing_tariff').values({ tenant_id: a.tenantId, project_id: a.projectId, scheme: 1, doc: JSON.stringify(doc), effective_from: cst('2025-04-02T00:00:00'), remark: null, created_by: null, created_at: Date.now() }).execute();
  await k.db.insertInto('holiday').values({ tenant_id: a.tenantId, project_id: 0, date: '2025-04-02', type: 'holiday', name: '测试假日', created_at: Date.now() }).execute();
  await batch([[meterA, '2025-04-01T00:30:00', 100], [meterA, '2025-04-01T01:30:00', 104], [meterA, '2025-04-01T09:30:00', 110], [meterA, '2025-04-01T12:30:00', 113],
    [meterA, '2025-04-01T19:30:00', 121], [meterA, '2025-04-01T23:30:00', 122], [meterB, '2025-04-02T10:30:00', 0], [meterB, '2025-04-02T10:45:00', 2]]);
});
afterAll(() => k?.close());

describe('电表能耗视图 electricMeterEnergyView', () => {
  const q = (extra: string) => `/api/v1/datacenter/electricMeterEnergyView?projectId=${a.projectId}&from=${APRIL}&to=${MAY}${extra}`;

  it('by meter and day: the hours split by the periods, a holiday whole as 谷', async () => {
    const page = await get(q('&grain=day&kind=meter'));
    expect(page.rows.map((r: Record<string, unknown>) => [r.bucket, r.name, r.peak, r.flat, r.valley, r.total])).toEqual([
      ['2025-04-01', expect.stringContaining('电表A'), 14, 3, 5, 22],
      ['2025-04-02', expect.stringContaining('电表B'), 0, 0, 2, 2],
    ]);
    expect(page.totals).toMatchObject({ peak: 14, flat: 3, valley: 7, total: 24 });
    expect(page.chart.x).toHaveLength(30);
    expect(page.chart.series.peak.slice(0, 3)).toEqual([14, 0, null]);
    expect(page.notes[0]).toContain('08:00–11:00 峰');
  });

  it('by building, by project and by month', async () => {
    const byBuilding = await get(q('&grain=day&kind=building'));
    expect(byBuilding.rows.map((r: Record<string, unknown>) => [r.name, r.total])).toEqual([['1号楼', 22], ['2号楼', 2]]);
    const month = await get(q('&grain=month&kind=project'));
    expect(month.rows).toEqual([expect.objectContaining({ bucket: '2025-04', peak: 14, flat: 3, valley: 7, total: 24, valleyShare: 0.291667 })]);
    const one = await get(q(`&grain=month&kind=project&areaId=${a.buildingId}`));
    expect(one.totals.total).toBe(22);
  });
});
