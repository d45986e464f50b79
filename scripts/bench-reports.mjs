// `./kelvin bench reports`: the data center at size (a year of readings, a 100,000-row export). Seeds 1,000 devices × 1 year of hourly readings of a
// cumulative energy counter with the generator (scripts/reports-seed.mjs: history in bulk, roll-ups by the migration's
// backfill), starts a server on that data and times, over HTTP as a console user would (20 runs each, p50/p95):
//   · a yearly energy report by month (数据统计, 按月, every device)
//   · a daily report for one building over the year (数据统计, 按日, 100 devices)
//   · the annual report with last year (年度数据)
// then exports 100,000 rows (设备操作记录 over the year) and reports its time and the server's memory growth.
// On SQLite (the default) and, with --postgres URL, on PostgreSQL too.
//   ./kelvin bench reports [--devices 1000] [--days 365] [--runs 20] [--export-rows 100000] [--postgres postgres://… [--postgres-only]]
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { api, freePort, loginAdmin, machine, percentile, rssMb, startServer } from './bench-lib.mjs';
import { ENERGY_FIELD, expectedUsage, seedReports } from './reports-seed.mjs';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000' }, days: { type: 'string', default: '365' }, runs: { type: 'string', default: '20' },
    'export-rows': { type: 'string', default: '100000' }, postgres: { type: 'string' }, 'postgres-only': { type: 'boolean', default: false },
  },
});
const DEVICES = Number(values.devices);
const DAYS = Number(values.days);
const RUNS = Number(values.runs);
const EXPORT_ROWS = Number(values['export-rows']);

async function timed(label, fn) {
  const times = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    last = await fn();
    times.push(performance.now() - t);
  }
  const p95 = percentile(times, 95);
  console.log(`  ${p95 <= 1000 ? '✓' : '✗'} ${label}：p50 ${percentile(times, 50).toFixed(0)} ms，p95 ${p95.toFixed(0)} ms（${RUNS} 次，目标 p95 ≤ 1 s）`);
  return { p95, last };
}

/** 100,000 device operation-log rows over the year (the export's subject), in bulk. */
async function seedOperationLog(seeded) {
  const { db } = seeded;
  const per = Math.ceil(EXPORT_ROWS / seeded.deviceIds.length);
  const step = Math.floor((seeded.until - seeded.start) / per);
  for (let i = 0; i < seeded.deviceIds.length; i += 100) {
    const rows = [];
    for (const id of seeded.deviceIds.slice(i, i + 100)) {
      for (let j = 0; j < per && rows.length + i * per < EXPORT_ROWS; j++) {
        rows.push({
          tenant_id: seeded.tenantId, project_id: seeded.projectId, device_id: id, device_code: `RPT${id}`, device_name: `报表热泵${id}`, device_type: 'device20130',
          command_id: null, user_id: null, username: '压测', operation: '写参数', detail: `设定温度 → ${20 + (j % 6)} °C`, result: '成功', at: seeded.start + j * step + (id % 1000),
        });
      }
    }
    for (let k = 0; k < rows.length; k += 1000) await db.insertInto('device_operation_log').values(rows.slice(k, k + 1000)).execute();
  }
}

async function benchOne(databaseUrl) {
  const name = databaseUrl ? 'PostgreSQL' : 'SQLite';
  console.log(`\n▶ ${name}：${DEVICES.toLocaleString()} 台设备 × ${DAYS} 天逐时读数`);
  const t0 = performance.now();
  const seeded = await seedReports({ devices: DEVICES, days: DAYS, databaseUrl, bulk: true, temperature: false, log: (l) => console.log(l) });
  await seedOperationLog(seeded);
  console.log(`  生成 ${seeded.rows.toLocaleString()} 条读数 + ${EXPORT_ROWS.toLocaleString()} 条操作记录，用时 ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const env = { KELVIN_BILLING_INTERVAL_MINUTES: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: seeded.schema } : {}) };
  await seeded.db.destroy();
  const server = await startServer(env, undefined, { dataDir: seeded.dataDir ?? fs.mkdtempSync('/tmp/kelvin-bench-'), port: await freePort(), mqttPort: await freePort() });
  const results = {};
  try {
    const token = await loginAdmin(server.url);
    const base = `projectId=${seeded.projectId}&from=${seeded.start}&to=${seeded.until}&counter=${ENERGY_FIELD}`;
    const year = await timed('全年按月能耗（全部设备）', () => api(server.url, 'GET', `/api/v1/datacenter/datastats?${base}&grain=month`, token));
    const want = seeded.deviceIds.reduce((s, _, i) => s + expectedUsage(i, seeded.start, seeded.until), 0);
    const ok = Math.abs(year.last.totals.usage - want) < 1e-6;
    console.log(`    ${ok ? '✓' : '✗'} 全年合计 ${year.last.totals.usage.toLocaleString()} kWh，按读数规律应为 ${want.toLocaleString()} kWh`);
    const daily = await timed('单栋楼全年按日能耗', () => api(server.url, 'GET', `/api/v1/datacenter/datastats?${base}&grain=day&areaId=${seeded.buildingIds[0]}&pageSize=50`, token));
    console.log(`    ${daily.last.total} 天，${daily.last.chart.x.length} 个图表点`);
    const annual = await timed('年度数据（含去年同期）', () => api(server.url, 'GET', `/api/v1/datacenter/annualData?projectId=${seeded.projectId}&year=${new Date(seeded.start + 8 * 3600_000).getUTCFullYear()}&counter=${ENERGY_FIELD}`, token));
    results.year = year.p95;
    results.daily = daily.p95;
    results.annual = annual.p95;

    // export: the whole selection streamed; memory sampled while it runs
    const before = rssMb(server.child.pid);
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, rssMb(server.child.pid) ?? 0); }, 100);
    const t = performance.now();
    const res = await fetch(`${server.url}/api/v1/datacenter/deviceOperationRecord/export?projectId=${seeded.projectId}&from=${seeded.start}&to=${seeded.until}`, { headers: { authorization: token } });
    const rows = Number(res.headers.get('x-report-rows'));
    const bytes = (await res.arrayBuffer()).byteLength;
    const seconds = (performance.now() - t) / 1000;
    clearInterval(sampler);
    const growth = peak - before;
    console.log(`  ${seconds <= 10 && growth < 100 ? '✓' : '✗'} 导出 ${rows.toLocaleString()} 行（${(bytes / 2 ** 20).toFixed(1)} MB .xlsx）：${seconds.toFixed(1)} s（目标 ≤ 10 s），服务进程内存 ${before} → 峰值 ${peak} MB（增长 ${growth} MB，目标 < 100 MB）`);
    results.export = seconds;
    results.growth = growth;
    results.ok = ok && rows === EXPORT_ROWS;
  } finally {
    await server.stop();
    if (databaseUrl) {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${seeded.schema} CASCADE`);
      await client.end();
    }
  }
  return results;
}

console.log(`▶ 报表压测；机器：${machine()}`);
const all = values['postgres-only'] ? [] : [await benchOne(undefined)];
if (values.postgres) all.push(await benchOne(values.postgres));
const failed = all.some((r) => !r.ok || r.year > 1000 || r.daily > 1000 || r.export > 10 || r.growth >= 100);
process.exit(failed ? 1 : 0);
