// kill -9 in the middle of a burst of top-ups (issue 11): after the restart every top-up the client saw acknowledged
// is in the ledger exactly once, none it did not see is half there (an entry without its key, a key without its
// entry, a balance that is not the sum of its entries), and retrying the unanswered ones with their keys pays each
// exactly once.
//   node scripts/money-kill.mjs [--postgres postgres://…]      (also a step of `./kelvin test faults`)
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { api, freePort, loginAdmin, startServer } from './bench-lib.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Reads the server's database directly (SQLite file or the PostgreSQL schema). */
async function reader(server, postgres, schema) {
  if (!postgres) {
    const db = new Database(path.join(server.dataDir, 'kelvin.db'), { readonly: true });
    return { all: async (q, params = []) => db.prepare(q.replace(/\$\d+/g, '?')).all(...params), close: async () => db.close() };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: postgres, options: `-c search_path=${schema}` });
  await client.connect();
  return { all: async (q, params = []) => (await client.query(q, params)).rows, close: () => client.end() };
}

async function topup(url, token, accountId, key, amountFen) {
  const res = await fetch(`${url}/api/v1/account/${accountId}/topup`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ amountFen, method: 'cash' }),
  });
  const json = await res.json();
  if (json.code !== 200) throw Object.assign(new Error(`${json.code} ${json.msg}`), { answered: true });
  return json.data;
}

/** One run; `check(ok, text)` reports each finding. */
export async function moneyKill(check, opts = {}) {
  const postgres = opts.postgres;
  const schema = postgres ? `kelvin_money_kill_${crypto.randomBytes(4).toString('hex')}` : undefined;
  const dbEnv = postgres ? { DATABASE_URL: postgres, DATABASE_SCHEMA: schema } : {};
  const server = await startServer({ KELVIN_DEMO: 'on', ...dbEnv });
  const token = await loginAdmin(server.url);
  const accounts = (await api(server.url, 'GET', '/api/v1/account?pageSize=20&status=active', token)).rows.slice(0, 6);
  if (!accounts.length) throw new Error('示范数据中没有账户');
  // no limits: every top-up of the burst is allowed
  for (const projectId of new Set(accounts.map((a) => a.projectId))) {
    await api(server.url, 'PUT', `/api/v1/account/settings/${projectId}`, token, { topupMaxFen: null, balanceMaxFen: null, refundApprovalFen: 10000, warning1Fen: 5000, warning2Fen: 2000, overdraftFen: 0 });
  }

  const sent = new Map(); // key → { accountId, amountFen, state: 'inflight' | 'acked' | 'refused', entryId }
  let stop = false;
  let n = 0;
  const worker = async (w) => {
    while (!stop) {
      const account = accounts[(n + w) % accounts.length];
      const key = `kill-${w}-${++n}-${crypto.randomBytes(4).toString('hex')}`;
      const amountFen = 1 + (n % 997);
      const rec = { accountId: account.id, amountFen, state: 'inflight', entryId: null };
      sent.set(key, rec);
      try {
        const data = await topup(server.url, token, account.id, key, amountFen);
        rec.state = 'acked';
        rec.entryId = data.entryId;
      } catch (err) {
        if (err.answered) rec.state = 'refused';
        return; // the server is gone (or answered an error: stop this worker)
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, w) => worker(w));
  await sleep(opts.burstMs ?? 2000);
  await server.crash();
  stop = true;
  await Promise.all(workers);

  const recs = [...sent.entries()];
  const acked = recs.filter(([, r]) => r.state === 'acked');
  const inflight = recs.filter(([, r]) => r.state === 'inflight');
  check(acked.length > 0, `kill -9 前已确认 ${acked.length} 笔充值，${inflight.length} 笔发出未得到应答`);
  check(recs.every(([, r]) => r.state !== 'refused'), '爆发期间没有充值被拒绝');

  const again = await startServer({ KELVIN_DEMO: 'on', ...dbEnv }, undefined, { dataDir: server.dataDir, port: server.port, mqttPort: await freePort() });
  const db = await reader(again, postgres, schema);
  try {
    const keys = recs.map(([k]) => k);
    const entries = [];
    for (let i = 0; i < keys.length; i += 500) {
      const slice = keys.slice(i, i + 500);
      const params = slice.map((_, j) => `$${j + 1}`).join(',');
      entries.push(...(await db.all(`select id, account_id, amount_fen, idem_key from ledger_entry where idem_key in (${params})`, slice)));
    }
    const idem = [];
    for (let i = 0; i < keys.length; i += 500) {
      const slice = keys.slice(i, i + 500);
      const params = slice.map((_, j) => `$${j + 1}`).join(',');
      idem.push(...(await db.all(`select key, result from idempotency_key where key in (${params})`, slice)));
    }
    const byKey = new Map();
    for (const e of entries) byKey.set(e.idem_key, [...(byKey.get(e.idem_key) ?? []), e]);
    const idemByKey = new Map(idem.map((r) => [r.key, r]));

    const lost = acked.filter(([k, r]) => (byKey.get(k) ?? []).length !== 1 || Number(byKey.get(k)[0].id) !== r.entryId || Number(byKey.get(k)[0].amount_fen) !== r.amountFen);
    check(lost.length === 0, lost.length ? `${lost.length} 笔已确认的充值不在账上或不止一次：${lost.slice(0, 3).map(([k]) => k).join('、')}` : `已确认的 ${acked.length} 笔充值都在账上，各一次，金额与流水号一致`);
    const half = recs.filter(([k]) => {
      const es = byKey.get(k) ?? [];
      const key = idemByKey.get(k);
      return es.length > 1 || (es.length === 1) !== !!key || (key && !key.result);
    });
    check(half.length === 0, half.length ? `${half.length} 笔充值只写了一半（流水与幂等键不一致）` : '没有写了一半的充值：每笔要么流水与幂等键都在，要么都不在');
    const committedUnseen = inflight.filter(([k]) => byKey.has(k)).length;
    console.log(`  · 未得到应答的 ${inflight.length} 笔中 ${committedUnseen} 笔已提交（崩溃前提交、应答未送达），其余未入账`);

    const balances = await db.all(`select a.id, a.balance_fen, coalesce((select sum(e.amount_fen) from ledger_entry e where e.account_id = a.id and e.book = 'balance'), 0) as total from account a`);
    const off = balances.filter((b) => Number(b.balance_fen) !== Number(b.total));
    check(off.length === 0, off.length ? `${off.length} 个账户余额与流水合计不符` : `${balances.length} 个账户的余额都等于流水合计`);
  } finally {
    await db.close();
  }

  // the client retries what it never heard back about: each is paid exactly once
  const token2 = await loginAdmin(again.url);
  const retried = await Promise.all(inflight.map(([k, r]) => topup(again.url, token2, r.accountId, k, r.amountFen).then((d) => ({ k, d }), (e) => ({ k, e }))));
  check(retried.every((x) => x.d), `重启后用原幂等键重试未应答的 ${inflight.length} 笔：全部成功`);
  const db2 = await reader(again, postgres, schema);
  try {
    const keys = inflight.map(([k]) => k);
    let dup = 0;
    for (const k of keys) {
      const rows = await db2.all('select count(*) as n from ledger_entry where idem_key = $1', [k]);
      if (Number(rows[0].n) !== 1) dup++;
    }
    check(dup === 0, dup ? `${dup} 笔重试后不是恰好一次` : '重试后每笔恰好入账一次');
  } finally {
    await db2.close();
  }
  const rec = await api(again.url, 'GET', '/api/v1/account/reconcile', token2);
  check(rec.rows.length === 0, `核对账目：${rec.checkedAccounts} 个账户、${rec.checkedOrders} 笔订单，不符 ${rec.rows.length} 项`);
  await again.stop();
  if (postgres) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: postgres });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
  fs.rmSync(server.dataDir, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--postgres');
  const postgres = i > 0 ? process.argv[i + 1] : undefined;
  let failed = 0;
  const check = (ok, text) => {
    console.log(`  ${ok ? '✓' : '✗'} ${text}`);
    if (!ok) failed++;
  };
  console.log(`▶ 充值爆发中 kill -9（${postgres ? 'PostgreSQL' : 'SQLite'}）`);
  try {
    await moneyKill(check, { postgres });
  } catch (err) {
    check(false, err.stack ?? String(err));
  }
  console.log(failed ? `\n✗ ${failed} 项未通过` : '\n✓ 全部通过');
  process.exit(failed ? 1 : 0);
}
