// A generator for the report benchmarks (not the live simulator): N heat-pump devices (device20130) × D days of
// hourly readings of a cumulative energy counter (f48 累计耗电, kWh) and a temperature (f03 室温, °C), written through
// the real ingest sink (the SQLite writer thread, or the PostgreSQL sink), so history and the hourly/daily roll-ups
// are built by the same code as live data. The readings follow a fixed pattern in quarters (exact in floating point),
// so every expected total is known: expectedUsage / temperatureAt.
//
//   node scripts/reports-seed.mjs [--devices 1000] [--days 365] [--postgres postgres://…] [--keep]
// prints how long seeding took and how long a year's usage by month of all devices takes to read.
// Imported: seedReports({ devices, days, databaseUrl? }) → where the data is, its ids and ranges; close() removes it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { seededStore } from './bench-lib.mjs';

const H = 3_600_000;
/** 2025-01-01 00:00 in Shanghai: the first reading */
export const REPORTS_START = Date.parse('2025-01-01T00:00:00+08:00');
export const REPORTS_TYPE = 'device20130';
export const ENERGY_FIELD = 'f48';
export const TEMPERATURE_FIELD = 'f03';

/** kWh device i uses in hour h (between its readings h and h + 1): 0.25 … 1.5, more in the local daytime. */
export function energyUse(i, h) {
  const local = (h + 8) % 24;
  return ((i + h) % 3) * 0.25 + (local >= 8 && local < 20 ? 1 : 0.25);
}

/** The counter of device i starts at 1000 + i kWh. */
const energyBase = (i) => 1000 + i;

/** Temperature of device i at reading h: 18 … 22 °C in half degrees. */
export function temperatureAt(i, h) {
  return 18 + ((i * 7 + h) % 9) * 0.5;
}

/**
 * What device i used in the readings whose time lies in [from, to) (ms): each reading adds the hour before it, the
 * first reading of all (h = 0) adds nothing — the same as the core's usage() summed over those buckets.
 */
export function expectedUsage(i, from, to, start = REPORTS_START) {
  let sum = 0;
  const first = Math.max(1, Math.ceil((from - start) / H));
  for (let h = first; start + h * H < to; h++) sum += energyUse(i, h - 1);
  return sum;
}

/**
 * Writes the data set. `databaseUrl` (postgres://…): into a new schema there; otherwise a SQLite file in a new temp
 * data dir (or `dataDir`). Migrates first, so roll-up tables exist. A tenant `reports`, one project, `buildings`
 * buildings with the devices spread evenly (device i in building i % buildings).
 */
export async function seedReports({ devices = 1000, days = 365, start = REPORTS_START, buildings = 10, databaseUrl, dataDir, schema, bulk = false, temperature = true, log = () => {} } = {}) {
  const { openDatabase, dropSchema, sqliteFileOf } = await tsImport('../apps/server/src/db/index.ts', import.meta.url);
  const { postgresSink, sqliteSink } = await tsImport('../apps/server/src/modules/devices/telemetry/sinks.ts', import.meta.url);
  const postgres = !!databaseUrl?.startsWith('postgres');
  const config = postgres
    ? { dataDir: os.tmpdir(), databaseUrl, databaseSchema: schema ?? `kelvin_reports_${crypto.randomBytes(4).toString('hex')}` }
    : { dataDir: dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-reports-')) };
  const { db } = await openDatabase(config);
  const now = Date.now();
  const tenantId = (await db.insertInto('tenant').values({ code: `reports${now.toString(36)}`, name: '报表压测租户', contact: null, phone: null, brand: null, filing_no: null, enabled: 1, created_at: now, logo: null })
    .returning('id').executeTakeFirstOrThrow()).id;
  const area = async (parentId, level, name, extra = {}) => (await db.insertInto('area').values({
    tenant_id: tenantId, parent_id: parentId, level, name, code: null, sort_no: 0, floor_area: null, project_type: null, project_type2: null, billing_scheme: null,
    address: null, lng: null, lat: null, alias: null, created_at: now, ...extra,
  }).returning('id').executeTakeFirstOrThrow()).id;
  const regionId = await area(null, 'region', '报表压测区域');
  const projectId = await area(regionId, 'project', '报表压测项目', { project_type: 'PT5030', project_type2: 101, billing_scheme: 1 });
  const buildingIds = [];
  for (let b = 0; b < buildings; b++) buildingIds.push(await area(projectId, 'building', `${b + 1}号楼`));
  const deviceIds = [];
  for (let i = 0; i < devices; i += 500) {
    const rows = [];
    for (let j = i; j < Math.min(devices, i + 500); j++) {
      rows.push({
        tenant_id: tenantId, project_id: projectId, area_id: buildingIds[j % buildings], gateway_id: null, device_type: REPORTS_TYPE,
        device_code: `RPT${now.toString(36)}${String(j).padStart(6, '0')}`, device_name: `报表热泵${j + 1}`, secret_hash: 'reports-seed', enabled: 1,
        created_at: now, updated_at: now, last_report_at: null, online_until: null, last_connect_at: null, command_pending_at: null,
      });
    }
    deviceIds.push(...(await db.insertInto('device').values(rows).returning('id').execute()).map((r) => Number(r.id)));
  }

  const hours = days * 24;
  const counters = deviceIds.map((_, i) => energyBase(i));
  const t0 = performance.now();
  let rows = 0;
  if (bulk) {
    // the generator's fast path: history in large plain inserts, then the roll-ups in one pass by the migration's
    // backfill (the statement rollups.test.ts holds equal to what the ingest writer keeps)
    const insert = postgres ? null : new (await import('better-sqlite3')).default(sqliteFileOf(config.dataDir));
    const CHUNK = 500;
    const stmt = insert?.prepare(`INSERT INTO device_history (device_id, field_code, ts, num, txt) VALUES ${Array(CHUNK).fill('(?,?,?,?,NULL)').join(',')}`);
    const put = insert?.transaction((flat) => {
      for (let i = 0; i + CHUNK * 4 <= flat.length; i += CHUNK * 4) stmt.run(flat.slice(i, i + CHUNK * 4));
      const rest = (flat.length % (CHUNK * 4)) / 4;
      if (rest) insert.prepare(`INSERT INTO device_history (device_id, field_code, ts, num, txt) VALUES ${Array(rest).fill('(?,?,?,?,NULL)').join(',')}`).run(flat.slice(flat.length - rest * 4));
    });
    const { sql } = await import('kysely');
    for (let h0 = 0; h0 < hours; h0 += 24 * 7) {
      const flat = [];
      const h1 = Math.min(hours, h0 + 24 * 7);
      for (let i = 0; i < deviceIds.length; i++) {
        for (let h = h0; h < h1; h++) {
          if (h > 0) counters[i] += energyUse(i, h - 1);
          flat.push(deviceIds[i], ENERGY_FIELD, start + h * H, counters[i]);
          if (temperature) flat.push(deviceIds[i], TEMPERATURE_FIELD, start + h * H, temperatureAt(i, h));
        }
      }
      if (put) put(flat);
      else {
        const cols = [[], [], [], []];
        flat.forEach((v, j) => cols[j % 4].push(v));
        await sql`INSERT INTO device_history (device_id, field_code, ts, num) SELECT * FROM unnest(${cols[0]}::bigint[], ${cols[1]}::varchar[], ${cols[2]}::bigint[], ${cols[3]}::float8[])`.execute(db);
      }
      rows += flat.length / 4;
      if ((h0 / 24) % 56 === 49) log(`  ${h1 / 24} 天，${rows.toLocaleString()} 条读数，${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    insert?.close();
    const { backfillRollups } = await tsImport('../apps/server/src/db/migrations/013-rollups.ts', import.meta.url);
    const t1 = performance.now();
    await backfillRollups(db);
    log(`  按时/按日汇总（一次回填）：${((performance.now() - t1) / 1000).toFixed(1)} s`);
  }
  const sink = bulk ? null : postgres ? postgresSink(db) : sqliteSink(sqliteFileOf(config.dataDir));
  if (sink) try {
    // one transaction per day of every device, in time order (as live data arrives: no late readings)
    for (let h0 = 0; h0 < hours; h0 += 24) {
      const history = [];
      const h1 = Math.min(hours, h0 + 24);
      for (let i = 0; i < deviceIds.length; i++) {
        for (let h = h0; h < h1; h++) {
          if (h > 0) counters[i] += energyUse(i, h - 1);
          const ts = start + h * H;
          history.push(deviceIds[i], ENERGY_FIELD, ts, counters[i], null, deviceIds[i], TEMPERATURE_FIELD, ts, temperatureAt(i, h), null);
        }
      }
      const last = start + (h1 - 1) * H;
      const state = deviceIds.flatMap((id, i) => [id, ENERGY_FIELD, counters[i], null, last, id, TEMPERATURE_FIELD, temperatureAt(i, h1 - 1), null, last]);
      const { inserted } = await sink.write({ history, state, devices: [], counters: [], rejects: [], now: Date.now() });
      rows += inserted;
      if ((h0 / 24) % 30 === 29) log(`  ${h0 / 24 + 1} 天，${rows.toLocaleString()} 条读数，${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  } finally {
    await sink.close();
  }
  const seedSeconds = (performance.now() - t0) / 1000;
  return {
    ...seededStore({ db, postgres, config, databaseUrl, dataDir, dropSchema }),
    tenantId, projectId, buildingIds, deviceIds, start, until: start + hours * H, hours, rows, seedSeconds,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '1000' },
      days: { type: 'string', default: '365' },
      postgres: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  const devices = Number(values.devices);
  const days = Number(values.days);
  console.log(`▶ 报表数据生成：${devices} 台设备 × ${days} 天逐时读数（${ENERGY_FIELD} 累计耗电 + ${TEMPERATURE_FIELD} 温度），经真实入库路径写入 ${values.postgres ? 'PostgreSQL' : 'SQLite'}`);
  const seeded = await seedReports({ devices, days, databaseUrl: values.postgres, log: console.log });
  console.log(`  写入 ${seeded.rows.toLocaleString()} 条读数（含按时/按日汇总）用时 ${seeded.seedSeconds.toFixed(1)} s（${Math.round(seeded.rows / seeded.seedSeconds).toLocaleString()} 条/秒）`);
  try {
    const { createRollupReads } = await tsImport('../apps/server/src/modules/devices/rollups.ts', import.meta.url);
    const reads = createRollupReads(seeded.db);
    const q = { deviceIds: seeded.deviceIds, field: ENERGY_FIELD, grain: 'month', from: seeded.start, to: seeded.until };
    const times = [];
    let result = [];
    for (let run = 0; run < 5; run++) {
      const t = performance.now();
      result = await reads.usage(q);
      times.push(performance.now() - t);
    }
    const check = seeded.deviceIds.slice(0, 3).map((id, i) => [result.filter((r) => r.device_id === id).reduce((s, r) => s + r.usage, 0), expectedUsage(i, seeded.start, seeded.until)]);
    console.log(`  全部设备全年按月用量：${result.length} 行，用时 ${times.map((t) => t.toFixed(0)).join(' / ')} ms；前 3 台全年合计 ${check.map(([a, b]) => `${a}${a === b ? '✓' : `≠${b}`}`).join('，')}`);
  } finally {
    if (values.keep) console.log(`  数据保留在 ${seeded.dataDir ?? `schema ${seeded.schema}`}`);
    else await seeded.close();
    if (values.keep) await seeded.db.destroy();
  }
}
