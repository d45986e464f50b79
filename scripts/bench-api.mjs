// `./kelvin bench api`: the console's hot endpoints at the size of a large installation. Seeds it with the generator
// (scripts/api-seed.mjs: 20 projects, one of 10,000 electric meters, 100,000 devices with their state, a year of
// operation and gate logs, 1,000,000 rows each), starts a server on that data, signs in as the tenant administrator,
// checks one answer of every call (status, envelope, non-empty rows where a page must have some), then drives each
// endpoint with autocannon (N connections, keep-alive) for a warm-up and a measured run, and prints one table row per
// endpoint: one call alone on the idle server, then under load the requests finished within the run, req/s, p50/p95/p99
// latency of those, errors (non-2xx and socket errors, timeouts among them) and the server's event-loop delay p99.
// Between runs the bench waits until the server has worked off what the last run left (drain).
//
// The event-loop figure is the server's own: its ops registry row (ops_instance.loop_p99_ms, shown by 服务注册中心)
// carries the p99 of each 5-second heartbeat interval; the bench reads that row from the database every 500 ms and
// shows the highest p99 of the intervals at least half inside the measured run.
//
//   ./kelvin bench api [--seconds 10] [--connections 50] [--postgres URL] [--keep] [--devices 100000] [--logs 1000000]
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { tsImport } from 'tsx/esm/api';
import { api, freePort, loopSampler, machine, percentile, registryReader, startServer } from './bench-lib.mjs';
import { seedApi } from './api-seed.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' }, warmup: { type: 'string', default: '3' },
    postgres: { type: 'string' }, keep: { type: 'boolean', default: false },
    devices: { type: 'string', default: '100000' }, 'big-project': { type: 'string', default: '10000' }, logs: { type: 'string', default: '1000000' },
    only: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const WARMUP = Number(values.warmup);

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' / ');

/** The endpoints, as the console's screens call them (features/*\/api.ts), each with what its answer must hold. */
function endpoints(seeded) {
  const big = seeded.bigProjectId;
  const mixed = seeded.mixedProject;
  const month = `${seeded.end - 30 * 86_400_000}`;
  const rows = (min = 1) => (d) => Array.isArray(d?.rows) && d.rows.length >= min && d.total >= min;
  const list = (q) => `/api/v1/device/devicelist?${q}`;
  const ids = seeded.bigProjectDeviceIds;
  // page 150 of 500 at full size (a smaller seed: its middle page)
  const deep = Math.min(150, Math.max(1, Math.floor(ids.length / 40)));
  return [
    { name: '设备列表 第 1 页（万台表项目）', path: list(`projectId=${big}&pageNo=1&pageSize=20`), ok: rows(20) },
    { name: `设备列表 第 ${deep} 页`, path: list(`projectId=${big}&pageNo=${deep}&pageSize=20`), ok: rows(20) },
    { name: '设备列表 在线筛选', path: list(`projectId=${big}&online=1&pageNo=1&pageSize=20`), ok: rows(20) },
    { name: '设备列表 关键字（1205）', path: list(`projectId=${big}&keyword=1205&pageNo=1&pageSize=20`), ok: rows(1) },
    { name: '设备列表 类型筛选（综合能源项目）', path: list(`projectId=${mixed.id}&deviceType=${mixed.type}&pageNo=1&pageSize=20`), ok: rows(1) },
    { name: '设备监控页 列表（电能表）', path: list(`projectId=${big}&deviceType=device20090&pageNo=1&pageSize=20`), ok: rows(20) },
    { name: '设备监控页 类型与在线数', path: `/api/v1/device/getdevicetypelist/${big}`, ok: (d) => Array.isArray(d) && d.some((t) => t.total > 0) },
    {
      name: '设备详情（轮换 1,000 台）', paths: ids.slice(0, 1000).map((id) => `/api/v1/device/detail/${id}`),
      ok: (d, path) => d && path.endsWith(`/${d.id}`),
    },
    { name: '设备监控页 统计条（电能表）', path: `/api/v1/device/monitor/statistic?projectId=${big}&deviceType=device20090`, ok: (d) => d?.total > 0 },
    {
      name: '历史曲线（一台表一年的逐分钟读数）', path: `/api/v1/device/history?deviceId=${seeded.historyDeviceId}&from=${seeded.end - 365 * 86_400_000}&to=${seeded.end}&fields=f70,f71,f72`,
      ok: (d) => d?.series?.length === 3 && d.series.every((s) => s.points.length > 300),
    },
    // 楼宇与设备 loads the tree level by level: the first levels, then each node the operator opens
    { name: '区域树 首屏（区域→项目→楼栋）', path: '/api/v1/area/tree/-1?depth=2', ok: (d) => Array.isArray(d) && d.length > 0 && JSON.stringify(d).includes('childCount') },
    {
      name: '区域树 展开楼层（轮换 1,000 层）', paths: seeded.floorIds.map((id) => `/api/v1/area/tree/${id}?depth=1`),
      ok: (d, path) => d?.[0]?.level === 'floor' && path.includes(`/${d[0].id}?`) && d[0].children.length > 0,
    },
    { name: '楼栋与楼层筛选项（万台表项目）', path: `/api/v1/area/tree/${big}?depth=2`, ok: (d) => d?.[0]?.id === big && d[0].children.length > 0 },
    {
      // a room picker of the 10,000-meter project: the operator types building and room (「3号楼 1205」)
      name: '房间查找（万台表项目，轮换 100 个「楼栋 房间号」）',
      paths: Array.from({ length: 100 }, (_, i) => `/api/v1/area/search?rootId=${big}&levels=room&keyword=${encodeURIComponent(`${(i % 20) + 1}号楼 ${(i % 25) + 1}${String((i % 19) + 1).padStart(2, '0')}`)}`),
      ok: (d) => d?.total > 0 && d.rows.length > 0 && d.rows.every((r) => r.level === 'room'),
    },
    // for comparison: no screen asks for the whole tree any more (5 MB for 58,082 nodes)
    { name: '区域树 整棵（对照，界面不再请求）', path: '/api/v1/area/tree/-1', ok: (d) => Array.isArray(d) && d.length > 0 },
    { name: '项目列表', path: '/api/v1/area/project/list?pageNo=1&pageSize=20', ok: rows(20) },
    { name: '设备操作记录（近 30 天）', path: `/api/v1/device/operationlog?projectId=${big}&from=${month}&to=${seeded.end}&pageNo=1&pageSize=20`, ok: rows(20) },
    { name: '操作日志（近 30 天）', path: `/api/admin/gateLog/page?timeFrom=${month}&timeTo=${seeded.end}&pageNo=1&pageSize=20`, ok: rows(20) },
    { name: '项目类型（登录后的简单读取）', path: `/api/v1/area/projecttypelist?projectId=${big}`, ok: (d) => Array.isArray(d) && d.length > 0 },
    { name: '健康检查 /api/health', path: '/api/health', public: true, ok: (d) => d?.status === 'ok' && d.db === 'up' },
  ];
}

/**
 * One real answer of each path of the endpoint: right status and envelope, and the data it must hold. Answers the
 * median time of these calls, one at a time on an idle server.
 */
async function check(base, token, e) {
  const times = [];
  for (const path of (e.paths ?? [e.path, e.path, e.path]).slice(0, 5)) {
    const t = performance.now();
    const res = await fetch(base + path, { headers: e.public ? {} : { authorization: token } });
    const body = await res.json().catch(() => null);
    if (res.status !== 200 || body?.code !== 200 || !e.ok(body.data, path)) {
      throw new Error(`${e.name} ${path}：HTTP ${res.status}，${JSON.stringify(body)?.slice(0, 300)}`);
    }
    times.push(performance.now() - t);
  }
  return percentile(times, 50);
}

/**
 * autocannon closes its sockets when the time is up, but the server still works off the requests it had taken: wait
 * until it answers the health check quickly again, so no run pays for the one before it.
 */
async function drain(base) {
  const deadline = Date.now() + 300_000;
  let quick = 0;
  while (quick < 3 && Date.now() < deadline) {
    const t = performance.now();
    await fetch(`${base}/api/health`).then((r) => r.arrayBuffer()).catch(() => null);
    quick = performance.now() - t < 50 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 200));
  }
}

function run(base, token, e, seconds) {
  const paths = e.paths ?? [e.path];
  let next = 0;
  const latencies = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: base, connections: CONNECTIONS, duration: seconds, timeout: 30,
      // as a browser asks: large answers (the area tree) come compressed
      headers: { 'accept-encoding': 'gzip, deflate, br', ...(e.public ? {} : { authorization: token }) },
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
    }, (err, result) => (err ? reject(err) : resolve({ result, latencies })));
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

async function measure(server, token, sampler, e) {
  await drain(server.url);
  const single = await check(server.url, token, e);
  // a call that takes long alone is warm after its checks; 50 of them queued would only lengthen the drain
  if (single < 200) {
    await run(server.url, token, e, WARMUP);
    await drain(server.url);
  }
  const t0 = Date.now();
  const { result, latencies } = await run(server.url, token, e, SECONDS);
  const t1 = Date.now();
  await sampler.after(t1);
  return {
    name: e.name, path: (e.paths ? e.paths[0].replace(/\/\d+(\?|$)/, '/{id}$1') : e.path).replace(/=\d{10,}/g, '=…'),
    single, rps: latencies.length / SECONDS, count: latencies.length,
    p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99),
    errors: result.non2xx + result.errors, loop: sampler.worst(t0, t1),
  };
}

const ms = (v) => (v >= 100 ? Math.round(v).toLocaleString() : v.toFixed(1));
/** a percentile, or "> N s" when no request finished within the run */
const pct = (r, v) => (r.count ? ms(v) : `> ${SECONDS * 1000}`);

function table(results) {
  const lines = [
    '| 接口 | 请求 | 单次 (ms) | 完成 | 请求/秒 | p50 (ms) | p95 (ms) | p99 (ms) | 错误（非 2xx） | 事件循环延迟 p99 (ms) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    lines.push(`| ${r.name} | \`${r.path}\` | ${ms(r.single)} | ${r.count.toLocaleString()} | ${r.rps < 10 ? r.rps.toFixed(1) : Math.round(r.rps).toLocaleString()} | ${pct(r, r.p50)} | ${pct(r, r.p95)} | ${pct(r, r.p99)} | ${r.errors} | ${r.loop ?? '—'} |`);
  }
  return lines.join('\n');
}

async function benchOne(databaseUrl) {
  const name = databaseUrl ? 'PostgreSQL' : 'SQLite';
  console.log(`\n▶ ${name}：生成数据（${Number(values.devices).toLocaleString()} 台设备，操作记录与操作日志各 ${Number(values.logs).toLocaleString()} 行）`);
  const seeded = await seedApi({ devices: Number(values.devices), bigProject: Number(values['big-project']), logs: Number(values.logs), databaseUrl, log: console.log });
  console.log(`  生成用时 ${seeded.seedSeconds.toFixed(1)} s：${seeded.counts.projects} 个项目，${seeded.counts.areas.toLocaleString()} 个区域节点，${seeded.counts.devices.toLocaleString()} 台设备，`
    + `${seeded.counts.states.toLocaleString()} 行设备状态，${seeded.counts.operationLogs.toLocaleString()} 行设备操作记录，${seeded.counts.gateLogs.toLocaleString()} 行操作日志`);
  // the type filter's project: the comprehensive-energy one (the most device types), filtered to its first type
  const mixed = await seeded.db.selectFrom('device').innerJoin('area', 'area.id', 'device.project_id')
    .select(['device.project_id as id', 'device.device_type as type']).where('area.project_type', '=', 'PT5030').where('device.device_type', '<>', 'gateway')
    .orderBy('device.id').limit(1).executeTakeFirstOrThrow();
  seeded.mixedProject = { id: Number(mixed.id), type: mixed.type };
  await seeded.db.destroy();
  const env = { KELVIN_BILLING_INTERVAL_MINUTES: '0', ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: seeded.schema } : {}) };
  const server = await startServer(env, undefined, { dataDir: seeded.dataDir ?? fs.mkdtempSync('/tmp/kelvin-bench-'), port: await freePort(), mqttPort: await freePort() });
  const results = [];
  try {
    const token = await api(server.url, 'POST', '/api/auth/jwt/token', null, { username: seeded.username, password: seeded.password });
    const registry = await registryReader(seeded);
    const sampler = loopSampler(registry, server.child.pid);
    const list = endpoints(seeded).filter((e) => !values.only || e.name.includes(values.only));
    // every call answers right before anything is timed (a 4xx must not be measured as fast)
    for (const e of list) await check(server.url, token, e);
    console.log(`  ${list.length} 个接口的应答已核对；${CONNECTIONS} 个连接，每个接口预热 ${WARMUP} s、测量 ${SECONDS} s；开始时负载 ${load()}`);
    for (const e of list) {
      const r = await measure(server, token, sampler, e);
      results.push(r);
      console.log(`  ${r.name}：单次 ${ms(r.single)} ms；${r.count} 次完成，${r.rps.toFixed(1)} 请求/秒，p50 ${pct(r, r.p50)} ms，p95 ${pct(r, r.p95)} ms，p99 ${pct(r, r.p99)} ms，错误 ${r.errors}，事件循环 p99 ${r.loop ?? '—'} ms`);
    }
    sampler.stop();
    await registry.close();
    console.log(`  结束时负载 ${load()}\n\n${name}（${machine()}，${new Date().toISOString().slice(0, 10)}，${CONNECTIONS} 个连接，每个接口 ${SECONDS} s）：\n\n${table(results)}\n`);
  } finally {
    if (values.keep) {
      server.child.kill('SIGTERM');
      await new Promise((r) => (server.child.exitCode !== null || server.child.signalCode !== null ? r() : server.child.once('exit', r)));
      console.log(`  数据保留在 ${seeded.dataDir ?? `schema ${seeded.schema}`}（账号 ${seeded.username} / ${seeded.password}）`);
    } else {
      await server.stop();
      if (databaseUrl) {
        const { dropSchema } = await tsImport('../apps/server/src/db/index.ts', import.meta.url);
        await dropSchema(databaseUrl, seeded.schema);
      }
    }
  }
  return results;
}

console.log(`▶ 控制台接口规模压测；机器：${machine()}；负载 ${load()}`);
// --postgres: the installation on PostgreSQL instead of SQLite
const results = await benchOne(values.postgres);
process.exit(results.some((r) => r.errors > 0) ? 1 : 0);
