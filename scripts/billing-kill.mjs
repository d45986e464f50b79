// kill -9 in the middle of a charge run: after the restart, running the same period again finishes the
// run, and the result is the same as one clean run on a copy of the same data — the same lines, every account charged
// exactly once with the same amount, and 核对账目 finds nothing.
//   node scripts/billing-kill.mjs [--accounts 3000] [--days 7]      (also a step of `./kelvin test faults`)
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { api, freePort, loginAdmin, startServer } from './bench-lib.mjs';
import { saveBenchTariff, seedBillingProject } from './billing-seed.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function outcome(dataDir, projectId) {
  const db = new Database(path.join(dataDir, 'kelvin.db'), { readonly: true });
  try {
    const charges = db.prepare(`SELECT account_id, COUNT(*) AS n, -SUM(amount_fen) AS fen FROM ledger_entry WHERE project_id = ? AND cause_type = 'billing_run' GROUP BY account_id ORDER BY account_id`).all(projectId);
    const lines = db.prepare(`SELECT COUNT(*) AS n, SUM(amount_fen) AS fen, SUM(entry_id IS NULL) AS unposted FROM billing_line WHERE project_id = ?`).get(projectId);
    const runs = db.prepare(`SELECT state, COUNT(*) AS n FROM billing_run WHERE project_id = ? GROUP BY state`).all(projectId);
    return { charges, lines, runs };
  } finally {
    db.close();
  }
}

export async function billingKill(check, opts = { accounts: 3000, days: 7 }) {
  const seeded = await seedBillingProject({ accounts: opts.accounts, days: opts.days });
  // a clean copy of the same data for the reference run
  const cleanDir = `${seeded.dataDir}-clean`;
  fs.cpSync(seeded.dataDir, cleanDir, { recursive: true });
  const env = { KELVIN_DEMO: 'on', KELVIN_BILLING_INTERVAL_MINUTES: '0' };

  let server = await startServer(env, undefined, { dataDir: seeded.dataDir, port: seeded.port, mqttPort: seeded.mqttPort });
  let token = await loginAdmin(server.url);
  await saveBenchTariff(server.url, token, seeded.projectId);
  const pending = api(server.url, 'POST', '/api/v1/billing/run', token, { projectId: seeded.projectId, until: seeded.until }).catch(() => null);
  // kill it once a part of the accounts has been charged (the lines are written, the charges are under way)
  const probe = new Database(path.join(seeded.dataDir, 'kelvin.db'), { readonly: true });
  const charged = () => probe.prepare(`SELECT COUNT(*) AS n FROM ledger_entry WHERE project_id = ? AND cause_type = 'billing_run'`).get(seeded.projectId).n;
  const deadline = Date.now() + 120_000;
  while (charged() < opts.accounts * 0.3 && Date.now() < deadline) await sleep(20);
  const atKill = charged();
  probe.close();
  await server.crash();
  await pending;
  console.log(`  计费进行中 kill -9：已扣费 ${atKill}/${opts.accounts} 户`);
  check(atKill > 0 && atKill < opts.accounts, `kill -9 落在计费中途（已扣 ${atKill} 户，未扣完）`);

  server = await startServer(env, undefined, { dataDir: seeded.dataDir, port: seeded.port, mqttPort: seeded.mqttPort });
  token = await loginAdmin(server.url);
  const resumed = await api(server.url, 'POST', '/api/v1/billing/run', token, { projectId: seeded.projectId, until: seeded.until });
  const rec = await api(server.url, 'GET', '/api/v1/account/reconcile', token);
  await server.crash();

  const clean = await startServer(env, undefined, { dataDir: cleanDir, port: await freePort(), mqttPort: await freePort() });
  const cleanToken = await loginAdmin(clean.url);
  await saveBenchTariff(clean.url, cleanToken, seeded.projectId);
  const reference = await api(clean.url, 'POST', '/api/v1/billing/run', cleanToken, { projectId: seeded.projectId, until: seeded.until });
  await clean.crash();

  const a = outcome(seeded.dataDir, seeded.projectId);
  const b = outcome(cleanDir, seeded.projectId);
  check(resumed.totalFen === reference.totalFen && resumed.lines === reference.lines && resumed.accounts === reference.accounts,
    `重启后再次计费完成：${resumed.accounts} 户 ${resumed.lines} 条 ${(resumed.totalFen / 100).toFixed(2)} 元，与干净的一次计费相同（${(reference.totalFen / 100).toFixed(2)} 元）`);
  check(a.charges.length === opts.accounts && a.charges.every((c) => c.n === 1), `每户恰好一笔计费扣款（${a.charges.filter((c) => c.n === 1).length}/${opts.accounts}）`);
  check(JSON.stringify(a.charges) === JSON.stringify(b.charges), '每户扣款金额与干净计费逐户相同');
  check(a.lines.n === b.lines.n && a.lines.fen === b.lines.fen && a.lines.unposted === 0, `明细相同且全部入账（${a.lines.n} 条，未入账 ${a.lines.unposted}）`);
  check(a.runs.length === 1 && a.runs[0].state === 'done' && a.runs[0].n === 1, '只有一个计费批次，且已完成');
  check(rec.rows.length === 0, `核对账目无差异（检查 ${rec.checkedAccounts} 户）`);
  for (const dir of [seeded.dataDir, cleanDir]) fs.rmSync(dir, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { accounts: { type: 'string', default: '3000' }, days: { type: 'string', default: '7' } } });
  let failed = 0;
  const check = (ok, text) => {
    console.log(`  ${ok ? '✓' : '✗'} ${text}`);
    if (!ok) failed++;
  };
  console.log('▶ 计费进行中 kill -9，重启后再次计费');
  await billingKill(check, { accounts: Number(values.accounts), days: Number(values.days) });
  process.exit(failed ? 1 : 0);
}
