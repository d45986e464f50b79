import { DEVICE_TYPE_BY_CODE, MENUS, PLATFORM_ONLY_MENUS, elementCodes, fieldOf } from '@kelvin/contracts';
import type { Db } from '../index.ts';
import type { Actor } from '../../lib/scope.ts';
import { hashPassword, randomPassword } from '../../modules/auth/index.ts';
import { DEMO_DEVICES_PER_TYPE, FACTORY_BENCHES, provisionSimulatedDevices } from '../../simulator/provision.ts';

interface DemoProject {
  name: string;
  projectType: string;
  projectType2: number | null;
  billingScheme: number | null;
  address: string;
  lng: number;
  lat: number;
  /** buildings × floors × rooms per floor (default 2 × 3 × 4) */
  size?: [number, number, number];
}

/**
 * The demo operator company: two regions, projects of several project types, buildings down to rooms; together the
 * projects use every device type, and each type gets simulated devices (simulator/provision.ts).
 */
export const DEMO_REGIONS: { name: string; projects: DemoProject[] }[] = [
  {
    name: '华北区域',
    projects: [
      { name: '阳光花园小区', projectType: 'PT1011', projectType2: 101, billingScheme: 1, address: '北京市朝阳区阳光路 8 号', lng: 116.48, lat: 39.95 },
      { name: '金融中心写字楼', projectType: 'PT2010', projectType2: 102, billingScheme: 9, address: '北京市西城区金融大街 15 号', lng: 116.36, lat: 39.92, size: [1, 8, 6] },
      { name: '滨河热计量小区', projectType: 'PT4010', projectType2: 105, billingScheme: 21, address: '天津市河西区滨河路 66 号', lng: 117.22, lat: 39.1, size: [4, 6, 4] },
      { name: '国贸 V2 空调计费大厦', projectType: 'PT2015', projectType2: 101, billingScheme: 1, address: '北京市朝阳区建国门外大街 1 号', lng: 116.46, lat: 39.91, size: [1, 12, 5] },
      { name: '望京多联机办公楼', projectType: 'PT2012', projectType2: 101, billingScheme: 3, address: '北京市朝阳区望京街 10 号', lng: 116.48, lat: 40.0, size: [2, 5, 3] },
    ],
  },
  {
    name: '华东区域',
    projects: [
      { name: '东湖水力平衡站', projectType: 'PT4020', projectType2: null, billingScheme: 7, address: '杭州市西湖区东湖路 2 号', lng: 120.15, lat: 30.27, size: [1, 2, 2] },
      { name: '临港 4G 电能园区', projectType: 'PT5010', projectType2: 103, billingScheme: 7, address: '上海市浦东新区临港大道 99 号', lng: 121.9, lat: 30.9, size: [3, 2, 6] },
      { name: '崇明光伏电站', projectType: 'PT5020', projectType2: null, billingScheme: null, address: '上海市崇明区光明路 1 号', lng: 121.4, lat: 31.62, size: [1, 1, 2] },
      { name: '苏州 4G 通断热分摊', projectType: 'PT1013', projectType2: 104, billingScheme: 18, address: '苏州市工业园区星湖街 328 号', lng: 120.72, lat: 31.3, size: [3, 4, 4] },
      { name: '南京 4G 空调公寓', projectType: 'PT2013', projectType2: 103, billingScheme: 1, address: '南京市鼓楼区中山北路 30 号', lng: 118.78, lat: 32.07, size: [2, 10, 6] },
      { name: '张江综合能源园区', projectType: 'PT5030', projectType2: null, billingScheme: 7, address: '上海市浦东新区张江路 100 号', lng: 121.6, lat: 31.2, size: [2, 4, 5] },
      // the factory line: devices on the test benches before they ship (simulator/provision.ts FACTORY_LINE_DEVICE_TYPES)
      { name: '吴中出厂检测线', projectType: 'PT5000', projectType2: null, billingScheme: null, address: '苏州市吴中区东吴北路 88 号', lng: 120.63, lat: 31.26 },
    ],
  },
  {
    // the remaining project types of design §8, so each has a showroom project; small, so the simulated load stays
    name: '华南区域',
    projects: [
      { name: '广州天河地暖公寓', projectType: 'PT1012', projectType2: 101, billingScheme: 2, address: '广州市天河区天河路 208 号', lng: 113.33, lat: 23.14, size: [1, 3, 3] },
      { name: '深圳南山计量地暖小区', projectType: 'PT1014', projectType2: 102, billingScheme: 10, address: '深圳市南山区科技园南路 18 号', lng: 113.95, lat: 22.54, size: [1, 3, 3] },
      { name: '东莞 4G 通断热分摊', projectType: 'PT1015', projectType2: 104, billingScheme: 14, address: '东莞市南城区鸿福路 106 号', lng: 113.75, lat: 23.02, size: [1, 3, 3] },
      { name: '佛山能耗当量写字楼', projectType: 'PT2016', projectType2: 101, billingScheme: 3, address: '佛山市禅城区季华五路 22 号', lng: 113.12, lat: 23.02, size: [1, 4, 3] },
      { name: '珠海平衡表空调大厦', projectType: 'PT2014', projectType2: 102, billingScheme: 11, address: '珠海市香洲区情侣中路 39 号', lng: 113.58, lat: 22.27, size: [1, 4, 3] },
      { name: '厦门 4G 空调计费公寓', projectType: 'PT2017', projectType2: 103, billingScheme: 2, address: '厦门市思明区鹭江道 8 号', lng: 118.08, lat: 24.45, size: [1, 4, 3] },
    ],
  },
  {
    name: '东北区域',
    projects: [
      { name: '沈阳空调参数热计量小区', projectType: 'PT4011', projectType2: 101, billingScheme: 6, address: '沈阳市和平区南京北街 206 号', lng: 123.42, lat: 41.8, size: [1, 3, 3] },
      { name: '长春 4G 阀控热计量小区', projectType: 'PT4012', projectType2: 103, billingScheme: 5, address: '长春市朝阳区人民大街 5688 号', lng: 125.32, lat: 43.88, size: [1, 3, 3] },
    ],
  },
];

const DEFAULT_SIZE: [number, number, number] = [2, 3, 4];
/** flats and offices of different sizes (m²), picked by the room's position so every run seeds the same */
const ROOM_AREAS = [89.5, 112, 135.8, 68.2, 56.4, 143.6, 98.7, 121.3, 74.9, 168.2];

export async function seedDemo(db: Db): Promise<{ username: string; password: string } | null> {
  const exists = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirst();
  if (exists) return null;
  const now = Date.now();
  const password = randomPassword();
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const tenant = await trx.insertInto('tenant').values({
      code: 'demo', name: '示范物业有限公司', contact: '张经理', phone: '400-800-1234',
      brand: '暖云能源', filing_no: '京ICP备2026000001号', enabled: 1, created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const tenantId = tenant.id;
    const area = async (parentId: number | null, level: string, name: string, sort: number, extra: Partial<DemoProject> & { floorArea?: number } = {}) =>
      (await trx.insertInto('area').values({
        tenant_id: tenantId, parent_id: parentId, level, name, code: null, sort_no: sort,
        floor_area: extra.floorArea ?? null,
        project_type: extra.projectType ?? null, project_type2: extra.projectType2 ?? null, billing_scheme: extra.billingScheme ?? null,
        address: extra.address ?? null, lng: extra.lng ?? null, lat: extra.lat ?? null, alias: null, created_at: now,
      }).returning('id').executeTakeFirstOrThrow()).id;

    for (const [ri, region] of DEMO_REGIONS.entries()) {
      const regionId = await area(null, 'region', region.name, ri);
      for (const [pi, p] of region.projects.entries()) {
        const projectId = await area(regionId, 'project', p.name, pi, p);
        const room = (parentId: number, name: string, i: number, floorArea: number | null) => ({
          tenant_id: tenantId, parent_id: parentId, level: 'room', name, code: null, sort_no: i,
          floor_area: floorArea, project_type: null, project_type2: null, billing_scheme: null,
          address: null, lng: null, lat: null, alias: null, created_at: now,
        });
        if (p.projectType === 'PT5000') {
          const workshop = await area(projectId, 'building', '检测车间', 1);
          const line = await area(workshop, 'floor', '1号测试线', 1);
          await trx.insertInto('area').values(FACTORY_BENCHES.map((name, i) => room(line, name, i, null))).execute();
          continue;
        }
        const [buildings, floors, perFloor] = p.size ?? DEFAULT_SIZE;
        for (let b = 1; b <= buildings; b++) {
          const buildingId = await area(projectId, 'building', `${b}号楼`, b);
          for (let f = 1; f <= floors; f++) {
            const floorId = await area(buildingId, 'floor', `${f}层`, f);
            const rooms = Array.from({ length: perFloor }, (_, i) => room(
              floorId, `${f}${String(i + 1).padStart(2, '0')}室`, i, ROOM_AREAS[(pi * 7 + b * 3 + f + i) % ROOM_AREAS.length],
            ));
            await trx.insertInto('area').values(rooms).execute();
          }
        }
      }
    }

    // Tenant administrator role: every screen and button except the platform's own (tenants, menus, service monitors).
    const role = await trx.insertInto('role').values({
      tenant_id: tenantId, parent_id: null, code: 'tenant_admin', name: '租户管理员', group_type: 'role',
      description: '本租户全部功能', created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const grants = MENUS.filter((m) => !PLATFORM_ONLY_MENUS.has(m.code)).flatMap((m) => [m.code, ...elementCodes(m)]);
    for (let i = 0; i < grants.length; i += 200) {
      await trx.insertInto('role_grant').values(grants.slice(i, i + 200).map((code) => ({ role_id: role.id, code }))).execute();
    }
    const user = await trx.insertInto('app_user').values({
      tenant_id: tenantId, username: 'demo', password_hash: passwordHash, name: '示范运营员',
      phone: '13800000000', description: '示范租户管理员', enabled: 1, all_projects: 1, is_platform: 0, created_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('user_role').values({ user_id: user.id, role_id: role.id }).execute();
  });
  await provisionSimulatedDevices(db, { tenantCode: 'demo', perType: DEMO_DEVICES_PER_TYPE });
  await seedDemoRules(db);
  await seedDemoAutomation(db);
  return { username: 'demo', password };
}

/**
 * Monitoring rules the simulated devices really break now and then (simulator/model.ts): heat pumps raise a fault
 * code (f47) a few times a day, rooms nobody lives in cool below 16 °C, a meter drops off the network for a while.
 */
const DEMO_RULES: { name: string; field: string; operator: string; threshold: number; thresholdHigh?: number; forSeconds?: number; forReports?: number; severity: string; applies(type: string): boolean }[] = [
  { name: '机组故障', field: 'f47', operator: 'ne', threshold: 0, severity: 'major', applies: (t) => !!fieldOf(t, 'f47') },
  { name: '室温过低', field: 'f03', operator: 'lt', threshold: 16, forSeconds: 600, severity: 'minor', applies: (t) => DEVICE_TYPE_BY_CODE.get(t)?.category === 'thermostat' && !!fieldOf(t, 'f03') },
  { name: '室温过高', field: 'f03', operator: 'gt', threshold: 28, forReports: 3, severity: 'major', applies: (t) => DEVICE_TYPE_BY_CODE.get(t)?.category === 'thermostat' && !!fieldOf(t, 'f03') },
  { name: '电表离线', field: '', operator: 'offline', threshold: 15, severity: 'critical', applies: (t) => !!fieldOf(t, 'f70') },
];

async function seedDemoRules(db: Db) {
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
  // not on the factory line: its devices are on test benches, not in service
  const pairs = await db.selectFrom('device').innerJoin('area', 'area.id', 'device.project_id').select(['device.project_id', 'device.device_type']).distinct()
    .where('device.tenant_id', '=', tenant.id).where('area.project_type', '!=', 'PT5000').execute();
  const now = Date.now();
  const rows = pairs.flatMap((p) => DEMO_RULES.filter((r) => r.applies(p.device_type)).map((r) => ({
    tenant_id: tenant.id, project_id: p.project_id, name: r.name, device_type: p.device_type, field_code: r.field, operator: r.operator,
    threshold: r.threshold, threshold_high: r.thresholdHigh ?? null, for_seconds: r.forSeconds ?? 0, for_reports: r.forReports ?? 0,
    severity: r.severity, notify_sms: 0, enabled: 1, active_from: null, active_to: null, updated_by: 'demo', created_at: now, updated_at: now,
  })));
  if (rows.length) await db.insertInto('monitor_rule').values(rows).execute();
}

/**
 * The floor-heating demo project runs on a schedule: a week program kept in the thermostats' memory (pushed by a
 * memory task a minute after the first start), a periodic task, and a strategy task on the room temperature — all
 * real, executed by the scheduler against the simulated devices.
 */
async function seedDemoAutomation(db: Db) {
  const project = await db.selectFrom('area').innerJoin('tenant', 'tenant.id', 'area.tenant_id').select(['area.id', 'area.tenant_id'])
    .where('tenant.code', '=', 'demo').where('area.name', '=', '阳光花园小区').executeTakeFirst();
  if (!project) return;
  const devices = (await db.selectFrom('device').select('id').where('project_id', '=', project.id).where('device_type', '=', 'device20020').orderBy('id').execute()).map((d) => d.id);
  if (!devices.length) return;
  const now = Date.now();
  const who = { updated_by: 'demo', created_at: now, updated_at: now };
  const workday = (weekday: number) => [
    { weekday, at: '06:30', writes: [{ fieldCode: 'f00', value: 1 }, { fieldCode: 'f04', value: 22 }] },
    { weekday, at: '09:00', writes: [{ fieldCode: 'f04', value: 18 }] },
    { weekday, at: '17:30', writes: [{ fieldCode: 'f04', value: 22 }] },
    { weekday, at: '23:00', writes: [{ fieldCode: 'f04', value: 18 }] },
  ];
  const weekend = (weekday: number) => [
    { weekday, at: '08:00', writes: [{ fieldCode: 'f00', value: 1 }, { fieldCode: 'f04', value: 22 }] },
    { weekday, at: '23:00', writes: [{ fieldCode: 'f04', value: 18 }] },
  ];
  const slots = [1, 2, 3, 4, 5].flatMap(workday).concat([6, 7].flatMap(weekend));
  const program = await db.insertInto('automation_program').values({
    tenant_id: project.tenant_id, project_id: project.id, name: '住宅地暖作息（工作日/周末）', device_type: 'device20020', slots: JSON.stringify(slots),
    holiday_rule: 'weekend', device_ids: JSON.stringify(devices), group_ids: '[]', area_ids: '[]', scheme_id: null, missed_policy: 'skip-record',
    enabled: 1, cursor_at: now, ...who,
  }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('automation_scheme').values({
    tenant_id: project.tenant_id, project_id: project.id, name: '住宅地暖标准方案', device_type: 'device20020', slots: JSON.stringify(slots),
    remark: '工作日早晚升温，白天与夜间节能', ...who,
  }).execute();
  const task = {
    tenant_id: project.tenant_id, project_id: project.id, device_type: 'device20020', device_ids: JSON.stringify(devices), group_ids: '[]', area_ids: '[]',
    run_at: null, rule: null, skip_holidays: 0, at: null, holiday_type: null, condition: null, cooldown_minutes: null, program_id: null,
    missed_policy: 'late', enabled: 1, remark: null, cursor_at: now, ...who,
  };
  await db.insertInto('automation_task').values([
    // pushes the program into the thermostats' memory a minute after the first start (then on every change of the program)
    { ...task, name: '下发住宅地暖作息', kind: 'memory', writes: '[]', program_id: program.id, run_at: now + 60_000, cursor_at: now },
    {
      ...task, name: '工作日早上开机', kind: 'periodic', writes: JSON.stringify([{ fieldCode: 'f00', value: 1 }, { fieldCode: 'f04', value: 22 }]),
      rule: JSON.stringify({ every: 'weekly', weekdays: [1, 2, 3, 4, 5], at: '06:30' }), skip_holidays: 1,
    },
    {
      ...task, name: '室温低于 16 °C 开暖', kind: 'strategy', writes: JSON.stringify([{ fieldCode: 'f00', value: 1 }, { fieldCode: 'f04', value: 22 }]),
      condition: JSON.stringify({ source: 'device', fieldCode: 'f03', operator: 'lt', threshold: 16, forMinutes: 20 }), cooldown_minutes: 60,
    },
  ]).execute();
}

/** The demo operator as the actor of seeding work done through the services (so ledgers and versions name them). */
export async function demoActor(db: Db): Promise<Actor | null> {
  const tenant = await db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirst();
  const user = tenant && (await db.selectFrom('app_user').select(['id', 'name']).where('tenant_id', '=', tenant.id).where('username', '=', 'demo').executeTakeFirst());
  if (!tenant || !user) return null;
  return {
    user: { id: user.id, tenantId: tenant.id, username: 'demo', name: user.name, isPlatform: false, allProjects: true, sessionId: 'demo-seed', codes: new Set() },
    scope: { userId: user.id, tenantId: tenant.id, isPlatform: false, projectIds: null },
  };
}
