import crypto from 'node:crypto';
import {
  BIND_ACTION_LABELS, DEVICE_TYPES, DEVICE_TYPE_BY_CODE, type BindAction, type BindRecord, type DeviceCard,
  type DeviceBindQuery, type DeviceBindRow, type DeviceRow, type Device4gRow, type ReplaceResult, type StorageRow,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import { GATEWAY_TYPES, codeOrNameLike, type DeviceDbRow, type DeviceService } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import * as repo from './repository.ts';
import type { CardRow } from './repository.ts';

const DAY = 86_400_000;
export const CELLULAR_TYPES = DEVICE_TYPES.filter((t) => t.sleeps).map((t) => t.code);

export function toCard(c: CardRow, now = Date.now()): DeviceCard {
  return {
    deviceCode: c.device_code,
    iccid: c.iccid,
    carrier: c.carrier,
    activatedAt: c.activated_at,
    packageEnd: c.package_end,
    packageDaysLeft: c.package_end === null ? null : Math.floor((c.package_end - now) / DAY),
    dataLimitMb: c.data_limit_mb,
    dataUsedMb: c.data_used_mb,
    updatedAt: c.updated_at,
  };
}

/**
 * Device management: placing devices in rooms, moving, disabling, deleting, storage (devices of a project
 * not installed anywhere), replacement of the hardware behind a device, SIM cards, and the bind record of every
 * such change. Reads and checks go through the devices service; this module writes what device management owns.
 */
export function createDeviceManagementService(deps: { db: Db; projects: ProjectService; devices: DeviceService }) {
  const { db, projects, devices } = deps;

  /** A device of the caller's scope, or 404 (another tenant's device does not exist for them). */
  async function device(scope: Scope, id: number): Promise<DeviceDbRow> {
    const row = await devices.deviceById(scope, id);
    if (!row) throw notFound('设备');
    return row;
  }

  async function deviceByCode(scope: Scope, code: string): Promise<DeviceDbRow> {
    const row = await devices.scopedDevices(scope).selectAll().where('device_code', '=', code).executeTakeFirst();
    if (!row) throw notFound(`设备「${code}」`);
    return row;
  }

  /** building / floor / room names of an area (for the bind record). */
  async function pathOf(scope: Scope, areaId: number | null): Promise<string | null> {
    if (areaId === null) return '库存';
    const names: string[] = [];
    let a = await projects.area(scope, areaId);
    while (a.level !== 'project' && a.level !== 'region') {
      names.unshift(a.name);
      if (a.parent_id === null) break;
      a = await projects.area(scope, a.parent_id);
    }
    return names.length ? names.join(' / ') : a.name;
  }

  /** An area of the same project as the device, where a device may sit. */
  async function areaInProject(scope: Scope, areaId: number, projectId: number) {
    const project = await projects.projectOf(scope, areaId);
    if (project.id !== projectId) throw invalid('只能放到本项目的区域中', ['areaId']);
  }

  async function gatewayCheck(scope: Scope, gatewayId: number | null | undefined, projectId: number) {
    if (!gatewayId) return;
    const gw = await devices.deviceById(scope, gatewayId);
    if (!gw || !GATEWAY_TYPES.has(gw.device_type) || gw.project_id !== projectId) throw invalid('网关必须是同一项目中的网关或管理器', ['gatewayId']);
  }

  async function record(trx: Db, row: Pick<DeviceDbRow, 'id' | 'tenant_id' | 'project_id' | 'device_type' | 'device_code'>, action: BindAction, a: Actor, extra: {
    oldCode?: string | null; newCode?: string | null; from?: number | null; to?: number | null; areaPath?: string | null; detail: string;
  }) {
    await trx.insertInto('device_bind_record').values({
      tenant_id: row.tenant_id, project_id: row.project_id, device_id: row.id, device_type: row.device_type, action,
      old_device_code: extra.oldCode ?? row.device_code, new_device_code: extra.newCode ?? null,
      from_area_id: extra.from ?? null, to_area_id: extra.to ?? null, area_path: extra.areaPath?.slice(0, 200) ?? null,
      detail: extra.detail.slice(0, 200), user_id: a.user.id, username: a.user.username, at: Date.now(),
    }).execute();
  }


  async function rowsOf(scope: Scope, rows: DeviceDbRow[]): Promise<Device4gRow[]> {
    const [base, cards] = await Promise.all([
      devices.toRows(scope, rows),
      repo.cardsOf(db, rows.map((r) => r.tenant_id), rows.map((r) => r.device_code)),
    ]);
    const now = Date.now();
    return base.map((d, i) => {
      const c = cards.get(`${rows[i].tenant_id}:${rows[i].device_code}`);
      return { ...d, card: c ? toCard(c, now) : null };
    });
  }

  async function fresh(scope: Scope, id: number): Promise<DeviceRow> {
    return (await devices.toRows(scope, [await device(scope, id)]))[0];
  }

  /**
   * Places a device in an area: a code that sits in this project's storage is installed there (the hardware keeps
   * its credentials); any other code becomes a new device with fresh credentials (shown once).
   */
  async function create(a: Actor, input: { projectId: number; areaId: number; deviceType: string; deviceCode?: string; deviceName?: string; gatewayId?: number | null }) {
    await projects.project(a.scope, input.projectId);
    await areaInProject(a.scope, input.areaId, input.projectId);
    await gatewayCheck(a.scope, input.gatewayId, input.projectId);
    const stocked = input.deviceCode ? await devices.deviceByCode(input.deviceCode) : undefined;
    if (stocked) {
      const mine = await devices.deviceById(a.scope, stocked.id);
      if (!mine || mine.project_id !== input.projectId || mine.area_id !== null) throw conflict(`设备编号 ${input.deviceCode} 已存在`);
      if (mine.device_type !== input.deviceType) throw invalid(`库存设备「${mine.device_code}」的类型与所选类型不同`, ['deviceType']);
      const areaPath = await pathOf(a.scope, input.areaId);
      await db.transaction().execute(async (trx) => {
        await devices.updateDevices(trx, [mine.id], { area_id: input.areaId, gateway_id: input.gatewayId ?? null, ...(input.deviceName && { device_name: input.deviceName }) });
        await record(trx, mine, 'install', a, { from: null, to: input.areaId, areaPath, detail: '从库存安装' });
      });
      return { device: await fresh(a.scope, mine.id), credentials: null };
    }
    const made = await devices.create(a, { deviceType: input.deviceType, areaId: input.areaId, deviceName: input.deviceName, deviceCode: input.deviceCode, gatewayId: input.gatewayId });
    const row = await device(a.scope, made.device.id);
    await record(db, row, 'install', a, { to: input.areaId, areaPath: made.device.areaPath, detail: '新建设备' });
    return made;
  }

  async function update(a: Actor, id: number, patch: { deviceName?: string; areaId?: number; gatewayId?: number | null; enabled?: boolean }) {
    const row = await device(a.scope, id);
    if (patch.areaId !== undefined && patch.areaId !== row.area_id) await areaInProject(a.scope, patch.areaId, row.project_id);
    if (patch.gatewayId === row.id) throw invalid('设备不能挂在自己下面', ['gatewayId']);
    await gatewayCheck(a.scope, patch.gatewayId, row.project_id);
    const moved = patch.areaId !== undefined && patch.areaId !== row.area_id;
    // Paths are read before the transaction: SQLite has one connection, and the transaction holds it.
    const movePath = moved ? `${await pathOf(a.scope, row.area_id)} → ${await pathOf(a.scope, patch.areaId!)}` : null;
    await db.transaction().execute(async (trx) => {
      await devices.updateDevices(trx, [row.id], {
        ...(patch.deviceName !== undefined && { device_name: patch.deviceName }),
        ...(patch.areaId !== undefined && { area_id: patch.areaId }),
        ...(patch.gatewayId !== undefined && { gateway_id: patch.gatewayId }),
        ...(patch.enabled !== undefined && { enabled: patch.enabled ? 1 : 0 }),
      });
      if (moved) {
        await record(trx, row, row.area_id === null ? 'install' : 'move', a, {
          from: row.area_id, to: patch.areaId, areaPath: movePath, detail: row.area_id === null ? '从库存安装' : '移动设备',
        });
      }
    });
    if (patch.enabled === false) devices.forget(row.device_code);
    else if (patch.enabled === true) devices.reenable(row.device_code);
    return fresh(a.scope, row.id);
  }

  /** updatearea: several devices into one area of their project, all or none. */
  async function move(a: Actor, ids: number[], areaId: number, detail = '移动设备') {
    const rows = await Promise.all([...new Set(ids)].map((id) => device(a.scope, id)));
    const project = await projects.projectOf(a.scope, areaId);
    const foreign = rows.find((r) => r.project_id !== project.id);
    if (foreign) throw invalid(`设备「${foreign.device_code}」不属于该区域所在的项目`, ['areaId']);
    const to = await pathOf(a.scope, areaId);
    const changed = rows.filter((x) => x.area_id !== areaId);
    const from = await Promise.all(changed.map((r) => pathOf(a.scope, r.area_id)));
    await db.transaction().execute(async (trx) => {
      await devices.updateDevices(trx, rows.map((r) => r.id), { area_id: areaId });
      for (const [i, r] of changed.entries()) {
        await record(trx, r, r.area_id === null ? 'install' : 'move', a, { from: r.area_id, to: areaId, areaPath: `${from[i]} → ${to}`, detail });
      }
    });
    return { moved: rows.length };
  }

  async function setEnabled(a: Actor, ids: number[], enabled: boolean) {
    const rows = await Promise.all([...new Set(ids)].map((id) => device(a.scope, id)));
    await devices.updateDevices(db, rows.map((r) => r.id), { enabled: enabled ? 1 : 0 });
    for (const r of rows) {
      if (enabled) devices.reenable(r.device_code);
      else devices.forget(r.device_code);
    }
    return { updated: rows.length };
  }

  /** Deletes devices that hold nothing: a gateway with sub-devices is refused. History stays for the reports. */
  async function remove(a: Actor, ids: number[]) {
    const rows = await Promise.all([...new Set(ids)].map((id) => device(a.scope, id)));
    for (const r of rows) {
      if (!GATEWAY_TYPES.has(r.device_type)) continue;
      const subs = await devices.scopedDevices(a.scope).select((eb) => eb.fn.countAll<number>().as('n')).where('gateway_id', '=', r.id)
        .where('id', 'not in', rows.map((x) => x.id)).executeTakeFirst();
      if (Number(subs?.n ?? 0) > 0) throw conflict(`网关「${r.device_name}」下还有 ${subs!.n} 台设备，请先移走或删除`);
    }
    const paths = await Promise.all(rows.map((r) => pathOf(a.scope, r.area_id)));
    await db.transaction().execute(async (trx) => {
      const idList = rows.map((r) => r.id);
      for (const [i, r] of rows.entries()) await record(trx, r, 'delete', a, { from: r.area_id, areaPath: paths[i], detail: `删除设备 ${r.device_name}` });
      await trx.deleteFrom('device_group_member').where('device_id', 'in', idList).execute();
      await devices.deleteDevices(trx, idList);
    });
    devices.forget(...rows.map((r) => r.device_code));
    return { deleted: rows.length };
  }

  /** backUpDevice: the device leaves its room for the project's storage (a spare); its history stays with it. */
  async function backUp(a: Actor, id: number, detail = '转入库存（备用）') {
    const row = await device(a.scope, id);
    if (row.area_id === null) throw invalid('设备已在库存中', ['id']);
    const areaPath = await pathOf(a.scope, row.area_id);
    await db.transaction().execute(async (trx) => {
      await devices.updateDevices(trx, [row.id], { area_id: null, gateway_id: null });
      await record(trx, row, 'spare', a, { from: row.area_id, areaPath, detail });
    });
    return fresh(a.scope, row.id);
  }

  /**
   * replaceDevice: new hardware takes over a device. The device row (and so its room, history, groups, pending
   * commands and billing account, all keyed by its id) stays; only the hardware identity — code, secret, connection
   * state — changes. New hardware taken from storage swaps identities with it (the old hardware becomes the spare);
   * unregistered new hardware gets fresh credentials, and the old code is retired.
   */
  async function replace(a: Actor, oldCode: string, newCode: string): Promise<ReplaceResult> {
    const old = await deviceByCode(a.scope, oldCode);
    if (old.area_id === null) throw invalid(`设备「${oldCode}」在库存中，不需要更换`, ['oldDeviceCode']);
    const taken = await devices.deviceByCode(newCode);
    const spare = taken ? await devices.deviceById(a.scope, taken.id) : undefined;
    if (taken && !spare) throw conflict(`设备编号 ${newCode} 已被使用`);
    if (spare && spare.project_id !== old.project_id) throw invalid(`新设备「${newCode}」属于其他项目`, ['newDeviceCode']);
    if (spare && spare.area_id !== null) throw conflict(`新设备「${newCode}」已安装在 ${await pathOf(a.scope, spare.area_id)}，请先转入库存`);
    if (spare && spare.device_type !== old.device_type) {
      const name = (t: string) => DEVICE_TYPE_BY_CODE.get(t)?.name ?? t;
      throw invalid(`新设备是${name(spare.device_type)}，与旧设备（${name(old.device_type)}）类型不同`, ['newDeviceCode']);
    }
    const areaPath = await pathOf(a.scope, old.area_id);
    let secret: string | null = null;
    await db.transaction().execute(async (trx) => {
      if (spare) {
        // Codes are unique: park the spare's code first, then swap.
        await devices.updateDevices(trx, [spare.id], { device_code: `~swap-${crypto.randomUUID()}` });
        await devices.updateDevices(trx, [old.id], {
          device_code: spare.device_code, secret_hash: spare.secret_hash, online_until: spare.online_until, last_connect_at: spare.last_connect_at,
        });
        await devices.updateDevices(trx, [spare.id], {
          device_code: old.device_code, secret_hash: old.secret_hash, online_until: old.online_until, last_connect_at: old.last_connect_at,
        });
      } else {
        secret = devices.newSecret();
        await devices.updateDevices(trx, [old.id], { device_code: newCode, secret_hash: devices.hashSecret(secret), online_until: null, last_connect_at: null });
      }
      await record(trx, old, 'replace', a, {
        oldCode, newCode, from: old.area_id, to: old.area_id, areaPath,
        detail: spare ? `从库存换上新设备，旧设备 ${oldCode} 转入库存` : '换上新设备（新登记），旧设备编号停用',
      });
    });
    devices.forget(oldCode, newCode);
    const device = await fresh(a.scope, old.id);
    return {
      device,
      spare: spare ? await fresh(a.scope, spare.id) : null,
      credentials: secret ? await devices.credentialsFor({ id: old.id, device_code: newCode, tenant_id: old.tenant_id }, secret) : null,
    };
  }

  return {
    device,
    deviceByCode,
    create,
    update,
    move,
    setEnabled,
    remove,
    backUp,
    replace,
    rowsOf,

    async list4g(scope: Scope, q: { areaId: number; deviceType?: string; deviceName?: string; pageNo: number; pageSize: number }) {
      const [node] = await projects.tree(scope, q.areaId);
      const ids: number[] = [];
      const walk = (n: typeof node) => { ids.push(n.id); n.children.forEach(walk); };
      walk(node);
      let query = devices.scopedDevices(scope).selectAll().where('device_type', 'in', q.deviceType ? [q.deviceType] : CELLULAR_TYPES).where('area_id', 'in', ids);
      if (q.deviceName) query = query.where((eb) => eb(eb.fn('lower', ['device_name']), 'like', repo.likeName(q.deviceName!)));
      const page = await paginate(query, q, (b) => b.orderBy('device_code'));
      return { total: page.total, rows: await rowsOf(scope, page.rows) };
    },

    /** Storage of a project: devices not installed anywhere (`all`: every device, for package renewals). */
    async storage(scope: Scope, q: { projectId: number; deviceName?: string; packageLimitDays?: number; pageNo: number; pageSize: number }, all: boolean) {
      const p = await projects.project(scope, q.projectId);
      let query = devices.scopedDevices(scope).selectAll().where('project_id', '=', p.id);
      if (!all) query = query.where('area_id', 'is', null);
      if (q.deviceName) query = query.where((eb) => eb(eb.fn('lower', ['device_name']), 'like', repo.likeName(q.deviceName!)));
      if (q.packageLimitDays !== undefined) {
        const until = Date.now() + (q.packageLimitDays + 1) * DAY;
        query = query.where('device_code', 'in', (eb) => eb.selectFrom('device_card').select('device_code')
          .where('tenant_id', '=', p.tenant_id).where('package_end', 'is not', null).where('package_end', '<', until));
      }
      const page = await paginate(query, q, (b) => b.orderBy('device_code'));
      const rows = await rowsOf(scope, page.rows);
      return { total: page.total, rows: rows.map((r, i): StorageRow => ({ ...r, inStorage: page.rows[i].area_id === null })) };
    },

    async rename(scope: Scope, id: number, name: string) {
      const row = await device(scope, id);
      await devices.updateDevices(db, [row.id], { device_name: name });
      return fresh(scope, row.id);
    },

    /** A new device straight into storage (credentials shown once, for the hardware). */
    async addToStorage(a: Actor, input: { projectId: number; deviceType: string; deviceCode?: string; deviceName?: string }) {
      const p = await projects.project(a.scope, input.projectId);
      const made = await devices.create(a, { deviceType: input.deviceType, areaId: p.id, deviceName: input.deviceName, deviceCode: input.deviceCode });
      await devices.updateDevices(db, [made.device.id], { area_id: null });
      return { device: await fresh(a.scope, made.device.id), credentials: made.credentials };
    },

    /** 设备绑定管理: the project's devices with the area each sits in (bound) or storage (unbound), and their latest bind record. */
    async bindList(scope: Scope, q: DeviceBindQuery) {
      const p = await projects.project(scope, q.projectId);
      let query = devices.scopedDevices(scope).selectAll().where('project_id', '=', p.id);
      if (q.bound === 'bound') query = query.where('area_id', 'is not', null);
      if (q.bound === 'unbound') query = query.where('area_id', 'is', null);
      if (q.deviceType) query = query.where('device_type', '=', q.deviceType);
      if (q.keyword) query = query.where(codeOrNameLike(q.keyword));
      const page = await paginate(query, q, (b) => b.orderBy('device_code'));
      const rows = await devices.toRows(scope, page.rows);
      const ids = page.rows.map((r) => r.id);
      const last = ids.length ? await db.selectFrom('device_bind_record').select(['device_id', 'at', 'username', 'action', 'id']).where('device_id', 'in', ids)
        .where('id', 'in', (eb) => eb.selectFrom('device_bind_record').select((e) => e.fn.max<number>('id').as('id')).where('device_id', 'in', ids).groupBy('device_id')).execute() : [];
      const lastOf = new Map(last.map((r) => [r.device_id, r]));
      return {
        total: page.total,
        rows: rows.map((d, i): DeviceBindRow => {
          const l = lastOf.get(d.id);
          return {
            id: d.id, deviceCode: d.deviceCode, deviceName: d.deviceName, deviceType: d.deviceType, typeName: d.typeName, online: d.online,
            areaId: page.rows[i].area_id, areaPath: page.rows[i].area_id === null ? null : d.areaPath, lastAt: l?.at ?? null, lastBy: l?.username ?? null,
            lastAction: l ? BIND_ACTION_LABELS[l.action as BindAction] ?? l.action : null,
          };
        }),
      };
    },

    /** 绑定: a device into an area of its project (from storage or another room), written as a bind record. */
    async bind(a: Actor, id: number, areaId: number) {
      const row = await device(a.scope, id);
      const area = await projects.area(a.scope, areaId).catch(() => null);
      if (!area || area.level === 'project' || area.level === 'region') throw invalid('请选择本项目中的楼栋、楼层或房间', ['areaId']);
      if (row.area_id === areaId) throw conflict('设备已绑定在该位置');
      await move(a, [row.id], areaId, row.area_id === null ? '绑定到房间' : '改绑到其他房间');
      return fresh(a.scope, row.id);
    },

    /** 解绑: the device leaves its room for the project's storage, written as a bind record. */
    unbind: (a: Actor, id: number) => backUp(a, id, '解绑（转入库存）'),

    async bindRecords(scope: Scope, q: { projectId: number; deviceCode?: string; action?: BindAction; deviceId?: number; pageNo: number; pageSize: number }) {
      const p = await projects.project(scope, q.projectId);
      let query = db.selectFrom('device_bind_record').selectAll().where('project_id', '=', p.id);
      if (q.deviceId) query = query.where('device_id', '=', q.deviceId);
      if (q.deviceCode) query = query.where((eb) => eb.or([eb('old_device_code', '=', q.deviceCode!), eb('new_device_code', '=', q.deviceCode!)]));
      if (q.action) query = query.where('action', '=', q.action);
      const page = await paginate(query, q, (b) => b.orderBy('at', 'desc').orderBy('id', 'desc'));
      return {
        total: page.total,
        rows: page.rows.map((r): BindRecord => ({
          id: r.id, at: r.at, action: r.action as BindAction, actionLabel: BIND_ACTION_LABELS[r.action as BindAction] ?? r.action, deviceId: r.device_id,
          deviceType: r.device_type, oldDeviceCode: r.old_device_code, newDeviceCode: r.new_device_code, areaPath: r.area_path, detail: r.detail, username: r.username,
        })),
      };
    },
  };
}

export type DeviceManagementService = ReturnType<typeof createDeviceManagementService>;
