import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES, createDb } from '../db/index.ts';
import { startTestKelvin, type TestClient } from '../test/harness.ts';
import { readiness } from './health.ts';
import type { MqttHub } from './mqtt.ts';

let k: TestClient;
beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
});
afterAll(() => k?.close());

const hub = (status: 'up' | 'down', external: boolean) => ({ status: () => status, external, port: external ? null : 1 }) as unknown as MqttHub;

describe('存活与就绪检查', () => {
  it('ready: database, migrations and the embedded broker up → 200 without a token', async () => {
    const res = await k.call('GET', '/api/ready');
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(res.body.data.ready).toBe(true);
    expect(res.body.data.checks.migrations).toEqual({ ok: true, detail: `已完成（${MIGRATION_NAMES.length} 个）` });
    expect(res.body.data.checks.broker.detail).toBe(`内置 MQTT 服务正在监听端口 ${k.kelvin.mqtt!.port}`);
    expect((await k.call('GET', '/api/health')).body.data).toMatchObject({ status: 'ok', db: 'up', mqtt: 'up' });
  });

  it('a migration not applied, or one of a newer version, makes it 503 saying which', async () => {
    const last = MIGRATION_NAMES.at(-1)!;
    const row = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${last}`.execute(k.db);
    await sql`delete from kysely_migration where name = ${last}`.execute(k.db);
    try {
      const res = await k.call('GET', '/api/ready');
      expect(res.status).toBe(503);
      expect(res.body.code).toBe(50000);
      expect(res.body.msg).toBe(`未就绪：还有 1 个迁移未执行：${last}`);
      expect(res.body.data.checks.database.ok).toBe(true);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last}, ${row.rows[0]!.timestamp})`.execute(k.db);
    }
    await sql`insert into kysely_migration (name, timestamp) values ('999-from-the-future', ${row.rows[0]!.timestamp})`.execute(k.db);
    try {
      const res = await k.call('GET', '/api/ready');
      expect(res.status).toBe(503);
      expect(res.body.msg).toContain('数据库已被更新版本的 Kelvin 迁移（999-from-the-future）');
    } finally {
      await sql`delete from kysely_migration where name = '999-from-the-future'`.execute(k.db);
    }
    expect((await k.call('GET', '/api/ready')).status).toBe(200);
  });

  it('the broker down (embedded not listening, external not connected) and the database gone are named', async () => {
    expect(await readiness(k.db, hub('down', false))).toMatchObject({ ready: false, checks: { broker: { ok: false, detail: '内置 MQTT 服务未在监听' } } });
    expect(await readiness(k.db, hub('down', true))).toMatchObject({ ready: false, checks: { broker: { ok: false, detail: '外部 MQTT 服务器未连接' } } });
    expect(await readiness(k.db, hub('up', true))).toMatchObject({ ready: true, checks: { broker: { ok: true, detail: '已连接外部 MQTT 服务器' } } });
    expect(await readiness(k.db, null)).toMatchObject({ ready: true, checks: { broker: { ok: true, detail: '未启用' } } });

    // a database server that does not answer (nothing listens on port 1)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-ready-'));
    const gone = createDb({ dataDir: dir, databaseUrl: 'postgres://nobody@127.0.0.1:1/none' });
    try {
      expect(await readiness(gone, hub('up', false))).toEqual({
        ready: false,
        checks: {
          database: { ok: false, detail: '数据库无法连接' },
          migrations: { ok: false, detail: '数据库无法连接，无法检查迁移' },
          broker: { ok: true, detail: '内置 MQTT 服务正在监听端口 1' },
        },
      });
    } finally {
      await gone.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
