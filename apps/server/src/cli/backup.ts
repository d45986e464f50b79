// `./kelvin backup [FILE]` and `./kelvin restore FILE` (SQLite; PostgreSQL has pg_dump/pg_restore, README).
import { loadConfig } from '../config.ts';
import { backupSqlite, defaultBackupFile, restoreSqlite } from '../db/backup.ts';

const [command, file] = process.argv.slice(2);
const usage = '用法: ./kelvin backup [备份文件]  |  ./kelvin restore 备份文件';

try {
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new Error('当前使用 PostgreSQL（DATABASE_URL）：请用 pg_dump / pg_restore 备份与恢复，命令见 README 的「备份与恢复」');
  }
  if (command === 'backup') {
    const started = Date.now();
    const r = await backupSqlite(config.dataDir, file ?? defaultBackupFile(config.dataDir));
    console.log(`已备份到 ${r.file}（${(r.bytes / 2 ** 20).toFixed(1)} MB，${r.pages} 页，用时 ${Date.now() - started} ms）`);
  } else if (command === 'restore') {
    if (!file) throw new Error(usage);
    const r = restoreSqlite(config.dataDir, file);
    console.log(`已从 ${file} 恢复数据库（${r.migrations} 个迁移）${r.replaced ? `；原数据库保留为 ${r.replaced}` : ''}。下次启动时自动迁移到当前版本。`);
  } else {
    throw new Error(usage);
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
