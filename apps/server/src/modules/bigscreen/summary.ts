import {
  BIGSCREEN_ELECTRIC_FIELDS, BIGSCREEN_HEAT_FIELD, DEVICE_TYPE_BY_CODE, ENERGY_COUNTERS,
  type AlarmSeverity, type BigScreenAlarm, type BigScreenEnergy, type BigScreenProject, type BigScreenSummary, type BigScreenTopDevice,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { AlarmRow } from '../monitoring/index.ts';
import type { DeviceCore } from '../devices/index.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const CST = 8 * HOUR;
const ALARM_ROWS = 30;
const TOP_ROWS = 10;
/** Device categories whose power field (f00) means an AC or heating unit is running. */
const UNIT_CATEGORIES = new Set(['thermostat', 'billingThermostat', 'heatPump', 'airCabinet', 'onOffController', 'systemController']);

/** Quantities keep 3 decimals (no float dust in sums). */
const q3 = (v: number) => Math.round(v * 1000) / 1000;
const rate = (online: number, total: number) => (total ? Math.round((online / total) * 1000) / 10 : null);

export interface SummaryProject { id: number; tenant_id: number; name: string; alias: string | null; lng: number | null; lat: number | null }

export interface SummaryDeps {
  db: Db;
  core: Pick<DeviceCore, 'usage'> & { devices: Pick<DeviceCore['devices'], 'latestState'> };
  activeAlarms(projectIds: number[], limit: number): Promise<{ rows: AlarmRow[]; counts: Map<number, number> }>;
}

const hasField = (type: string, code: string) => DEVICE_TYPE_BY_CODE.get(type)?.fields.some((f) => f.code === code) ?? false;

/**
 * The figures of a big screen over some projects (already checked against the caller's scope, or a share link's one
 * project): devices online, running units, electricity and heat today against yesterday and per hour over the last
 * day (the core's roll-ups, never raw history), the top consumers, active alarms. `energy: false` leaves the roll-up
 * reads out (live refreshes between the minute's full reads).
 */
export async function summarize(deps: SummaryDeps, projects: SummaryProject[], title: string, opts: { energy: boolean; now?: number }): Promise<BigScreenSummary> {
  const now = opts.now ?? Date.now();
  const ids = projects.map((p) => p.id);
  const devices = ids.length
    ? await deps.db.selectFrom('device').select(['id', 'tenant_id', 'project_id', 'area_id', 'device_type', 'device_name', 'online_until'])
      .where('project_id', 'in', ids).execute()
    : [];
  // a project's devices are its tenant's (a foreign row under the same id is impossible, but never counted)
  const tenantOf = new Map(projects.map((p) => [p.id, p.tenant_id]));
  const mine = devices.filter((d) => tenantOf.get(d.project_id) === d.tenant_id);
  const isOnline = (d: (typeof mine)[number]) => (d.online_until ?? 0) > now;

  const units = mine.filter((d) => UNIT_CATEGORIES.has(DEVICE_TYPE_BY_CODE.get(d.device_type)?.category ?? '') && hasField(d.device_type, 'f00'));
  const power = await deps.core.devices.latestState(units.map((d) => d.id), ['f00']);
  const on = new Set(power.filter((s) => s.num === 1).map((s) => s.device_id));
  const running = units.filter((d) => on.has(d.id) && isOnline(d)).length;

  const alarms = await deps.activeAlarms(ids, ALARM_ROWS);
  const nameOf = new Map(projects.map((p) => [p.id, p.alias || p.name]));
  const alarmRows: BigScreenAlarm[] = alarms.rows.map((a) => ({
    id: a.id, projectId: a.project_id, projectName: nameOf.get(a.project_id) ?? '', deviceName: a.device_name, ruleName: a.rule_name,
    severity: a.severity as AlarmSeverity, value: a.value, createdAt: a.created_at,
  }));

  const perProject: BigScreenProject[] = projects.map((p) => {
    const ds = mine.filter((d) => d.project_id === p.id);
    const online = ds.filter(isOnline).length;
    const active = alarms.counts.get(p.id) ?? 0;
    return {
      id: p.id, name: p.alias || p.name, lng: p.lng, lat: p.lat, devices: ds.length, online, onlineRate: rate(online, ds.length), activeAlarms: active,
      status: ds.length === 0 ? 'empty' : active > 0 ? 'alarm' : online === 0 ? 'offline' : 'normal',
    };
  });
  const online = mine.filter(isOnline).length;
  const base: BigScreenSummary = {
    title, generatedAt: now,
    devices: { total: mine.length, online, onlineRate: rate(online, mine.length) },
    units: { total: units.length, running },
    electricity: { today: null, yesterday: null, unit: ENERGY_COUNTERS.f70.unit, meters: 0 },
    heat: { today: null, yesterday: null, unit: ENERGY_COUNTERS.f60.unit, meters: 0 },
    activeAlarms: [...alarms.counts.values()].reduce((a, b) => a + b, 0),
    alarms: alarmRows, top: [], trend: [], projects: perProject,
  };
  if (!opts.energy) return base;

  const today = Math.floor((now + CST) / DAY) * DAY - CST;
  const hourNow = Math.floor(now / HOUR) * HOUR;
  const trendFrom = hourNow - 23 * HOUR;
  const electric = new Map<string, number[]>();
  for (const f of BIGSCREEN_ELECTRIC_FIELDS) electric.set(f, mine.filter((d) => hasField(d.device_type, f)).map((d) => d.id));
  const heatIds = mine.filter((d) => hasField(d.device_type, BIGSCREEN_HEAT_FIELD)).map((d) => d.id);

  const days = (field: string, deviceIds: number[]) => deps.core.usage({ deviceIds, field, grain: 'day', from: today - DAY, to: today + DAY });
  const hours = (field: string, deviceIds: number[]) => deps.core.usage({ deviceIds, field, grain: 'hour', from: trendFrom, to: hourNow + HOUR });
  const [eDays, eHours, hDays, hHours] = await Promise.all([
    Promise.all([...electric].map(([f, d]) => days(f, d))).then((r) => r.flat()),
    Promise.all([...electric].map(([f, d]) => hours(f, d))).then((r) => r.flat()),
    days(BIGSCREEN_HEAT_FIELD, heatIds),
    hours(BIGSCREEN_HEAT_FIELD, heatIds),
  ]);

  const energyOf = (rows: { bucket: number; usage: number }[], meters: number, unit: string): BigScreenEnergy => {
    const sum = (bucket: number) => {
      const r = rows.filter((x) => x.bucket === bucket);
      return r.length ? q3(r.reduce((a, x) => a + x.usage, 0)) : null;
    };
    return { today: sum(today), yesterday: sum(today - DAY), unit, meters };
  };
  const perHour = (rows: { bucket: number; usage: number }[]) => {
    const m = new Map<number, number>();
    for (const r of rows) m.set(r.bucket, (m.get(r.bucket) ?? 0) + r.usage);
    return m;
  };
  const eh = perHour(eHours);
  const hh = perHour(hHours);
  const trend = Array.from({ length: 24 }, (_, i) => {
    const hour = trendFrom + i * HOUR;
    return { hour, electricity: eh.has(hour) ? q3(eh.get(hour)!) : null, heat: hh.has(hour) ? q3(hh.get(hour)!) : null };
  });

  const todayUse = eDays.filter((r) => r.bucket === today && r.usage > 0).sort((a, b) => b.usage - a.usage).slice(0, TOP_ROWS);
  const places = await placesOf(deps.db, todayUse.map((r) => mine.find((d) => d.id === r.device_id)!.area_id));
  const top: BigScreenTopDevice[] = todayUse.map((r) => {
    const d = mine.find((x) => x.id === r.device_id)!;
    return { deviceId: d.id, deviceName: d.device_name, place: places.get(d.area_id ?? -1) ?? nameOf.get(d.project_id) ?? '', usage: q3(r.usage) };
  });

  return {
    ...base,
    electricity: energyOf(eDays, [...electric.values()].reduce((a, d) => a + d.length, 0), ENERGY_COUNTERS.f70.unit),
    heat: energyOf(hDays, heatIds.length, ENERGY_COUNTERS.f60.unit),
    top, trend,
  };
}

/** The building an area lies in (its own name for an area above buildings): walks up the few levels of the tree. */
async function placesOf(db: Db, areaIds: (number | null)[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const wanted = [...new Set(areaIds.filter((a): a is number => a !== null))];
  const known = new Map<number, { parent_id: number | null; level: string; name: string }>();
  let next = wanted;
  for (let depth = 0; depth < 6 && next.length; depth++) {
    const rows = await db.selectFrom('area').select(['id', 'parent_id', 'level', 'name']).where('id', 'in', next).execute();
    for (const r of rows) known.set(r.id, r);
    next = rows.filter((r) => r.level !== 'building' && r.level !== 'project' && r.parent_id !== null && !known.has(r.parent_id)).map((r) => r.parent_id!);
  }
  for (const id of wanted) {
    let a = known.get(id);
    while (a && a.level !== 'building' && a.level !== 'project' && a.parent_id !== null && known.has(a.parent_id)) a = known.get(a.parent_id);
    if (a) out.set(id, a.name);
  }
  return out;
}
