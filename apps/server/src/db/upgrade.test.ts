import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildKelvin } from '../app.ts';
import { loadConfig, type KelvinConfig } from '../config.ts';
import { hashPassword } from '../modules/auth/index.ts';
import { hashSecret } from '../modules/devices/index.ts';
import { ADMIN_PASSWORD, TestClient } from '../test/harness.ts';
import { MIGRATION_NAMES, createDb, dropSchema, ensureSchema, migrate } from './index.ts';

const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const DAY = 86_400_000;

/** An installation as the first schema version left it: the rows of 001's tables, written with 001's columns only. */
async function firstVersionData(db: Kysely<any>) {
  const now = Date.now();
  const tenant = await db.insertInto('tenant').values({ code: 'oldco', name: '老客户物业', contact: '王经理', phone: '021-5555', brand: '老客户', filing_no: null, enabled: 1, created_at: now - 400 * DAY }).returning('id').executeTakeFirstOrThrow();
  const user = await db.insertInto('app_user').values({
    tenant_id: tenant.id, username: 'old_operator', password_hash: await hashPassword('Old#Operator2025'), name: '老操作员', phone: null, description: '首个版本创建',
    enabled: 1, all_projects: 1, is_platform: 0, created_at: now - 400 * DAY,
  }).returning('id').executeTakeFirstOrThrow();
  const role = await db.insertInto('role').values({ tenant_id: tenant.id, parent_id: null, code: 'old_role', name: '运维', group_type: 'role', description: null, created_at: now - 400 * DAY }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('role_grant').values(['device', 'devicemonitor', 'device20090', 'deviceoperationlog'].map((code) => ({ role_id: role.id, code }))).execute();
  await db.insertInto('user_role').values({ user_id: user.id, role_id: role.id }).execute();
  const area = (parent: number | null, level: string, name: string, extra: object = {}) => db.insertInto('area').values({
    tenant_id: tenant.id, parent_id: parent, level, name, code: null, sort_no: 0, floor_area: level === 'room' ? 88.5 : null, project_type: null, project_type2: null,
    billing_scheme: null, address: null, lng: null, lat: null, alias: null, created_at: now - 400 * DAY, ...extra,
  }).returning('id').executeTakeFirstOrThrow().then((r) => r.id as number);
  const region = await area(null, 'region', '浦东');
  const project = await area(region, 'project', '老园区', { project_type: 'PT5010', project_type2: 101, billing_scheme: 1, address: '上海市浦东新区', lng: 121.5, lat: 31.2 });
  const building = await area(project, 'building', '1号楼');
  const floor = await area(building, 'floor', '1层');
  const room = await area(floor, 'room', '101');
  await db.insertInto('user_project').values({ user_id: user.id, project_id: project }).execute();
  await db.insertInto('gate_log').values({
    tenant_id: tenant.id, user_id: user.id, username: 'old_operator', menu_code: 'device', operation: '新增设备', method: 'POST', uri: '/api/v1/device', host: '10.0.0.8', status: 200, at: now - 300 * DAY,
  }).execute();
  return { tenant: tenant.id as number, user: user.id as number, project, room };
}

/** …and what 002 added: a meter with a year of daily readings, its state, a command and its log. */
async function secondVersionData(db: Kysely<any>, ids: { tenant: number; project: number; room: number; user: number }) {
  const now = Date.now();
  const device = await db.insertInto('device').values({
    tenant_id: ids.tenant, project_id: ids.project, area_id: ids.room, gateway_id: null, device_type: 'device20090', device_code: 'OLD-METER-1', device_name: '101 电表',
    secret_hash: hashSecret('old-secret'), enabled: 1, created_at: now - 365 * DAY, updated_at: now - 365 * DAY, last_report_at: now - DAY, online_until: now - DAY + 600_000,
    last_connect_at: now - DAY, command_pending_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  const start = now - 365 * DAY;
  const history = Array.from({ length: 365 }, (_, d) => [
    { device_id: device.id, field_code: 'f70', ts: start + d * DAY, num: 1000 + d * 10, txt: null },
    { device_id: device.id, field_code: 'f71', ts: start + d * DAY, num: 1.2, txt: null },
  ]).flat();
  for (let i = 0; i < history.length; i += 200) await db.insertInto('device_history').values(history.slice(i, i + 200)).execute();
  await db.insertInto('device_state').values([
    { device_id: device.id, field_code: 'f70', num: 1000 + 364 * 10, txt: null, ts: start + 364 * DAY },
    { device_id: device.id, field_code: 'f71', num: 1.2, txt: null, ts: start + 364 * DAY },
  ]).execute();
  const command = await db.insertInto('device_command').values({
    tenant_id: ids.tenant, project_id: ids.project, device_id: device.id, field_code: 'f00', value: '1', action: null, status: 'acked', error: null, user_id: ids.user,
    username: 'old_operator', created_at: now - 200 * DAY, sent_at: now - 200 * DAY, finished_at: now - 200 * DAY + 500, expires_at: now - 199 * DAY,
  }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('device_operation_log').values({
    tenant_id: ids.tenant, project_id: ids.project, device_id: device.id, device_code: 'OLD-METER-1', device_name: '101 电表', device_type: 'device20090', command_id: command.id,
    user_id: ids.user, username: 'old_operator', operation: '开关', detail: 'f00 = 1', result: '成功', at: now - 200 * DAY,
  }).execute();
  return { device: device.id as number, readings: history.length };
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

describe('升级：首个版本的数据库迁移到当前版本', () => {
  it('every migration file is registered, in order, and exports no down (migrations only move forward)', async () => {
    const dir = path.join(import.meta.dirname, 'migrations');
    const files = fs.readdirSync(dir).filter((f) => /^\d{3}-.*\.ts$/.test(f) && !f.endsWith('.test.ts')).sort();
    expect(files.map((f) => f.replace(/\.ts$/, ''))).toEqual(MIGRATION_NAMES);
    for (const f of files) {
      const m = await import(path.join(dir, f));
      expect(typeof m.up, f).toBe('function');
      expect('down' in m, `${f} exports down`).toBe(false);
    }
  });

  it(`a database of version 001 with data (then 002's devices) is upgraded to the latest on ${pgUrl ? 'PostgreSQL' : 'SQLite'}; nothing is lost, a second run does nothing, the server starts on it`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-upgrade-'));
    const schema = pgUrl ? `kelvin_test_${crypto.randomBytes(6).toString('hex')}` : undefined;
    if (pgUrl && schema) await ensureSchema(pgUrl, schema);
    const old = createDb({ dataDir, databaseUrl: pgUrl, schema });
    let dbOpen = true;
    cleanups.push(async () => {
      if (dbOpen) await old.destroy();
      if (pgUrl && schema) await dropSchema(pgUrl, schema);
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    expect(await migrate(old, schema, { to: '001-foundation' })).toEqual(['001-foundation']);
    const ids = await firstVersionData(old);
    expect(await migrate(old, schema, { to: '002-devices' })).toEqual(['002-devices']);
    const meter = await secondVersionData(old, ids);

    const applied = await migrate(old, schema);
    expect(applied).toEqual(MIGRATION_NAMES.slice(2));
    expect(await migrate(old, schema), 'migrating again is a no-op').toEqual([]);

    const db = old as Kysely<any>;
    expect(await db.selectFrom('tenant').select(['code', 'name', 'brand']).where('id', '=', ids.tenant).executeTakeFirst()).toEqual({ code: 'oldco', name: '老客户物业', brand: '老客户' });
    expect(Number((await db.selectFrom('device_history').select((eb) => eb.fn.countAll().as('n')).where('device_id', '=', meter.device).executeTakeFirstOrThrow()).n)).toBe(meter.readings);
    // 013 built the roll-ups from the history that was already there
    const days = await db.selectFrom('device_rollup_day').select((eb) => eb.fn.countAll().as('n')).where('device_id', '=', meter.device).where('field_code', '=', 'f70').executeTakeFirstOrThrow();
    expect(Number(days.n)).toBe(365);
    await old.destroy();
    dbOpen = false;

    // the current server on the upgraded database: the old operator signs in and sees the meter, its history and log
    const config: KelvinConfig = {
      ...loadConfig({}), dataDir, databaseUrl: pgUrl, databaseSchema: schema, adminPassword: ADMIN_PASSWORD, mqttEnabled: false, mqttPort: 0, demo: false,
      logLevel: 'silent', webDist: path.join(dataDir, 'no-web'),
    };
    const k = new TestClient(await buildKelvin(config), dataDir);
    cleanups.unshift(() => k.close()); // before the data dir goes (close drops the test schema)
    expect((await k.call('GET', '/api/ready')).status).toBe(200);
    const token = await k.login('old_operator', 'Old#Operator2025');
    const list = await k.call('GET', `/api/v1/device/devicelist?projectId=${ids.project}&pageNo=1&pageSize=20`, { token });
    expect(list.body.code).toBe(200);
    expect(list.body.data.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual(['OLD-METER-1']);
    // the longest range a history call takes (400 days), to the millisecond: a second Date.now() later was one over
    const to = Date.now();
    const from = to - 400 * DAY;
    const history = await k.call('GET', `/api/v1/device/history?deviceId=${meter.device}&from=${from}&to=${to}&fields=f70`, { token });
    expect(history.body.code).toBe(200);
    expect(history.body.data.series[0].points.length).toBeGreaterThan(300);
    const log = await k.call('GET', `/api/v1/device/operationlog?projectId=${ids.project}&from=${from}&to=${to}&pageNo=1&pageSize=20`, { token });
    expect(log.body.data.rows).toHaveLength(1);
  });
});
