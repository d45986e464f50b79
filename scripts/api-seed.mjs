// A generator for the console API benchmark (not the live simulator): a large installation written straight into a
// fresh database before the server starts. A tenant `bench-api` with its administrator, 20 projects (one of every
// project type but the factory line, plus a 4G electricity park of 10,000 electric meters) with buildings, floors and
// rooms, 100,000 devices of the registry's types for each project type, the latest state of every field of every
// device (about 90 % reported within their heartbeat window, so online filters mean something), and a year of
// device operation log and gate log, 1,000,000 rows each.
//
//   node scripts/api-seed.mjs [--devices 100000] [--logs 1000000] [--postgres postgres://…] [--keep]
// Imported: seedApi({ devices, bigProject, logs, databaseUrl? }) → where the data is, the user, the ids a benchmark
// needs; close() removes it.
//
// Rows go in through the database's own fast paths: multi-row prepared INSERTs in large transactions on SQLite (one
// better-sqlite3 connection, synchronous off while seeding), multi-row `INSERT … SELECT FROM unnest(arrays)` batches on
// PostgreSQL. Values are deterministic (a seeded PRNG), so two runs seed the same data.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { tsImport } from 'tsx/esm/api';
import { seededStore } from './bench-lib.mjs';

export const API_TENANT = 'bench-api';
export const API_USERNAME = 'benchapi';
export const API_PASSWORD = 'Bench#Api-2026';
/** the big project's device type: the registry's electric meter (device20090, 电能表) */
export const METER_TYPE = 'device20090';
const DAY = 86_400_000;

/** Column specs: [name, 'i' integer | 't' text | 'f' float]. */
const COLUMNS = {
  area: [['tenant_id', 'i'], ['parent_id', 'i'], ['level', 't'], ['name', 't'], ['sort_no', 'i'], ['floor_area', 'f'], ['project_type', 't'], ['project_type2', 'i'],
    ['billing_scheme', 'i'], ['address', 't'], ['lng', 'f'], ['lat', 'f'], ['created_at', 'i']],
  device: [['tenant_id', 'i'], ['project_id', 'i'], ['area_id', 'i'], ['device_type', 't'], ['device_code', 't'], ['device_name', 't'], ['secret_hash', 't'], ['enabled', 'i'],
    ['created_at', 'i'], ['updated_at', 'i'], ['last_report_at', 'i'], ['online_until', 'i'], ['last_connect_at', 'i']],
  device_state: [['device_id', 'i'], ['field_code', 't'], ['num', 'f'], ['txt', 't'], ['ts', 'i']],
  device_history: [['device_id', 'i'], ['field_code', 't'], ['ts', 'i'], ['num', 'f'], ['txt', 't']],
  device_operation_log: [['tenant_id', 'i'], ['project_id', 'i'], ['device_id', 'i'], ['device_code', 't'], ['device_name', 't'], ['device_type', 't'], ['user_id', 'i'],
    ['username', 't'], ['operation', 't'], ['detail', 't'], ['result', 't'], ['at', 'i']],
  gate_log: [['tenant_id', 'i'], ['user_id', 'i'], ['username', 't'], ['menu_code', 't'], ['operation', 't'], ['method', 't'], ['uri', 't'], ['host', 't'], ['status', 'i'], ['at', 'i']],
};
const PG_TYPES = { i: 'bigint', t: 'text', f: 'float8' };

/** Bulk writer over one connection: `insert(table, rows)` with rows as arrays in COLUMNS order. */
async function sqliteWriter(file) {
  const { default: Database } = await import('better-sqlite3');
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  // a fresh file being filled: a crash loses the seed, not the data of anybody
  raw.pragma('synchronous = OFF');
  const prepared = new Map();
  const stmt = (table, n) => {
    const key = `${table}:${n}`;
    if (!prepared.has(key)) {
      const cols = COLUMNS[table];
      const one = `(${cols.map(() => '?').join(',')})`;
      prepared.set(key, raw.prepare(`INSERT INTO ${table} (${cols.map((c) => c[0]).join(',')}) VALUES ${Array(n).fill(one).join(',')}`));
    }
    return prepared.get(key);
  };
  const write = raw.transaction((table, rows) => {
    const chunk = Math.min(500, Math.floor(30_000 / COLUMNS[table].length));
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      stmt(table, part.length).run(part.flat());
    }
  });
  return {
    async insert(table, rows) {
      if (rows.length) write(table, rows);
    },
    async shiftTimes(ms) {
      raw.transaction(() => {
        raw.prepare('UPDATE device SET last_report_at = last_report_at + ?, online_until = online_until + ?, last_connect_at = last_connect_at + ?').run(ms, ms, ms);
        raw.prepare('UPDATE device_state SET ts = ts + ?').run(ms);
      })();
    },
    async finish() {
      raw.pragma('optimize');
      raw.close();
    },
  };
}

function postgresWriter(db) {
  return {
    async insert(table, rows) {
      const cols = COLUMNS[table];
      for (let i = 0; i < rows.length; i += 20_000) {
        const part = rows.slice(i, i + 20_000);
        const arrays = cols.map((_, c) => part.map((r) => r[c]));
        await sql`INSERT INTO ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c[0])))}) SELECT * FROM unnest(${sql.join(arrays.map((a, c) => sql`${a}::${sql.raw(PG_TYPES[cols[c][1]])}[]`))})`.execute(db);
      }
    },
    async shiftTimes(ms) {
      await db.transaction().execute(async (trx) => {
        await sql`UPDATE device SET last_report_at = last_report_at + ${ms}, online_until = online_until + ${ms}, last_connect_at = last_connect_at + ${ms}`.execute(trx);
        await sql`UPDATE device_state SET ts = ts + ${ms}`.execute(trx);
      });
    },
    async finish() {
      await sql`ANALYZE`.execute(db);
    },
  };
}

/** Region → its five projects; the first is the big one. Names are fictional places of a realistic operator. */
const REGIONS = ['华东区域', '华北区域', '华南区域', '西南区域'];

/** A field's latest value for device seed r: accumulators carry about a year of use, walks vary around their base. */
function fieldValue(field, rand) {
  if (field.kind === 'time' || field.kind === 'text') return [null, String(field.initial ?? '')];
  if (field.kind !== 'number') return [Number(field.initial ?? 0), null];
  const sim = field.sim ?? {};
  let v = Number(field.initial ?? 0);
  if (sim.mode === 'accumulate') v += sim.perHour * 8760 * (0.3 + rand() * 0.9);
  else if (sim.mode === 'walk') v = sim.base + (rand() - 0.5) * sim.jitter * 8;
  const min = field.min ?? -Infinity;
  const max = field.max ?? Infinity;
  const step = field.step ?? 0.01;
  v = Math.min(max, Math.max(min, Math.round(v / step) * step));
  return [Number(v.toFixed(4)), null];
}

/**
 * Writes the data set. `databaseUrl` (postgres://…): into a new schema there; otherwise a SQLite file in a new temp
 * data dir (or `dataDir`). `now`: the end of the year of logs, and the time the reports are moved to when seeding ends.
 */
export async function seedApi({ devices = 100_000, bigProject = 10_000, projects = 20, logs = 1_000_000, gateLogs = logs, days = 365, databaseUrl, dataDir, schema, log = () => {} } = {}) {
  const t0 = performance.now();
  const { openDatabase, dropSchema, sqliteFileOf } = await tsImport('../apps/server/src/db/index.ts', import.meta.url);
  const { hashPassword } = await tsImport('../apps/server/src/modules/auth/index.ts', import.meta.url);
  const { DEMO_REGIONS } = await tsImport('../apps/server/src/db/seed/demo.ts', import.meta.url);
  const { prng } = await tsImport('../apps/server/src/simulator/model.ts', import.meta.url);
  const { DEVICE_TYPE_BY_CODE, DEVICE_ACTION_LABELS, MENUS, PLATFORM_ONLY_MENUS, PROJECT_TYPES, deviceTypesForProjectType, elementCodes, fieldDisplay } = await tsImport('../packages/contracts/src/index.ts', import.meta.url);
  const postgres = !!databaseUrl?.startsWith('postgres');
  const config = postgres
    ? { dataDir: os.tmpdir(), databaseUrl, databaseSchema: schema ?? `kelvin_benchapi_${crypto.randomBytes(4).toString('hex')}` }
    : { dataDir: dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-benchapi-')) };
  const { db } = await openDatabase(config);
  const writer = postgres ? postgresWriter(db) : await sqliteWriter(sqliteFileOf(config.dataDir));
  const rand = prng(20260101);
  const now = Date.now();
  const step = (label) => log(`  ${label}（累计 ${((performance.now() - t0) / 1000).toFixed(1)} s）`);

  // ── the tenant and its administrator (as admin's tenant creation makes them: every code but the platform's own) ──
  const tenantId = (await db.insertInto('tenant').values({ code: API_TENANT, name: '规模压测能源服务公司', contact: '压测', phone: null, brand: null, filing_no: null, enabled: 1, created_at: now, logo: null })
    .returning('id').executeTakeFirstOrThrow()).id;
  const roleId = (await db.insertInto('role').values({ tenant_id: tenantId, parent_id: null, code: 'tenant_admin', name: '租户管理员', group_type: 'role', description: '本租户全部功能', created_at: now })
    .returning('id').executeTakeFirstOrThrow()).id;
  const grants = MENUS.filter((m) => !PLATFORM_ONLY_MENUS.has(m.code)).flatMap((m) => [m.code, ...elementCodes(m)]);
  for (let i = 0; i < grants.length; i += 200) await db.insertInto('role_grant').values(grants.slice(i, i + 200).map((code) => ({ role_id: roleId, code }))).execute();
  const userId = (await db.insertInto('app_user').values({
    tenant_id: tenantId, username: API_USERNAME, password_hash: await hashPassword(API_PASSWORD), name: '压测管理员', phone: null, description: '租户管理员',
    enabled: 1, all_projects: 1, is_platform: 0, created_at: now,
  }).returning('id').executeTakeFirstOrThrow()).id;
  await db.insertInto('user_role').values({ user_id: userId, role_id: roleId }).execute();

  // ── areas: 4 regions × 5 projects; the big project first, then one project per other project type ──
  const demoOf = new Map(DEMO_REGIONS.flatMap((r) => r.projects).map((p) => [p.projectType, p]));
  const otherTypes = PROJECT_TYPES.map((t) => t.code).filter((c) => c !== 'PT5000');
  const plans = [{ type: 'PT5010', name: '临港智慧电能园区', devices: bigProject, size: [Math.ceil(bigProject / 500), 25, 20], types: [METER_TYPE] }];
  const rest = devices - bigProject;
  for (let p = 1; p < projects; p++) {
    const type = otherTypes[(p - 1) % otherTypes.length];
    const n = Math.floor(rest / (projects - 1)) + (p - 1 < rest % (projects - 1) ? 1 : 0);
    const types = deviceTypesForProjectType(type).map((t) => t.code).filter((c) => c !== 'gateway' && c !== 'manager');
    if (!types.length) throw new Error(`项目类型 ${type} 没有设备类型`);
    const rooms = Math.ceil(n / 2);
    const buildings = Math.max(1, Math.round(rooms / 400));
    plans.push({ type, name: `${PROJECT_TYPES.find((t) => t.code === type).name}示范项目${p}`, devices: n, size: [buildings, 16, Math.ceil(rooms / buildings / 16)], types });
  }
  const area = (parentId, level, name, sort, extra = {}) => [tenantId, parentId, level, name, sort, extra.floorArea ?? null, extra.projectType ?? null, extra.projectType2 ?? null,
    extra.billingScheme ?? null, extra.address ?? null, extra.lng ?? null, extra.lat ?? null, now];
  const idsOf = async (level) => (await db.selectFrom('area').select('id').where('tenant_id', '=', tenantId).where('level', '=', level).orderBy('id').execute()).map((r) => Number(r.id));
  await writer.insert('area', REGIONS.map((name, i) => area(null, 'region', name, i)));
  const regionIds = await idsOf('region');
  await writer.insert('area', plans.map((p, i) => {
    const demo = demoOf.get(p.type);
    return area(regionIds[i % REGIONS.length], 'project', p.name, i, {
      projectType: p.type, projectType2: demo?.projectType2 ?? null, billingScheme: demo?.billingScheme ?? null,
      address: `${REGIONS[i % REGIONS.length].slice(0, 2)}压测路 ${i + 1} 号`, lng: 110 + i * 0.5, lat: 25 + i * 0.4,
    });
  }));
  const projectIds = await idsOf('project');
  plans.forEach((p, i) => { p.id = projectIds[i]; });
  await writer.insert('area', plans.flatMap((p) => Array.from({ length: p.size[0] }, (_, b) => area(p.id, 'building', `${b + 1}号楼`, b + 1))));
  const buildingIds = await idsOf('building');
  let k = 0;
  for (const p of plans) p.buildings = buildingIds.slice(k, (k += p.size[0]));
  await writer.insert('area', plans.flatMap((p) => p.buildings.flatMap((b) => Array.from({ length: p.size[1] }, (_, f) => area(b, 'floor', `${f + 1}层`, f + 1)))));
  const floorIds = await idsOf('floor');
  k = 0;
  for (const p of plans) p.floors = floorIds.slice(k, (k += p.size[0] * p.size[1]));
  const roomRows = [];
  for (const p of plans) {
    p.roomNames = [];
    p.floors.forEach((floorId, fi) => {
      const f = (fi % p.size[1]) + 1;
      const b = Math.floor(fi / p.size[1]) + 1;
      for (let r = 1; r <= p.size[2]; r++) {
        const name = `${f}${String(r).padStart(2, '0')}室`;
        p.roomNames.push(`${b}号楼${name}`);
        roomRows.push(area(floorId, 'room', name, r, { floorArea: 60 + ((f * 7 + r * 13) % 90) }));
      }
    });
  }
  await writer.insert('area', roomRows);
  const roomIds = await idsOf('room');
  k = 0;
  for (const p of plans) p.rooms = roomIds.slice(k, (k += p.roomNames.length));
  step(`区域：${REGIONS.length} 个区域，${plans.length} 个项目，${buildingIds.length} 栋楼，${floorIds.length} 层，${roomIds.length.toLocaleString()} 个房间`);

  // ── devices: a gateway per building, the rest of the project's types spread over its rooms ──
  // reports are placed relative to `now` and moved to the end of seeding at the end (shiftTimes)
  const secretHash = crypto.createHash('sha256').update('bench-api-device').digest('hex');
  const deviceRows = [];
  for (const [pi, p] of plans.entries()) {
    const gateways = pi === 0 ? 0 : p.buildings.length;
    for (let j = 0; j < p.devices; j++) {
      const gateway = j < gateways;
      // room r holds types r and r + 1 (mod the project's types): every type as often, two devices a room
      const n = j - gateways;
      const roomIndex = gateway ? -1 : n % p.rooms.length;
      const type = gateway ? 'gateway' : p.types[(n + Math.floor(n / p.rooms.length)) % p.types.length];
      const def = DEVICE_TYPE_BY_CODE.get(type);
      const code = pi === 0 ? `EM${String(31000000 + j).padStart(12, '0')}` : `BA${String(pi).padStart(2, '0')}${type.replace(/^device/, '').toUpperCase()}${String(j).padStart(5, '0')}`;
      const name = gateway ? `${def.name} ${j + 1}号楼` : `${def.name} ${p.roomNames[roomIndex]}`;
      // ~90 % reported within their last report interval; the rest went silent hours to weeks ago; none never reported
      const online = rand() < 0.9;
      const last = online ? now - Math.floor(rand() * def.reportSeconds * 1000) : now - def.heartbeatSeconds * 1000 - Math.floor(rand() * 21 * DAY);
      deviceRows.push([tenantId, p.id, gateway ? p.buildings[j] : p.rooms[roomIndex], type, code, name, secretHash, 1, now - days * DAY, now - days * DAY,
        last, last + def.heartbeatSeconds * 1000, last - Math.floor(rand() * 7 * DAY)]);
    }
  }
  await writer.insert('device', deviceRows);
  const deviceIds = (await db.selectFrom('device').select('id').where('tenant_id', '=', tenantId).orderBy('id').execute()).map((r) => Number(r.id));
  const deviceOf = (i) => ({ id: deviceIds[i], row: deviceRows[i] });
  step(`设备：${deviceIds.length.toLocaleString()} 台`);

  // ── the latest state of every field of every device, at its last report ──
  let stateRows = 0;
  for (let i = 0; i < deviceRows.length; i += 10_000) {
    const rows = [];
    for (let j = i; j < Math.min(deviceRows.length, i + 10_000); j++) {
      const row = deviceRows[j];
      for (const field of DEVICE_TYPE_BY_CODE.get(row[3]).fields) rows.push([deviceIds[j], field.code, ...fieldValue(field, rand), row[10]]);
    }
    await writer.insert('device_state', rows);
    stateRows += rows.length;
  }
  step(`设备状态：${stateRows.toLocaleString()} 行`);

  // ── a year of device operations: writes of writable fields and the type's actions, by people and by the system ──
  const start = now - days * DAY;
  const RESULTS = ['已执行', '已执行', '已执行', '已执行', '已执行', '已执行', '已执行', '已执行', '设备拒绝', '已过期'];
  for (let i = 0; i < logs; i += 50_000) {
    const rows = [];
    for (let j = i; j < Math.min(logs, i + 50_000); j++) {
      const { id, row } = deviceOf(Math.floor(rand() * deviceIds.length));
      const def = DEVICE_TYPE_BY_CODE.get(row[3]);
      const writable = def.fields.filter((f) => f.writable && f.kind !== 'text');
      const at = start + Math.floor(((j + rand()) / logs) * days * DAY);
      const byPerson = rand() < 0.6;
      let operation;
      let detail;
      if (writable.length && rand() < 0.7) {
        const field = writable[Math.floor(rand() * writable.length)];
        const [num, txt] = fieldValue({ ...field, sim: { mode: 'walk', base: Number(field.initial) || 0, jitter: field.step ?? 1 } }, rand);
        operation = '写入参数';
        detail = `${field.label} → ${fieldDisplay(def, field.code, num ?? txt)}`;
      } else {
        operation = '设备操作';
        detail = DEVICE_ACTION_LABELS[def.actions[Math.floor(rand() * def.actions.length)]];
      }
      rows.push([tenantId, row[1], id, row[4], row[5], row[3], byPerson ? userId : null, byPerson ? API_USERNAME : null, operation, detail.slice(0, 200), RESULTS[Math.floor(rand() * RESULTS.length)], at]);
    }
    await writer.insert('device_operation_log', rows);
  }
  step(`设备操作记录：${logs.toLocaleString()} 行`);

  // ── a year of the gate log: the tenant's changing calls and denials, as plugins/access writes them ──
  const CALLS = [
    (d) => ({ menu: d.type, op: `写设备参数（编号 ${d.id}）`, method: 'POST', uri: `/api/v1/device/writedeviceattr/${d.id}/f01/1` }),
    (d) => ({ menu: d.type, op: `设备操作（编号 ${d.id}）`, method: 'POST', uri: `/api/v1/device/operation/${d.id}?eventType=refresh` }),
    (d) => ({ menu: 'devicelist', op: `修改设备「${d.name.slice(0, 40)}」`, method: 'PUT', uri: `/api/v1/device/${d.id}` }),
    (d) => ({ menu: 'areaManager', op: `修改区域（编号 ${d.area}）`, method: 'PUT', uri: `/api/v1/area/${d.area}` }),
    () => ({ menu: null, op: '登录', method: 'POST', uri: '/api/auth/jwt/token' }),
    () => ({ menu: null, op: '退出登录', method: 'POST', uri: '/api/auth/jwt/logout' }),
  ];
  for (let i = 0; i < gateLogs; i += 50_000) {
    const rows = [];
    for (let j = i; j < Math.min(gateLogs, i + 50_000); j++) {
      const { id, row } = deviceOf(Math.floor(rand() * deviceIds.length));
      const call = CALLS[Math.floor(rand() * CALLS.length)]({ id, type: row[3], name: row[5], area: row[2] });
      const denied = call.menu && rand() < 0.03;
      rows.push([tenantId, userId, API_USERNAME, call.menu, (denied ? `拒绝访问：${call.op}` : call.op).slice(0, 200), call.method, call.uri, `10.20.${Math.floor(rand() * 8)}.${1 + Math.floor(rand() * 250)}`,
        denied ? 403 : 200, start + Math.floor(((j + rand()) / gateLogs) * days * DAY)]);
    }
    await writer.insert('gate_log', rows);
  }
  step(`操作日志（gate_log）：${gateLogs.toLocaleString()} 行`);

  // ── a year of one meter's 1-minute readings (the year-long history chart), with the roll-ups the ingest keeps ──
  const historyDeviceId = deviceIds[0];
  const HISTORY_MINUTES = days * 1440;
  let kwh = 1000;
  for (let i = 0; i < HISTORY_MINUTES; i += 20_000) {
    const rows = [];
    for (let m = i; m < Math.min(HISTORY_MINUTES, i + 20_000); m++) {
      const ts = now - (HISTORY_MINUTES - m) * 60_000;
      kwh += 0.02 + rand() * 0.06;
      rows.push([historyDeviceId, 'f70', ts, Math.round(kwh * 100) / 100, null], [historyDeviceId, 'f71', ts, Math.round((220 + (rand() - 0.5) * 12) * 10) / 10, null],
        [historyDeviceId, 'f72', ts, Math.round((5 + rand() * 20) * 100) / 100, null]);
    }
    await writer.insert('device_history', rows);
  }
  const { backfillRollups } = await tsImport('../apps/server/src/db/migrations/013-rollups.ts', import.meta.url);
  await backfillRollups(db);
  step(`一台电表一年的逐分钟读数：${(HISTORY_MINUTES * 3).toLocaleString()} 行（含小时、日汇总）`);

  // the reports were placed at `now`; seeding took a while: move them to the end, so online means online at start
  const shift = Date.now() - now;
  await writer.shiftTimes(shift);
  await writer.finish();
  const seedSeconds = (performance.now() - t0) / 1000;
  const big = plans[0];
  return {
    ...seededStore({ db, postgres, config, databaseUrl, dataDir, dropSchema }),
    tenantId, userId, username: API_USERNAME, password: API_PASSWORD,
    projectIds, bigProjectId: big.id, bigProjectDeviceIds: deviceIds.slice(0, big.devices), deviceIds, historyDeviceId, floorIds: floorIds.slice(0, 1000),
    counts: { projects: plans.length, areas: REGIONS.length + plans.length + buildingIds.length + floorIds.length + roomIds.length, devices: deviceIds.length, states: stateRows, operationLogs: logs, gateLogs },
    start, end: now + shift, seedSeconds,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '100000' },
      'big-project': { type: 'string', default: '10000' },
      logs: { type: 'string', default: '1000000' },
      postgres: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  console.log(`▶ 控制台规模数据生成：${Number(values.devices).toLocaleString()} 台设备，操作记录与操作日志各 ${Number(values.logs).toLocaleString()} 行，写入 ${values.postgres ? 'PostgreSQL' : 'SQLite'}`);
  const seeded = await seedApi({ devices: Number(values.devices), bigProject: Number(values['big-project']), logs: Number(values.logs), databaseUrl: values.postgres, log: console.log });
  console.log(`  用时 ${seeded.seedSeconds.toFixed(1)} s；${JSON.stringify(seeded.counts)}`);
  if (values.keep) {
    console.log(`  数据保留在 ${seeded.dataDir ?? `schema ${seeded.schema}`}（租户 ${API_TENANT}，账号 ${API_USERNAME} / ${API_PASSWORD}）`);
    await seeded.db.destroy();
  } else await seeded.close();
}
