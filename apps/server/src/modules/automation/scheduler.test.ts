import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildKelvin, type Kelvin } from '../../app.ts';
import { loadConfig, type KelvinConfig } from '../../config.ts';
import { dropSchema, type Db } from '../../db/index.ts';
import { createTenantWithProject, type TestClient } from '../../test/harness.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';

/**
 * Exactly once across restarts and processes: whole servers on one database (a SQLite file, or one PostgreSQL schema),
 * built in sequence (a restart in the middle of a due minute) or side by side (two processes on PostgreSQL).
 */

const cst = (s: string) => Date.parse(`${s}+08:00`);
const postgres = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-sched-'));
// not kelvin_test_*: closing one server must not drop the schema the next one opens
const schema = postgres ? `kelvin_sched_${crypto.randomBytes(6).toString('hex')}` : undefined;
const config: KelvinConfig = {
  ...loadConfig({}), dataDir, databaseUrl: postgres, databaseSchema: schema, adminPassword: 'Platform#Admin2026',
  mqttEnabled: false, mqttPort: 0, demo: false, logLevel: 'silent', webDist: path.join(dataDir, 'no-web'),
};
let t = 0;
const clock = { now: () => t };
const server = () => buildKelvin(config, { clock, scheduler: false });

afterAll(async () => {
  if (postgres && schema) await dropSchema(postgres, schema);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** `n` one-off tasks, each writing to its own new device, due at `runAt`. */
async function onceTasks(db: Db, fixture: { tenantId: number; projectId: number }, n: number, runAt: number, createdAt: number) {
  const ids: { task: number; device: number }[] = [];
  for (let i = 0; i < n; i++) {
    const dev = await createTestDevice({ db } as TestClient, { tenantId: fixture.tenantId, projectId: fixture.projectId, type: 'device20020' });
    const row = await db.insertInto('automation_task').values({
      tenant_id: fixture.tenantId, project_id: fixture.projectId, name: `任务${i}`, kind: 'once', device_type: 'device20020', device_ids: JSON.stringify([dev.id]),
      group_ids: '[]', area_ids: '[]', writes: JSON.stringify([{ fieldCode: 'f04', value: 20 + (i % 5) }]), run_at: runAt, rule: null, skip_holidays: 0, at: null,
      holiday_type: null, condition: null, cooldown_minutes: null, program_id: null, missed_policy: 'late', enabled: 1, remark: null, cursor_at: createdAt,
      updated_by: 'test', created_at: createdAt, updated_at: createdAt,
    }).returning('id').executeTakeFirstOrThrow();
    ids.push({ task: row.id, device: dev.id });
  }
  return ids;
}

async function tally(db: Db, list: { task: number; device: number }[]) {
  const runs = await db.selectFrom('automation_run').select(['task_id', 'status', 'trigger']).where('task_id', 'in', list.map((x) => x.task)).execute();
  const commands = await db.selectFrom('device_command').select(['device_id']).where('device_id', 'in', list.map((x) => x.device)).execute();
  const perTask = new Map<number, number>();
  for (const r of runs) perTask.set(r.task_id!, (perTask.get(r.task_id!) ?? 0) + 1);
  const perDevice = new Map<number, number>();
  for (const c of commands) perDevice.set(c.device_id, (perDevice.get(c.device_id) ?? 0) + 1);
  return { runs, perTask, perDevice };
}

describe('恰好一次', () => {
  it('a restart in the middle of a due minute: nothing doubled, nothing lost (a claim left half-issued is taken over)', async () => {
    const T = cst('2026-11-24T07:30:00');
    t = T - 10 * 60_000;
    let k: Kelvin = await server();
    const fx = await createTenantWithProject(k.db, 'schedr', []);
    const first = await onceTasks(k.db, fx, 15, T, t);
    const second = await onceTasks(k.db, fx, 15, T + 30_000, t);
    // one more due at T, claimed by a process that died before issuing anything
    const [orphan] = await onceTasks(k.db, fx, 1, T, t);
    await k.db.insertInto('automation_run').values({
      tenant_id: fx.tenantId, project_id: fx.projectId, task_id: orphan!.task, program_id: null, source: `t:${orphan!.task}`, scheduled_at: T,
      trigger: 'schedule', status: 'running', retry_of: null, issuing_since: T, started_at: T, finished_at: null, created_at: T,
    }).execute();

    t = T;
    await k.automation.scheduler.tick();
    t = T + 10_000;
    await k.automation.scheduler.tick();
    let seen = await tally(k.db, [...first, ...second, orphan!]);
    expect(first.every((x) => seen.perTask.get(x.task) === 1 && seen.perDevice.get(x.device) === 1)).toBe(true);
    expect(second.every((x) => !seen.perTask.has(x.task))).toBe(true);
    expect(seen.perDevice.get(orphan!.device)).toBeUndefined(); // its lease (30 s) has not passed
    await k.close();

    // the next process starts 45 s into the minute, on the same database
    t = T + 45_000;
    k = await server();
    await k.automation.scheduler.tick();
    t = T + 50_000;
    await k.automation.scheduler.tick();
    t = T + 70_000;
    await k.automation.scheduler.tick();
    seen = await tally(k.db, [...first, ...second, orphan!]);
    for (const x of [...first, ...second, orphan!]) {
      expect(seen.perTask.get(x.task), `runs of task ${x.task}`).toBe(1);
      expect(seen.perDevice.get(x.device), `commands to device ${x.device}`).toBe(1);
    }
    // found 15 s late: still on time (late means more than a minute), so run, not missed
    expect(seen.runs.every((r) => r.trigger === 'schedule' && r.status === 'running')).toBe(true);
    await k.close();
  });

  it.skipIf(!postgres)('two server processes on one PostgreSQL schema fire each occurrence once', async () => {
    const T = cst('2026-11-25T08:00:00');
    t = T - 60_000;
    const k1 = await server();
    const k2 = await server();
    try {
      const fx = await createTenantWithProject(k1.db, 'schedp', []);
      const list = await onceTasks(k1.db, fx, 120, T, t);
      t = T;
      await Promise.all([k1.automation.scheduler.tick(), k2.automation.scheduler.tick()]);
      await Promise.all([k1.automation.scheduler.tick(), k2.automation.scheduler.tick()]);
      const seen = await tally(k1.db, list);
      for (const x of list) {
        expect(seen.perTask.get(x.task), `runs of task ${x.task}`).toBe(1);
        expect(seen.perDevice.get(x.device), `commands to device ${x.device}`).toBe(1);
      }
      expect(seen.runs).toHaveLength(120);
    } finally {
      await k1.close();
      await k2.close();
    }
  });
});
