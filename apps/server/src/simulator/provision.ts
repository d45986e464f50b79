import { DEVICE_TYPES, type DeviceTypeDef } from '@kelvin/contracts';
import type { Db } from '../db/index.ts';
import { hashSecret, simulatorKey, simulatorSecret } from '../modules/devices/index.ts';
import type { SimDeviceSpec } from './runner.ts';

const GATEWAYS = new Set(['gateway', 'manager']);

/** Simulated devices of each type in the demo tenant (`./kelvin start`). */
export const DEMO_DEVICES_PER_TYPE = 6;

/**
 * A factory line (project type PT5000) uses no device type of its own: it holds the devices being tested before
 * they ship. Each such project gets one device of each of these types — one per factory bench (设备测试, 直流无刷风机测试,
 * 柜机控制器测试, 光伏设备测试) — on top of the devices placed by `perType`.
 */
export const FACTORY_LINE_PROJECT_TYPE = 'PT5000';
export const FACTORY_LINE_DEVICE_TYPES = ['device20020', 'device20030', 'AirCabinetController', 'deviceSolar_n'];
/** the factory line's rooms are its benches, in the order of FACTORY_LINE_DEVICE_TYPES (db/seed/demo.ts) */
export const FACTORY_BENCHES = ['设备测试台', '直流无刷风机测试台', '柜机控制器测试台', '光伏设备测试台'];

/**
 * The demo is not a lab: about one device in eleven is left unplayed (unplugged, never reports), never a gateway nor
 * a type's first device; the rest report as the simulator plays them.
 */
export function demoDeviceUnplugged(code: string, type: string): boolean {
  if (GATEWAYS.has(type) || code.endsWith('-001')) return false;
  let h = 0;
  for (const ch of code) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % 11 === 0;
}

const CARRIER_SHARE = ['中国移动', '中国移动', '中国联通', '中国电信'] as const;

export interface ProvisionOptions {
  tenantCode: string;
  /** at least this many devices of every type a project of the tenant uses (gateways and managers: one per project) */
  perType: number;
  /** only these types */
  types?: string[];
  /**
   * Devices of the tenant whose secret the simulator did not issue are skipped, unless adopt is set: then their
   * secret is replaced by the simulator's (they were created for a test bench, not installed in a building).
   */
  adopt?: boolean;
}

export interface Provisioned {
  devices: SimDeviceSpec[];
  created: number;
  adopted: number;
  skipped: number;
}

const shortType = (def: DeviceTypeDef) => def.code.replace(/^device/, '').replace(/_n$/, '').replace(/[^A-Za-z0-9]/g, '').toUpperCase();

/**
 * Makes sure a tenant has simulated devices of every type its projects use, placed round-robin in the rooms of those
 * projects (gateways in the first building of each project, other wired devices attached to their project's gateway),
 * with secrets derived from the simulator key; returns what the simulator needs to play them. Idempotent.
 */
export async function provisionSimulatedDevicesDetailed(db: Db, opts: ProvisionOptions): Promise<Provisioned> {
  const tenant = await db.selectFrom('tenant').select(['id', 'code']).where('code', '=', opts.tenantCode).executeTakeFirst();
  if (!tenant) throw new Error(`租户 ${opts.tenantCode} 不存在`);
  const key = await simulatorKey(db);
  const areas = await db.selectFrom('area').select(['id', 'parent_id', 'level', 'name', 'project_type']).where('tenant_id', '=', tenant.id).orderBy('sort_no').orderBy('id').execute();
  const byId = new Map(areas.map((a) => [a.id, a]));
  const projectOf = (id: number | null) => {
    let a = id === null ? undefined : byId.get(id);
    while (a && a.level !== 'project') a = a.parent_id === null ? undefined : byId.get(a.parent_id);
    return a;
  };
  const projects = areas.filter((a) => a.level === 'project');
  const rooms = new Map<number, typeof areas>(projects.map((p) => [p.id, []]));
  const buildings = new Map<number, (typeof areas)[number]>();
  for (const a of areas) {
    const p = projectOf(a.parent_id);
    if (!p) continue;
    if (a.level === 'room') rooms.get(p.id)!.push(a);
    if (a.level === 'building' && !buildings.has(p.id)) buildings.set(p.id, a);
  }

  const existing = await db.selectFrom('device').select(['id', 'device_code', 'device_type', 'project_id', 'secret_hash']).where('tenant_id', '=', tenant.id).execute();
  const taken = new Set((await db.selectFrom('device').select('device_code').where('device_code', 'like', `${tenant.code.toUpperCase()}-%`).execute()).map((r) => r.device_code));
  const gatewayOf = new Map<number, number>();
  for (const d of existing) if (d.device_type === 'gateway' && !gatewayOf.has(d.project_id)) gatewayOf.set(d.project_id, d.id);

  const wanted = DEVICE_TYPES.filter((t) => !opts.types || opts.types.includes(t.code))
    .sort((a, b) => Number(GATEWAYS.has(b.code)) - Number(GATEWAYS.has(a.code))); // gateways first: others attach to them
  let created = 0;
  const now = Date.now();
  const factoryLines = projects.filter((p) => p.project_type === FACTORY_LINE_PROJECT_TYPE);
  for (const def of wanted) {
    const targets = projects.filter((p) => GATEWAYS.has(def.code) || def.projectTypes.includes(p.project_type ?? ''));
    const lines = FACTORY_LINE_DEVICE_TYPES.includes(def.code) ? factoryLines : [];
    if (!targets.length && !lines.length) continue;
    const have = existing.filter((d) => d.device_type === def.code);
    const need = GATEWAYS.has(def.code)
      ? targets.filter((p) => !have.some((d) => d.project_id === p.id))
      : Array.from({ length: targets.length ? Math.max(0, opts.perType - have.length) : 0 }, (_, i) => targets[(have.length + i) % targets.length]);
    need.push(...lines.filter((p) => !have.some((d) => d.project_id === p.id)));
    // plant: one per project of the types that install it in the building (placed there, not in a room)
    const plant = projects.filter((p) => def.plantFor.includes(p.project_type ?? '') && !have.some((d) => d.project_id === p.id));
    need.push(...plant);
    const rows = [];
    for (const [i, project] of need.entries()) {
      const projectRooms = rooms.get(project.id) ?? [];
      const bench = project.project_type === FACTORY_LINE_PROJECT_TYPE ? FACTORY_LINE_DEVICE_TYPES.indexOf(def.code) : -1;
      const area = GATEWAYS.has(def.code) || def.plantFor.includes(project.project_type ?? '')
        ? buildings.get(project.id) ?? project
        : bench >= 0 ? projectRooms.find((r) => r.name === FACTORY_BENCHES[bench]) ?? projectRooms[bench % Math.max(1, projectRooms.length)] ?? project
          : projectRooms[(have.length + i) % Math.max(1, projectRooms.length)] ?? project;
      let n = have.length + i + 1;
      let code = `${tenant.code.toUpperCase()}-${shortType(def)}-${String(n).padStart(3, '0')}`;
      while (taken.has(code)) code = `${tenant.code.toUpperCase()}-${shortType(def)}-${String(++n).padStart(3, '0')}`;
      taken.add(code);
      rows.push({
        tenant_id: tenant.id, project_id: project.id, area_id: area.id,
        gateway_id: GATEWAYS.has(def.code) || def.sleeps ? null : gatewayOf.get(project.id) ?? null,
        device_type: def.code, device_code: code, device_name: `${area.name} ${def.name}`,
        secret_hash: hashSecret(simulatorSecret(key, code)), enabled: 1, created_at: now, updated_at: now,
        last_report_at: null, online_until: null, last_connect_at: null, command_pending_at: null,
      });
    }
    for (let i = 0; i < rows.length; i += 200) {
      const ids = await db.insertInto('device').values(rows.slice(i, i + 200)).returning(['id', 'project_id']).execute();
      if (def.code === 'gateway') for (const r of ids) if (!gatewayOf.has(r.project_id)) gatewayOf.set(r.project_id, r.id);
    }
    // 4G devices come with their SIM card registered — all but every fourth, which the operator still has to enter
    if (def.sleeps) {
      const cards = rows.filter((_, i) => i % 4 !== 3).map((r, i) => {
        const digits = [...r.device_code].reduce((h, ch) => (h * 131 + ch.charCodeAt(0)) % 1e12, 7);
        return {
          tenant_id: tenant.id, device_code: r.device_code, iccid: `8986${String(1100 + i).padStart(4, '0')}${String(digits).padStart(12, '0')}`,
          carrier: CARRIER_SHARE[i % CARRIER_SHARE.length], activated_at: now - (200 + i * 37) * 86_400_000,
          package_end: now + (i % 3 === 2 ? 20 : 165 + i * 30) * 86_400_000, data_limit_mb: 1024, data_used_mb: 40 + ((i * 97) % 600), updated_at: now,
        };
      });
      if (cards.length) await db.insertInto('device_card').values(cards).execute();
    }
    created += rows.length;
  }

  const all = await db.selectFrom('device').select(['id', 'device_code', 'device_type', 'secret_hash', 'enabled'])
    .where('tenant_id', '=', tenant.id).orderBy('id').execute();
  const devices: SimDeviceSpec[] = [];
  let adopted = 0;
  let skipped = 0;
  for (const d of all) {
    if (opts.types && !opts.types.includes(d.device_type)) continue;
    const secret = simulatorSecret(key, d.device_code);
    if (d.secret_hash !== hashSecret(secret)) {
      if (!opts.adopt) {
        skipped++;
        continue;
      }
      await db.updateTable('device').set({ secret_hash: hashSecret(secret), updated_at: Date.now() }).where('id', '=', d.id).execute();
      adopted++;
    }
    if (d.enabled) devices.push({ code: d.device_code, tenantCode: tenant.code, type: d.device_type, secret });
  }
  return { devices, created, adopted, skipped };
}

/** The devices the demo's in-process simulator plays: all but the few left unplugged (demoDeviceUnplugged). */
export async function provisionSimulatedDevices(db: Db, opts: ProvisionOptions): Promise<SimDeviceSpec[]> {
  const { devices } = await provisionSimulatedDevicesDetailed(db, opts);
  // the factory line's devices are on their benches, plugged in and wired: a test step never waits out a dropout
  const onBench = new Set((await db.selectFrom('device').innerJoin('area', 'area.id', 'device.project_id').select('device.device_code')
    .where('area.project_type', '=', FACTORY_LINE_PROJECT_TYPE).execute()).map((r) => r.device_code));
  return devices.filter((d) => onBench.has(d.code) || !demoDeviceUnplugged(d.code, d.type))
    .map((d) => (onBench.has(d.code) ? { ...d, wired: true } : d));
}

/**
 * A tenant for load and control benchmarks (or any `./kelvin simulate --tenant X` of a tenant that does not exist yet):
 * one project per project type, each 2 buildings × 5 floors × 10 rooms. The demo tenant comes from the demo seed.
 */
export async function ensureSimTenant(db: Db, code: string, projectTypes: string[]): Promise<void> {
  if (await db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirst()) return;
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const tenant = await trx.insertInto('tenant').values({
      code, name: `${code} 模拟租户`, contact: null, phone: null, brand: null, filing_no: null, enabled: 1, created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const area = async (parentId: number | null, level: string, name: string, projectType: string | null = null) =>
      (await trx.insertInto('area').values({
        tenant_id: tenant.id, parent_id: parentId, level, name, code: null, sort_no: 0, floor_area: level === 'room' ? 90 : null,
        project_type: projectType, project_type2: null, billing_scheme: null, address: null, lng: null, lat: null, alias: null, created_at: now,
      }).returning('id').executeTakeFirstOrThrow()).id;
    const region = await area(null, 'region', '模拟区域');
    for (const pt of projectTypes) {
      const project = await area(region, 'project', `模拟项目 ${pt}`, pt);
      for (let b = 1; b <= 2; b++) {
        const building = await area(project, 'building', `${b}号楼`);
        for (let f = 1; f <= 5; f++) {
          const floor = await area(building, 'floor', `${f}层`);
          for (let r = 1; r <= 10; r++) await area(floor, 'room', `${f}${String(r).padStart(2, '0')}室`);
        }
      }
    }
  });
}
