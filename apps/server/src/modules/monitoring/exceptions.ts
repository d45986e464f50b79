import {
  COUNTER_JUMP_FACTOR, DEVICE_TYPES, DEVICE_TYPE_BY_CODE, EXCEPTION_KINDS, FROZEN_DAYS, SENSOR_RANGES, TEMP_JUMP_C, TEMP_JUMP_WINDOW_MS, fieldDisplay,
  fieldOf, type DeviceTypeDef, type ExceptionDeviceRow, type ExceptionKind, type ExceptionQuery, type ExceptionRow, type FieldDef,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { platformScope, type Actor, type Scope } from '../../lib/scope.ts';
import type { DeviceCore, ReportListener } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import * as repo from './repository.ts';
import type { ExceptionDbRow } from './repository.ts';

type Report = Parameters<ReportListener>[0];
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What a field is watched for: a meter (never runs backwards, rises at most so fast) or a temperature sensor. */
export type Watch =
  | { kind: 'counter'; perHour: number | null; step: number }
  | { kind: 'temp'; range: [number, number] | null };

function counterPerHour(def: DeviceTypeDef, f: FieldDef | undefined, depth = 0): number | null | undefined {
  if (!f || depth > 3) return undefined;
  const sim = f.sim;
  if (sim.mode === 'accumulate') return sim.perHour;
  if (sim.mode === 'integrate') return sim.daily ? undefined : null; // a total of a power: never backwards, rate unknown
  if (sim.mode === 'sum') {
    let total: number | null = 0;
    for (const [code, w] of Object.entries(sim.of)) {
      const part = counterPerHour(def, fieldOf(def, code), depth + 1);
      if (part === undefined || w < 0) return undefined;
      total = part === null || total === null ? null : total + part * w;
    }
    return total;
  }
  return undefined;
}

/** The watched fields of a device type (from the registry: counters by their sim mode, temperatures by unit). */
export function watchesOf(def: DeviceTypeDef): Map<string, Watch> {
  const out = new Map<string, Watch>();
  for (const f of def.fields) {
    if (f.kind !== 'number' || f.writable) continue;
    const perHour = counterPerHour(def, f);
    if (perHour !== undefined) out.set(f.code, { kind: 'counter', perHour, step: f.step ?? 0.01 });
    else if (f.unit === '°C' && (f.sim.mode === 'walk' || f.sim.mode === 'follow')) out.set(f.code, { kind: 'temp', range: SENSOR_RANGES[f.code] ?? null });
  }
  return out;
}

const WATCHES = new Map(DEVICE_TYPES.map((d) => [d.code, watchesOf(d)]));

export interface Judgement { kind: ExceptionKind; detail: string }
const fmt = (v: number) => String(Math.round(v * 1000) / 1000);

/**
 * Whether a reading is implausible, given the field's previous reading (worked examples in exceptions.test.ts):
 * a meter lower than before runs backwards; a meter rising more than COUNTER_JUMP_FACTOR × its usual hourly amount ×
 * the hours between (at least a quarter hour) jumps; a temperature outside its sensor's range, or moving more than
 * TEMP_JUMP_C within TEMP_JUMP_WINDOW_MS, is wrong.
 */
export function judge(w: Watch, prev: { num: number; ts: number } | undefined, cur: { num: number; ts: number }): Judgement | null {
  if (w.kind === 'temp') {
    if (w.range && (cur.num < w.range[0] || cur.num > w.range[1])) return { kind: 'range', detail: `读数 ${fmt(cur.num)} 超出传感器量程 ${w.range[0]}～${w.range[1]}` };
    if (prev && cur.ts - prev.ts <= TEMP_JUMP_WINDOW_MS && Math.abs(cur.num - prev.num) > TEMP_JUMP_C) {
      return { kind: 'jump', detail: `${Math.round((cur.ts - prev.ts) / 60_000)} 分钟内由 ${fmt(prev.num)} 变为 ${fmt(cur.num)}，超过 ${TEMP_JUMP_C}` };
    }
    return null;
  }
  if (!prev) return null;
  if (cur.num < prev.num - w.step / 2) return { kind: 'backwards', detail: `读数由 ${fmt(prev.num)} 倒走到 ${fmt(cur.num)}` };
  if (w.perHour) {
    const hours = (cur.ts - prev.ts) / HOUR_MS;
    const limit = w.perHour * COUNTER_JUMP_FACTOR * Math.max(hours, 0.25);
    if (cur.num - prev.num > limit) return { kind: 'jump', detail: `${fmt(hours)} 小时内增加 ${fmt(cur.num - prev.num)}，超过可能的上限 ${fmt(limit)}` };
  }
  return null;
}

interface Flag { tenantId: number; projectId: number; deviceId: number; deviceType: string; field: string; kind: ExceptionKind; value: number; previous: number | null; detail: string; at: number }

function toRow(r: ExceptionDbRow): ExceptionRow {
  return {
    id: r.id, projectId: r.project_id, deviceId: r.device_id, deviceCode: r.device_code, deviceName: r.device_name, deviceType: r.device_type,
    typeName: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type, fieldCode: r.field_code,
    fieldLabel: fieldOf(r.device_type, r.field_code)?.label ?? r.field_code, kind: r.kind as ExceptionKind,
    kindLabel: EXCEPTION_KINDS[r.kind as ExceptionKind] ?? r.kind, value: r.value, previous: r.previous, description: r.description,
    readingAt: r.reading_at, handled: r.handled === 1, handledBy: r.handled_by, handledAt: r.handled_at, note: r.note, createdAt: r.created_at,
  };
}

/**
 * Exception data: every stored report's watched fields are judged against the field's previous reading (kept in
 * memory, no database read per report); only a flagged reading touches the database, one open record per device,
 * field and kind. A daily sweep looks for temperatures that have not moved for FROZEN_DAYS days.
 */
export function createExceptions(deps: { db: Db; core: DeviceCore; projects: ProjectService; onError(err: unknown): void }) {
  const { db, core, projects } = deps;
  /**
   * The previous reading per device and field, updated in place: at 10,000 reports a second a new key string and a
   * new object per reading, each living until the device's next report, were promoted into the old generation.
   */
  const previous = new Map<number, Map<string, { num: number; ts: number }>>();
  const pending: Flag[] = [];
  let writing = false;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function store(f: Flag) {
    const device = await core.devices.byId(f.deviceId);
    if (!device) return;
    const show = (v: number) => fieldDisplay(f.deviceType, f.field, v).slice(0, 64);
    const label = fieldOf(f.deviceType, f.field)?.label ?? f.field;
    await repo.insertException(db, {
      tenant_id: f.tenantId, project_id: f.projectId, device_id: f.deviceId, device_code: device.device_code, device_name: device.device_name,
      device_type: f.deviceType, field_code: f.field, kind: f.kind, value: show(f.value), previous: f.previous === null ? null : show(f.previous),
      description: `${label}${EXCEPTION_KINDS[f.kind]}：${f.detail}`.slice(0, 200), reading_at: f.at, handled: 0, handled_by: null, handled_at: null,
      note: null, created_at: Date.now(),
    });
  }

  async function write() {
    if (writing) return;
    writing = true;
    try {
      while (pending.length && !stopped) await store(pending.shift()!).catch(deps.onError);
    } finally {
      writing = false;
    }
  }

  const onReport: ReportListener = (r: Report) => {
    const watches = WATCHES.get(r.deviceType);
    if (!watches?.size) return;
    let mine = previous.get(r.deviceId);
    for (const p of r.points) {
      const w = watches.get(p.code);
      if (!w || p.num === null || p.num === undefined) continue;
      if (!mine) previous.set(r.deviceId, (mine = new Map()));
      const prev = mine.get(p.code);
      if (prev && r.ts <= prev.ts) continue; // a late report: its place in the sequence is unknown
      const j = judge(w, prev, { num: p.num, ts: r.ts });
      if (j && pending.length < 10_000) {
        pending.push({ tenantId: r.tenantId, projectId: r.projectId, deviceId: r.deviceId, deviceType: r.deviceType, field: p.code, kind: j.kind, value: p.num, previous: prev?.num ?? null, detail: j.detail, at: r.ts });
      }
      if (prev) {
        prev.num = p.num;
        prev.ts = r.ts;
      } else mine.set(p.code, { num: p.num, ts: r.ts });
    }
    if (pending.length) void write();
  };

  /** Temperatures of reporting devices that read the same for FROZEN_DAYS days: every report since a day before that identical, the first of them at least FROZEN_DAYS old. */
  async function sweepFrozen(now = Date.now()) {
    const types = [...WATCHES].filter(([, w]) => [...w.values()].some((x) => x.kind === 'temp')).map(([code]) => code);
    const devices = await core.devices.scopedDevices(platformScope)
      .select(['id', 'tenant_id', 'project_id', 'device_type']).where('device_type', 'in', types).where('enabled', '=', 1)
      .where('last_report_at', '>=', now - DAY_MS).execute();
    const since = now - FROZEN_DAYS * DAY_MS;
    for (const d of devices) {
      if (stopped) return;
      const def = DEVICE_TYPE_BY_CODE.get(d.device_type)!;
      const fields = [...WATCHES.get(d.device_type)!].filter(([, w]) => w.kind === 'temp').map(([c]) => c);
      const h = await core.telemetry.history({ id: d.id, type: def }, { from: since - DAY_MS, to: now, fields: fields.join(',') });
      for (const s of h.series) {
        const values = [...s.points.map((p) => p[1]), ...(s.bands ?? []).flatMap((b) => [b[1], b[2]])];
        if (s.points.length < 2 || s.points[0][0] > since || values.some((v) => v !== values[0])) continue;
        pending.push({
          tenantId: d.tenant_id, projectId: d.project_id, deviceId: d.id, deviceType: d.device_type, field: s.field, kind: 'frozen', value: values[0], previous: null,
          detail: `${FROZEN_DAYS} 天内读数一直是 ${fmt(values[0])}`, at: s.points[s.points.length - 1][0],
        });
      }
    }
    await write();
  }

  async function exception(scope: Scope, id: number) {
    const row = await repo.exceptionsOf(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('异常数据');
    return row;
  }

  return {
    onReport,
    sweepFrozen,
    /** Waits until every flagged reading is stored (tests, shutdown). */
    async idle() {
      while (pending.length || writing) await new Promise((r) => setTimeout(r, 10));
    },

    async list(scope: Scope, q: ExceptionQuery) {
      const p = await projects.project(scope, q.projectId);
      let query = repo.exceptionsOf(db, scope).selectAll().where('project_id', '=', p.id);
      if (q.kind) query = query.where('kind', '=', q.kind);
      if (q.handled !== undefined) query = query.where('handled', '=', q.handled ? 1 : 0);
      if (q.deviceId) query = query.where('device_id', '=', q.deviceId);
      if (q.readingFrom !== undefined) query = query.where('reading_at', '>=', q.readingFrom);
      if (q.readingTo !== undefined) query = query.where('reading_at', '<=', q.readingTo);
      if (q.keyword) query = query.where((eb) => eb.or([eb('device_name', 'like', `%${q.keyword}%`), eb('device_code', 'like', `%${q.keyword}%`)]));
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      return { total: page.total, rows: page.rows.map(toRow) };
    },

    async one(scope: Scope, id: number) {
      return toRow(await exception(scope, id));
    },

    /** exceptiondevice: devices of a project with exception data not yet handled. */
    async devices(scope: Scope, projectId: number): Promise<ExceptionDeviceRow[]> {
      const p = await projects.project(scope, projectId);
      const rows = await repo.openExceptionsByDevice(db, p.id);
      return rows.map((r) => ({
        deviceId: r.device_id, deviceCode: r.device_code, deviceName: r.device_name, typeName: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type,
        open: r.open, kinds: r.kinds.map((k) => EXCEPTION_KINDS[k as ExceptionKind] ?? k), lastAt: r.lastAt,
      }));
    },

    /** exceptiondevicehandle: marks records handled, by whom, when, with a note (records already handled stay as they were). */
    async handle(a: Actor, ids: number[], note: string) {
      const unique = [...new Set(ids)];
      const found = await repo.exceptionsOf(db, a.scope).select('id').where('id', 'in', unique).execute();
      if (found.length !== unique.length) throw notFound('异常数据');
      const updated = await db.updateTable('exception_data').set({ handled: 1, handled_by: a.user.username, handled_at: Date.now(), note })
        .where('id', 'in', unique).where('handled', '=', 0).executeTakeFirst();
      return { updated: Number(updated.numUpdatedRows) };
    },

    start() {
      // once a day, the first a few minutes after start
      const run = () => void sweepFrozen().catch(deps.onError);
      timer = setTimeout(function again() {
        run();
        timer = setTimeout(again, DAY_MS);
        timer.unref();
      }, 5 * 60_000);
      timer.unref();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      stopped = true;
      while (writing) await new Promise((r) => setTimeout(r, 10));
    },
  };
}

export type Exceptions = ReturnType<typeof createExceptions>;
