// A large billing project written straight into a stopped server's SQLite file (a generator, not the live
// simulator): N accounts, each with one AC billing thermostat (device20030) named on the account and a balance
// with its top-up entry, and D days of hourly readings of the three run-time counters (f20/f21/f22). The readings
// follow a fixed pattern, so the expected bill of every account is known exactly (expectedFen).
import path from 'node:path';
import Database from 'better-sqlite3';
import { api, loginAdmin, startServer } from './bench-lib.mjs';

const H = 3_600_000;
/** 2026-10-01 00:00 in Shanghai */
export const BILLING_START = Date.parse('2026-10-01T00:00:00+08:00');
export const PRICE = '2.5000';
/** k of the tariff (low, mid, high) in tenths: 0.6 / 0.8 / 1.0 */
const K_TENTHS = [6, 8, 10];

/** Hour h of device i runs at one fan speed (0 low, 1 mid, 2 high) or not at all (-1): working hours of the day, varied per device. */
export function speedAt(i, h) {
  const hourOfDay = (h + 8) % 24; // local hour (the period starts at local midnight, UTC+8 handled by the start instant)
  if (hourOfDay < 8 || hourOfDay >= 20) return -1;
  return (i + h) % 3;
}

/** What the engine must charge device i over hours (0, hours]: Σ k × 1 h × 2.50 元, in fen (exact: 0.1 h × 250 fen/h = 25 fen). */
export function expectedFen(i, hours) {
  let tenths = 0;
  for (let h = 1; h <= hours; h++) {
    const s = speedAt(i, h - 1);
    if (s >= 0) tenths += K_TENTHS[s];
  }
  return tenths * 25;
}

/**
 * Starts a server once (migrations, the demo tenant), stops it, writes the project, accounts, devices and readings,
 * and returns what is needed to start it again on the same data.
 */
export async function seedBillingProject({ accounts, days, log = () => {} }) {
  const first = await startServer({ KELVIN_DEMO: 'on', KELVIN_BILLING_INTERVAL_MINUTES: '60' });
  const token = await loginAdmin(first.url);
  const projects = await api(first.url, 'GET', '/api/v1/area/project/list?pageNo=1&pageSize=50', token);
  const region = projects.rows[0];
  await first.crash(); // the file is consistent at every commit (WAL); nothing else to wait for
  const db = new Database(path.join(first.dataDir, 'kelvin.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const t0 = performance.now();
  const tenant = db.prepare(`SELECT id FROM tenant WHERE code = 'demo'`).get();
  const regionRow = db.prepare(`SELECT parent_id FROM area WHERE id = ?`).get(region.id);
  const now = Date.now();
  const insertArea = db.prepare(`INSERT INTO area (tenant_id, parent_id, level, name, code, sort_no, floor_area, project_type, project_type2, billing_scheme, address, lng, lat, alias, created_at)
    VALUES (?, ?, ?, ?, NULL, 0, NULL, ?, ?, ?, NULL, NULL, NULL, NULL, ?)`);
  const projectId = Number(insertArea.run(tenant.id, regionRow.parent_id, 'project', '计费压测项目', 'PT2010', 101, 1, now).lastInsertRowid);
  const buildingId = Number(insertArea.run(tenant.id, projectId, 'building', '1号楼', null, null, null, now).lastInsertRowid);
  const insertDevice = db.prepare(`INSERT INTO device (tenant_id, project_id, area_id, gateway_id, device_type, device_code, device_name, secret_hash, enabled, created_at, updated_at, last_report_at, online_until, last_connect_at, command_pending_at)
    VALUES (?, ?, ?, NULL, 'device20030', ?, ?, 'bench', 1, ?, ?, NULL, NULL, NULL, NULL)`);
  const insertAccount = db.prepare(`INSERT INTO account (tenant_id, project_id, kind, name, phone, id_number, move_in_date, status, balance_fen, deposit_fen, group_id, remark, created_at, closed_at)
    VALUES (?, ?, 'resident', ?, ?, NULL, NULL, 'active', ?, 0, NULL, NULL, ?, NULL)`);
  const insertEntry = db.prepare(`INSERT INTO ledger_entry (tenant_id, project_id, account_id, book, kind, amount_fen, balance_after_fen, method, reason, cause_type, cause_id, actor_id, actor_name, idem_key, created_at)
    VALUES (?, ?, ?, 'balance', 'topup', ?, ?, 'cash', '压测充值', NULL, NULL, NULL, '压测', NULL, ?)`);
  // the ledger's day roll-up, as the ledger's one writer keeps it (核对账目 checks the two agree)
  const insertLedgerDay = db.prepare(`INSERT INTO ledger_day (tenant_id, project_id, account_id, day, book, kind, method, count, sum_fen)
    VALUES (?, ?, ?, ?, 'balance', 'topup', 'cash', 1, ?)`);
  const startDay = Math.floor((BILLING_START + 8 * 3600_000) / 86_400_000) * 86_400_000 - 8 * 3600_000;
  const insertAccountDevice = db.prepare(`INSERT INTO account_device (tenant_id, account_id, device_id) VALUES (?, ?, ?)`);
  const insertReading = db.prepare(`INSERT INTO device_history (device_id, field_code, ts, num, txt) VALUES (?, ?, ?, ?, NULL)`);
  const hours = days * 24;
  const balance = 10_000_000;
  const deviceIds = [];
  const accountIds = [];
  db.transaction(() => {
    for (let i = 0; i < accounts; i++) {
      const code = `BILL${String(i).padStart(6, '0')}`;
      const deviceId = Number(insertDevice.run(tenant.id, projectId, buildingId, code, `压测温控器${i}`, now, now).lastInsertRowid);
      const accountId = Number(insertAccount.run(tenant.id, projectId, `压测户${i}`, `13${String(100_000_000 + i).slice(-9)}`, balance, BILLING_START).lastInsertRowid);
      insertEntry.run(tenant.id, projectId, accountId, balance, balance, BILLING_START);
      insertLedgerDay.run(tenant.id, projectId, accountId, startDay, balance);
      insertAccountDevice.run(tenant.id, accountId, deviceId);
      deviceIds.push(deviceId);
      accountIds.push(accountId);
    }
  })();
  let rows = 0;
  const writeDevices = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const counters = [0, 0, 0];
      for (let h = 0; h <= hours; h++) {
        if (h > 0) {
          const s = speedAt(i, h - 1);
          if (s >= 0) counters[s] += 1;
        }
        const ts = BILLING_START + h * H;
        insertReading.run(deviceIds[i], 'f20', ts, counters[0]);
        insertReading.run(deviceIds[i], 'f21', ts, counters[1]);
        insertReading.run(deviceIds[i], 'f22', ts, counters[2]);
        rows += 3;
      }
    }
  });
  for (let i = 0; i < accounts; i += 200) {
    writeDevices(i, Math.min(accounts, i + 200));
    if (i % 2000 === 0) log(`  读数 ${rows.toLocaleString()} 行…`);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const seedSeconds = (performance.now() - t0) / 1000;
  return { dataDir: first.dataDir, port: first.port, mqttPort: first.mqttPort, projectId, accountIds, deviceIds, rows, seedSeconds, until: BILLING_START + hours * H, hours };
}

/** The tariff of the seeded project: prepaid time equivalent at PRICE, k 0.6/0.8/1, from a day before the data. */
export async function saveBenchTariff(url, token, projectId) {
  const current = await api(url, 'GET', `/api/v1/billing/tariff/${projectId}`, token);
  const { id: _id, projectId: _p, createdBy: _c, createdAt: _t, ...doc } = current;
  await api(url, 'POST', `/api/v1/billing/tariff/${projectId}`, token, {
    ...doc, scheme: 1, price: PRICE, k: { low: '0.6', mid: '0.8', high: '1' }, tou: { ...doc.tou, enabled: false }, effectiveFrom: BILLING_START - 24 * H, remark: '压测',
  });
}
