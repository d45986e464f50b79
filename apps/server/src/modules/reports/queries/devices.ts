import { DEVICE_TYPE_BY_CODE, fieldOf, type ReportRow } from '@kelvin/contracts';
import { memorySource, type ReportContext, type ReportQueryFn } from '../source.ts';
import { codeOrNameLike } from '../../devices/index.ts';

const DAY = 86_400_000;
const CST = 8 * 3600_000;
/** how far back the reading at the start of today is looked for (a meter silent for longer has no start reading) */
const START_LOOKBACK = 366 * DAY;

/** 3 decimals at most: derived numbers (differences, means) without float dust such as 9.999999999 */
const r3 = (v: number) => Math.round(v * 1000) / 1000;
/** a ratio (deviation) to 6 decimals */
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

interface ProjectDevice {
  id: number;
  device_code: string;
  device_name: string;
  device_type: string;
  area_id: number | null;
  online_until: number | null;
  last_report_at: number | null;
}

/** The project's devices (the caller's scope), narrowed by the building filter and optionally by type. */
async function projectDevices(ctx: ReportContext, opts: { types?: string[]; keyword?: string; status?: string } = {}): Promise<ProjectDevice[]> {
  const { filters: f } = ctx;
  let q = ctx.core.devices.scopedDevices(ctx.actor.scope).where('project_id', '=', ctx.project.id);
  if (opts.types) q = q.where('device_type', 'in', opts.types.length ? opts.types : ['-']);
  if (f.areaId !== undefined) q = q.where('area_id', 'in', [...ctx.places.subtree(f.areaId)]);
  if (opts.status === 'online') q = q.where('online_until', '>', ctx.now);
  if (opts.status === 'offline') q = q.where((eb) => eb.or([eb('online_until', 'is', null), eb('online_until', '<=', ctx.now)]));
  if (opts.keyword) q = q.where(codeOrNameLike(opts.keyword));
  return q.select(['id', 'device_code', 'device_name', 'device_type', 'area_id', 'online_until', 'last_report_at']).orderBy('device_code').execute();
}

/** Latest numeric value and time of each device × field. */
async function latest(ctx: ReportContext, ids: number[], fields: string[]) {
  const out = new Map<number, Map<string, { v: number; ts: number }>>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const s of await ctx.core.devices.latestState(ids.slice(i, i + 500), fields)) {
      if (s.num === null) continue;
      if (!out.has(s.device_id)) out.set(s.device_id, new Map());
      out.get(s.device_id)!.set(s.field_code, { v: Number(s.num), ts: Number(s.ts) });
    }
  }
  return out;
}

// ---------------------------------------------------------------- hydraulic balance

/**
 * balancetable (PT2014): the balance valves (balanceValve: f80/f81 opening, f61 flow, f63/f64 supply/return).
 * The type has no target field, so the target Δt is the mean Δt of every balance valve of the project that reports
 * both temperatures (the whole project, also when one building is shown): a branch running a smaller Δt than the
 * others gets too much water, a larger one too little.
 */
const balancetable: ReportQueryFn = async (ctx) => {
  const all = await projectDevices({ ...ctx, filters: { ...ctx.filters, areaId: undefined } }, { types: ['balanceValve'] });
  const state = await latest(ctx, all.map((d) => d.id), ['f61', 'f63', 'f64', 'f81']);
  const deltaOf = (id: number) => {
    const s = state.get(id);
    const sup = s?.get('f63');
    const ret = s?.get('f64');
    return sup && ret ? sup.v - ret.v : null;
  };
  const deltas = all.map((d) => deltaOf(d.id)).filter((x): x is number => x !== null);
  const target = deltas.length ? deltas.reduce((a, b) => a + b, 0) / deltas.length : null;
  const shown = ctx.filters.areaId === undefined ? all : all.filter((d) => d.area_id !== null && ctx.places.subtree(ctx.filters.areaId!).has(d.area_id));
  const rows: ReportRow[] = shown.map((d) => {
    const s = state.get(d.id);
    const delta = deltaOf(d.id);
    const times = [...(s?.values() ?? [])].map((x) => x.ts);
    return {
      deviceId: d.id, location: ctx.places.pathOf(d.area_id), deviceCode: d.device_code,
      flow: s?.get('f61')?.v ?? null, supply: s?.get('f63')?.v ?? null, return: s?.get('f64')?.v ?? null,
      deltaT: delta === null ? null : r3(delta), opening: s?.get('f81')?.v ?? null,
      target: target === null ? null : r3(target),
      deviation: delta === null || !target ? null : r6((delta - target) / target),
      readAt: times.length ? Math.max(...times) : null,
    };
  });
  const notes = [
    target === null
      ? '项目的平衡阀都没有供回水温度读数，无法给出目标温差'
      : `平衡阀没有目标值字段：目标温差取项目全部 ${deltas.length} 台有供回水温度读数的平衡阀温差的平均值 ${r3(target).toFixed(1)} °C`,
  ];
  const missing = rows.filter((r) => r.deltaT === null).length;
  if (missing) notes.push(`${missing} 台平衡阀没有供回水温度读数，温差与偏差为空`);
  const charted = [...rows].sort((a, b) => String(a.location).localeCompare(String(b.location), 'zh-CN') || String(a.deviceCode).localeCompare(String(b.deviceCode)));
  return memorySource(ctx.def, rows, {
    notes,
    chart: { x: charted.map((r) => `${r.deviceCode}`), series: { deltaT: charted.map((r) => Number(r.deltaT ?? 0)), target: charted.map((r) => Number(r.target ?? 0)) } },
  });
};

/** AF900 control modes (device20120 f82) → the controlled quantity, its unit, and where its target is. */
const AF900_MODES: Record<number, { label: string; actual: string; unit: string; target: string }> = {
  0: { label: '手动开度', actual: 'f81', unit: '%', target: 'f80' },
  1: { label: '恒流量', actual: 'f61', unit: 'm³/h', target: 'f83' },
  2: { label: '恒回水温度', actual: 'f64', unit: '°C', target: 'f83' },
  3: { label: '恒温差', actual: 'f65', unit: '°C', target: 'f83' },
};

/**
 * balancetableAF900 (PT4020): the AF900 valves (device20120). Each valve holds its own target: f83 is the target of
 * its control mode f82 (flow, return temperature or Δt); in manual mode the target is the opening set point f80 and
 * the actual value the measured opening f81.
 */
const balancetableAF900: ReportQueryFn = async (ctx) => {
  const valves = await projectDevices(ctx, { types: ['device20120'] });
  const state = await latest(ctx, valves.map((d) => d.id), ['f61', 'f63', 'f64', 'f65', 'f80', 'f81', 'f82', 'f83']);
  const rows: ReportRow[] = valves.map((d) => {
    const s = state.get(d.id);
    const v = (code: string) => s?.get(code)?.v ?? null;
    const supply = v('f63');
    const ret = v('f64');
    const deltaT = v('f65') ?? (supply !== null && ret !== null ? r3(supply - ret) : null);
    const modeCode = v('f82');
    const mode = modeCode === null ? undefined : AF900_MODES[modeCode];
    const target = mode ? v(mode.target) : null;
    const actual = mode ? (mode.actual === 'f65' ? deltaT : v(mode.actual)) : null;
    const deviation = target && actual !== null ? r6((actual - target) / target) : null;
    const times = [...(s?.values() ?? [])].map((x) => x.ts);
    return {
      deviceId: d.id, location: ctx.places.pathOf(d.area_id), deviceCode: d.device_code, mode: mode?.label ?? '—',
      flow: v('f61'), supply, return: ret, deltaT, opening: v('f81'), target, actual, unit: mode?.unit ?? '', deviation,
      readAt: times.length ? Math.max(...times) : null,
    };
  });
  const notes: string[] = [];
  const noTarget = rows.filter((r) => r.deviation === null).length;
  if (noTarget) notes.push(`${noTarget} 台阀门缺少控制方式、目标值（为 0）或实际读数，偏差为空`);
  const charted = rows.filter((r) => r.deviation !== null);
  return memorySource(ctx.def, rows, {
    notes,
    chart: { x: charted.map((r) => String(r.deviceCode)), series: { deviationPct: charted.map((r) => r3(Number(r.deviation) * 100)) } },
  });
};

// ---------------------------------------------------------------- device status

/** The electric energy counter of a type: 累计电能 f70, or 累计耗电 f48 (heat pumps, air cabinets). */
function energyFieldOf(type: string): string | null {
  const def = DEVICE_TYPE_BY_CODE.get(type);
  if (!def) return null;
  if (fieldOf(def, 'f70')) return 'f70';
  if (fieldOf(def, 'f48')) return 'f48';
  return null;
}
const hasField = (type: string, code: string) => {
  const def = DEVICE_TYPE_BY_CODE.get(type);
  return !!def && !!fieldOf(def, code);
};

/**
 * Today's use of a cumulative counter per device: the latest value − the last reading at or before today's start
 * (China Standard Time); a device first heard today starts from its first reading of today. A counter that went
 * back (a replaced or reset meter) gives no figure rather than a negative one.
 */
async function todayUse(ctx: ReportContext, byField: Map<string, number[]>, now: Map<number, Map<string, { v: number; ts: number }>>, dayStart: number) {
  const out = new Map<number, number | null>();
  for (const [field, ids] of byField) {
    if (!ids.length) continue;
    const start = new Map<number, number>();
    for (let i = 0; i < ids.length; i += 500) {
      const slice = ids.slice(i, i + 500);
      for (const r of await ctx.core.devices.readingsAt(slice, [field], dayStart, START_LOOKBACK)) start.set(r.device_id, Number(r.num));
      const fresh = slice.filter((id) => !start.has(id) && now.get(id)?.get(field));
      if (fresh.length) {
        for (const r of await ctx.core.devices.readingsIn(fresh, [field], dayStart, ctx.now)) if (!start.has(r.device_id)) start.set(r.device_id, Number(r.num));
      }
    }
    for (const id of ids) {
      const cur = now.get(id)?.get(field);
      const s = start.get(id);
      if (!cur || s === undefined) continue;
      out.set(id, cur.v >= s ? r3(cur.v - s) : null);
    }
  }
  return out;
}

const deviceStatus: ReportQueryFn = async (ctx) => {
  const { filters: f } = ctx;
  const devices = await projectDevices(ctx, { types: f.deviceType ? [f.deviceType] : undefined, keyword: f.keyword, status: f.status });
  const ids = devices.map((d) => d.id);
  const state = await latest(ctx, ids, ['f70', 'f71', 'f48', 'f90', 'f92']);
  const dayStart = Math.floor((ctx.now + CST) / DAY) * DAY - CST;
  const energyField = new Map(devices.map((d) => [d.id, energyFieldOf(d.device_type)]));
  const byField = new Map<string, number[]>([['f70', []], ['f48', []], ['f92', []]]);
  for (const d of devices) {
    const e = energyField.get(d.id);
    if (e) byField.get(e)!.push(d.id);
    if (hasField(d.device_type, 'f92')) byField.get('f92')!.push(d.id);
  }
  const today = await todayUse(ctx, new Map([['f70', byField.get('f70')!], ['f48', byField.get('f48')!]]), state, dayStart);
  const genToday = await todayUse(ctx, new Map([['f92', byField.get('f92')!]]), state, dayStart);
  let online = 0;
  const rows: ReportRow[] = devices.map((d) => {
    const isOnline = (d.online_until ?? 0) > ctx.now;
    if (isOnline) online++;
    const s = state.get(d.id);
    const e = energyField.get(d.id);
    return {
      deviceId: d.id, deviceCode: d.device_code, deviceName: d.device_name, location: ctx.places.pathOf(d.area_id),
      deviceType: DEVICE_TYPE_BY_CODE.get(d.device_type)?.name ?? d.device_type, online: isOnline ? '在线' : '离线', lastReportAt: d.last_report_at,
      power: s?.get('f71')?.v ?? null, energy: e ? s?.get(e)?.v ?? null : null, today: today.get(d.id) ?? null,
      genPower: hasField(d.device_type, 'f90') ? s?.get('f90')?.v ?? null : null, genToday: genToday.get(d.id) ?? null,
    };
  });
  const notes = ['今日用电 = 当前累计读数 − 今日零点（北京时间）前最后一次读数；今日首次上报的设备从今日首个读数起算'];
  const back = [...today.values(), ...genToday.values()].filter((v) => v === null).length;
  if (back) notes.push(`${back} 台设备的累计读数今日回退（换表或清零），今日用量不计`);
  return memorySource(ctx.def, rows, { notes, chart: { x: ['在线', '离线'], series: { count: [online, devices.length - online] } } });
};

export const DEVICE_QUERIES: Record<string, ReportQueryFn> = {
  balancetable,
  balancetableAF900,
  deviceStatus_n: deviceStatus,
};
