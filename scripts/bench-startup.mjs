// `./kelvin bench startup [--runs 3] [--demo off]`: the server started from the TypeScript sources through tsx (as
// before issue 15) and compiled (apps/server/dist, what ./kelvin start runs), each on a fresh data dir with the demo
// tenant and its simulated devices (--demo off: an empty installation): time from process start to listening (the
// start banner), the CPU the process used until then (less at the mercy of a busy machine than the wall time), and
// resident memory right then and 10 s later (the simulator connected and reporting).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuSeconds, freePort, ROOT, rssMb } from './bench-lib.mjs';
import { SERVER_ARGS, ensureServerBuilt } from './build-server.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('runs', '3'));
const DEMO = arg('demo', 'on') !== 'off';
const SETTLE_MS = 10_000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function once(args) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-startup-'));
  const env = {
    ...process.env, PORT: String(await freePort()), HOST: '127.0.0.1', MQTT_PORT: String(await freePort()), KELVIN_DATA_DIR: dataDir,
    KELVIN_ADMIN_PASSWORD: 'Bench#Admin-2026', KELVIN_SIMULATOR: DEMO ? 'on' : 'off', KELVIN_DEMO: DEMO ? 'on' : 'off', DATABASE_URL: '', LOG_LEVEL: 'warn',
  };
  const started = process.hrtime.bigint();
  const child = spawn('node', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ms = await new Promise((resolve, reject) => {
    const onData = (c) => {
      output += c.toString();
      if (output.includes('控制台地址')) resolve(Number(process.hrtime.bigint() - started) / 1e6);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`服务退出 (${code}):\n${output}`)));
  });
  const cpu = cpuSeconds(child.pid);
  const atListen = rssMb(child.pid);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const settled = rssMb(child.pid);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { ms, cpu, atListen, settled };
}

await ensureServerBuilt();
const modes = [
  { name: 'tsx（源码，运行时编译）', args: ['--import', 'tsx', 'apps/server/src/server.ts'] },
  { name: '编译后（apps/server/dist）', args: SERVER_ARGS },
];
console.log(`Node ${process.version}，${os.cpus().length} 核，负载 ${os.loadavg()[0].toFixed(2)}；每种 ${RUNS} 次，新数据目录${DEMO ? ' + 示范租户与模拟设备' : '（无示范数据）'}`);
const rows = [];
for (let i = 0; i < RUNS; i++) {
  // alternate, so a busy moment of the machine hits both
  for (const m of modes) {
    const r = await once(m.args);
    console.log(`  ${m.name} 第 ${i + 1} 次：启动到监听 ${Math.round(r.ms)} ms（CPU ${r.cpu} s），RSS ${r.atListen} MB（10 秒后 ${r.settled} MB）`);
    rows.push({ mode: m.name, ...r });
  }
}
console.log('\n| 方式 | 启动到监听（中位数） | 最快 | CPU 到监听（中位数） | RSS 监听时 | RSS 10 秒后 |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const m of modes) {
  const rs = rows.filter((r) => r.mode === m.name);
  console.log(`| ${m.name} | ${Math.round(median(rs.map((r) => r.ms)))} ms | ${Math.round(Math.min(...rs.map((r) => r.ms)))} ms | ${median(rs.map((r) => r.cpu)).toFixed(2)} s | ${median(rs.map((r) => r.atListen))} MB | ${median(rs.map((r) => r.settled))} MB |`);
}
