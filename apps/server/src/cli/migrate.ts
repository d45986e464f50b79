import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { syncMenus } from '../db/seed/menus.ts';

const config = loadConfig();
const { db, applied } = await openDatabase(config);
try {
  await syncMenus(db);
  console.log(applied.length ? `已执行迁移: ${applied.join(', ')}` : '数据库已是最新');
} finally {
  await db.destroy();
}
