// `./kelvin bench scheduler`: a fresh server, simulated thermostats online (the simulator in another process, real
// MQTT clients), then 10,000 one-off tasks created through the API, all due in the same minute. The scheduler claims
// each occurrence in the database and issues its command through the device core; lateness = the command's creation
// time minus the occurrence's due time, read from the database afterwards. Target: every command within 5 s.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { api, loginAdmin, machine, percentile, simulate, startServer, waitOnline } from './bench-lib.mjs';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '10000' },
    devices: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8' },
    // postgres://…: measure against PostgreSQL (a schema of its own, dropped afterwards) instead of SQLite
    postgres: { type: 'string' },
  },
});
const TASKS = Number(values.tasks);
const DEVICES = Number(values.devices);
const CONCURRENCY = Number(values.concurrency);
const TARGET_MS = 5000;

/** Reads the database the server writes (SQLite file of its data dir, or its PostgreSQL schema). */
async function openDb(server) {
  if (values.postgres) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: values.postgres, options: `-c search_path=${server.env.DATABASE_SCHEMA}` });
    await client.connect();
    return { all: async (q, p = []) => (await client.query(q.replace(/\?/g, (() => { let i = 0; return () => `$${++i}`; })()), p)).rows, close: () => client.end() };
  }
  const { default: SQLite } = await import('better-sqlite3');
  const file = new SQLite(path.join(server.dataDir, 'kelvin.db'), { readonly: true });
  return { all: async (q, p = []) => file.prepare(q).all(...p), close: async () => file.close() };
}

const server = await startServer({}, values.postgres);
let sim;
try {
  console.log(`▶ 调度压测：${TASKS} 个定时任务在同一分钟到期，${DEVICES} 台模拟温控器在线；数据库：${values.postgres ? 'PostgreSQL' : 'SQLite'}；机器：${machine()}`);
  sim = simulate(server, ['--tenant', 'bench', '--type', 'device20020', '--per-type', String(DEVICES), '--dropouts', '0']);
  const token = await loginAdmin(server.url);
  const devices = await waitOnline(server.url, token, 'device20020', DEVICES);

  // the due minute: far enough ahead for the creation (measured on the first 200 tasks)
  const create = async (i, runAt) => {
    const d = devices[i % devices.length];
    return api(server.url, 'POST', '/api/v1/task', token, {
      projectId: d.projectId, name: `压测任务${i}`, kind: 'once', runAt, deviceIds: [d.id], writes: [{ fieldCode: 'f04', value: 16 + (i % 10) }],
    });
  };
  const probeStart = Date.now();
  const far = Date.now() + 3_600_000;
  let probed = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (probed < 200) await create(probed++, far);
  }));
  const perTask = (Date.now() - probeStart) / 200;
  const runAt = Math.ceil((Date.now() + perTask * TASKS * 2 + 30_000) / 60_000) * 60_000;
  console.log(`  建任务约 ${perTask.toFixed(1)} ms/个；到期时间 ${new Date(runAt).toISOString()}`);
  const t0 = Date.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < TASKS) await create(next++, runAt);
  }));
  console.log(`  ${TASKS} 个任务已建（${((Date.now() - t0) / 1000).toFixed(1)} s），距到期 ${((runAt - Date.now()) / 1000).toFixed(1)} s`);
  if (Date.now() >= runAt) throw new Error('建任务太慢：到期时间已过');

  const db = await openDb(server);
  try {
    // wait until every occurrence has its command (or a minute after the due time)
    // commands of the tasks (the benchmark tenant sends nothing else): 'issued' = recorded by the core, 'sent' = published
    const COMMANDS = "select created_at as issued, sent_at as sent from device_command where username like '任务「压测任务%' and created_at >= ?";
    let rows = [];
    while (Date.now() < runAt + 120_000) {
      await new Promise((r) => setTimeout(r, 2000));
      if (Date.now() < runAt) continue;
      rows = await db.all(COMMANDS, [runAt - 60_000]);
      if (rows.length >= TASKS && rows.every((r) => r.sent !== null)) break;
    }
    rows = rows.map((r) => ({ ...r, due: runAt }));
    const runs = Number((await db.all('select count(*) as n from automation_run where scheduled_at = ?', [runAt]))[0].n);
    const late = rows.map((r) => Number(r.issued) - Number(r.due));
    const sentLate = rows.filter((r) => r.sent !== null).map((r) => Number(r.sent) - Number(r.due));
    const max = late.length ? Math.max(...late) : NaN;
    console.log(`  执行记录 ${runs} 条（应为 ${TASKS}，每个时间点恰好一次），指令 ${rows.length} 条`);
    console.log(`  下发延迟（指令创建 − 到期）：p50 ${percentile(late, 50)} ms，p95 ${percentile(late, 95)} ms，最大 ${max} ms`);
    if (sentLate.length) console.log(`  发到设备（MQTT 发布 − 到期）：${sentLate.length} 条，p50 ${percentile(sentLate, 50)} ms，p95 ${percentile(sentLate, 95)} ms，最大 ${Math.max(...sentLate)} ms`);
    const ok = runs === TASKS && rows.length === TASKS && max <= TARGET_MS;
    // the created tasks of the probe (due an hour later) are not part of the figures
    console.log(ok ? `✔ 全部 ${TASKS} 条指令在到期后 ${TARGET_MS / 1000} 秒内下发` : `✘ 未达标（目标：${TASKS} 条全部在 ${TARGET_MS / 1000} 秒内下发）`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await db.close();
  }
} finally {
  sim?.child?.kill('SIGTERM');
  await server.stop();
}
