// `./kelvin bench money`: top-ups per second and latency through the real endpoint (POST /api/v1/account/{id}/topup
// with an Idempotency-Key, answer with the receipt), on one account (every request contends for the same row) and
// across 10,000 accounts (imported from Excel), then 核对账目 must find nothing.
//   ./kelvin bench money [--topups 2000] [--accounts 10000] [--concurrency 16] [--postgres postgres://…]
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { api, cpuSeconds, loginAdmin, machine, percentile, startServer } from './bench-lib.mjs';

const { values } = parseArgs({
  options: {
    topups: { type: 'string', default: '2000' },
    accounts: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '16' },
    postgres: { type: 'string' },
  },
});
const TOPUPS = Number(values.topups);
const ACCOUNTS = Number(values.accounts);
const CONCURRENCY = Number(values.concurrency);

async function importAccounts(server, token, projectId, n) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('账户');
  ws.addRow(['户名*', '手机号*']);
  for (let i = 0; i < n; i++) ws.addRow([`压测户${i}`, `13${String(100_000_000 + i).slice(-9)}`]);
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(await wb.xlsx.writeBuffer())]), 'accounts.xlsx');
  const res = await fetch(`${server.url}/api/v1/account/import?projectId=${projectId}`, { method: 'POST', headers: { authorization: token }, body: form });
  const json = await res.json();
  if (json.code !== 200) throw new Error(`导入失败：${json.msg}`);
  return json.data;
}

/** `count` top-ups, `concurrency` at a time; account of the i-th from `pick(i)`. */
async function run(server, token, count, pick) {
  const latencies = [];
  let next = 0;
  let failed = 0;
  const cpu0 = cpuSeconds(server.child.pid);
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/v1/account/${pick(i)}/topup`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json', 'idempotency-key': `bench-${crypto.randomUUID()}` },
        body: JSON.stringify({ amountFen: 100 + (i % 50), method: 'cash' }),
      });
      const json = await res.json();
      latencies.push(performance.now() - t0);
      if (json.code !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpu1 = cpuSeconds(server.child.pid);
  return {
    perSecond: Math.round(count / seconds), p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99),
    max: Math.max(...latencies), failed, cpu: cpu0 !== null && cpu1 !== null ? Math.round(((cpu1 - cpu0) / seconds) * 100) : null,
  };
}

const ms = (v) => `${Math.round(v)} ms`;
const server = await startServer({ KELVIN_DEMO: 'on' }, values.postgres);
try {
  console.log(`▶ 充值压测（${values.postgres ? 'PostgreSQL' : 'SQLite'}）：并发 ${CONCURRENCY}；机器：${machine()}`);
  const token = await loginAdmin(server.url);
  const projects = await api(server.url, 'GET', '/api/v1/area/project/list?pageNo=1&pageSize=50', token);
  const project = projects.rows.find((p) => p.name === '阳光花园小区') ?? projects.rows[0];
  await api(server.url, 'PUT', `/api/v1/account/settings/${project.id}`, token, { topupMaxFen: null, balanceMaxFen: null, refundApprovalFen: 10000, warning1Fen: 5000, warning2Fen: 2000, overdraftFen: 0 });
  const t0 = performance.now();
  const imported = await importAccounts(server, token, project.id, ACCOUNTS);
  console.log(`  导入 ${imported.created} 个账户（Excel，一个事务）用时 ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const ids = [];
  for (let pageNo = 1; ids.length < ACCOUNTS; pageNo++) {
    const page = await api(server.url, 'GET', `/api/v1/account?projectId=${project.id}&keyword=${encodeURIComponent('压测户')}&pageNo=${pageNo}&pageSize=200`, token);
    ids.push(...page.rows.map((r) => r.id));
    if (page.rows.length < 200) break;
  }
  // warm-up (first requests compile the code paths)
  await run(server, token, 200, (i) => ids[i % ids.length]);

  const one = await run(server, token, TOPUPS, () => ids[0]);
  const many = await run(server, token, ids.length, (i) => ids[i]);
  console.log('\n| 场景 | 充值笔数 | 笔/秒 | p50 | p95 | p99 | max | 失败 | 服务 CPU |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(`| 一个账户（同一行争用） | ${TOPUPS} | ${one.perSecond} | ${ms(one.p50)} | ${ms(one.p95)} | ${ms(one.p99)} | ${ms(one.max)} | ${one.failed} | ${one.cpu ?? '—'} % |`);
  console.log(`| ${ids.length} 个账户各一笔 | ${ids.length} | ${many.perSecond} | ${ms(many.p50)} | ${ms(many.p95)} | ${ms(many.p99)} | ${ms(many.max)} | ${many.failed} | ${many.cpu ?? '—'} % |`);
  const acc = await api(server.url, 'GET', `/api/v1/account/${ids[0]}`, token);
  const rec = await api(server.url, 'GET', `/api/v1/account/reconcile?projectId=${project.id}`, token);
  console.log(`\n  核对账目：${rec.checkedAccounts} 个账户，不符 ${rec.rows.length} 项；压测账户 1 余额 ${(acc.balanceFen / 100).toFixed(2)} 元`);
  if (rec.rows.length || one.failed || many.failed) process.exitCode = 1;
} finally {
  await server.stop();
}
