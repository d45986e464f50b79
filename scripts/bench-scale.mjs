// `./kelvin bench scale`: N identical server processes (1, 2, 3) on one PostgreSQL schema behind a Mosquitto started
// here with dynamic security (device accounts made by Kelvin), and the load generator (`./kelvin simulate --load`):
// N meters, QoS 1 reports of 3 readings at a fixed rate. For each N: committed messages/s (the servers' own
// messages_stored counter, sampled each second), the latency from publish to the report reaching a browser's event
// stream on process 1 (committed, then fanned out over LISTEN/NOTIFY), and an exactly-once check (every report the
// broker acknowledged is in device_history once, nothing else is). Then the largest N once more with a kill -9 of one
// process mid-run, restarted 3 s later with the same MQTT client id: the broker held its unacknowledged reports in
// its persistent session and hands them over again, so nothing acknowledged is lost.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cpuSeconds, loginAdmin, machine, openLive, percentile, simulate, startServer } from './bench-lib.mjs';
import { startMosquitto } from './mosquitto-lib.mjs';

const { values } = parseArgs({
  options: {
    postgres: { type: 'string', default: process.env.KELVIN_TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test' },
    devices: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '30' },
    processes: { type: 'string', default: '1,2,3' },
    kill: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const devices = Number(values.devices);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const counts = values.processes.split(',').map(Number);

const schema = `kelvin_bench_scale_${crypto.randomBytes(4).toString('hex')}`;
const mosquitto = await startMosquitto();
const account = { username: 'kelvin-server', password: crypto.randomBytes(12).toString('hex') };
const baseEnv = {
  DATABASE_URL: values.postgres, DATABASE_SCHEMA: schema, MQTT_URL: mosquitto.url, MQTT_USERNAME: account.username, MQTT_PASSWORD: account.password,
  MQTT_DYNSEC: 'on', MQTT_DYNSEC_USER: mosquitto.admin.username, MQTT_DYNSEC_PASSWORD: mosquitto.admin.password, MQTT_DYNSEC_RESYNC_MINUTES: '0',
  KELVIN_BILLING_INTERVAL_MINUTES: '0',
};
const db = new pg.Client({ connectionString: values.postgres, options: `-c search_path=${schema}` });
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-bench-scale-'));
const env = { ...process.env, ...baseEnv, KELVIN_DATA_DIR: scratch };
const rows = [];

async function scalar(sql, params = []) {
  return Number((await db.query(sql, params)).rows[0]?.n ?? 0);
}
const stored = () => scalar(`select value as n from ingest_counter where name = 'messages_stored'`);

/** Server processes 1..n (started one after the other; each runs the full re-sync of the broker's accounts). */
async function startProcesses(n) {
  const servers = [];
  for (let i = 1; i <= n; i++) servers.push(await startServer({ ...baseEnv, MQTT_CLIENT_ID: `kelvin-bench-${i}` }));
  // the meters can log in once the first re-sync has given them their passwords
  for (const until = Date.now() + 120_000; (await scalar('select count(*) as n from broker_client')) < devices;) {
    if (Date.now() > until) throw new Error('消息服务器账号未在 120 秒内同步完成');
    await new Promise((r) => setTimeout(r, 500));
  }
  return servers;
}

/** The browser's view: device events on process 1's stream; latency = arrival − the report's timestamp (its publish time). */
async function watchStream(server, token) {
  const latencies = [];
  let recording = false;
  const req = await openLive(server.url, token, (event, data) => {
    if (recording && event === 'device') latencies.push(Date.now() - data.ts);
  });
  return { latencies, start: () => (recording = true), stop: () => { recording = false; req.destroy(); } };
}

async function run(n, { kill = false } = {}) {
  const servers = await startProcesses(n);
  const cpu0 = servers.map((s) => cpuSeconds(s.child.pid));
  const token = await loginAdmin(servers[0].url);
  const stream = await watchStream(servers[0], token);
  const before = await stored();
  const from = Date.now();
  const samples = [];
  const sampler = setInterval(async () => samples.push({ at: Date.now(), stored: await stored() }), 1000);
  let load;
  let loadStart = 0;
  const sim = simulate({ env }, ['--tenant', 'bench', '--devices', String(devices), '--load', `${rate}:${seconds}`, '--json', '--broker', mosquitto.url], (line) => {
    const msg = JSON.parse(line);
    if (msg.ready !== undefined) {
      loadStart = Date.now();
      stream.start();
      if (kill) {
        setTimeout(async () => {
          const victim = servers[n - 1];
          await victim.crash();
          console.log(`  ${((Date.now() - loadStart) / 1000).toFixed(1)} s：kill -9 进程 ${n}`);
          await new Promise((r) => setTimeout(r, 3000));
          servers[n - 1] = await startServer({ ...baseEnv, MQTT_CLIENT_ID: `kelvin-bench-${n}` }, undefined, { dataDir: victim.dataDir, port: victim.port, mqttPort: victim.mqttPort });
          console.log(`  ${((Date.now() - loadStart) / 1000).toFixed(1)} s：进程 ${n} 已重启（同一客户端标识）`);
        }, seconds * 400);
      }
    } else if (msg.acked !== undefined) load = msg;
  });
  await sim.done;
  stream.stop();
  // drained: every acknowledged report stored, or nothing new for 20 s (what the broker still held is handed over)
  const reportsSince = () => scalar(`select count(*) as n from (select distinct device_id, ts from device_history where ts >= $1) r`, [from]);
  for (let last = -1, quietSince = Date.now(); ;) {
    const now = await reportsSince();
    if (now >= load.acked) break;
    if (now !== last) quietSince = Date.now();
    if (Date.now() - quietSince > 20_000) break;
    last = now;
    await new Promise((r) => setTimeout(r, 1000));
  }
  clearInterval(sampler);
  const wall = (Date.now() - from) / 1000;
  const cpu = servers.map((s, i) => (kill && i === n - 1 ? null : Math.round(((cpuSeconds(s.child.pid) - cpu0[i]) / wall) * 100)));
  // steady part: after a quarter of the run (≤ 5 s of warm-up) until the load stops
  const warm = loadStart + Math.min(5, seconds / 4) * 1000;
  const steady = samples.filter((s) => s.at >= warm && s.at <= loadStart + seconds * 1000);
  const committed = steady.length > 1 ? Math.round((steady.at(-1).stored - steady[0].stored) / ((steady.at(-1).at - steady[0].at) / 1000)) : 0;
  // exactly once: each report is 3 readings under one (device, ts); none twice (the key forbids it), none missing
  const reports = await reportsSince();
  const points = await scalar('select count(*) as n from device_history where ts >= $1', [from]);
  const total = (await stored()) - before;
  const row = {
    n, kill, rate, committed, p50: percentile(stream.latencies, 50), p95: percentile(stream.latencies, 95), max: percentile(stream.latencies, 100), events: stream.latencies.length,
    brokerP95: load.p95Ms, published: load.published, acked: load.acked, reports, points, total, cpu,
    // everything acknowledged is there, nothing beyond what was sent, every report whole
    exact: reports >= load.acked && reports <= load.published && points === 3 * reports,
  };
  rows.push(row);
  console.log(`  ${n} 个进程${kill ? '（中途 kill -9 一个）' : ''} │ 目标 ${rate} 条/秒 │ 入库 ${committed} 条/秒 │ 发布→浏览器 p50 ${row.p50} ms p95 ${row.p95} ms 最大 ${row.max} ms（${row.events} 个事件） │ 消息服务器确认 p95 ${row.brokerP95} ms │ 发送 ${row.published}、确认 ${row.acked}、入库 ${reports} 条 / ${points} 点 ${row.exact ? '✓ 恰好一次' : '✗ 不一致'} │ 服务 CPU ${cpu.map((c) => (c === null ? '—' : `${c}%`)).join(' / ')}`);
  for (const s of servers) await s.stop();
}

try {
  await db.connect();
  console.log(`▶ 多进程压测：PostgreSQL + Mosquitto ${mosquitto.url}（动态安全），${devices} 台电表，${rate} 条/秒 × ${seconds} s，每条 3 个读数，QoS 1；机器：${machine()}`);
  // the meters first, so each process's full re-sync at start gives them their broker accounts
  await simulate({ env }, ['--tenant', 'bench', '--type', 'device20090', '--per-type', String(devices), '--provision-only']).done;
  for (const n of counts) await run(n);
  if (values.kill) await run(Math.max(...counts), { kill: true });

  console.log('\n▶ README 可用的结果');
  console.log('| processes | target (msg/s) | committed (msg/s) | publish → browser p50 | p95 | max | broker PUBACK p95 | published | acknowledged | stored once | server CPU (each) |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
  for (const r of rows) {
    console.log(`| ${r.n}${r.kill ? ' (kill -9 of one)' : ''} | ${r.rate} | ${r.committed} | ${r.p50} ms | ${r.p95} ms | ${r.max} ms | ${r.brokerP95} ms | ${r.published} | ${r.acked} | ${r.exact ? `✓ ${r.reports}` : `✗ ${r.reports}`} | ${r.cpu.map((c) => (c === null ? '—' : `${c} %`)).join(' / ')} |`);
  }
  const ok = rows.every((r) => r.exact);
  console.log(ok ? '\n✓ 每次运行：消息服务器确认的上报都恰好入库一次（含 kill -9 那一次）' : '\n✗ 有运行的入库与确认不一致');
  process.exitCode = ok ? 0 : 1;
} finally {
  await db.end().catch(() => {});
  const admin = new pg.Client({ connectionString: values.postgres });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
  await mosquitto.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}
