// Shared by the benchmarks: a fresh server on a temp data dir, CPU sampling, percentiles, API calls.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ARGS, ensureServerBuilt } from './build-server.mjs';
import { tsImport } from 'tsx/esm/api';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ADMIN_PASSWORD = 'Bench#Admin-2026';
/** KELVIN_BENCH_PROFILE=dir: the server and the load generator write V8 CPU profiles (.cpuprofile) there. KELVIN_BENCH_LOGS=1: the servers' log lines go to stderr. */
const profileArgs = process.env.KELVIN_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.KELVIN_BENCH_PROFILE)}`] : [];

export async function freePort() {
  const server = net.createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * A fresh server (SQLite in a temp dir, embedded broker) in its own process. With `postgres` (a postgres:// URL) the
 * database is a new schema there, dropped by stop().
 */
export async function startServer(extraEnv = {}, postgres = undefined, reuse = undefined) {
  const schema = postgres ? `kelvin_bench_${crypto.randomBytes(4).toString('hex')}` : undefined;
  // `reuse`: { dataDir, port, mqttPort } of a server that was killed, to start it again on the same data
  const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-bench-'));
  const port = reuse?.port ?? (await freePort());
  const mqttPort = reuse?.mqttPort ?? (await freePort());
  const env = {
    ...process.env, PORT: String(port), HOST: '127.0.0.1', MQTT_PORT: String(mqttPort), KELVIN_DATA_DIR: dataDir,
    KELVIN_ADMIN_PASSWORD: ADMIN_PASSWORD, KELVIN_SIMULATOR: 'off', KELVIN_DEMO: 'off', DATABASE_URL: postgres ?? '', DATABASE_SCHEMA: schema ?? '', LOG_LEVEL: 'warn', ...extraEnv,
  };
  // the compiled server, as ./kelvin start runs it
  await ensureServerBuilt();
  const child = spawn('node', [...profileArgs, ...SERVER_ARGS], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`服务未在 120 秒内启动:\n${output}`)), 120_000);
    const onData = (chunk) => {
      output += chunk.toString();
      if (output.includes('控制台地址')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`服务退出 (${code}):\n${output}`)));
  });
  child.stdout.on('data', (c) => { if (process.env.KELVIN_BENCH_LOGS) process.stderr.write(c); });
  child.stderr.on('data', (c) => process.stderr.write(c));
  return {
    /** the start banner (the demo tenant's one-time password is in it) */
    banner: output,
    child, dataDir, env, port, mqttPort, url: `http://127.0.0.1:${port}`, mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    /** kill -9: no shutdown hooks, no flush */
    async crash() {
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', r)));
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (schema) {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: postgres });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  };
}

/** CPU time of a process (user + system, seconds) from /proc; null where /proc is missing. */
export function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (CLK_TCK 100)
  } catch {
    return null;
  }
}

/** Resident memory of a process in MB (null once it is gone). */
export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * Where a generator's data set lives (a SQLite data dir or a PostgreSQL schema), and `close()`: the connection closed
 * and the data removed (the temp dir it made, or the schema).
 */
export function seededStore({ db, postgres, config, databaseUrl, dataDir, dropSchema }) {
  return {
    db, postgres, dataDir: postgres ? undefined : config.dataDir, databaseUrl: postgres ? databaseUrl : undefined, schema: postgres ? config.databaseSchema : undefined,
    async close() {
      await db.destroy();
      if (postgres) await dropSchema(databaseUrl, config.databaseSchema);
      else if (!dataDir) fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function api(base, method, url, token, body) {
  const res = await fetch(base + url, {
    method,
    headers: { ...(token ? { authorization: token } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (json.code !== 200) throw new Error(`${method} ${url}: ${json.code} ${json.msg}`);
  return json.data;
}

export async function loginAdmin(base) {
  return api(base, 'POST', '/api/auth/jwt/token', null, { username: 'admin', password: ADMIN_PASSWORD });
}

export function machine() {
  return `${os.cpus().length} 核 ${os.cpus()[0]?.model.trim() ?? ''}，内存 ${Math.round(os.totalmem() / 2 ** 30)} GB，Node ${process.versions.node}`;
}

/** Runs `./kelvin simulate …` in its own process; resolves with its stdout lines. */
/** Waits (≤ 3 min) until `count` simulated devices of a type have reported once; returns their device-list rows. */
export async function waitOnline(base, token, type, count) {
  const deadline = Date.now() + 180_000;
  let online = 0;
  while (online < count) {
    if (Date.now() > deadline) throw new Error(`只有 ${online} 台设备上线`);
    await new Promise((r) => setTimeout(r, 2000));
    online = (await api(base, 'GET', `/api/v1/device/devicelist?deviceType=${type}&online=1&pageSize=1`, token)).total;
  }
  const devices = [];
  for (let page = 1; devices.length < count; page++) {
    const rows = (await api(base, 'GET', `/api/v1/device/devicelist?deviceType=${type}&pageSize=200&pageNo=${page}`, token)).rows;
    if (!rows.length) break;
    devices.push(...rows);
  }
  console.log(`  ${online} 台在线`);
  return devices;
}

export function simulate(server, args, onLine) {
  const child = spawn('node', [...profileArgs, '--import', 'tsx', 'apps/server/src/simulator/cli.ts', ...args], { cwd: ROOT, env: server.env, stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  child.stdout.on('data', (chunk) => {
    buf += chunk.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      onLine?.(line);
    }
  });
  const done = new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 || code === null ? resolve() : reject(new Error(`模拟器退出 (${code})`)))));
  return { child, done };
}

/**
 * Provisions the load generator's devices (`./kelvin simulate --tenant … --devices N`, one report) so that rules can
 * be set up on their project before the measured load starts; answers the project and a room of the meters.
 */
export async function provisionLoadDevices(server, tenant, devices) {
  await simulate(server, ['--tenant', tenant, '--devices', String(devices), '--load', '1:1', '--json']).done;
  const token = await loginAdmin(server.url);
  const page = await api(server.url, 'GET', '/api/v1/device/devicelist?deviceType=device20090&pageNo=1&pageSize=1', token);
  const d = page.rows[0];
  if (!d) throw new Error('没有找到压测电表');
  return { token, projectId: d.projectId, areaId: d.areaId };
}

/**
 * Monitoring rules on the load generator's meters (device20090: f70 counter, f71/f72 readings 200–240) that the
 * load never breaks, of every kind of operator, so each report is checked against all of them: n rules in one
 * project, the worst case for the engine (every rule on the reported type and fields).
 */
export async function createQuietRules(base, token, projectId, n) {
  const kinds = [
    (i) => ({ fieldCode: 'f71', operator: 'gt', threshold: 300 + i }),
    (i) => ({ fieldCode: 'f72', operator: 'lt', threshold: -i }),
    (i) => ({ fieldCode: 'f71', operator: 'outside', threshold: 0, thresholdHigh: 1000 + i }),
    (i) => ({ fieldCode: 'f70', operator: 'delta', threshold: 1000 + i }),
    (i) => ({ fieldCode: 'f72', operator: 'gte', threshold: 500 + i, forReports: 3 }),
    (i) => ({ fieldCode: 'f70', operator: 'lt', threshold: -1 - i, forSeconds: 60 }),
  ];
  for (let i = 0; i < n; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, j) => api(base, 'POST', '/api/v1/monitorrule', token, {
      projectId, name: `压测规则 ${i + j + 1}`, deviceType: 'device20090', severity: 'info', notifySms: false, enabled: true, forSeconds: 0,
      ...kinds[(i + j) % kinds.length](i + j),
    })));
  }
}

const HEARTBEAT_MS = 5_000;

/**
 * `seeded`: { dataDir } or { databaseUrl, schema } of the server's database. Reads the server's registry row (ops_instance: the event-loop p99 of its last 5 s heartbeat interval) straight from
 * the database every 500 ms: a poll over HTTP would queue behind the measured load and miss beats.
 */
export async function registryReader(seeded) {
  if (seeded.schema) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: seeded.databaseUrl });
    await client.connect();
    return {
      read: async (pid) => (await client.query(`SELECT heartbeat_at, loop_p99_ms FROM "${seeded.schema}".ops_instance WHERE pid = $1 AND stopped_at IS NULL`, [pid])).rows[0],
      close: () => client.end(),
    };
  }
  const { default: Database } = await import('better-sqlite3');
  const { sqliteFileOf } = await tsImport('../apps/server/src/db/index.ts', import.meta.url);
  const raw = new Database(sqliteFileOf(seeded.dataDir), { readonly: true });
  const stmt = raw.prepare('SELECT heartbeat_at, loop_p99_ms FROM ops_instance WHERE pid = ? AND stopped_at IS NULL');
  return { read: async (pid) => stmt.get(pid), close: async () => raw.close() };
}

/** The server's heartbeats (time → event-loop p99 of the interval before it), read every 500 ms while the bench runs. */
export function loopSampler(registry, pid) {
  const beats = new Map();
  const timer = setInterval(() => {
    registry.read(pid).then((row) => {
      if (row && row.loop_p99_ms !== null) beats.set(Number(row.heartbeat_at), Number(row.loop_p99_ms));
    }, () => {});
  }, 500);
  return {
    /** waits (≤ 10 s) for the first beat after `t` */
    async after(t) {
      const deadline = Date.now() + 10_000;
      while (![...beats.keys()].some((at) => at > t) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    },
    /**
     * The highest p99 of the intervals at least half inside [t0, t1]: an interval starts at the beat before it (beats
     * run late when the loop is blocked), or 5 s before it when that one was not seen.
     */
    worst(t0, t1) {
      const inside = this.intervals(t0, t1);
      return inside.length ? Math.max(...inside) : null;
    },
    /** the p99 of each of those intervals, in time order */
    intervals(t0, t1) {
      const seen = [...beats].sort((a, b) => a[0] - b[0]);
      return seen.filter(([at], i) => {
        const from = i > 0 ? seen[i - 1][0] : at - HEARTBEAT_MS;
        return Math.min(at, t1) - Math.max(from, t0) >= (at - from) / 2;
      }).map(([, p99]) => p99);
    },
    stop: () => clearInterval(timer),
  };
}

/** The live stream: every event goes to `onEvent`. */
export function openLive(base, token, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/v1/live?token=${encodeURIComponent(token)}`, { headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`live ${res.statusCode}`));
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) onEvent(event, JSON.parse(data), performance.now());
        }
      });
      resolve(req);
    });
    req.on('error', reject);
  });
}
