import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { notifyFunctionSql, WATCHED_TABLES } from '../table-changes.ts';

/**
 * Performance at size. Indexes that answer the console's lists from the index alone at any page depth: a project's
 * devices in code order with the columns the filters test (type, online, keyword), and the logs newest first within a
 * tenant or project and a time range (the id breaks ties, so a page never needs a sort of the whole range).
 * On PostgreSQL a statement trigger on each table whose rows in-memory caches hold (sessions,
 * users, roles, grants, menus, areas) announces a committed write to every process (db/table-changes.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('device_project_code').on('device')
    .columns(['project_id', 'device_code', 'tenant_id', 'device_type', 'online_until', 'device_name']).execute();
  // the project list: a tenant's projects among its tens of thousands of buildings, floors and rooms
  await db.schema.createIndex('area_level_tenant').on('area').columns(['level', 'tenant_id']).execute();
  await db.schema.dropIndex('device_oplog_tenant_at').execute();
  await db.schema.createIndex('device_oplog_tenant_at_id').on('device_operation_log').columns(['tenant_id', 'at', 'id']).execute();
  await db.schema.createIndex('device_oplog_project_at').on('device_operation_log').columns(['tenant_id', 'project_id', 'at', 'id']).execute();
  await db.schema.dropIndex('gate_log_tenant_at').execute();
  await db.schema.createIndex('gate_log_tenant_at_id').on('gate_log').columns(['tenant_id', 'at', 'id']).execute();
  await db.schema.createIndex('gate_log_at_id').on('gate_log').columns(['at', 'id']).execute();
  if (dialectOf(db) === 'postgres') {
    await notifyFunctionSql.execute(db);
    for (const table of WATCHED_TABLES) {
      // the ingest moves a device's report time and online window many times a second: not what caches hold
      const update = table === 'device' ? 'UPDATE OF tenant_id, project_id, area_id, gateway_id, device_type, device_code, device_name, enabled' : 'UPDATE';
      await sql.raw(`CREATE TRIGGER ${table}_notify_change AFTER INSERT OR ${update} OR DELETE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION kelvin_notify_change()`).execute(db);
    }
  }
}
