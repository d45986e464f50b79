import { DATADEMO_MAX_RANGE_MS, DEVICE_TYPE_BY_CODE, datademoResolution, type DatademoDevice, type DatademoSeries, type Page } from '@kelvin/contracts';
import { invalid, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/scope.ts';
import { codeOrNameLike } from '../devices/index.ts';
import { loadPlaces } from './places.ts';
import type { ReportDeps } from './service.ts';

/** The numeric fields of a type (what can be charted), hidden ones left out. */
function numericFields(type: string) {
  return (DEVICE_TYPE_BY_CODE.get(type)?.fields ?? []).filter((f) => f.kind === 'number' && !f.hidden).map((f) => ({ code: f.code, label: f.label, unit: f.unit ?? '' }));
}

/**
 * 数据示例 (datademo): one device field over a period — up to 7 days every raw reading (the core's readingsIn), longer
 * the mean of each hour (≤ 62 days) or day (≤ two years) from the roll-ups; the chart gets them all, the table the
 * same points newest first by page.
 */
export function createDatademo(deps: ReportDeps) {
  const { primaryDb, core, projects } = deps;

  async function readings(actor: Actor, q: { deviceId: number; field: string; from: number; to: number }) {
    const device = await core.devices.deviceById(actor.scope, q.deviceId);
    if (!device) throw notFound('设备');
    const field = numericFields(device.device_type).find((f) => f.code === q.field);
    if (!field) throw invalid('该设备没有这个数值字段', ['field']);
    if (q.to <= q.from) throw invalid('结束时间必须晚于开始时间', ['to']);
    if (q.to - q.from > DATADEMO_MAX_RANGE_MS) throw invalid('最多查询两年，请缩短时间范围', ['from']);
    const resolution = datademoResolution(q.from, q.to);
    if (resolution !== 'raw') {
      // longer periods: the mean of each hour or day from the roll-ups (never a scan of months of raw history)
      const stats = await core.stats({ deviceIds: [device.id], fields: [field.code], grain: resolution, from: q.from, to: q.to });
      return { field, resolution, points: stats.map((r): [number, number] => [r.bucket, Math.round(r.avg * 1e6) / 1e6]) };
    }
    // readingsIn answers (from, until]; the period is [from, to)
    const rows = await core.devices.readingsIn([device.id], [field.code], q.from - 1, q.to - 1);
    return { field, resolution, points: rows.map((r): [number, number] => [Number(r.ts), Number(r.num)]) };
  }

  return {
    /** Devices of the project (the caller's scope) for the searchable select: the first 50 matches by code. */
    async devices(actor: Actor, q: { projectId: number; keyword?: string }): Promise<DatademoDevice[]> {
      const project = await projects.project(actor.scope, q.projectId);
      let query = core.devices.scopedDevices(actor.scope).where('project_id', '=', project.id);
      if (q.keyword) query = query.where(codeOrNameLike(q.keyword));
      const rows = await query.select(['id', 'device_code', 'device_name', 'device_type', 'area_id']).orderBy('device_code').limit(50).execute();
      const places = await loadPlaces(primaryDb, project.tenant_id, project.id);
      return rows.map((r) => ({
        id: r.id, deviceCode: r.device_code, deviceName: r.device_name, typeName: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type,
        location: places.pathOf(r.area_id), fields: numericFields(r.device_type),
      })).filter((d) => d.fields.length > 0);
    },

    async series(actor: Actor, q: { deviceId: number; field: string; from: number; to: number }): Promise<DatademoSeries> {
      const { field, resolution, points } = await readings(actor, q);
      return { field: field.code, label: field.label, unit: field.unit, from: q.from, to: q.to, resolution, points };
    },

    /** The same readings newest first, by page. */
    async page(actor: Actor, q: { deviceId: number; field: string; from: number; to: number; pageNo: number; pageSize: number }): Promise<Page<{ ts: number; value: number }>> {
      const { points } = await readings(actor, q);
      const start = points.length - (q.pageNo - 1) * q.pageSize;
      const slice = points.slice(Math.max(0, start - q.pageSize), Math.max(0, start)).reverse();
      return { total: points.length, rows: slice.map(([ts, value]) => ({ ts, value })) };
    },
  };
}

export type Datademo = ReturnType<typeof createDatademo>;
