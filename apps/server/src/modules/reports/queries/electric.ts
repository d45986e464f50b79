import { TOU_KINDS, localParts, type ReportRow, type TouKind } from '@kelvin/contracts';
import { invalid } from '../../../lib/errors.ts';
import { touKindAt } from '../../billing/index.ts';
import { bucketStart, buckets, memorySource, type ReportQueryFn } from '../source.ts';
import { devicesWith } from './energy.ts';
import { tariffs } from './money.ts';

const DAY = 86_400_000;
const q6 = (v: number) => Math.round(v * 1e6) / 1e6;
type Split = Record<TouKind, number>;

/**
 * 电表能耗视图: electricity (f70) by meter, building or project, by day or month, split into 峰/平/谷. The meters keep
 * one cumulative counter (no TOU registers), so the split is of their hourly use (the core's hour roll-ups) by the
 * TOU periods of the project's tariff in force at each hour (billing config; holidays as the tariff says).
 */
const electricMeterEnergyView: ReportQueryFn = async (ctx) => {
  const { from, to, areaId } = ctx.filters;
  const grain = ctx.filters.grain === 'month' ? 'month' : 'day';
  const kind = (ctx.filters.kind ?? 'meter') as 'meter' | 'building' | 'project';
  if (!['meter', 'building', 'project'].includes(kind)) throw invalid('统计对象只能是按电表、按楼栋或按项目', ['kind']);
  if (to - from > 366 * DAY) throw invalid('电表能耗视图最长统计一年，请缩短时间范围', ['from']);
  const meters = await devicesWith(ctx, ['f70']);
  const end = Math.min(to, ctx.now);
  const [hours, docAt] = await Promise.all([
    ctx.core.usage({ deviceIds: meters.map((m) => m.id), field: 'f70', grain: 'hour', from, to: end }),
    tariffs(ctx),
  ]);
  const docs = new Set<ReturnType<typeof docAt>>();
  const holidayDates = new Set((await ctx.db.selectFrom('holiday').select(['date', 'project_id']).where('tenant_id', '=', ctx.project.tenant_id)
    .where('project_id', 'in', [0, ctx.project.id]).where('type', '=', 'holiday').where('date', '>=', localParts(from).date).where('date', '<=', localParts(end).date).execute())
    .map((h) => h.date));

  // an hour's TOU kind and bucket depend on the hour only (the tariff version in force, the time of day, a holiday):
  // worked out once per hour, not once per meter and hour
  const perHour = new Map<number, { tou: TouKind; bucket: number }>();
  const hourInfo = (hour: number) => {
    let info = perHour.get(hour);
    if (!info) {
      const doc = docAt(hour + 1);
      docs.add(doc);
      info = { tou: touKindAt(hour, doc.tou, holidayDates.has(localParts(hour).date)), bucket: bucketStart(hour, grain) };
      perHour.set(hour, info);
    }
    return info;
  };
  // the object a meter counts for: itself, its building, or the project
  const objectOf = (m: (typeof meters)[number]) => {
    if (kind === 'meter') return { id: `m${m.id}`, name: `${m.name}（${m.code}）`, location: m.location };
    if (kind === 'project') return { id: 'p', name: ctx.project.name, location: '' };
    const b = ctx.places.buildingOf(m.areaId);
    return b ? { id: `b${b.id}`, name: b.name, location: '' } : { id: 'b0', name: '（未分配楼栋）', location: '' };
  };
  const byId = new Map(meters.map((m) => [m.id, m]));
  const cells = new Map<string, { bucket: number; object: ReturnType<typeof objectOf>; split: Split }>();
  const overall = new Map<number, Split>();
  for (const h of hours) {
    const { tou, bucket } = hourInfo(h.bucket);
    const object = objectOf(byId.get(h.device_id)!);
    const key = `${bucket}|${object.id}`;
    const cell = cells.get(key) ?? { bucket, object, split: { peak: 0, flat: 0, valley: 0 } };
    cell.split[tou] = q6(cell.split[tou] + h.usage);
    cells.set(key, cell);
    const all = overall.get(bucket) ?? { peak: 0, flat: 0, valley: 0 };
    all[tou] = q6(all[tou] + h.usage);
    overall.set(bucket, all);
  }
  const labels = new Map(buckets(from, end, grain).map((b) => [b.start, b.label]));
  const rows = [...cells.values()].map(({ bucket, object, split }): ReportRow => {
    const total = q6(split.peak + split.flat + split.valley);
    return {
      key: `${bucket}|${object.id}`, bucket: labels.get(bucket) ?? '', name: object.name, location: object.location,
      peak: split.peak, flat: split.flat, valley: split.valley, total, valleyShare: total > 0 ? q6(split.valley / total) : null,
    };
  });
  const x = [...labels.entries()];
  const series = (k: TouKind) => x.map(([b]) => overall.get(b)?.[k] ?? null);
  const enabled = [...docs].some((d) => d.tou.enabled);
  const periods = [...docs][0]?.tou.periods ?? docAt(from + 1).tou.periods;
  const periodText = periods.map((p) => `${p.start}–${p.end} ${TOU_KINDS[p.kind]}`).join('，');
  const seen = new Set(hours.map((h) => h.device_id));
  return memorySource(ctx.def, rows, {
    chart: { x: x.map(([, l]) => l), series: { peak: series('peak'), flat: series('flat'), valley: series('valley'), total: x.map(([b]) => { const s = overall.get(b); return s ? q6(s.peak + s.flat + s.valley) : null; }) } },
    notes: [
      `电表只上报累计电能（没有分时计度器），峰平谷由每小时用电量按${enabled ? '本项目启用的峰平谷计价' : '计费配置中的峰平谷时段（本项目未启用峰平谷计价）'}时段拆分：${periodText}；以整点小时的起点归入时段`,
      '计费配置只分峰、平、谷三档，不单列尖峰',
      ...(meters.length ? [] : [areaId !== undefined ? '所选楼栋没有电表' : '该项目没有电表']),
      ...(meters.length > seen.size ? [`${meters.length - seen.size} 块电表在此期间没有读数，未计入`] : []),
    ],
  });
};

export const ELECTRIC_QUERIES: Record<string, ReportQueryFn> = { electricMeterEnergyView };
