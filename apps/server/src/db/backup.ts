import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { MIGRATION_NAMES, sqliteFileOf } from './index.ts';

/** Where `./kelvin backup` writes when no file is named: backups/kelvin-20261126-143000.db under the data dir. */
export function defaultBackupFile(dataDir: string, now = new Date()) {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return path.join(dataDir, 'backups', `kelvin-${stamp}.db`);
}

/**
 * Online backup of the SQLite database of a data dir (better-sqlite3's `.backup()`, SQLite's backup API) while a
 * server may be writing to it. The backup API restarts when another connection writes between two of its steps; under
 * ingest load (a batch every 50 ms) small steps would restart for ever, so after the first step the whole rest is
 * copied in one step, inside one read transaction: the file holds exactly what was committed when that step began
 * (WAL: the writers go on meanwhile).
 */
export async function backupSqlite(dataDir: string, file: string): Promise<{ file: string; bytes: number; pages: number }> {
  const source = sqliteFileOf(dataDir);
  if (!fs.existsSync(source)) throw new Error(`数据目录 ${dataDir} 中没有数据库文件 kelvin.db`);
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new Error(`备份文件 ${target} 已存在，请换一个文件名`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  const db = new SQLite(source, { fileMustExist: true, timeout: 5000 });
  try {
    const r = await db.backup(partial, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
    // the copy carries the source's WAL mode: made one self-contained file (no -wal/-shm beside it)
    const copy = new SQLite(partial, { fileMustExist: true });
    copy.pragma('journal_mode = DELETE');
    copy.close();
    // the copy is checked before it gets its name: a backup that cannot be restored is no backup
    checkDatabaseFile(partial);
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, pages: r.totalPages };
  } catch (err) {
    for (const side of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${partial}${side}`, { force: true });
    throw err;
  } finally {
    db.close();
  }
}

/** Refuses a file that is not a sound Kelvin database of this version or an older one (migrations only move forward). */
function checkDatabaseFile(file: string): { migrations: number } {
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new Error(`无法打开 ${file}：${err instanceof Error ? err.message : err}`);
  }
  try {
    let check: unknown;
    try {
      check = db.pragma('quick_check', { simple: true });
    } catch {
      check = '不是 SQLite 数据库';
    }
    if (check !== 'ok') throw new Error(`${file} 已损坏或不是数据库文件（${String(check)}）`);
    const hasMigrations = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
    if (!hasMigrations) throw new Error(`${file} 不是 Kelvin 的数据库（没有迁移记录）`);
    const names = (db.prepare('SELECT name FROM kysely_migration').all() as { name: string }[]).map((r) => r.name);
    const unknown = names.filter((n) => !MIGRATION_NAMES.includes(n));
    if (unknown.length) throw new Error(`${file} 来自更新版本的 Kelvin（迁移 ${unknown.join('、')} 本版本没有），请先升级 Kelvin 再恢复`);
    return { migrations: names.length };
  } finally {
    db.close();
  }
}

/**
 * Replaces the data dir's database with a backup. Refused while a server holds the database: switching its journal
 * mode out of WAL needs every other connection closed (SQLite says SQLITE_BUSY otherwise), so the attempt is the check
 * — it also holds across processes and containers sharing the dir. The replaced file is kept beside it
 * (kelvin.db.before-restore-…); the next start migrates the restored database forward when it is older.
 */
export function restoreSqlite(dataDir: string, file: string, now = new Date()): { replaced: string | null; migrations: number } {
  const backup = path.resolve(file);
  if (!fs.existsSync(backup)) throw new Error(`备份文件 ${backup} 不存在`);
  const { migrations } = checkDatabaseFile(backup);
  const target = sqliteFileOf(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const incoming = `${target}.restoring`;
  fs.copyFileSync(backup, incoming);
  let current: SQLite.Database | null = null;
  try {
    if (fs.existsSync(target)) {
      current = new SQLite(target, { fileMustExist: true, timeout: 200 });
      try {
        current.pragma('journal_mode = DELETE');
        // and held until the swap: a server starting meanwhile waits on it
        current.prepare('BEGIN EXCLUSIVE').run();
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_BUSY' || (err as { code?: string }).code === 'SQLITE_LOCKED') {
          throw new Error(`数据目录 ${dataDir} 的数据库正被运行中的 Kelvin 服务使用：请先停止服务（如 systemctl stop kelvin 或 Ctrl+C），再恢复`);
        }
        throw err;
      }
    }
    let replaced: string | null = null;
    if (fs.existsSync(target)) {
      replaced = `${target}.before-restore-${now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}`;
      fs.copyFileSync(target, replaced);
    }
    for (const side of ['-wal', '-shm', '-journal']) fs.rmSync(`${target}${side}`, { force: true });
    fs.renameSync(incoming, target);
    return { replaced, migrations };
  } finally {
    current?.close();
    fs.rmSync(incoming, { force: true });
  }
}
