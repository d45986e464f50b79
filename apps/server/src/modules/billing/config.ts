import {
  DEFAULT_DEVICE_PARAMS, DEFAULT_TARIFF,
  type DeviceParamBody, type DeviceParamRow, type DevicePlanRow, type DeviceRelationRole, type DeviceRelationRow, type LadderSection,
  type MeteringMethodType, type PageQuery, type ProjectPlanBody, type ProjectPlanRow, type ShareMemberRow, type ShareTeamBody, type ShareTeamRow,
  type TariffBody, type TariffDoc, type TariffVersionDto, type TouSection,
} from '@kelvin/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { BillingDevicePlanTable, BillingDeviceParamTable, BillingProjectPlanTable, BillingShareTeamTable, BillingTariffTable } from '../../db/schema.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import { cstTime } from '../../lib/excel.ts';
import { paginate } from '../../lib/pagination.ts';
import { scoped, type Actor, type Scope } from '../../lib/scope.ts';
import type { AccountService } from '../accounts/index.ts';
import { codeOrNameLike, type DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';

/** A stored tariff version's document (defaults under what was saved; the row's scheme wins). */
export const tariffDocOf = (r: { doc: string; scheme: number }): TariffDoc => ({ ...DEFAULT_TARIFF, ...(JSON.parse(r.doc) as Partial<TariffDoc>), scheme: r.scheme });

export interface TariffVersion { id: number; effectiveFrom: number; doc: TariffDoc }
export interface DeviceParams { chargeRate: string; ratedPower: string; baseFeeFen: number }
export interface ShareTeam { id: number; name: string; accountIds: number[]; totalDeviceIds: number[]; publicDeviceIds: number[] }
export interface DevicePlan { planId: number; name: string; method: MeteringMethodType; price: string }

type TariffRow = Selectable<BillingTariffTable>;
type ParamRow = Selectable<BillingDeviceParamTable>;
type TeamRow = Selectable<BillingShareTeamTable>;
type PlanRow = Selectable<BillingProjectPlanTable>;
type AssignmentRow = Selectable<BillingDevicePlanTable>;

/** `in` lists stay well under both databases' parameter limits. */
const CHUNK = 500;
function chunks<T>(xs: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}
const unique = (ids: number[]) => [...new Set(ids)];
const byName = (actor: Actor) => actor.user.username;
/** The page of an in-memory list (lists built from version histories). */
const pageOf = <T>(rows: T[], q: PageQuery) => ({ total: rows.length, rows: rows.slice((q.pageNo - 1) * q.pageSize, q.pageNo * q.pageSize) });

// ------------------------------------------------------------------------------------------- tariff checks (pure)

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmmOf = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/**
 * Time-of-use periods: none empty, none overlapping (a period may run across midnight), and — when time-of-use
 * pricing is on — together the whole day, so every minute of use has exactly one price.
 */
export function checkTou(tou: TouSection) {
  const owner = new Array<number>(1440).fill(-1);
  const label = (i: number) => `时段 ${i + 1}（${tou.periods[i]!.start}–${tou.periods[i]!.end}）`;
  tou.periods.forEach((p, i) => {
    const start = minutes(p.start);
    const end = minutes(p.end);
    if (start === end) throw invalid(`${label(i)}的开始时间与结束时间不能相同`, ['tou', 'periods', String(i), 'end']);
    for (let m = start; m !== end; m = (m + 1) % 1440) {
      if (owner[m] !== -1) throw invalid(`${label(owner[m]!)}与${label(i)}重叠`, ['tou', 'periods', String(i), 'start']);
      owner[m] = i;
    }
  });
  if (!tou.enabled) return;
  if (!tou.periods.length) throw invalid('启用峰平谷计价时请设置时段', ['tou', 'periods']);
  const gap = owner.indexOf(-1);
  if (gap !== -1) {
    let end = gap;
    while (end < 1440 && owner[end] === -1) end++;
    throw invalid(`峰平谷时段须覆盖全天 24 小时，缺少 ${hhmmOf(gap)}–${hhmmOf(end % 1440)}`, ['tou', 'periods']);
  }
}

/** Ladder tiers: bounds ascending, every tier bounded but the last, which takes all use above the others. */
export function checkLadder(ladder: LadderSection) {
  const { tiers } = ladder;
  tiers.forEach((t, i) => {
    const path = ['ladder', 'tiers', String(i), 'upTo'];
    if (i === tiers.length - 1) {
      if (t.upTo !== null) throw invalid('最后一档阶梯不设上限（超出前面各档的用量都按最后一档计价）', path);
      return;
    }
    if (t.upTo === null) throw invalid(`只有最后一档阶梯可以不设上限，请填写第 ${i + 1} 档的上限`, path);
    const prev = i > 0 ? tiers[i - 1]!.upTo : null;
    if (prev !== null && t.upTo <= prev) throw invalid(`第 ${i + 1} 档阶梯上限（${t.upTo}）须大于第 ${i} 档（${prev}）`, path);
  });
}

// ------------------------------------------------------------------------------------------- device plan histories (pure)

/** An assignment to no plan: a device taken off its plan keeps its history and has no plan from that moment on. */
const NO_PLAN = 0;

/** A device's plan rows in the order they take over: by effective time, a later save winning at the same moment. */
const inOrder = (a: AssignmentRow, b: AssignmentRow) => a.effective_from - b.effective_from || a.id - b.id;

/**
 * Assignment rows that are in force now or will be: a row is superseded once a later row of its device takes effect
 * (at or before now, or at the row's own moment for a future row).
 */
function liveAssignments(rows: AssignmentRow[], now: number): AssignmentRow[] {
  const byDevice = new Map<number, AssignmentRow[]>();
  for (const r of rows) byDevice.set(r.device_id, [...(byDevice.get(r.device_id) ?? []), r]);
  const out: AssignmentRow[] = [];
  for (const list of byDevice.values()) {
    list.sort(inOrder);
    list.forEach((r, i) => {
      const next = list[i + 1];
      if (!next || next.effective_from > Math.max(now, r.effective_from)) out.push(r);
    });
  }
  return out;
}

/**
 * Billing configuration (design §8): the versioned tariff of each project, device parameters, share teams with
 * members and related meters, metering plans. Every change that prices use is a new version with an effective time
 * (a run over a past period reads the version in force then), and no change may reach back before the project's last
 * finished run. The engine reads through the first five functions (no actor: it works for a project it was asked
 * about); the routes in config-routes.ts through the rest, scoped to the caller.
 */
export function createBillingConfig(deps: { db: Db; projects: ProjectService; core: DeviceCore; accounts: AccountService }) {
  const { db, projects, core, accounts } = deps;

  // ------------------------------------------------------------------------------- tariff

  /** Saved documents are completed from the defaults, so a field added to the contract later has a value in old versions. */
  const docOf = tariffDocOf;
  const versionOf = (r: TariffRow): TariffVersion => ({ id: r.id, effectiveFrom: r.effective_from, doc: docOf(r) });

  async function defaultVersion(projectId: number): Promise<TariffVersion> {
    return { id: 0, effectiveFrom: 0, doc: { ...DEFAULT_TARIFF, scheme: (await projects.billingScheme(projectId)) ?? 1 } };
  }

  /** The saved version in force at `at` (the latest effective at or before it; the later save wins a tie). */
  const savedAt = (projectId: number, at: number) =>
    db.selectFrom('billing_tariff').selectAll().where('project_id', '=', projectId).where('effective_from', '<=', at)
      .orderBy('effective_from', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();

  function tariffDto(projectId: number, v: TariffVersion, row?: TariffRow): TariffVersionDto {
    return { ...v.doc, effectiveFrom: v.effectiveFrom, remark: row?.remark ?? '', id: v.id, projectId, createdBy: row?.created_by ?? null, createdAt: row?.created_at ?? 0 };
  }

  /** The end of the project's last finished run: prices of a billed period do not change. */
  async function billedUntil(projectId: number): Promise<number | null> {
    const row = await db.selectFrom('billing_run').select((eb) => eb.fn.max('period_until').as('until'))
      .where('project_id', '=', projectId).where('state', '=', 'done').executeTakeFirst();
    return row?.until == null ? null : Number(row.until);
  }
  async function refuseBilled(projectId: number, effectiveFrom: number) {
    const until = await billedUntil(projectId);
    if (until !== null && effectiveFrom < until) {
      throw invalid(`生效时间不能早于已出账的截止时间 ${cstTime(until).slice(0, 16)}`, ['effectiveFrom']);
    }
  }

  // ------------------------------------------------------------------------------- device parameters

  /** For each device, its parameter rows effective at or before `at`, the one in force last. */
  async function paramRowsAt(deviceIds: number[], at: number): Promise<Map<number, ParamRow>> {
    const out = new Map<number, ParamRow>();
    for (const ids of chunks(unique(deviceIds))) {
      const rows = await db.selectFrom('billing_device_param').selectAll().where('device_id', 'in', ids).where('effective_from', '<=', at)
        .orderBy('device_id').orderBy('effective_from').orderBy('id').execute();
      for (const r of rows) out.set(r.device_id, r);
    }
    return out;
  }
  const paramsOf = (r: ParamRow | undefined): DeviceParams =>
    (r ? { chargeRate: r.charge_rate, ratedPower: r.rated_power, baseFeeFen: Number(r.base_fee_fen) } : { ...DEFAULT_DEVICE_PARAMS });

  /** Devices the scope sees, by id (absent when not visible). */
  async function scopedDevicesById(scope: Scope, ids: number[]) {
    const out = new Map<number, { id: number; tenant_id: number; project_id: number; device_code: string; device_name: string; device_type: string; area_id: number | null }>();
    for (const part of chunks(unique(ids))) {
      const rows = await core.devices.scopedDevices(scope).select(['id', 'tenant_id', 'project_id', 'device_code', 'device_name', 'device_type', 'area_id']).where('id', 'in', part).execute();
      for (const r of rows) out.set(r.id, r);
    }
    return out;
  }

  /** The devices of a body: every one visible (another tenant's is 404) and of `projectId` (or, when null, of one project). */
  async function devicesOfBody(scope: Scope, ids: number[], projectId: number | null, where: string) {
    const found = await scopedDevicesById(scope, ids);
    const list = unique(ids).map((id) => found.get(id));
    if (list.some((d) => !d)) throw notFound('设备');
    const project = projectId ?? list[0]!.project_id;
    const stranger = list.find((d) => d!.project_id !== project);
    if (stranger) throw invalid(projectId === null ? '所选设备须属于同一项目' : `设备「${stranger.device_name}」不属于${where}`, ['deviceIds']);
    return { devices: list.map((d) => d!), projectId: project };
  }

  /** Area path of devices below the project (楼栋 / 楼层 / 房间; null where there is none), from the projects module. */
  async function areaPaths(scope: Scope, areaIds: (number | null)[]) {
    const paths = await projects.areaPaths(scope, areaIds);
    return (areaId: number | null): string | null => paths.get(areaId) || null;
  }

  async function saveParams(actor: Actor, b: DeviceParamBody): Promise<{ updated: number }> {
    const { devices, projectId } = await devicesOfBody(actor.scope, b.deviceIds, null, '');
    await refuseBilled(projectId, b.effectiveFrom);
    // fields not given carry forward from the version the new one follows
    const before = await paramRowsAt(devices.map((d) => d.id), b.effectiveFrom);
    const now = Date.now();
    const rows = devices.map((d) => {
      const prev = paramsOf(before.get(d.id));
      return {
        tenant_id: d.tenant_id, project_id: projectId, device_id: d.id, charge_rate: b.chargeRate ?? prev.chargeRate, rated_power: b.ratedPower ?? prev.ratedPower,
        base_fee_fen: b.baseFeeFen ?? prev.baseFeeFen, effective_from: b.effectiveFrom, created_by: byName(actor), created_at: now,
      };
    });
    await db.transaction().execute(async (trx) => {
      for (const part of chunks(rows)) await trx.insertInto('billing_device_param').values(part).execute();
    });
    return { updated: rows.length };
  }

  /** Names of share teams and of plans are unique in their project (the screens pick them by name). */
  async function ensureUniqueName(table: 'billing_share_team' | 'billing_project_plan', projectId: number, name: string, exceptId: number | null) {
    let q = db.selectFrom(table).select('id').where('project_id', '=', projectId).where('name', '=', name);
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw invalid(`该项目已有名为「${name}」的${table === 'billing_share_team' ? '分摊组' : '计费方案'}`, ['name']);
  }

  // ------------------------------------------------------------------------------- share teams

  const teamsOf = (scope: Scope) => scoped(db.selectFrom('billing_share_team'), scope);
  async function teamRow(scope: Scope, id: number): Promise<TeamRow> {
    const row = await teamsOf(scope).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('分摊组');
    return row;
  }
  /** Rows of a team-owned table (members, relations) by id, all inside the scope's teams, or 404. */
  async function ownedByTeams(scope: Scope, table: 'billing_share_member' | 'billing_device_relation', ids: number[], what: string) {
    const wanted = unique(ids);
    const found = await db.selectFrom(table).select(['id', 'team_id']).where('id', 'in', wanted).where('team_id', 'in', teamsOf(scope).select('id')).execute();
    if (found.length !== wanted.length) throw notFound(what);
    return found;
  }

  // ------------------------------------------------------------------------------- metering plans

  const plansOf = (scope: Scope) => scoped(db.selectFrom('billing_project_plan'), scope);
  async function planRow(scope: Scope, id: number): Promise<PlanRow> {
    const row = await plansOf(scope).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('计费方案');
    return row;
  }
  /** Every assignment row of the devices that ever were on these plans (their histories, to tell which rows still count). */
  async function historiesOfPlans(planIds: number[]): Promise<AssignmentRow[]> {
    if (!planIds.length) return [];
    return db.selectFrom('billing_device_plan').selectAll()
      .where('device_id', 'in', db.selectFrom('billing_device_plan').select('device_id').where('plan_id', 'in', planIds)).execute();
  }
  async function assignmentsOf(deviceIds: number[], at?: number): Promise<AssignmentRow[]> {
    const out: AssignmentRow[] = [];
    for (const ids of chunks(unique(deviceIds))) {
      let q = db.selectFrom('billing_device_plan').selectAll().where('device_id', 'in', ids);
      if (at !== undefined) q = q.where('effective_from', '<=', at);
      out.push(...(await q.execute()));
    }
    return out;
  }
  function planDto(p: PlanRow, devices: number): ProjectPlanRow {
    return {
      projectPlanId: p.id, projectId: p.project_id, name: p.name, meteringMethodType: p.metering_method_type as MeteringMethodType, price: p.price,
      effectiveFrom: p.effective_from, remark: p.remark ?? '', devices, updatedBy: p.updated_by, updatedAt: p.updated_at,
    };
  }

  return {
    // =============================================================================== engine reads

    /** versions in force during (from, until], ascending by effectiveFrom; the first is the one in force at `from` (the default document, id 0, when none was saved) */
    tariffVersions: async (projectId: number, from: number, until: number): Promise<TariffVersion[]> => {
      const first = await savedAt(projectId, from);
      const later = await db.selectFrom('billing_tariff').selectAll().where('project_id', '=', projectId)
        .where('effective_from', '>', from).where('effective_from', '<=', until).orderBy('effective_from').orderBy('id').execute();
      // of versions saved for the same moment only the last saved is ever in force
      const inForce = later.filter((r, i) => later[i + 1]?.effective_from !== r.effective_from);
      return [first ? versionOf(first) : await defaultVersion(projectId), ...inForce.map(versionOf)];
    },
    tariffAt: async (projectId: number, at: number): Promise<TariffVersion> => {
      const row = await savedAt(projectId, at);
      return row ? versionOf(row) : defaultVersion(projectId);
    },
    deviceParamsAt: async (deviceIds: number[], at: number): Promise<Map<number, DeviceParams>> => {
      const rows = await paramRowsAt(deviceIds, at);
      return new Map(unique(deviceIds).map((id) => [id, paramsOf(rows.get(id))]));
    },
    shareTeams: async (projectId: number): Promise<ShareTeam[]> => {
      const teams = await db.selectFrom('billing_share_team').select(['id', 'name']).where('project_id', '=', projectId).orderBy('id').execute();
      if (!teams.length) return [];
      const ids = teams.map((t) => t.id);
      const [members, relations] = await Promise.all([
        db.selectFrom('billing_share_member').select(['team_id', 'account_id']).where('team_id', 'in', ids).orderBy('id').execute(),
        db.selectFrom('billing_device_relation').select(['team_id', 'device_id', 'role']).where('team_id', 'in', ids).orderBy('id').execute(),
      ]);
      return teams.map((t) => ({
        id: t.id,
        name: t.name,
        accountIds: members.filter((m) => m.team_id === t.id).map((m) => m.account_id),
        totalDeviceIds: relations.filter((r) => r.team_id === t.id && r.role === 'total').map((r) => r.device_id),
        publicDeviceIds: relations.filter((r) => r.team_id === t.id && r.role === 'public').map((r) => r.device_id),
      }));
    },
    /** the plan in force for each device at `at` (its assignment then, on a plan already in force); a device without one is absent */
    devicePlansAt: async (deviceIds: number[], at: number): Promise<Map<number, DevicePlan>> => {
      const current = new Map<number, AssignmentRow>();
      for (const r of (await assignmentsOf(deviceIds, at)).sort(inOrder)) current.set(r.device_id, r);
      const planIds = unique([...current.values()].map((r) => r.plan_id));
      const plans = new Map<number, PlanRow>();
      for (const ids of chunks(planIds)) {
        for (const p of await db.selectFrom('billing_project_plan').selectAll().where('id', 'in', ids).execute()) plans.set(p.id, p);
      }
      const out = new Map<number, DevicePlan>();
      for (const [deviceId, r] of current) {
        const p = plans.get(r.plan_id);
        if (p && p.effective_from <= at) out.set(deviceId, { planId: p.id, name: p.name, method: p.metering_method_type as MeteringMethodType, price: p.price });
      }
      return out;
    },

    // =============================================================================== tariff (routes)

    async currentTariff(actor: Actor, projectId: number): Promise<TariffVersionDto> {
      const p = await projects.project(actor.scope, projectId);
      const row = await savedAt(p.id, Date.now());
      return tariffDto(p.id, row ? versionOf(row) : await defaultVersion(p.id), row);
    },

    async tariffHistory(actor: Actor, projectId: number): Promise<TariffVersionDto[]> {
      const p = await projects.project(actor.scope, projectId);
      const rows = await db.selectFrom('billing_tariff').selectAll().where('project_id', '=', p.id).orderBy('effective_from', 'desc').orderBy('id', 'desc').execute();
      return rows.map((r) => tariffDto(p.id, versionOf(r), r));
    },

    async saveTariff(actor: Actor, projectId: number, b: TariffBody): Promise<TariffVersionDto> {
      const p = await projects.project(actor.scope, projectId);
      checkTou(b.tou);
      checkLadder(b.ladder);
      await refuseBilled(p.id, b.effectiveFrom);
      const { effectiveFrom, remark, ...doc } = b;
      const row = await db.insertInto('billing_tariff').values({
        tenant_id: p.tenant_id, project_id: p.id, scheme: doc.scheme, doc: JSON.stringify(doc), effective_from: effectiveFrom, remark: remark || null,
        created_by: byName(actor), created_at: Date.now(),
      }).returningAll().executeTakeFirstOrThrow();
      // the project row keeps the scheme in force now (cards, menus); a version saved for later leaves it until then
      const inForce = await savedAt(p.id, Date.now());
      if (inForce && inForce.scheme !== p.billing_scheme) await projects.setBillingScheme(p.id, inForce.scheme);
      return tariffDto(p.id, versionOf(row), row);
    },

    /** spec §7.2 projectBillingScheme: the scheme of the tariff in force now, else the project's own, else null */
    async projectBillingScheme(actor: Actor, projectId: number): Promise<{ paraValue: number | null }> {
      const p = await projects.project(actor.scope, projectId);
      const row = await savedAt(p.id, Date.now());
      return { paraValue: row?.scheme ?? p.billing_scheme ?? null };
    },

    // =============================================================================== device parameters (routes)

    async deviceParams(actor: Actor, q: PageQuery & { projectId: number; deviceType?: string; keyword?: string }): Promise<{ total: number; rows: DeviceParamRow[] }> {
      const p = await projects.project(actor.scope, q.projectId);
      let query = core.devices.scopedDevices(actor.scope).select(['id', 'device_code', 'device_name', 'device_type', 'area_id']).where('project_id', '=', p.id);
      if (q.deviceType) query = query.where('device_type', '=', q.deviceType);
      if (q.keyword) query = query.where(codeOrNameLike(q.keyword));
      const page = await paginate(query, q, (b) => b.orderBy('device_code').orderBy('id'));
      const [params, pathOf] = await Promise.all([paramRowsAt(page.rows.map((d) => d.id), Date.now()), areaPaths(actor.scope, page.rows.map((d) => d.area_id))]);
      return {
        total: page.total,
        rows: page.rows.map((d) => {
          const r = params.get(d.id);
          return {
            deviceId: d.id, deviceCode: d.device_code, deviceName: d.device_name, deviceType: d.device_type, areaName: pathOf(d.area_id),
            ...paramsOf(r), effectiveFrom: r?.effective_from ?? null, updatedBy: r?.created_by ?? null,
          };
        }),
      };
    },

    saveDeviceParams: saveParams,

    async deviceParamHistory(actor: Actor, deviceId: number, q: PageQuery): Promise<{ total: number; rows: DeviceParamRow[] }> {
      const d = (await scopedDevicesById(actor.scope, [deviceId])).get(deviceId);
      if (!d) throw notFound('设备');
      const pathOf = await areaPaths(actor.scope, [d.area_id]);
      const page = await paginate(db.selectFrom('billing_device_param').selectAll().where('device_id', '=', d.id), q,
        (b) => b.orderBy('effective_from', 'desc').orderBy('id', 'desc'));
      return {
        total: page.total,
        rows: page.rows.map((r) => ({
          deviceId: d.id, deviceCode: d.device_code, deviceName: d.device_name, deviceType: d.device_type, areaName: pathOf(d.area_id),
          ...paramsOf(r), effectiveFrom: r.effective_from, updatedBy: r.created_by,
        })),
      };
    },

    // =============================================================================== share teams (routes)

    async teams(actor: Actor, q: PageQuery & { projectId?: number }): Promise<{ total: number; rows: ShareTeamRow[] }> {
      let query = teamsOf(actor.scope).selectAll();
      if (q.projectId) query = query.where('project_id', '=', (await projects.project(actor.scope, q.projectId)).id);
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      const ids = page.rows.map((t) => t.id);
      const [members, relations] = ids.length
        ? await Promise.all([
          db.selectFrom('billing_share_member').select(['team_id', 'account_id']).where('team_id', 'in', ids).execute(),
          db.selectFrom('billing_device_relation').select(['team_id', 'role']).where('team_id', 'in', ids).execute(),
        ])
        : [[], []];
      const rooms = await accounts.withRooms(actor.scope, members.map((m) => m.account_id));
      return {
        total: page.total,
        rows: page.rows.map((t) => {
          const mine = members.filter((m) => m.team_id === t.id);
          const area = mine.reduce((s, m) => s + (rooms.get(m.account_id)?.area ?? 0), 0);
          return {
            shareTeamId: t.id, projectId: t.project_id, name: t.name, remark: t.remark ?? '', members: mine.length,
            totalDevices: relations.filter((r) => r.team_id === t.id && r.role === 'total').length,
            publicDevices: relations.filter((r) => r.team_id === t.id && r.role === 'public').length,
            memberArea: Math.round(area * 1e4) / 1e4, updatedBy: t.updated_by, updatedAt: t.updated_at,
          };
        }),
      };
    },

    async saveTeam(actor: Actor, id: number | null, b: ShareTeamBody): Promise<{ id: number }> {
      const team = id === null ? null : await teamRow(actor.scope, id);
      const p = await projects.project(actor.scope, b.projectId);
      if (team && team.project_id !== p.id) throw invalid('分摊组不能换项目', ['projectId']);
      await ensureUniqueName('billing_share_team', p.id, b.name, id);
      const now = Date.now();
      const values = { name: b.name, remark: b.remark || null, updated_by: byName(actor), updated_at: now };
      if (!team) {
        const row = await db.insertInto('billing_share_team').values({ tenant_id: p.tenant_id, project_id: p.id, created_at: now, ...values }).returning('id').executeTakeFirstOrThrow();
        return { id: row.id };
      }
      await db.updateTable('billing_share_team').set(values).where('id', '=', team.id).execute();
      return { id: team.id };
    },

    /** A team goes with its members and related meters, in one transaction. */
    async removeTeams(actor: Actor, ids: number[]): Promise<{ removed: number }> {
      const wanted = unique(ids);
      const found = await teamsOf(actor.scope).select('id').where('id', 'in', wanted).execute();
      if (found.length !== wanted.length) throw notFound('分摊组');
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('billing_share_member').where('team_id', 'in', wanted).execute();
        await trx.deleteFrom('billing_device_relation').where('team_id', 'in', wanted).execute();
        await trx.deleteFrom('billing_share_team').where('id', 'in', wanted).execute();
      });
      return { removed: wanted.length };
    },

    async members(actor: Actor, q: PageQuery & { shareTeamId: number }): Promise<{ total: number; rows: ShareMemberRow[] }> {
      const team = await teamRow(actor.scope, q.shareTeamId);
      const page = await paginate(db.selectFrom('billing_share_member').selectAll().where('team_id', '=', team.id), q, (b) => b.orderBy('id'));
      const rooms = await accounts.withRooms(actor.scope, page.rows.map((m) => m.account_id));
      return {
        total: page.total,
        rows: page.rows.map((m) => {
          const a = rooms.get(m.account_id);
          return { id: m.id, shareTeamId: team.id, accountId: m.account_id, accountName: a?.name ?? '', rooms: (a?.rooms ?? []).map((r) => r.path).join('、'), area: a?.area ?? 0 };
        }),
      };
    },

    /** Accounts of the team's project join it; an account shares in one team only (its share would count twice). */
    async addMembers(actor: Actor, b: { shareTeamId: number; accountIds: number[] }): Promise<{ added: number }> {
      const team = await teamRow(actor.scope, b.shareTeamId);
      const ids = unique(b.accountIds);
      const found = await accounts.withRooms(actor.scope, ids);
      for (const id of ids) {
        const a = found.get(id);
        if (!a) throw notFound('账户');
        if (a.projectId !== team.project_id) throw invalid(`账户「${a.name}」不属于该分摊组的项目`, ['accountIds']);
        if (a.status !== 'active') throw invalid(`账户「${a.name}」已退户，不能加入分摊组`, ['accountIds']);
      }
      const taken = await db.selectFrom('billing_share_member').innerJoin('billing_share_team', 'billing_share_team.id', 'billing_share_member.team_id')
        .select(['billing_share_member.account_id', 'billing_share_member.team_id', 'billing_share_team.name']).where('billing_share_member.account_id', 'in', ids).execute();
      const elsewhere = taken.find((t) => t.team_id !== team.id);
      if (elsewhere) throw invalid(`账户「${found.get(elsewhere.account_id)!.name}」已在分摊组「${elsewhere.name}」中，一个账户只能加入一个分摊组`, ['accountIds']);
      const fresh = ids.filter((id) => !taken.some((t) => t.account_id === id));
      if (!fresh.length) return { added: 0 };
      try {
        await db.transaction().execute(async (trx) => {
          for (const part of chunks(fresh)) await trx.insertInto('billing_share_member').values(part.map((account_id) => ({ tenant_id: team.tenant_id, team_id: team.id, account_id }))).execute();
          await trx.updateTable('billing_share_team').set({ updated_by: byName(actor), updated_at: Date.now() }).where('id', '=', team.id).execute();
        });
      } catch (err) {
        // a concurrent request put one of them in a team first (the unique index on account_id)
        if (/unique|duplicate/i.test(String((err as Error).message))) throw invalid('所选账户已加入其他分摊组，请刷新后重试', ['accountIds']);
        throw err;
      }
      return { added: fresh.length };
    },

    async moveMember(actor: Actor, id: number, shareTeamId: number): Promise<{ id: number }> {
      const [member] = await ownedByTeams(actor.scope, 'billing_share_member', [id], '分摊组成员');
      const target = await teamRow(actor.scope, shareTeamId);
      const from = await teamRow(actor.scope, member!.team_id);
      if (target.project_id !== from.project_id) throw invalid('只能移到同一项目的分摊组', ['shareTeamId']);
      if (target.id === from.id) return { id };
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('billing_share_member').set({ team_id: target.id }).where('id', '=', id).execute();
        await trx.updateTable('billing_share_team').set({ updated_by: byName(actor), updated_at: now }).where('id', 'in', [from.id, target.id]).execute();
      });
      return { id };
    },

    async removeMembers(actor: Actor, ids: number[]): Promise<{ removed: number }> {
      const found = await ownedByTeams(actor.scope, 'billing_share_member', ids, '分摊组成员');
      await db.deleteFrom('billing_share_member').where('id', 'in', found.map((f) => f.id)).execute();
      return { removed: found.length };
    },

    async relations(actor: Actor, q: PageQuery & { shareTeamId?: number; projectId?: number }): Promise<{ total: number; rows: DeviceRelationRow[] }> {
      let teams = teamsOf(actor.scope).select('id');
      if (q.shareTeamId) teams = teams.where('id', '=', (await teamRow(actor.scope, q.shareTeamId)).id);
      if (q.projectId) teams = teams.where('project_id', '=', (await projects.project(actor.scope, q.projectId)).id);
      const page = await paginate(db.selectFrom('billing_device_relation').selectAll().where('team_id', 'in', teams), q, (b) => b.orderBy('team_id').orderBy('id'));
      const devices = await scopedDevicesById(actor.scope, page.rows.map((r) => r.device_id));
      return {
        total: page.total,
        rows: page.rows.map((r) => {
          const d = devices.get(r.device_id);
          return { id: r.id, shareTeamId: r.team_id, deviceId: r.device_id, deviceCode: d?.device_code ?? '', deviceName: d?.device_name ?? '', deviceType: d?.device_type ?? '', role: r.role as DeviceRelationRole };
        }),
      };
    },

    /** Meters of the team's project join it in a role; a meter already related to the team takes the new role. */
    async addRelations(actor: Actor, b: { shareTeamId: number; deviceIds: number[]; role: DeviceRelationRole }): Promise<{ added: number; updated: number }> {
      const team = await teamRow(actor.scope, b.shareTeamId);
      const { devices } = await devicesOfBody(actor.scope, b.deviceIds, team.project_id, '该分摊组的项目');
      const ids = devices.map((d) => d.id);
      const existing = await db.selectFrom('billing_device_relation').select(['id', 'device_id']).where('team_id', '=', team.id).where('device_id', 'in', ids).execute();
      const fresh = ids.filter((id) => !existing.some((e) => e.device_id === id));
      await db.transaction().execute(async (trx) => {
        if (existing.length) await trx.updateTable('billing_device_relation').set({ role: b.role }).where('id', 'in', existing.map((e) => e.id)).execute();
        if (fresh.length) await trx.insertInto('billing_device_relation').values(fresh.map((device_id) => ({ tenant_id: team.tenant_id, team_id: team.id, device_id, role: b.role }))).execute();
        await trx.updateTable('billing_share_team').set({ updated_by: byName(actor), updated_at: Date.now() }).where('id', '=', team.id).execute();
      });
      return { added: fresh.length, updated: existing.length };
    },

    async removeRelations(actor: Actor, ids: number[]): Promise<{ removed: number }> {
      const found = await ownedByTeams(actor.scope, 'billing_device_relation', ids, '设备关联');
      await db.deleteFrom('billing_device_relation').where('id', 'in', found.map((f) => f.id)).execute();
      return { removed: found.length };
    },

    // =============================================================================== metering plans (routes)

    async projectPlans(actor: Actor, q: PageQuery & { projectId: number }): Promise<{ total: number; rows: ProjectPlanRow[] }> {
      const p = await projects.project(actor.scope, q.projectId);
      const page = await paginate(plansOf(actor.scope).selectAll().where('project_id', '=', p.id), q, (b) => b.orderBy('id', 'desc'));
      const live = liveAssignments(await historiesOfPlans(page.rows.map((r) => r.id)), Date.now());
      return { total: page.total, rows: page.rows.map((r) => planDto(r, unique(live.filter((a) => a.plan_id === r.id).map((a) => a.device_id)).length)) };
    },

    async saveProjectPlan(actor: Actor, id: number | null, b: ProjectPlanBody): Promise<{ id: number }> {
      const plan = id === null ? null : await planRow(actor.scope, id);
      const p = await projects.project(actor.scope, b.projectId);
      if (plan && plan.project_id !== p.id) throw invalid('计费方案不能换项目', ['projectId']);
      await ensureUniqueName('billing_project_plan', p.id, b.name, id);
      // a new price (or method, or start) may not reach into a billed period; a new name or remark may
      const pricing = !plan || plan.price !== b.price || plan.metering_method_type !== b.meteringMethodType || plan.effective_from !== b.effectiveFrom;
      if (pricing) await refuseBilled(p.id, b.effectiveFrom);
      const now = Date.now();
      const values = {
        name: b.name, metering_method_type: b.meteringMethodType, price: b.price, effective_from: b.effectiveFrom, remark: b.remark || null,
        updated_by: byName(actor), updated_at: now,
      };
      if (!plan) {
        const row = await db.insertInto('billing_project_plan').values({ tenant_id: p.tenant_id, project_id: p.id, created_at: now, ...values }).returning('id').executeTakeFirstOrThrow();
        return { id: row.id };
      }
      await db.updateTable('billing_project_plan').set(values).where('id', '=', plan.id).execute();
      return { id: plan.id };
    },

    /** A plan with devices on it (now or from a future moment) stays; its past assignments are kept as history. */
    async removeProjectPlans(actor: Actor, ids: number[]): Promise<{ removed: number }> {
      const wanted = unique(ids);
      const found = await plansOf(actor.scope).select(['id', 'name']).where('id', 'in', wanted).execute();
      if (found.length !== wanted.length) throw notFound('计费方案');
      const live = liveAssignments(await historiesOfPlans(wanted), Date.now());
      for (const p of found) {
        const n = unique(live.filter((a) => a.plan_id === p.id).map((a) => a.device_id)).length;
        if (n) throw invalid(`方案「${p.name}」中还有 ${n} 台设备，请先移除方案中的设备`, ['ids']);
      }
      await db.deleteFrom('billing_project_plan').where('id', 'in', wanted).execute();
      return { removed: wanted.length };
    },

    async devicePlans(actor: Actor, q: PageQuery & { projectPlanId: number }): Promise<{ total: number; rows: DevicePlanRow[] }> {
      const plan = await planRow(actor.scope, q.projectPlanId);
      const live = liveAssignments(await historiesOfPlans([plan.id]), Date.now()).filter((a) => a.plan_id === plan.id).sort((a, b) => b.id - a.id);
      const page = pageOf(live, q);
      const devices = await scopedDevicesById(actor.scope, page.rows.map((r) => r.device_id));
      return {
        total: page.total,
        rows: page.rows.map((r) => {
          const d = devices.get(r.device_id);
          return { id: r.id, projectPlanId: plan.id, deviceId: r.device_id, deviceCode: d?.device_code ?? '', deviceName: d?.device_name ?? '', deviceType: d?.device_type ?? '', effectiveFrom: r.effective_from };
        }),
      };
    },

    /** Devices move onto the plan from effectiveFrom on (their previous plan keeps them until then). */
    async addDevicePlans(actor: Actor, b: { projectPlanId: number; deviceIds: number[]; effectiveFrom: number }): Promise<{ added: number }> {
      const plan = await planRow(actor.scope, b.projectPlanId);
      const { devices } = await devicesOfBody(actor.scope, b.deviceIds, plan.project_id, '该方案的项目');
      if (b.effectiveFrom < plan.effective_from) throw invalid(`设备的生效时间不能早于方案的生效时间 ${cstTime(plan.effective_from).slice(0, 16)}`, ['effectiveFrom']);
      await refuseBilled(plan.project_id, b.effectiveFrom);
      // a device whose last assignment already is this plan stays as it is
      const last = new Map<number, AssignmentRow>();
      for (const r of (await assignmentsOf(devices.map((d) => d.id))).sort(inOrder)) last.set(r.device_id, r);
      const fresh = devices.filter((d) => last.get(d.id)?.plan_id !== plan.id);
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        for (const part of chunks(fresh)) {
          await trx.insertInto('billing_device_plan').values(part.map((d) => ({ tenant_id: plan.tenant_id, plan_id: plan.id, device_id: d.id, effective_from: b.effectiveFrom, created_at: now }))).execute();
        }
        await trx.updateTable('billing_project_plan').set({ updated_by: byName(actor), updated_at: now }).where('id', '=', plan.id).execute();
      });
      return { added: fresh.length };
    },

    /**
     * Takes devices off a plan (rows of the device plan list): an assignment in force ends now (the time it was in force
     * stays billed on the plan), one that has not started yet is dropped.
     */
    async removeDevicePlans(actor: Actor, ids: number[]): Promise<{ removed: number }> {
      const wanted = unique(ids);
      const found = await db.selectFrom('billing_device_plan').selectAll().where('id', 'in', wanted)
        .where('plan_id', 'in', plansOf(actor.scope).select('id')).execute();
      if (found.length !== wanted.length) throw notFound('设备方案');
      const now = Date.now();
      const live = new Set(liveAssignments(await assignmentsOf(found.map((r) => r.device_id)), now).map((r) => r.id));
      const started = found.filter((r) => r.effective_from <= now && live.has(r.id));
      await db.transaction().execute(async (trx) => {
        const pending = found.filter((r) => r.effective_from > now).map((r) => r.id);
        if (pending.length) await trx.deleteFrom('billing_device_plan').where('id', 'in', pending).execute();
        for (const part of chunks(started)) {
          await trx.insertInto('billing_device_plan').values(part.map((r) => ({ tenant_id: r.tenant_id, plan_id: NO_PLAN, device_id: r.device_id, effective_from: now, created_at: now }))).execute();
        }
      });
      return { removed: found.length };
    },
  };
}
export type BillingConfig = ReturnType<typeof createBillingConfig>;
