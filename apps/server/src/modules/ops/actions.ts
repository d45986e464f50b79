import {
  DEVICE_TYPE_BY_CODE, type BroadcastAction, type BroadcastBody, type BroadcastResult, type OpsTarget, type ReloadItem,
  type ReloadResult, type RtuRefreshBody, type RtuRefreshResult,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { Actor } from '../../lib/scope.ts';
import type { CommandTarget, DeviceCore, DeviceDbRow } from '../devices/index.ts';

/** A cache of this process that "iot reload system" empties, saying what it did. */
export interface Reloader {
  name: string;
  reload(): Promise<string> | string;
}

/** Online devices ignore a broadcast after this (it is about now, not a command to deliver later). */
const BROADCAST_TTL_S = 60;
const CHUNK = 500;

/**
 * The service monitor's actions (spec §7.5), platform only and gate-logged by the route:
 * - iot reload system: every registered cache of this process is emptied and re-read from the database;
 * - mqtt broadcast: every online device of a tenant/project (or of all) gets a `refresh` (report now) or `syncTime`
 *   command on its own down topic — the MQTT contract's command, so devices already understand it and acknowledge it,
 *   and each one is in the device operation log;
 * - 4G RTU refresh: every device of a type that sleeps between wake-ups gets a `refresh` waiting for its next wake-up
 *   (the core delivers commands to sleeping devices when they connect, until the TTL).
 */
export function createOpsActions(deps: { db: Db; core: DeviceCore; instanceId: string; reloaders: Reloader[] }) {
  const { db, core } = deps;

  async function devicesOf(actor: Actor, t: { tenantId?: number; projectId?: number }, narrow: (q: ReturnType<DeviceCore['devices']['scopedDevices']>) => ReturnType<DeviceCore['devices']['scopedDevices']>) {
    let q = core.devices.scopedDevices(actor.scope).where('enabled', '=', 1);
    if (t.tenantId !== undefined) q = q.where('tenant_id', '=', t.tenantId);
    if (t.projectId !== undefined) q = q.where('project_id', '=', t.projectId);
    return (await narrow(q).selectAll().orderBy('id').execute()) as DeviceDbRow[];
  }

  async function issue(actor: Actor, rows: DeviceDbRow[], action: BroadcastAction, ttl: number | undefined) {
    const bases = new Map<number, CommandTarget>();
    const issuer = { userId: actor.user.id, username: actor.user.username };
    let sent = 0;
    for (let i = 0; i < rows.length; i += CHUNK) {
      const items = [];
      for (const d of rows.slice(i, i + CHUNK)) {
        let base = bases.get(d.tenant_id);
        if (!base) bases.set(d.tenant_id, (base = await core.devices.target(d)));
        items.push({ target: { ...base, id: d.id, projectId: d.project_id, deviceType: d.device_type, deviceCode: d.device_code, deviceName: d.device_name, onlineUntil: d.online_until }, input: { action }, issuer });
      }
      const out = await core.issueCommands(items, ttl === undefined ? {} : { ttl });
      sent += out.filter((c) => c.status === 'sent').length;
    }
    return sent;
  }

  return {
    async reload(): Promise<ReloadResult> {
      const items: ReloadItem[] = [];
      for (const r of deps.reloaders) items.push({ name: r.name, detail: await r.reload() });
      return { instanceId: deps.instanceId, items, at: Date.now() };
    },

    async broadcast(actor: Actor, body: BroadcastBody): Promise<BroadcastResult> {
      const now = Date.now();
      const online = await devicesOf(actor, body, (q) => q.where('online_until', '>', now));
      const able = online.filter((d) => DEVICE_TYPE_BY_CODE.get(d.device_type)?.actions.includes(body.action));
      await issue(actor, able, body.action, BROADCAST_TTL_S);
      return { action: body.action, online: online.length, asked: able.length, unsupported: online.length - able.length };
    },

    async rtuRefresh(actor: Actor, body: RtuRefreshBody): Promise<RtuRefreshResult> {
      const sleepers = [...DEVICE_TYPE_BY_CODE.values()].filter((t) => t.sleeps && t.actions.includes('refresh')).map((t) => t.code);
      if (!sleepers.length) return { devices: 0, asked: 0, sentNow: 0, alreadyWaiting: 0 };
      const rows = await devicesOf(actor, body, (q) => q.where('device_type', 'in', sleepers));
      // a refresh still waiting for its device is not asked twice (the device answers one at its wake-up anyway)
      const waiting = new Set<number>();
      for (let i = 0; i < rows.length; i += CHUNK) {
        const open = await db.selectFrom('device_command').select('device_id')
          .where('device_id', 'in', rows.slice(i, i + CHUNK).map((d) => d.id)).where('action', '=', 'refresh')
          .where('status', 'in', ['pending', 'sent']).where('expires_at', '>', Date.now()).execute();
        for (const o of open) waiting.add(o.device_id);
      }
      const ask = rows.filter((d) => !waiting.has(d.id));
      const sentNow = await issue(actor, ask, 'refresh', undefined);
      return { devices: rows.length, asked: ask.length, sentNow, alreadyWaiting: waiting.size };
    },

    /** Tenants with their projects and device figures, for choosing what a broadcast or refresh reaches. */
    async targets(): Promise<OpsTarget[]> {
      const now = Date.now();
      const sleepers = [...DEVICE_TYPE_BY_CODE.values()].filter((t) => t.sleeps).map((t) => t.code);
      const [tenants, projects, online, cellular] = await Promise.all([
        db.selectFrom('tenant').select(['id', 'code', 'name']).where('id', '<>', 0).orderBy('id').execute(),
        db.selectFrom('area').select(['id', 'tenant_id', 'name']).where('level', '=', 'project').orderBy('id').execute(),
        db.selectFrom('device').select((eb) => ['tenant_id', eb.fn.countAll<number>().as('n')]).where('online_until', '>', now).groupBy('tenant_id').execute(),
        sleepers.length
          ? db.selectFrom('device').select((eb) => ['tenant_id', eb.fn.countAll<number>().as('n')]).where('device_type', 'in', sleepers).groupBy('tenant_id').execute()
          : Promise.resolve([]),
      ]);
      const n = (rows: { tenant_id: number; n: number }[], id: number) => Number(rows.find((r) => r.tenant_id === id)?.n ?? 0);
      return tenants.map((t) => ({
        id: t.id, code: t.code, name: t.name, online: n(online, t.id), cellular: n(cellular, t.id),
        projects: projects.filter((p) => p.tenant_id === t.id).map((p) => ({ id: p.id, name: p.name })),
      }));
    },
  };
}

export type OpsActions = ReturnType<typeof createOpsActions>;
