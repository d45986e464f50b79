import crypto from 'node:crypto';
import {
  DEVICE_ACTION_LABELS, DEVICE_CATEGORY_LABELS, DEVICE_TYPES, DEVICE_TYPE_BY_CODE, ResultCode, compareAreaNames, deviceTopic,
  deviceTypesForProjectType, fieldOf, type AreaTreeNode, type DeviceCategory, type DeviceCredentials, type DeviceDetail, type DeviceListQuery, type DeviceMonitorQuery,
  type DeviceMonitorStatistic, type DeviceRow, type DeviceTypeDef, type FieldValue, type OfflineMessageQuery, type OfflineMessageRow, type Page, type PageQuery,
} from '@kelvin/contracts';
import { changesOf, type Db } from '../../db/index.ts';
import { epochCache } from '../../lib/epoch-cache.ts';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.ts';
import { cachedTotals, countRows, paginate } from '../../lib/pagination.ts';
import { scopeKey, type Actor, type Scope } from '../../lib/scope.ts';
import type { MqttHub } from '../../plugins/mqtt.ts';
import type { AuthUser } from '../../types.ts';
import type { CommandService, CommandTarget } from './commands.ts';
import { toCommandView } from './commands.ts';
import type { ProjectService } from '../projects/index.ts';
import { hashSecret, newSecret } from './credentials.ts';
import type { DeviceDirectory } from './directory.ts';
import * as repo from './repository.ts';
import type { DeviceDbRow } from './repository.ts';

export const GATEWAY_TYPES = new Set(['gateway', 'manager']);
/** Thermostat-like categories summarised by thermostat/monitor. */
const THERMOSTAT_CATEGORIES = new Set(['thermostat', 'billingThermostat', 'onOffController', 'airCabinet']);
const MANAGE_CODES = ['deviceList_n:btn_edit', 'area:btn_edit'];

/** The menu behind a device type's page (gateways and managers: 网关管理). */
const menuOf = (type: string) => (GATEWAY_TYPES.has(type) ? 'gatewayControl' : type);

/** Viewing: the device's own page or the general monitor page. */
export function canView(user: AuthUser, type: string): boolean {
  return user.codes.has('devicemonitor') || user.codes.has(menuOf(type));
}

/** The codes of the monitor pages (the general monitor and every device type's page): who may call the monitor's extras. */
export const MONITOR_PAGE_CODES: readonly [string, ...string[]] = ['devicemonitor', ...new Set(DEVICE_TYPES.map((t) => menuOf(t.code)))];
export const MONITOR_EXPORT_CODES: readonly [string, ...string[]] = ['devicemonitor:export', ...MONITOR_PAGE_CODES.slice(1).map((c) => `${c}:export`)];

/** Exporting the monitor's rows: the page's export element or the general monitor's. */
export function canExport(user: AuthUser, type: string): boolean {
  return user.codes.has('devicemonitor:export') || user.codes.has(`${menuOf(type)}:export`);
}

/** Controlling: the page's control element (e.g. device20020:control) or devicemonitor:control. */
export function canControl(user: AuthUser, type: string): boolean {
  if (user.codes.has('devicemonitor:control')) return true;
  return user.codes.has(GATEWAY_TYPES.has(type) ? 'gatewayControl:btn_edit' : `${type}:control`);
}

/** how old an online count may be (the online window itself is minutes long) */
export const ONLINE_FIGURES_MS = 1_000;

const noPermission = () => new AppError(ResultCode.NO_PERMISSION, '权限不足，无法执行该操作');

function subtreeIds(node: AreaTreeNode, out: number[] = []): number[] {
  out.push(node.id);
  for (const c of node.children) subtreeIds(c, out);
  return out;
}

export function randomDeviceCode(type: DeviceTypeDef): string {
  const prefix = type.code.replace(/^device/, '').replace(/[^A-Za-z0-9]/g, '').slice(0, 8).toUpperCase();
  return `${prefix}-${crypto.randomBytes(5).toString('hex').toUpperCase()}`;
}

/**
 * A device's broker credentials changed: `issued` carries new secrets (the one moment they exist in clear: an
 * external broker's accounts are set from them), `changed` names devices whose secret, enabled state or existence
 * changed (read them again).
 */
export type CredentialEvent = { kind: 'issued'; devices: { code: string; secret: string }[] } | { kind: 'changed'; codes: string[] };
export type CredentialListener = (event: CredentialEvent) => void;

export function createDeviceService(deps: {
  db: Db;
  /**
   * long reads (db/read-db.ts): the per-second figures that count whole projects (project cards, the monitor's type
   * tabs) — on the main connection a count over a tenant's 100,000 devices held the event loop ~0.1 s every second
   */
  readDb: Db;
  projects: ProjectService; directory: DeviceDirectory; commands: CommandService; mqtt: MqttHub | null;
}) {
  const { db, readDb, projects } = deps;
  const changes = changesOf(db);
  /**
   * Device-list totals per scope and filter. A filter on online status changes with time and with every report (the
   * ingest writes outside this process's queries), so those totals and the online figures below are at most
   * ONLINE_FIGURES_MS old; the others change only with the device rows.
   */
  const listTotals = cachedTotals(db, ['device', 'area'], { ttlMs: 60_000 });
  const onlineTotals = cachedTotals(db, ['device', 'area'], { ttlMs: ONLINE_FIGURES_MS });
  const listPages = epochCache<string, number[]>(5_000);
  const operationLogTotals = cachedTotals(db, ['device_operation_log'], { ttlMs: 5_000 });
  /** devices and online devices per project (project cards) and per type (the monitor's tabs) */
  const onlineFigures = epochCache<string, unknown>(2_000);
  const figures = <V>(key: string, read: () => Promise<V>) =>
    onlineFigures.get(key, changes.epoch(['device']), read, () => Date.now() + ONLINE_FIGURES_MS) as Promise<V>;
  const credentialListeners: CredentialListener[] = [];
  const announce = (event: CredentialEvent) => {
    for (const listener of credentialListeners) listener(event);
  };
  /** active alarms per device of a project (monitoring attaches it in app.ts; the core does not know alarms) */
  let activeAlarms: ((projectId: number) => Promise<Map<number, number>>) | null = null;

  /** The devices the monitor page shows: one type (the caller may view) of one project, filtered as its table. */
  async function monitorSelection({ user, scope }: Actor, q: DeviceMonitorQuery, now: number) {
    const project = await projects.project(scope, q.projectId);
    if (!canView(user, q.deviceType)) throw noPermission();
    return repo.devicesQuery(db, scope, {
      projectId: project.id, types: [q.deviceType], online: q.online, keyword: q.keyword, areaIds: await areaScope(scope, q.areaId), now,
    });
  }

  async function toRows(scope: Scope, rows: DeviceDbRow[], now = Date.now()): Promise<DeviceRow[]> {
    const [states, index] = await Promise.all([
      repo.statesOf(db, rows.map((r) => r.id)),
      projects.areaPaths(scope, rows.map((r) => r.area_id)),
    ]);
    const fields = new Map<number, Record<string, FieldValue>>();
    for (const s of states) {
      let f = fields.get(s.device_id);
      if (!f) fields.set(s.device_id, (f = {}));
      f[s.field_code] = s.num ?? s.txt ?? '';
    }
    return rows.map((r) => ({
      id: r.id,
      deviceCode: r.device_code,
      deviceName: r.device_name,
      deviceType: r.device_type,
      typeName: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type,
      online: (r.online_until ?? 0) > now,
      onlineUntil: r.online_until,
      lastReportAt: r.last_report_at,
      projectId: r.project_id,
      areaId: r.area_id,
      areaPath: index.get(r.area_id) ?? '',
      gatewayId: r.gateway_id,
      enabled: r.enabled === 1,
      fields: fields.get(r.id) ?? {},
    }));
  }

  /** One device the caller may see (404 for another tenant's or an ungranted project's) and may view/control. */
  async function device({ user, scope }: Actor, id: number, need: 'view' | 'control' | 'manage' = 'view'): Promise<DeviceDbRow> {
    const row = await repo.deviceById(db, scope, id);
    if (!row) throw notFound('设备');
    if (!canView(user, row.device_type) && need === 'view') throw noPermission();
    if (need === 'control' && !canControl(user, row.device_type)) throw noPermission();
    if (need === 'manage' && !MANAGE_CODES.some((c) => user.codes.has(c))) throw noPermission();
    return row;
  }

  async function target(row: DeviceDbRow): Promise<CommandTarget> {
    return {
      id: row.id, tenantId: row.tenant_id, tenantCode: await repo.tenantCodeOf(db, row.tenant_id), projectId: row.project_id,
      deviceType: row.device_type, deviceCode: row.device_code, deviceName: row.device_name, onlineUntil: row.online_until,
    };
  }

  /** The monitor's statistic strip over the devices a selection shows (see monitorStatistic). */
  async function statisticOf(selection: Awaited<ReturnType<typeof monitorSelection>>, q: DeviceMonitorQuery, now: number): Promise<DeviceMonitorStatistic> {
    const selected = await selection.clearSelect().select(['id', 'online_until']).execute();
    const online = selected.filter((r) => (r.online_until ?? 0) > now).map((r) => r.id);
    const def = DEVICE_TYPE_BY_CODE.get(q.deviceType)!;
    const hasPower = !!fieldOf(def, 'f00');
    let poweredOn = 0;
    const temps: number[] = [];
    for (let i = 0; i < online.length; i += 500) {
      for (const s of await repo.statesOf(db, online.slice(i, i + 500), ['f00', 'f03'])) {
        if (s.num === null) continue;
        if (s.field_code === 'f00' && Number(s.num) === 1) poweredOn++;
        if (s.field_code === 'f03') temps.push(Number(s.num));
      }
    }
    const alarmsByDevice = activeAlarms ? await activeAlarms(q.projectId) : new Map<number, number>();
    const alarms = selected.reduce((n, r) => n + (alarmsByDevice.get(r.id) ?? 0), 0);
    return {
      total: selected.length,
      online: online.length,
      offline: selected.length - online.length,
      poweredOn: hasPower ? poweredOn : null,
      alarms,
      avgRoomTemp: temps.length ? Math.round((temps.reduce((a, b) => a + b, 0) / temps.length) * 10) / 10 : null,
      tempDevices: temps.length,
    };
  }

  /** The area ids at and below `areaId` (a building, floor or room the scope can see). */
  async function areaScope(scope: Scope, areaId: number | undefined) {
    if (areaId === undefined) return undefined;
    const [node] = await projects.tree(scope, areaId);
    return subtreeIds(node);
  }

  async function projectOfArea(scope: Scope, areaId: number) {
    let area = await projects.area(scope, areaId);
    for (let depth = 0; area.level !== 'project'; depth++) {
      if (area.parent_id === null || depth > 6) throw invalid('设备只能放在项目及其下级区域中', ['areaId']);
      area = await projects.area(scope, area.parent_id);
    }
    return area;
  }

  function forget(code: string) {
    deps.directory.invalidate(code);
    deps.mqtt?.disconnect(code);
    announce({ kind: 'changed', codes: [code] });
  }

  async function log(row: DeviceDbRow, user: AuthUser, operation: string, detail: string) {
    await repo.insertOperationLog(db, {
      tenant_id: row.tenant_id, project_id: row.project_id, device_id: row.id, device_code: row.device_code, device_name: row.device_name,
      device_type: row.device_type, command_id: null, user_id: user.id, username: user.username, operation, detail, result: '成功', at: Date.now(),
    });
  }

  function credentials(row: Pick<DeviceDbRow, 'id' | 'device_code'>, tenantCode: string, secret: string): DeviceCredentials {
    announce({ kind: 'issued', devices: [{ code: row.device_code, secret }] });
    return {
      deviceId: row.id,
      deviceCode: row.device_code,
      clientId: row.device_code,
      username: row.device_code,
      password: secret,
      topics: {
        up: deviceTopic(tenantCode, row.device_code, 'up'),
        down: deviceTopic(tenantCode, row.device_code, 'down'),
        ack: deviceTopic(tenantCode, row.device_code, 'ack'),
      },
    };
  }

  return {
    canView,
    canControl,
    device,
    target,
    toRows,

    async list({ user, scope }: Actor, q: DeviceListQuery) {
      if (q.projectId !== undefined) await projects.project(scope, q.projectId);
      if (q.deviceType && !canView(user, q.deviceType)) throw noPermission();
      const now = Date.now();
      const types = DEVICE_TYPES.map((t) => t.code).filter((t) => canView(user, t));
      const query = repo.devicesQuery(db, scope, {
        projectId: q.projectId,
        types,
        deviceType: q.deviceType,
        online: q.online,
        keyword: q.keyword,
        areaIds: await areaScope(scope, q.areaId),
        gatewayId: q.gatewayId,
        now,
      });
      const filter = [scopeKey(scope), types, q.projectId, q.deviceType, q.keyword, q.areaId, q.gatewayId, q.online];
      if (q.online !== undefined) {
        const page = await paginate(query, q, (b) => b.orderBy('device_code'), onlineTotals(filter));
        return { total: page.total, rows: await toRows(scope, page.rows, now) };
      }
      // without the online filter a page is which devices, in code order: that changes only with the device rows, so
      // the ids of each page are kept (a keyword scans the project's names once) and the rows read fresh by id
      const ids = await listPages.get(JSON.stringify([...filter, q.pageNo, q.pageSize]), changes.epoch(['device', 'area']), async () =>
        (await query.clearSelect().select('id').orderBy('device_code').limit(q.pageSize).offset((q.pageNo - 1) * q.pageSize).execute()).map((r) => r.id),
      () => Date.now() + 60_000);
      const [total, rows] = await Promise.all([
        listTotals(filter)(() => countRows(query)),
        ids.length ? repo.scopedDevices(db, scope).selectAll().where('id', 'in', ids).orderBy('device_code').execute() : [],
      ]);
      return { total, rows: await toRows(scope, rows, now) };
    },

    async detail({ user, scope }: Actor, id: number): Promise<DeviceDetail> {
      const row = await device({ user, scope }, id);
      const [[base], project, states, open] = await Promise.all([
        toRows(scope, [row]),
        projects.project(scope, row.project_id),
        repo.statesOf(db, [row.id]),
        deps.commands.openOf(row.id),
      ]);
      return {
        ...base,
        projectName: project.name,
        createdAt: row.created_at,
        fieldTimes: Object.fromEntries(states.map((s) => [s.field_code, s.ts])),
        openCommands: open.map((c) => toCommandView(c, { deviceType: row.device_type, deviceCode: row.device_code })),
      };
    },

    /** Registry types of the project's type plus any other type it holds, with counts; only types the user may see. */
    async typesOfProject({ user, scope }: Actor, projectId: number) {
      const project = await projects.project(scope, projectId);
      const counts = await figures(`type:${project.id}`, () => repo.typeCounts(readDb, project.id, Date.now()));
      const codes = new Set([...deviceTypesForProjectType(project.project_type).map((t) => t.code), ...counts.keys()]);
      return DEVICE_TYPES.filter((t) => codes.has(t.code) && canView(user, t.code)).map((t) => ({
        code: t.code,
        name: t.name,
        category: t.category,
        categoryName: DEVICE_CATEGORY_LABELS[t.category],
        route: GATEWAY_TYPES.has(t.code) ? '/device/gatewayControl' : `/device/${t.code}`,
        total: counts.get(t.code)?.total ?? 0,
        online: counts.get(t.code)?.online ?? 0,
      }));
    },

    /** The field schema of a type, or of a device's type (protocollist/{id}). */
    async protocol({ user, scope }: Actor, id: string) {
      const code = /^\d+$/.test(id) ? (await device({ user, scope }, Number(id))).device_type : id;
      const def = DEVICE_TYPE_BY_CODE.get(code);
      if (!def) throw notFound('设备类型');
      return {
        code: def.code,
        name: def.name,
        category: def.category,
        categoryName: DEVICE_CATEGORY_LABELS[def.category],
        heartbeatSeconds: def.heartbeatSeconds,
        sleeps: def.sleeps,
        listFields: def.listFields,
        actions: def.actions.map((a) => ({ code: a, label: DEVICE_ACTION_LABELS[a] })),
        fields: def.fields.map(({ sim: _sim, initial: _initial, ...f }) => f),
      };
    },

    /** Thermostats of a project (or of one of its buildings/floors/rooms) at a glance. */
    async thermostatMonitor({ user, scope }: Actor, projectId: number, areaId: number) {
      const project = await projects.project(scope, projectId);
      const areaIds = areaId > 0 && areaId !== project.id ? await areaScope(scope, areaId) : undefined;
      const types = DEVICE_TYPES.filter((t) => THERMOSTAT_CATEGORIES.has(t.category) && canView(user, t.code)).map((t) => t.code);
      const now = Date.now();
      const count = async (online?: boolean) => Number((await repo.devicesQuery(db, scope, { projectId: project.id, types, areaIds, online, now })
        .clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const [total, online, agg] = await Promise.all([
        count(),
        count(true),
        repo.fieldAggregates(db, { projectId: project.id, types, areaIds, fields: ['f00', 'f03', 'f04', 'f06'], now }),
      ]);
      const round1 = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 10) / 10);
      return {
        total,
        online,
        offline: total - online,
        poweredOn: agg.get('f00')?.ones ?? 0,
        valveOpen: agg.get('f06')?.ones ?? 0,
        avgRoomTemp: round1(agg.get('f03')?.avg),
        avgSetTemp: round1(agg.get('f04')?.avg),
      };
    },

    registerActiveAlarms(fn: (projectId: number) => Promise<Map<number, number>>) {
      activeAlarms = fn;
    },

    /**
     * The monitor's statistic strip over the devices shown: total / online / offline, powered on (f00 = 1 among the
     * online ones), active alarms, and the mean room temperature f03 of the online devices reporting it.
     */
    async monitorStatistic(actor: Actor, q: DeviceMonitorQuery): Promise<DeviceMonitorStatistic> {
      const now = Date.now();
      // the project and the type are checked for this caller before any figure is shared with them
      const selection = await monitorSelection(actor, q, now);
      return figures(`statistic:${scopeKey(actor.scope)}:${JSON.stringify(q)}`, () => statisticOf(selection, q, now));
    },

    /** Offline messages: devices shown whose heartbeat window lapsed in the last `days` days, most recent first. */
    async offlineMessages(actor: Actor, q: OfflineMessageQuery): Promise<Page<OfflineMessageRow>> {
      const now = Date.now();
      const query = (await monitorSelection(actor, { ...q, online: false }, now)).where('online_until', '>', now - q.days * 86_400_000);
      const page = await paginate(query, q, (b) => b.orderBy('online_until', 'desc').orderBy('id', 'desc'));
      const index = await projects.areaPaths(actor.scope, page.rows.map((r) => r.area_id));
      return {
        total: page.total,
        rows: page.rows.map((r) => ({
          deviceId: r.id, deviceCode: r.device_code, deviceName: r.device_name, typeName: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type,
          areaPath: index.get(r.area_id) ?? '', lastReportAt: r.last_report_at, offlineSince: r.online_until!, offlineMs: now - r.online_until!,
        })),
      };
    },

    /** Every row the monitor's table selects (same filters), in its order, for the .xlsx export; the caller needs the export element. */
    async monitorRows(actor: Actor, q: DeviceMonitorQuery): Promise<{ def: DeviceTypeDef; projectName: string; rows: AsyncIterable<DeviceRow> }> {
      if (!canExport(actor.user, q.deviceType)) throw noPermission();
      const now = Date.now();
      const query = await monitorSelection(actor, q, now);
      const project = await projects.project(actor.scope, q.projectId);
      async function* rows() {
        for (let offset = 0; ; offset += 500) {
          const batch = await query.orderBy('device_code').orderBy('id').limit(500).offset(offset).execute();
          yield* await toRows(actor.scope, batch, now);
          if (batch.length < 500) return;
        }
      }
      return { def: DEVICE_TYPE_BY_CODE.get(q.deviceType)!, projectName: project.name, rows: rows() };
    },

    /** The devices under an area (only on the area itself with `own`, only of a `category`), grouped by the area they sit in (getviewbyarea). */
    async viewByArea({ user, scope }: Actor, areaId: number, only: { own?: boolean; category?: DeviceCategory } = {}) {
      const areaIds = only.own ? [(await projects.area(scope, areaId)).id] : (await areaScope(scope, areaId))!;
      const types = DEVICE_TYPES.filter((t) => (!only.category || t.category === only.category) && canView(user, t.code)).map((t) => t.code);
      const rows = await repo.devicesQuery(db, scope, { types, areaIds, now: Date.now() }).orderBy('area_id').orderBy('device_code').limit(2000).execute();
      const devices = await toRows(scope, rows);
      const groups = new Map<number, { areaId: number; areaPath: string; devices: DeviceRow[] }>();
      for (const d of devices) {
        const key = d.areaId ?? 0;
        if (!groups.has(key)) groups.set(key, { areaId: key, areaPath: d.areaPath, devices: [] });
        groups.get(key)!.devices.push(d);
      }
      return [...groups.values()].sort((a, b) => compareAreaNames(a.areaPath, b.areaPath));
    },

    /** Sub-devices of a gateway or manager, optionally within an area, by page. */
    async subDevices({ user, scope }: Actor, areaId: number, parentId: number, page: { pageNo: number; pageSize: number }) {
      const parent = await device({ user, scope }, parentId);
      const types = DEVICE_TYPES.map((t) => t.code).filter((t) => canView(user, t));
      const query = repo.devicesQuery(db, scope, { types, gatewayId: parent.id, areaIds: areaId > 0 ? await areaScope(scope, areaId) : undefined, now: Date.now() });
      const result = await paginate(query, page, (b) => b.orderBy('device_code'));
      return { total: result.total, rows: await toRows(scope, result.rows) };
    },

    /**
     * Creates a device in an area of a visible project with fresh credentials (returned once). Device management
     * screens and the simulator's provisioning use this.
     */
    async create({ user, scope }: Actor, input: { deviceType: string; areaId: number; deviceName?: string; deviceCode?: string; gatewayId?: number | null }) {
      const def = DEVICE_TYPE_BY_CODE.get(input.deviceType);
      if (!def) throw invalid('设备类型不存在', ['deviceType']);
      const project = await projectOfArea(scope, input.areaId);
      if (input.gatewayId) {
        const gw = await device({ user, scope }, input.gatewayId);
        if (!GATEWAY_TYPES.has(gw.device_type) || gw.project_id !== project.id) throw invalid('网关必须是同一项目中的网关或管理器', ['gatewayId']);
      }
      const secret = newSecret();
      const code = input.deviceCode ?? randomDeviceCode(def);
      if (await repo.deviceByCode(db, code)) throw conflict(`设备编号 ${code} 已存在`);
      const now = Date.now();
      const row = await repo.insertDevice(db, {
        tenant_id: project.tenant_id, project_id: project.id, area_id: input.areaId, gateway_id: input.gatewayId ?? null,
        device_type: def.code, device_code: code, device_name: input.deviceName ?? `${def.name} ${code}`, secret_hash: hashSecret(secret),
        enabled: 1, created_at: now, updated_at: now, last_report_at: null, online_until: null, last_connect_at: null, command_pending_at: null,
      });
      await log(row, user, '新建设备', `${def.name} ${code}`);
      return { device: (await toRows(scope, [row]))[0], credentials: credentials(row, await repo.tenantCodeOf(db, row.tenant_id), secret) };
    },

    /**
     * New secret for a device of the caller's scope (the old one stops working at once; a connected device is
     * dropped), always written to the operation log. The route checks which screen's right allows it.
     */
    async reissueCredentials(actor: Actor, id: number): Promise<DeviceCredentials> {
      const row = await repo.deviceById(db, actor.scope, id);
      if (!row) throw notFound('设备');
      const secret = newSecret();
      await repo.updateDevices(db, [row.id], { secret_hash: hashSecret(secret) });
      forget(row.device_code);
      await log(row, actor.user, '重新生成密钥', '旧密钥已失效');
      return credentials(row, await repo.tenantCodeOf(db, row.tenant_id), secret);
    },

    /** Fresh credentials for a device whose hardware was just registered (shown once). */
    async credentialsFor(row: Pick<DeviceDbRow, 'id' | 'device_code' | 'tenant_id'>, secret: string) {
      return credentials(row, await repo.tenantCodeOf(db, row.tenant_id), secret);
    },

    /* ---------- for the consumers of the device core (device management, factory test, scheduler, billing) ---------- */

    /** Devices of a scope, as a query to narrow further (reads only). */
    scopedDevices: (scope: Scope) => repo.scopedDevices(db, scope),
    deviceById: (scope: Scope, id: number) => repo.deviceById(db, scope, id),
    /** A device whatever its tenant: for system work (a schedule, the prepaid loop, a bench run) whose right was checked when it was set up. */
    byId: (id: number) => repo.deviceOfAnyTenant(db, id),
    /** Any tenant's device by its hardware code (codes are unique across tenants). */
    deviceByCode: (code: string) => repo.deviceByCode(db, code),
    /** Latest value of each field (optionally only some fields) of some devices. */
    latestState: (deviceIds: number[], fieldCodes?: string[]) => repo.statesOf(db, deviceIds, fieldCodes),
    /** Numeric readings in (from, until], ordered by device, field, time (history ranges for billing). */
    readingsIn: (deviceIds: number[], fieldCodes: string[], from: number, until: number) => repo.readingsIn(db, deviceIds, fieldCodes, from, until),
    /** Each device × field's last numeric reading at or before `at`, within `lookbackMs`. */
    readingsAt: (deviceIds: number[], fieldCodes: string[], at: number, lookbackMs: number) => repo.readingsAt(db, deviceIds, fieldCodes, at, lookbackMs),
    projectDeviceCounts: (projectIds: number[]) => figures(`project:${projectIds.join(',')}`, () => repo.projectDeviceCounts(readDb, projectIds, Date.now())),
    devicesOnArea: (areaId: number) => repo.devicesOnArea(db, areaId),
    codesTaken: (codes: string[]) => repo.codesTaken(db, codes),
    /** ids of devices by code, inside the caller's transaction (just inserted rows included) */
    idsOfCodes: (trx: Db, codes: string[]) => repo.idsOfCodes(trx, codes),

    /** Writes on device rows; pass the caller's transaction to keep them with the caller's own records. */
    insertDevices: (trx: Db, rows: repo.NewDevice[]) => repo.insertDevices(trx, rows),
    updateDevices: (trx: Db, ids: number[], patch: repo.DevicePatch) => repo.updateDevices(trx, ids, patch),
    deleteDevices: (trx: Db, ids: number[]) => repo.deleteDevices(trx, ids),
    /** A changed identity or a disabled/deleted device: forget the cached context and drop its connection. */
    forget: (...codes: string[]) => codes.forEach(forget),
    /** A re-enabled device may connect again at once. */
    reenable: (...codes: string[]) => {
      codes.forEach((c) => deps.directory.invalidate(c));
      announce({ kind: 'changed', codes });
    },
    /** Secrets issued outside this service (an Excel import), once their rows are committed. */
    issued: (devices: { code: string; secret: string }[]) => {
      if (devices.length) announce({ kind: 'issued', devices });
    },
    /** Listens to credential changes made in this process (an external broker's accounts follow them). */
    onCredentials: (listener: CredentialListener) => {
      credentialListeners.push(listener);
    },
    newSecret,
    hashSecret,

    /** The device operation log: one query for the list and the export (from inclusive, to exclusive). */
    operationLog: (scope: Scope, f: repo.OperationLogFilter) => repo.operationLogQuery(db, scope, f),
    /** A page of the log, newest first (its total counted once per change of the log; another process's rows within 5 s). */
    operationLogPage: (scope: Scope, q: repo.OperationLogFilter & PageQuery) => paginate(repo.operationLogQuery(db, scope, q), q,
      (b) => b.orderBy('at', 'desc').orderBy('id', 'desc'), operationLogTotals([scopeKey(scope), { ...q, pageNo: 0, pageSize: 0 }])),
  };
}

export type DeviceService = ReturnType<typeof createDeviceService>;
