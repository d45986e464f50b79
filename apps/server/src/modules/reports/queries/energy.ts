import { DEVICE_TYPE_BY_CODE, ENERGY_COUNTERS, type ReportRow } from '@kelvin/contracts';
import { buckets, memorySource, type ReportContext, type ReportQueryFn } from '../source.ts';
import type { ReportDevice } from '../project-devices.ts';
import { likeOf } from './records.ts';

/**
 * Energy and use from the device roll-ups (the core's usage/stats over device_rollup_hour/day): a year of data is
 * read as 365 day rows per device, never as raw history. Usage of a counter = its growth, a replaced meter counting
 * from its first reading (rollups.ts).
 */

const DAY = 86_400_000;
const CST = 8 * 3600_000;
const RUN_FIELDS = ['f20', 'f21', 'f22', 'f30'] as const;

/**
 * The project's devices under the filters (building subtree, type, keyword) whose type has any of `fields`: from the
 * project's device list the service keeps (read once per change of the devices or areas), the keyword matched by the
 * database (its LIKE, as every list's keyword).
 */
export async function devicesWith(ctx: ReportContext, fields: readonly string[]): Promise<ReportDevice[]> {
  const { filters: f } = ctx;
  const within = f.areaId !== undefined ? ctx.places.subtree(f.areaId) : null;
  let matching: Set<number> | null = null;
  if (f.keyword) {
    const like = likeOf(f.keyword);
    const rows = await ctx.db.selectFrom('device').select('id').where('project_id', '=', ctx.project.id).where('tenant_id', '=', ctx.project.tenant_id)
      .where((eb) => eb.or([eb('device_code', 'like', like), eb('device_name', 'like', like)])).execute();
    matching = new Set(rows.map((r) => r.id));
  }
  return (await ctx.devices()).filter((d) => (!f.deviceType || d.type === f.deviceType) && (!matching || matching.has(d.id))
    && (!within || (d.areaId !== null && within.has(d.areaId))) && DEVICE_TYPE_BY_CODE.get(d.type)?.fields.some((x) => fields.includes(x.code)));
}

const deviceColumns = (d: ReportDevice): ReportRow => ({
  deviceId: d.id, deviceCode: d.code, deviceName: d.name, location: d.location, deviceType: DEVICE_TYPE_BY_CODE.get(d.type)?.name ?? d.type,
});

/** Day-aligned periods (every preset, every picked range) read day roll-ups; anything else hours. */
const grainFor = (from: number, to: number): 'hour' | 'day' => ((from + CST) % DAY === 0 && (to + CST) % DAY === 0 ? 'day' : 'hour');

/** Quantities keep 6 decimals at most (no float dust in sums). */
const q6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** Per device: the use of each field over the whole period. */
async function usePerDevice(ctx: ReportContext, devices: ReportDevice[], field: string): Promise<Map<number, number>> {
  const { from, to } = ctx.filters;
  const rows = await ctx.core.usage({ deviceIds: devices.map((d) => d.id), field, grain: grainFor(from, to), from, to });
  const out = new Map<number, number>();
  for (const r of rows) out.set(r.device_id, q6((out.get(r.device_id) ?? 0) + r.usage));
  return out;
}

const noReadings = (n: number, what = '读数') => (n ? [`${n} 台设备在此期间没有${what}，未计入`] : []);

const datastats: ReportQueryFn = async (ctx) => {
  const { from, to, counter = 'f70' } = ctx.filters;
  const grain = ctx.filters.grain ?? 'day';
  const devices = await devicesWith(ctx, [counter]);
  // added up in the database: one row per bucket, not one per device and bucket
  const totals = await ctx.core.usageTotals({ deviceIds: devices.map((d) => d.id), field: counter, grain, from, to });
  const per = new Map(totals.buckets.map((b) => [b.bucket, { usage: q6(b.usage), devices: b.devices }]));
  let prev: number | null = null;
  // a future bucket has no data yet, not zero use
  const out = buckets(from, Math.min(to, ctx.now), grain).map(({ start, label }) => {
    const b = per.get(start);
    const row: ReportRow = {
      bucket: label, usage: b ? b.usage : null, devices: b?.devices ?? 0,
      change: b && prev ? q6((b.usage - prev) / prev) : null,
    };
    prev = b ? b.usage : null;
    return row;
  });
  return memorySource(ctx.def, out, {
    chart: { x: out.map((r) => String(r.bucket)), series: { usage: out.map((r) => r.usage as number | null) } },
    notes: [...(devices.length ? [] : [`没有带「${ENERGY_COUNTERS[counter].label}」读数的设备`]), ...noReadings(devices.length - totals.devices)],
  });
};

/** 设备用量排行: every device's use over the period, its readings at both ends (the last reading before each). */
const useenergy: ReportQueryFn = async (ctx) => {
  const { from, to, counter = 'f70' } = ctx.filters;
  const devices = await devicesWith(ctx, [counter]);
  const ids = devices.map((d) => d.id);
  const [use, start, end] = await Promise.all([
    usePerDevice(ctx, devices, counter), ctx.core.counterAt(ids, counter, from - 1), ctx.core.counterAt(ids, counter, Math.min(to, ctx.now) - 1),
  ]);
  const total = [...use.values()].reduce((a, b) => a + b, 0);
  const rows = devices.map((d): ReportRow => ({
    ...deviceColumns(d), startValue: start.get(d.id) ?? null, endValue: end.get(d.id) ?? null,
    usage: use.get(d.id) ?? null, share: total > 0 && use.has(d.id) ? q6(use.get(d.id)! / total) : null,
  }));
  const top = rows.filter((r) => r.usage !== null).sort((a, b) => (b.usage as number) - (a.usage as number)).slice(0, 10);
  return memorySource(ctx.def, rows, {
    chart: { x: top.map((r) => String(r.deviceName)), series: { usage: top.map((r) => r.usage as number) } },
    notes: noReadings(devices.length - use.size),
  });
};

/** Run hours per device: low/mid/high fan speed and valve-open hours over the period. */
async function runHours(ctx: ReportContext, devices: ReportDevice[]) {
  const [low, mid, high, valve] = await Promise.all(RUN_FIELDS.map((f) => usePerDevice(ctx, devices, f)));
  return new Map(devices.map((d) => {
    const parts = { low: low.get(d.id) ?? null, mid: mid.get(d.id) ?? null, high: high.get(d.id) ?? null, valve: valve.get(d.id) ?? null };
    const known = Object.values(parts).filter((v): v is number => v !== null);
    return [d.id, { ...parts, hours: known.length ? q6(known.reduce((a, b) => a + b, 0)) : null }];
  }));
}

const deviceusehours: ReportQueryFn = async (ctx) => {
  const devices = await devicesWith(ctx, RUN_FIELDS);
  const hours = await runHours(ctx, devices);
  const rows = devices.map((d): ReportRow => ({ ...deviceColumns(d), ...hours.get(d.id)! }));
  return memorySource(ctx.def, rows, { notes: noReadings(rows.filter((r) => r.hours === null).length, '运行时长读数') });
};

/** 每日运行时长: the project's run hours per day (or hour) and how many devices ran. */
const usehours: ReportQueryFn = async (ctx) => {
  const { from, to } = ctx.filters;
  const grain = grainFor(from, to);
  const devices = await devicesWith(ctx, RUN_FIELDS);
  const perBucket = new Map<number, Map<number, number>>();
  for (const f of RUN_FIELDS) {
    for (const r of await ctx.core.usage({ deviceIds: devices.map((d) => d.id), field: f, grain, from, to })) {
      const m = perBucket.get(r.bucket) ?? new Map<number, number>();
      m.set(r.device_id, (m.get(r.device_id) ?? 0) + r.usage);
      perBucket.set(r.bucket, m);
    }
  }
  const rows = buckets(from, Math.min(to, ctx.now), grain).map(({ start, label }): ReportRow => {
    const m = perBucket.get(start);
    return { bucket: label, hours: m ? q6([...m.values()].reduce((a, b) => a + b, 0)) : null, devices: m ? [...m.values()].filter((v) => v > 0).length : 0 };
  });
  return memorySource(ctx.def, rows, { chart: { x: rows.map((r) => String(r.bucket)), series: { hours: rows.map((r) => r.hours as number | null) } } });
};

async function groupsOf(ctx: ReportContext, groupId?: number) {
  let q = ctx.db.selectFrom('device_group').select(['id', 'name']).where('project_id', '=', ctx.project.id).where('tenant_id', '=', ctx.project.tenant_id);
  if (groupId !== undefined) q = q.where('id', '=', groupId);
  const groups = await q.orderBy('id').execute();
  const members = groups.length
    ? await ctx.db.selectFrom('device_group_member').select(['group_id', 'device_id']).where('group_id', 'in', groups.map((g) => g.id)).execute()
    : [];
  return groups.map((g) => ({ ...g, deviceIds: new Set(members.filter((m) => m.group_id === g.id).map((m) => m.device_id)) }));
}

const groupusehourslist: ReportQueryFn = async (ctx) => {
  const groups = await groupsOf(ctx);
  const devices = (await devicesWith(ctx, RUN_FIELDS)).filter((d) => groups.some((g) => g.deviceIds.has(d.id)));
  const hours = await runHours(ctx, devices);
  const rows = groups.map((g): ReportRow => {
    const mine = devices.filter((d) => g.deviceIds.has(d.id));
    const sum = q6(mine.reduce((s, d) => s + (hours.get(d.id)?.hours ?? 0), 0));
    return { groupId: g.id, groupName: g.name, devices: g.deviceIds.size, hours: sum, avgHours: g.deviceIds.size ? q6(sum / g.deviceIds.size) : null };
  });
  return memorySource(ctx.def, rows, {
    chart: { x: rows.map((r) => String(r.groupName)), series: { hours: rows.map((r) => r.hours as number) } },
    notes: groups.length ? [] : ['该项目还没有设备分组（设备管理 › 分组管理）'],
  });
};

const groupdeviceusehourslist: ReportQueryFn = async (ctx) => {
  const [group] = await groupsOf(ctx, ctx.filters.groupId);
  const devices = (await devicesWith(ctx, RUN_FIELDS)).filter((d) => group?.deviceIds.has(d.id));
  const hours = await runHours(ctx, devices);
  return memorySource(ctx.def, devices.map((d): ReportRow => ({ ...deviceColumns(d), hours: hours.get(d.id)?.hours ?? null })));
};

/** Room temperature per thermostat: the mean of every reading (not of daily means), lowest, highest, mean set point. */
const devicetempinfo: ReportQueryFn = async (ctx) => {
  const { from, to } = ctx.filters;
  const devices = await devicesWith(ctx, ['f03']);
  const stats = await ctx.core.stats({ deviceIds: devices.map((d) => d.id), fields: ['f03', 'f04'], grain: grainFor(from, to), from, to });
  const acc = new Map<string, { n: number; sum: number; min: number; max: number }>();
  for (const s of stats) {
    const key = `${s.device_id}|${s.field_code}`;
    const a = acc.get(key) ?? { n: 0, sum: 0, min: Infinity, max: -Infinity };
    acc.set(key, { n: a.n + s.n, sum: a.sum + s.avg * s.n, min: Math.min(a.min, s.min), max: Math.max(a.max, s.max) });
  }
  const rows = devices.map((d): ReportRow => {
    const t = acc.get(`${d.id}|f03`);
    const set = acc.get(`${d.id}|f04`);
    return {
      ...deviceColumns(d), avg: t ? q6(t.sum / t.n) : null, min: t ? t.min : null, max: t ? t.max : null, setAvg: set ? q6(set.sum / set.n) : null, samples: t?.n ?? 0,
    };
  });
  return memorySource(ctx.def, rows, { notes: noReadings(rows.filter((r) => r.avg === null).length, '温度读数') });
};

/** 年度数据: the twelve months of the year against the same months of the year before. */
const annualData: ReportQueryFn = async (ctx) => {
  const { from, to, counter = 'f70' } = ctx.filters;
  const year = ctx.filters.year!;
  const devices = await devicesWith(ctx, [counter]);
  const ids = devices.map((d) => d.id);
  const lastFrom = Date.UTC(year - 1, 0, 1) - CST;
  const [now, before] = await Promise.all([
    ctx.core.usage({ deviceIds: ids, field: counter, grain: 'month', from, to }),
    ctx.core.usage({ deviceIds: ids, field: counter, grain: 'month', from: lastFrom, to: from }),
  ]);
  const byMonth = (rows: { bucket: number; usage: number }[]) => {
    const m = new Map<number, number>();
    for (const r of rows) {
      const month = new Date(r.bucket + CST).getUTCMonth();
      m.set(month, q6((m.get(month) ?? 0) + r.usage));
    }
    return m;
  };
  const cur = byMonth(now);
  const last = byMonth(before);
  const rows = Array.from({ length: 12 }, (_, m): ReportRow => {
    const u = cur.get(m) ?? null;
    const l = last.get(m) ?? null;
    return { month: `${m + 1}月`, usage: u, lastYear: l, yoy: u !== null && l ? q6((u - l) / l) : null };
  });
  return memorySource(ctx.def, rows, {
    chart: { x: rows.map((r) => String(r.month)), series: { usage: rows.map((r) => r.usage as number | null), lastYear: rows.map((r) => r.lastYear as number | null) } },
    notes: devices.length ? [] : [`没有带「${ENERGY_COUNTERS[counter].label}」读数的设备`],
  });
};

export const ENERGY_QUERIES: Record<string, ReportQueryFn> = {
  datastats, useenergy, deviceusehours, usehours, groupusehourslist, groupdeviceusehourslist, devicetempinfo, annualData,
};
