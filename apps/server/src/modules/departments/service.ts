import {
  DEPARTMENT_COUNTERS, DEVICE_TYPE_BY_CODE, budgetState,
  type AssignCandidateDto, type AssignmentBody, type AssignmentDto, type AssignmentKind, type AssignmentMove, type AssignmentUpdate,
  type DepartmentBody, type DepartmentBudgetItem, type DepartmentCompareQuery, type DepartmentCompareResult, type DepartmentCounter, type DepartmentDto,
  type DepartmentEnergyPage, type DepartmentEnergyQuery, type DepartmentEnergyRow, type DepartmentOverview, type DepartmentUpdate, type Page,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { monthStartCst, type DeviceCore } from '../devices/index.ts';
import type { AreaRow, ProjectService } from '../projects/index.ts';
import { loadPlaces } from '../reports/index.ts';
import * as repo from './repository.ts';
import type { AssignmentRow, DepartmentRow } from './repository.ts';

const DAY = 86_400_000;
const CST = 8 * 3_600_000;

/** 'YYYY-MM-DD' (an Asia/Shanghai day) ↔ epoch ms of its 00:00. */
export const dayStart = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) - CST;
export const dateOf = (ms: number) => new Date(ms + CST).toISOString().slice(0, 10);
const todayStart = (now: number) => Math.floor((now + CST) / DAY) * DAY - CST;
/** the month `n` months after the one starting at `start` (n may be negative) */
const addMonths = (start: number, n: number) => {
  const d = new Date(start + CST);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1) - CST;
};
/** quantities keep 6 decimals at most (no float dust in sums) */
const q6 = (v: number) => Math.round(v * 1e6) / 1e6;
const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : q6((a - b) / b));
const sum = (xs: (number | null)[]) => (xs.some((x) => x !== null) ? q6(xs.reduce<number>((s, x) => s + (x ?? 0), 0)) : null);

/** A meter counts for departments when its type has one of the department counters. */
const meterCounters = (type: string) => (DEVICE_TYPE_BY_CODE.get(type)?.fields ?? []).map((f) => f.code).filter((c): c is DepartmentCounter => c in DEPARTMENT_COUNTERS);

interface Period { from: number; to: number; grain: 'day' | 'month'; buckets: { start: number; label: string }[]; months: number }

/** The days of a month or the months of a year (Asia/Shanghai), the month / year of `now` when none is given. */
export function periodOf(q: { grain: 'day' | 'month'; month?: string; year?: number }, now: number): Period {
  const cur = new Date(now + CST);
  if (q.grain === 'month') {
    const year = q.year ?? cur.getUTCFullYear();
    const from = Date.UTC(year, 0, 1) - CST;
    const buckets = Array.from({ length: 12 }, (_, i) => ({ start: addMonths(from, i), label: `${year}-${String(i + 1).padStart(2, '0')}` }));
    return { from, to: addMonths(from, 12), grain: 'month', buckets, months: 12 };
  }
  const month = q.month ?? `${cur.getUTCFullYear()}-${String(cur.getUTCMonth() + 1).padStart(2, '0')}`;
  const from = dayStart(`${month}-01`);
  const to = addMonths(from, 1);
  const buckets = [];
  for (let d = from; d < to; d += DAY) buckets.push({ start: d, label: dateOf(d).slice(5) });
  return { from, to, grain: 'day', buckets, months: 1 };
}

/** Use per department per day: what its own meters and rooms measured (children not added yet). */
type OwnUse = Map<number, Map<number, number>>;

/**
 * 部门能耗: departments of a project, their meters and rooms with effective days, and their energy from the device
 * core's daily roll-ups (never history). A day of a meter counts for the department its own assignment names that
 * day; failing one, for the department holding its room that day (a meter named directly is the more precise fact).
 */
export function createDepartmentService(deps: { db: Db; projects: ProjectService; core: DeviceCore }) {
  const { db, projects, core } = deps;

  async function department(scope: Scope, id: number): Promise<DepartmentRow & { project: AreaRow }> {
    const row = await db.selectFrom('department').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || (!scope.isPlatform && row.tenant_id !== scope.tenantId)) throw notFound('部门');
    const project = await projects.project(scope, row.project_id).catch(() => {
      throw notFound('部门');
    });
    return { ...row, project };
  }

  async function assignment(scope: Scope, id: number): Promise<AssignmentRow> {
    const row = await db.selectFrom('department_assignment').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('分配记录');
    await department(scope, row.department_id).catch(() => {
      throw notFound('分配记录');
    });
    return row;
  }

  /** The project's meters (devices with a department counter), with their places. */
  async function metersOf(scope: Scope, project: AreaRow) {
    const rows = await core.devices.scopedDevices(scope).select(['id', 'device_code', 'device_name', 'device_type', 'area_id'])
      .where('project_id', '=', project.id).orderBy('device_code').execute();
    return rows.filter((d) => meterCounters(d.device_type).length > 0);
  }

  function toTree(rows: DepartmentRow[], counts: Map<number, { meters: number; rooms: number }>): DepartmentDto[] {
    const nodes = new Map<number, DepartmentDto>(rows.map((r) => [r.id, {
      id: r.id, projectId: r.project_id, parentId: r.parent_id, name: r.name, headcount: r.headcount, area: r.area_cm2 === null ? null : r.area_cm2 / 100,
      budgetKwh: r.budget_kwh, sortNo: r.sort_no, remark: r.remark, meters: counts.get(r.id)?.meters ?? 0, rooms: counts.get(r.id)?.rooms ?? 0, children: [],
    }]));
    const roots: DepartmentDto[] = [];
    for (const n of nodes.values()) (n.parentId !== null && nodes.has(n.parentId) ? nodes.get(n.parentId)!.children : roots).push(n);
    return roots;
  }

  /** Ids of a department and everything below it. */
  const below = (rows: DepartmentRow[], id: number): Set<number> => {
    const out = new Set([id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const r of rows) if (r.parent_id !== null && out.has(r.parent_id) && !out.has(r.id)) { out.add(r.id); grew = true; }
    }
    return out;
  };

  async function checkParent(d: { tenantId: number; projectId: number; id?: number }, parentId: number | null | undefined) {
    if (!parentId) return null;
    const rows = await repo.departmentsOf(db, d.tenantId, d.projectId);
    if (!rows.some((r) => r.id === parentId)) throw invalid('上级部门不存在或不属于该项目', ['parentId']);
    if (d.id !== undefined && below(rows, d.id).has(parentId)) throw invalid('上级部门不能是本部门或其下级部门', ['parentId']);
    return parentId;
  }

  async function checkSiblingName(tenantId: number, projectId: number, parentId: number | null, name: string, exceptId?: number) {
    let q = db.selectFrom('department').select('id').where('tenant_id', '=', tenantId).where('project_id', '=', projectId).where('name', '=', name);
    q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw conflict(`同一上级下已有名为「${name}」的部门`);
  }

  const fields = (b: DepartmentUpdate) => ({
    name: b.name, headcount: b.headcount ?? null, area_cm2: b.area === null || b.area === undefined ? null : Math.round(b.area * 100),
    budget_kwh: b.budgetKwh ?? null, sort_no: b.sortNo, remark: b.remark || null,
  });

  // ------------------------------------------------------------------ assignments

  /** What an assignment names: a meter of the project, or one of its rooms. */
  async function target(scope: Scope, project: AreaRow, kind: AssignmentKind, deviceId: number | null | undefined, areaId: number | null | undefined) {
    if (kind === 'device') {
      const d = await core.devices.deviceById(scope, deviceId!);
      if (!d || d.project_id !== project.id) throw invalid('表计不存在或不属于该项目', ['deviceId']);
      if (!meterCounters(d.device_type).length) throw invalid(`设备「${d.device_name}」不是电表或热量表，不能计入部门能耗`, ['deviceId']);
      return { deviceId: d.id, areaId: null, label: `表计「${d.device_name}（${d.device_code}）」` };
    }
    const places = await loadPlaces(db, project.tenant_id, project.id);
    const room = await db.selectFrom('area').select(['id', 'level', 'name']).where('id', '=', areaId!).where('tenant_id', '=', project.tenant_id).executeTakeFirst();
    if (!room || !places.has(room.id) || room.id === project.id) throw invalid('房间不存在或不属于该项目', ['areaId']);
    if (room.level !== 'room') throw invalid(`「${places.pathOf(room.id)}」不是房间，只能分配房间`, ['areaId']);
    return { deviceId: null, areaId: room.id, label: `房间「${places.pathOf(room.id)}」` };
  }

  /** No day of a meter (or room) may count for two departments: refuse an overlap, saying with whom. */
  async function checkOverlap(a: { projectId: number; kind: string; deviceId: number | null; areaId: number | null }, label: string, from: number, to: number | null, except: number[] = []) {
    const [clash] = await repo.overlapping(db, a, from, to, except);
    if (!clash) return;
    const owner = await db.selectFrom('department').select('name').where('id', '=', clash.department_id).executeTakeFirst();
    const until = clash.valid_to === null ? '至今' : `至 ${dateOf(clash.valid_to - DAY)}`;
    throw conflict(`${label}在 ${dateOf(clash.valid_from)} ${until} 已分配给「${owner?.name ?? ''}」，分配时间不能重叠`);
  }

  async function assignmentDtos(scope: Scope, project: AreaRow, rows: AssignmentRow[]): Promise<AssignmentDto[]> {
    const deviceIds = [...new Set(rows.map((r) => r.device_id).filter((x): x is number => x !== null))];
    const devs = deviceIds.length
      ? await core.devices.scopedDevices(scope).select(['id', 'device_code', 'device_name', 'device_type', 'area_id']).where('id', 'in', deviceIds).execute()
      : [];
    const byId = new Map(devs.map((d) => [d.id, d]));
    const places = await loadPlaces(db, project.tenant_id, project.id);
    const names = new Map((await repo.departmentsOf(db, project.tenant_id, project.id)).map((d) => [d.id, d.name]));
    return rows.map((r) => {
      const d = r.device_id !== null ? byId.get(r.device_id) : undefined;
      return {
        id: r.id, departmentId: r.department_id, departmentName: names.get(r.department_id) ?? '', kind: r.kind as AssignmentKind,
        deviceId: r.device_id, deviceCode: d?.device_code ?? null, deviceName: d?.device_name ?? null,
        deviceType: d ? DEVICE_TYPE_BY_CODE.get(d.device_type)?.name ?? d.device_type : null,
        areaId: r.area_id, place: places.pathOf(r.kind === 'room' ? r.area_id : d?.area_id ?? null),
        from: dateOf(r.valid_from), to: r.valid_to === null ? null : dateOf(r.valid_to), createdBy: r.created_by, createdAt: r.created_at,
      };
    });
  }

  // ------------------------------------------------------------------ energy

  /**
   * Use per department per day over [from, to) of `counter`: every assignment holding on a day gives that day's use
   * of its meter (or of the meters in its room that day) to its department; a meter named directly wins over its room.
   */
  async function ownUse(scope: Scope, project: AreaRow, counter: DepartmentCounter, from: number, to: number): Promise<{ use: OwnUse; meters: number; silent: number }> {
    const assigns = await repo.assignmentsIn(db, project.tenant_id, project.id, from, to);
    const use: OwnUse = new Map();
    if (!assigns.length) return { use, meters: 0, silent: 0 };
    const meters = await metersOf(scope, project);
    const isMeter = new Set(meters.map((m) => m.id));
    const roomAssigns = assigns.filter((a) => a.kind === 'room' && a.area_id !== null);
    const rooms = new Set(roomAssigns.map((a) => a.area_id!));
    // where each meter was on a day: its room now, stepped back through the moves recorded since (device management's
    // bind records); a day counts in the room the meter was in when the day began
    const moves = rooms.size ? await repo.movesSince(db, project.tenant_id, project.id, from) : [];
    const movesOf = new Map<number, typeof moves>();
    for (const mv of moves) if (mv.device_id !== null && isMeter.has(mv.device_id)) movesOf.set(mv.device_id, [...(movesOf.get(mv.device_id) ?? []), mv]);
    const current = new Map(meters.map((m) => [m.id, m.area_id]));
    const roomOn = (deviceId: number, day: number) => {
      let area = current.get(deviceId) ?? null;
      for (const mv of movesOf.get(deviceId) ?? []) if (mv.at > day) area = mv.from_area_id; // newest first
      return area;
    };
    const everIn = (id: number) => rooms.has(current.get(id) ?? -1) || (movesOf.get(id) ?? []).some((mv) => rooms.has(mv.from_area_id ?? -1) || rooms.has(mv.to_area_id ?? -1));
    const direct = new Map<number, AssignmentRow[]>();
    for (const a of assigns) if (a.kind === 'device' && a.device_id !== null && isMeter.has(a.device_id)) direct.set(a.device_id, [...(direct.get(a.device_id) ?? []), a]);
    const ids = [...new Set([...direct.keys(), ...meters.filter((m) => rooms.size && everIn(m.id)).map((m) => m.id)])];
    const rows = await core.usage({ deviceIds: ids, field: counter, grain: 'day', from, to });
    const holds = (a: AssignmentRow, day: number) => a.valid_from <= day && (a.valid_to === null || day < a.valid_to);
    const seen = new Set<number>();
    for (const r of rows) {
      const a = direct.get(r.device_id)?.find((x) => holds(x, r.bucket))
        ?? (rooms.size ? roomAssigns.find((x) => x.area_id === roomOn(r.device_id, r.bucket) && holds(x, r.bucket)) : undefined);
      if (!a) continue;
      seen.add(r.device_id);
      const m = use.get(a.department_id) ?? new Map<number, number>();
      m.set(r.bucket, q6((m.get(r.bucket) ?? 0) + r.usage));
      use.set(a.department_id, m);
    }
    return { use, meters: ids.length, silent: ids.filter((id) => !seen.has(id)).length };
  }

  /** Each department's use per bucket with its children's added (a parent = its own meters + everything below). */
  function rolledUp(rows: DepartmentRow[], own: OwnUse, bucketOf: (day: number) => number): Map<number, Map<number, number>> {
    const out = new Map<number, Map<number, number>>();
    const kids = new Map<number, number[]>();
    for (const r of rows) if (r.parent_id !== null) kids.set(r.parent_id, [...(kids.get(r.parent_id) ?? []), r.id]);
    const visit = (id: number, path: Set<number>): Map<number, number> => {
      const done = out.get(id);
      if (done) return done;
      const m = new Map<number, number>();
      for (const [day, v] of own.get(id) ?? []) m.set(bucketOf(day), q6((m.get(bucketOf(day)) ?? 0) + v));
      for (const c of kids.get(id) ?? []) {
        if (path.has(c)) continue; // a cycle cannot be saved; never loop on one anyway
        for (const [b, v] of visit(c, new Set([...path, c]))) m.set(b, q6((m.get(b) ?? 0) + v));
      }
      out.set(id, m);
      return m;
    };
    for (const r of rows) visit(r.id, new Set([r.id]));
    return out;
  }

  /** The period's use of every department (children included) by bucket. */
  async function energyOf(scope: Scope, project: AreaRow, counter: DepartmentCounter, period: Period, from = period.from, to = period.to) {
    const rows = await repo.departmentsOf(db, project.tenant_id, project.id);
    const own = await ownUse(scope, project, counter, from, to);
    const rolled = rolledUp(rows, own.use, period.grain === 'month' ? monthStartCst : (d) => d);
    return { rows, rolled, meters: own.meters, silent: own.silent };
  }

  const per = (total: number | null, n: number | null) => (total === null || !n ? null : q6(total / n));
  const areaOf = (r: DepartmentRow) => (r.area_cm2 === null ? null : r.area_cm2 / 100);

  /** Tree order with depth and path (parents before their children). */
  function ordered(rows: DepartmentRow[]): { row: DepartmentRow; depth: number; path: string }[] {
    const out: { row: DepartmentRow; depth: number; path: string }[] = [];
    const ids = new Set(rows.map((r) => r.id));
    const walk = (parent: number | null, depth: number, prefix: string) => {
      for (const r of rows.filter((x) => (parent === null ? x.parent_id === null || !ids.has(x.parent_id) : x.parent_id === parent))) {
        const path = prefix ? `${prefix} / ${r.name}` : r.name;
        out.push({ row: r, depth, path });
        walk(r.id, depth + 1, path);
      }
    };
    walk(null, 0, '');
    return out;
  }

  const idsOf = (text: string | undefined) => (text ? [...new Set(text.split(',').map(Number))] : []);

  async function statistic(a: Actor, q: Omit<DepartmentEnergyQuery, 'pageNo' | 'pageSize'>, now = Date.now()): Promise<Omit<DepartmentEnergyPage, 'total'>> {
    const project = await projects.project(a.scope, q.projectId);
    const period = periodOf(q, now);
    const { rows, rolled, meters, silent } = await energyOf(a.scope, project, q.counter, period);
    const wanted = idsOf(q.departmentIds);
    for (const id of wanted) if (!rows.some((r) => r.id === id)) throw invalid('所选部门不存在或不属于该项目', ['departmentIds']);
    const visible = (b: { start: number }) => b.start <= now;
    const list: DepartmentEnergyRow[] = ordered(rows).filter((o) => !wanted.length || wanted.includes(o.row.id)).map(({ row, depth, path }) => {
      const m = rolled.get(row.id)!;
      const values = period.buckets.map((b) => (visible(b) ? m.get(b.start) ?? null : null));
      const total = sum(values);
      return { departmentId: row.id, name: row.name, path, depth, headcount: row.headcount, area: areaOf(row), values, total, perPerson: per(total, row.headcount), perArea: per(total, areaOf(row)) };
    });
    // the project's total: the top-level departments (children are inside them already)
    const tops = rows.filter((r) => r.parent_id === null);
    const totalValues = period.buckets.map((b) => sum(tops.map((t) => rolled.get(t.id)?.get(b.start) ?? null)));
    const unit = DEPARTMENT_COUNTERS[q.counter].unit;
    const notes = [
      ...(rows.length ? [] : ['该项目还没有部门，请在「部门能耗总览」新增部门并分配表计']),
      ...(rows.length && !meters ? ['这段时间没有分配给部门的表计或房间'] : []),
      ...(silent ? [`${silent} 块分配的表计在此期间没有${DEPARTMENT_COUNTERS[q.counter].label}读数，未计入`] : []),
      '上级部门的用量包含其下级部门',
    ];
    return { rows: list, buckets: period.buckets.map((b) => b.label), unit, totals: { values: totalValues, total: sum(totalValues) }, notes };
  }

  /** [start, start + days) of the period `monthsBack` months earlier, cut at that period's end. */
  const window = (period: Period, monthsBack: number, days: number) => {
    const start = addMonths(period.from, -monthsBack);
    return [start, Math.min(start + days * DAY, addMonths(start, period.months))] as const;
  };

  return {
    async tree(a: Actor, projectId: number, now = Date.now()): Promise<DepartmentDto[]> {
      const project = await projects.project(a.scope, projectId);
      const rows = await repo.departmentsOf(db, project.tenant_id, project.id);
      const today = todayStart(now);
      const counts = new Map<number, { meters: number; rooms: number }>();
      for (const x of await repo.assignmentsIn(db, project.tenant_id, project.id, today, today + DAY)) {
        const c = counts.get(x.department_id) ?? { meters: 0, rooms: 0 };
        if (x.kind === 'device') c.meters++;
        else c.rooms++;
        counts.set(x.department_id, c);
      }
      return toTree(rows, counts);
    },

    async create(a: Actor, b: DepartmentBody): Promise<DepartmentDto> {
      const project = await projects.project(a.scope, b.projectId);
      const parentId = await checkParent({ tenantId: project.tenant_id, projectId: project.id }, b.parentId);
      await checkSiblingName(project.tenant_id, project.id, parentId, b.name);
      const now = Date.now();
      const row = await db.insertInto('department').values({ tenant_id: project.tenant_id, project_id: project.id, parent_id: parentId, ...fields(b), created_at: now, updated_at: now })
        .returningAll().executeTakeFirstOrThrow();
      return toTree([row], new Map())[0]!;
    },

    async update(a: Actor, id: number, b: DepartmentUpdate): Promise<DepartmentDto> {
      const d = await department(a.scope, id);
      const parentId = await checkParent({ tenantId: d.tenant_id, projectId: d.project_id, id }, b.parentId);
      await checkSiblingName(d.tenant_id, d.project_id, parentId, b.name, id);
      const row = await db.updateTable('department').set({ parent_id: parentId, ...fields(b), updated_at: Date.now() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      return toTree([row], new Map())[0]!;
    },

    /** Refused while it has children or any assignment (history included: its past use would lose its owner). */
    async remove(a: Actor, id: number) {
      const d = await department(a.scope, id);
      const kids = await db.selectFrom('department').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', id).executeTakeFirst();
      if (Number(kids?.n ?? 0) > 0) throw conflict(`部门「${d.name}」下有 ${Number(kids!.n)} 个下级部门，请先删除或移走下级部门`);
      const held = await db.selectFrom('department_assignment').select((eb) => eb.fn.countAll<number>().as('n')).where('department_id', '=', id).executeTakeFirst();
      if (Number(held?.n ?? 0) > 0) throw conflict(`部门「${d.name}」有 ${Number(held!.n)} 条表计或房间分配记录（含历史），请先删除分配记录`);
      await db.deleteFrom('department').where('id', '=', id).execute();
      return { id };
    },

    async assignments(a: Actor, q: { projectId: number; departmentId?: number; activeOn?: string; pageNo: number; pageSize: number }): Promise<Page<AssignmentDto>> {
      const project = await projects.project(a.scope, q.projectId);
      let rows = q.activeOn
        ? await repo.assignmentsIn(db, project.tenant_id, project.id, dayStart(q.activeOn), dayStart(q.activeOn) + DAY)
        : await repo.assignmentsIn(db, project.tenant_id, project.id, 0, null);
      if (q.departmentId !== undefined) {
        const all = await repo.departmentsOf(db, project.tenant_id, project.id);
        if (!all.some((d) => d.id === q.departmentId)) throw notFound('部门');
        rows = rows.filter((r) => r.department_id === q.departmentId);
      }
      rows.sort((x, y) => y.valid_from - x.valid_from || y.id - x.id);
      const slice = rows.slice((q.pageNo - 1) * q.pageSize, q.pageNo * q.pageSize);
      return { total: rows.length, rows: await assignmentDtos(a.scope, project, slice) };
    },

    async candidates(a: Actor, projectId: number, now = Date.now()): Promise<AssignCandidateDto[]> {
      const project = await projects.project(a.scope, projectId);
      const [meters, places, today, depts] = await Promise.all([
        metersOf(a.scope, project), loadPlaces(db, project.tenant_id, project.id),
        repo.assignmentsIn(db, project.tenant_id, project.id, todayStart(now), todayStart(now) + DAY), repo.departmentsOf(db, project.tenant_id, project.id),
      ]);
      const name = new Map(depts.map((d) => [d.id, d.name]));
      const holder = (kind: AssignmentKind, id: number) => {
        const x = today.find((t) => t.kind === kind && (kind === 'device' ? t.device_id : t.area_id) === id);
        return x ? name.get(x.department_id) ?? null : null;
      };
      const rooms = await db.selectFrom('area').select(['id', 'name']).where('tenant_id', '=', project.tenant_id).where('level', '=', 'room').orderBy('sort_no').orderBy('id').execute();
      return [
        ...meters.map((m): AssignCandidateDto => ({ kind: 'device', id: m.id, label: `${m.device_name}（${m.device_code}）`, place: places.pathOf(m.area_id), heldBy: holder('device', m.id) })),
        ...rooms.filter((r) => places.has(r.id)).map((r): AssignCandidateDto => ({ kind: 'room', id: r.id, label: places.pathOf(r.id), place: places.pathOf(r.id), heldBy: holder('room', r.id) })),
      ];
    },

    async assign(a: Actor, b: AssignmentBody): Promise<AssignmentDto> {
      const d = await department(a.scope, b.departmentId);
      const t = await target(a.scope, d.project, b.kind, b.deviceId, b.areaId);
      const from = dayStart(b.from);
      const to = b.to ? dayStart(b.to) : null;
      await checkOverlap({ projectId: d.project_id, kind: b.kind, deviceId: t.deviceId, areaId: t.areaId }, t.label, from, to);
      const row = await db.insertInto('department_assignment').values({
        tenant_id: d.tenant_id, project_id: d.project_id, department_id: d.id, kind: b.kind, device_id: t.deviceId, area_id: t.areaId,
        valid_from: from, valid_to: to, created_by: (a.user.name || a.user.username).slice(0, 64), created_at: Date.now(),
      }).returningAll().executeTakeFirstOrThrow();
      return (await assignmentDtos(a.scope, d.project, [row]))[0]!;
    },

    async updateAssignment(a: Actor, id: number, b: AssignmentUpdate): Promise<AssignmentDto> {
      const x = await assignment(a.scope, id);
      const d = await department(a.scope, x.department_id);
      const t = await target(a.scope, d.project, x.kind as AssignmentKind, x.device_id, x.area_id);
      const from = dayStart(b.from);
      const to = b.to ? dayStart(b.to) : null;
      await checkOverlap({ projectId: x.project_id, kind: x.kind, deviceId: x.device_id, areaId: x.area_id }, t.label, from, to, [x.id]);
      const row = await db.updateTable('department_assignment').set({ valid_from: from, valid_to: to }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      return (await assignmentDtos(a.scope, d.project, [row]))[0]!;
    },

    /** 转移: the meter (or room) counts for its department up to the day before `date` and for the other one from it. */
    async move(a: Actor, id: number, b: AssignmentMove): Promise<AssignmentDto> {
      const x = await assignment(a.scope, id);
      const to = await department(a.scope, b.departmentId);
      if (to.project_id !== x.project_id) throw invalid('目标部门不属于该项目', ['departmentId']);
      if (to.id === x.department_id) throw invalid('目标部门与当前部门相同', ['departmentId']);
      const day = dayStart(b.date);
      if (day <= x.valid_from || (x.valid_to !== null && day >= x.valid_to)) {
        throw invalid(`转移日期须在该分配的有效期内（${dateOf(x.valid_from + DAY)} ${x.valid_to === null ? '之后' : `至 ${dateOf(x.valid_to - DAY)}`}）`, ['date']);
      }
      const row = await db.transaction().execute(async (trx) => {
        const cut = await trx.updateTable('department_assignment').set({ valid_to: day }).where('id', '=', x.id).where('valid_from', '=', x.valid_from)
          .where((eb) => (x.valid_to === null ? eb('valid_to', 'is', null) : eb('valid_to', '=', x.valid_to))).returning('id').executeTakeFirst();
        if (!cut) throw conflict('分配记录刚被他人修改，请刷新后重试');
        return trx.insertInto('department_assignment').values({
          tenant_id: x.tenant_id, project_id: x.project_id, department_id: to.id, kind: x.kind, device_id: x.device_id, area_id: x.area_id,
          valid_from: day, valid_to: x.valid_to, created_by: (a.user.name || a.user.username).slice(0, 64), created_at: Date.now(),
        }).returningAll().executeTakeFirstOrThrow();
      });
      return (await assignmentDtos(a.scope, to.project, [row]))[0]!;
    },

    async unassign(a: Actor, id: number) {
      const x = await assignment(a.scope, id);
      await db.deleteFrom('department_assignment').where('id', '=', x.id).execute();
      return { id };
    },

    statistic,

    async energyPage(a: Actor, q: DepartmentEnergyQuery, now = Date.now()): Promise<DepartmentEnergyPage> {
      const all = await statistic(a, q, now);
      return { ...all, total: all.rows.length, rows: all.rows.slice((q.pageNo - 1) * q.pageSize, q.pageNo * q.pageSize) };
    },

    /** 2–6 departments side by side: per bucket, total, the period before (环比) and a year earlier (同比). */
    async compare(a: Actor, q: DepartmentCompareQuery, now = Date.now()): Promise<DepartmentCompareResult> {
      const project = await projects.project(a.scope, q.projectId);
      const ids = idsOf(q.departmentIds);
      if (ids.length < 2 || ids.length > 6) throw invalid('请选择 2～6 个部门对比', ['departmentIds']);
      const period = periodOf(q, now);
      const { rows, rolled, silent } = await energyOf(a.scope, project, q.counter, period);
      for (const id of ids) if (!rows.some((r) => r.id === id)) throw invalid('所选部门不存在或不属于该项目', ['departmentIds']);
      // an unfinished period compares with the same number of days of the earlier ones, a finished one with them whole
      const unfinished = period.to > now;
      const days = unfinished ? Math.round((todayStart(now) + DAY - period.from) / DAY) : 366;
      const [prevFrom, prevTo] = window(period, period.months, days);
      const [lyFrom, lyTo] = window(period, 12, days);
      const [prev, ly] = await Promise.all([energyOf(a.scope, project, q.counter, period, prevFrom, prevTo), energyOf(a.scope, project, q.counter, period, lyFrom, lyTo)]);
      const totalOf = (m: Map<number, number> | undefined) => (m && m.size ? q6([...m.values()].reduce((s, v) => s + v, 0)) : null);
      const items = ids.map((id) => {
        const row = rows.find((r) => r.id === id)!;
        const values = period.buckets.map((b) => (b.start <= now ? rolled.get(id)?.get(b.start) ?? null : null));
        const total = sum(values);
        const previous = totalOf(prev.rolled.get(id));
        const lastYear = totalOf(ly.rolled.get(id));
        return {
          departmentId: id, name: row.name, values, total, previous, lastYear, mom: ratio(total, previous), yoy: ratio(total, lastYear),
          perPerson: per(total, row.headcount), perArea: per(total, areaOf(row)),
        };
      });
      return {
        buckets: period.buckets.map((b) => b.label), unit: DEPARTMENT_COUNTERS[q.counter].unit, items,
        notes: [
          ...(unfinished ? [`本期尚未结束：环比、同比与上期、去年同期的前 ${days} 天比较`] : []),
          ...(silent ? [`${silent} 块分配的表计在此期间没有读数，未计入`] : []),
          '上级部门的用量包含其下级部门',
        ],
      };
    },

    /** 部门能耗总览: this month so far, last month, a year ago, by department, and the budgets (kWh of electricity). */
    async overview(a: Actor, q: { projectId: number; counter: DepartmentCounter }, now = Date.now()): Promise<DepartmentOverview> {
      const project = await projects.project(a.scope, q.projectId);
      const period = periodOf({ grain: 'day' }, now);
      const dayOfMonth = Math.round((todayStart(now) - period.from) / DAY) + 1;
      const daysInMonth = period.buckets.length;
      const [cur, last, lastSame, ly, lySame] = await Promise.all([
        energyOf(a.scope, project, q.counter, period, period.from, todayStart(now) + DAY),
        energyOf(a.scope, project, q.counter, period, ...window(period, 1, 31)),
        energyOf(a.scope, project, q.counter, period, ...window(period, 1, dayOfMonth)),
        energyOf(a.scope, project, q.counter, period, ...window(period, 12, 31)),
        energyOf(a.scope, project, q.counter, period, ...window(period, 12, dayOfMonth)),
      ]);
      const totalOf = (m: Map<number, number> | undefined) => (m && m.size ? q6([...m.values()].reduce((s, v) => s + v, 0)) : null);
      const tops = cur.rows.filter((r) => r.parent_id === null);
      const projectTotal = (e: typeof cur) => sum(tops.map((t) => totalOf(e.rolled.get(t.id))));
      const thisMonth = projectTotal(cur);
      const byDepartment = ordered(cur.rows).map(({ row }) => ({ departmentId: row.id, name: row.name, parentId: row.parent_id, value: totalOf(cur.rolled.get(row.id)) }));
      // budgets are kWh of electricity, whatever counter the screen shows
      const elec = q.counter === 'f70' ? cur : await energyOf(a.scope, project, 'f70', period, period.from, todayStart(now) + DAY);
      const budgets: DepartmentBudgetItem[] = cur.rows.filter((r) => r.budget_kwh !== null && r.budget_kwh > 0).map((r) => {
        const used = totalOf(elec.rolled.get(r.id)) ?? 0;
        return { departmentId: r.id, name: r.name, budgetKwh: r.budget_kwh!, used, ...budgetState(used, r.budget_kwh!, dayOfMonth, daysInMonth) };
      }).sort((x, y) => y.projected / y.budgetKwh - x.projected / x.budgetKwh);
      return {
        unit: DEPARTMENT_COUNTERS[q.counter].unit, month: dateOf(period.from).slice(0, 7), thisMonth, lastMonth: projectTotal(last), lastYearMonth: projectTotal(ly),
        mom: ratio(thisMonth, projectTotal(lastSame)), yoy: ratio(thisMonth, projectTotal(lySame)), byDepartment, budgets,
        notes: [
          `环比、同比：本月 1～${dayOfMonth} 日与上月、去年同月的同期相比`,
          '预算为每月电量（kWh）：本月已用电量按已过天数（含今天）推算全月，超过预算即预警',
          ...(cur.silent ? [`${cur.silent} 块分配的表计本月没有读数，未计入`] : []),
        ],
      };
    },
  };
}

export type DepartmentService = ReturnType<typeof createDepartmentService>;
