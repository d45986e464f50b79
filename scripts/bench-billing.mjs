// `./kelvin bench billing`: one monthly charge run for 10,000 accounts × 30 days of hourly readings (three run-time
// counters each: 21.6 million history rows) on the embedded default (SQLite), through POST /api/v1/billing/run.
// Prints the seeding time, the run's duration, the server's resident memory before/peak/after, and checks every
// account's charge against the amount worked out independently from the reading pattern.
//   ./kelvin bench billing [--accounts 10000] [--days 30]
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import path from 'node:path';
import { api, cpuSeconds, loginAdmin, machine, rssMb, startServer } from './bench-lib.mjs';
import { expectedFen, saveBenchTariff, seedBillingProject } from './billing-seed.mjs';

const { values } = parseArgs({ options: { accounts: { type: 'string', default: '10000' }, days: { type: 'string', default: '30' } } });
const ACCOUNTS = Number(values.accounts);
const DAYS = Number(values.days);

console.log(`▶ 计费压测：${ACCOUNTS.toLocaleString()} 个账户 × ${DAYS} 天逐时读数（SQLite 内置默认）；机器：${machine()}`);
const seeded = await seedBillingProject({ accounts: ACCOUNTS, days: DAYS, log: (l) => console.log(l) });
console.log(`  生成数据：${seeded.rows.toLocaleString()} 行读数，用时 ${seeded.seedSeconds.toFixed(1)} s`);
const server = await startServer({ KELVIN_DEMO: 'on', KELVIN_BILLING_INTERVAL_MINUTES: '0' }, undefined, { dataDir: seeded.dataDir, port: seeded.port, mqttPort: seeded.mqttPort });
let failed = 0;
try {
  const token = await loginAdmin(server.url);
  await saveBenchTariff(server.url, token, seeded.projectId);
  const before = rssMb(server.child.pid);
  let peak = before ?? 0;
  const sampler = setInterval(() => { peak = Math.max(peak, rssMb(server.child.pid) ?? 0); }, 200);
  const cpu0 = cpuSeconds(server.child.pid);
  const t0 = performance.now();
  const result = await api(server.url, 'POST', '/api/v1/billing/run', token, { projectId: seeded.projectId, until: seeded.until });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const cpu1 = cpuSeconds(server.child.pid);
  const after = rssMb(server.child.pid);
  console.log(`  一次月度计费：${result.accounts.toLocaleString()} 个账户，${result.lines.toLocaleString()} 条明细，合计 ${(result.totalFen / 100).toFixed(2)} 元`);
  console.log(`  用时 ${seconds.toFixed(1)} s（目标 ≤ 60 s）${cpu0 !== null && cpu1 !== null ? `，服务进程 CPU ${Math.round(((cpu1 - cpu0) / seconds) * 100)}%` : ''}`);
  console.log(`  常驻内存：计费前 ${before} MB，峰值 ${peak} MB，计费后 ${after} MB`);

  // every account's charge against the pattern, straight from the ledger
  const db = new Database(path.join(server.dataDir, 'kelvin.db'), { readonly: true });
  const charged = new Map(db.prepare(`SELECT account_id, -SUM(amount_fen) AS fen FROM ledger_entry WHERE kind = 'charge' AND project_id = ? GROUP BY account_id`).all(seeded.projectId).map((r) => [r.account_id, r.fen]));
  db.close();
  let wrong = 0;
  let expectedTotal = 0;
  seeded.accountIds.forEach((id, i) => {
    const want = expectedFen(i, seeded.hours);
    expectedTotal += want;
    if ((charged.get(id) ?? 0) !== want) wrong++;
  });
  const ok = wrong === 0 && result.totalFen === expectedTotal;
  if (!ok) failed++;
  console.log(`  ${ok ? '✓' : '✗'} 每个账户的扣费与读数规律算出的金额一致（${ACCOUNTS - wrong}/${ACCOUNTS}；合计应为 ${(expectedTotal / 100).toFixed(2)} 元）`);
  const again = await api(server.url, 'POST', '/api/v1/billing/run', token, { projectId: seeded.projectId, until: seeded.until });
  const same = again.runId === result.runId;
  if (!same) failed++;
  console.log(`  ${same ? '✓' : '✗'} 同一周期再次计费不新增明细（批次 ${again.runId}）`);
  if (seconds > 60) console.log('  ✗ 超过 60 s 目标');
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
