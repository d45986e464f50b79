import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, SERVER_DIST } from '../../../../scripts/build-server.mjs';
import { openDatabase } from './index.ts';
import { reportLoad, seedMeter, startServerProcess, storedReportTs } from '../test/process.ts';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The compiled backup CLI (what `./kelvin backup|restore` runs) on a data dir: exit code and output. */
async function cli(dataDir: string, ...args: string[]) {
  try {
    const r = await run('node', [path.join(SERVER_DIST, 'backup.mjs'), ...args], { cwd: ROOT, env: { ...process.env, KELVIN_DATA_DIR: dataDir, DATABASE_URL: '' } });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

// SQLite only (PostgreSQL is backed up with pg_dump); the process tests run once, in the SQLite pass
describe.skipIf(process.env.DATABASE_URL?.startsWith('postgres'))('备份与恢复（SQLite）', () => {
  it('a backup taken under ingest load holds every report acknowledged before it began; restore is refused while the server runs, then replaces the database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-backup-'));
    dirs.push(dataDir);
    const file = path.join(dataDir, '..', `${path.basename(dataDir)}.backup.db`);
    dirs.push(file);
    const meter = await seedMeter(dataDir);
    const server = await startServerProcess({ dataDir });
    const load = await reportLoad(server.mqttUrl, meter);
    await load.until(500);

    // everything acknowledged so far was committed before the backup starts; the load goes on during it
    const before = [...load.acked];
    const backup = await cli(dataDir, 'backup', file);
    expect(backup.out).toMatch(/^已备份到 .*kelvin-backup-.*\.backup\.db/);
    expect(backup.code).toBe(0);
    // one self-contained file, nothing beside it
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.startsWith(path.basename(file)))).toEqual([path.basename(file)]);
    const duringAndAfter = load.acked.length;
    await load.until(duringAndAfter + 300);

    const refused = await cli(dataDir, 'restore', file);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('的数据库正被运行中的 Kelvin 服务使用：请先停止服务');
    expect(await cli(dataDir, 'backup', file)).toMatchObject({ code: 1, out: expect.stringContaining('已存在，请换一个文件名') });

    await load.stop();
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    const allAcked = load.acked.length;

    const restored = await cli(dataDir, 'restore', file);
    expect(restored.out).toMatch(/^已从 .* 恢复数据库（\d+ 个迁移）；原数据库保留为 .*kelvin\.db\.before-restore-/);
    expect(restored.code).toBe(0);

    const { db } = await openDatabase({ dataDir });
    try {
      const stored = await storedReportTs(db, meter.deviceId);
      const lost = before.filter((ts) => !stored.has(ts));
      expect(lost, `${lost.length} of ${before.length} reports acknowledged before the backup are missing`).toEqual([]);
      // the restored database is the backup's: reports acknowledged after it are not there
      expect(stored.size).toBeLessThan(allAcked);
      console.log(`备份前已确认 ${before.length} 条，全部在恢复后的数据库中；恢复后共 ${stored.size} 条（停止前共确认 ${allAcked} 条）`);
    } finally {
      await db.destroy();
    }

    // a server starts on the restored database and is ready
    const again = await startServerProcess({ dataDir });
    expect((await fetch(`${again.url}/api/ready`)).status).toBe(200);
    expect(await again.stop()).toEqual({ code: 0, signal: null });
  });

  it('refuses a file that is not a Kelvin database, and PostgreSQL installations are pointed at pg_dump', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-backup-'));
    dirs.push(dataDir);
    const junk = path.join(dataDir, 'junk.db');
    fs.writeFileSync(junk, 'not a database at all, just some text that is long enough to look like a header…'.repeat(100));
    expect(await cli(dataDir, 'restore', junk)).toMatchObject({ code: 1, out: expect.stringContaining('已损坏或不是数据库文件') });
    expect(await cli(dataDir, 'restore', path.join(dataDir, 'missing.db'))).toMatchObject({ code: 1, out: expect.stringContaining('不存在') });
    expect(fs.existsSync(path.join(dataDir, 'kelvin.db'))).toBe(false);
    const pg = await run('node', [path.join(SERVER_DIST, 'backup.mjs'), 'backup'], { cwd: ROOT, env: { ...process.env, KELVIN_DATA_DIR: dataDir, DATABASE_URL: 'postgres://x@127.0.0.1:1/y' } }).catch((e) => e);
    expect(pg.code).toBe(1);
    expect(pg.stderr).toContain('请用 pg_dump / pg_restore 备份与恢复');
  });
});
