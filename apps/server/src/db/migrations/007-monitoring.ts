import { sql, type Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/** Monitoring rules on device fields (or on silence) and the alarms they raise (monitor messages). */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('monitor_rule'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('name', 'varchar(40)', notNull)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('field_code', 'varchar(16)', notNull)
    .addColumn('operator', 'varchar(8)', notNull)
    .addColumn('threshold', 'double precision', notNull)
    .addColumn('for_seconds', 'integer', notNull)
    .addColumn('severity', 'varchar(8)', notNull)
    .addColumn('notify_sms', 'integer', notNull)
    .addColumn('enabled', 'integer', notNull)
    .addColumn('active_from', 'varchar(5)')
    .addColumn('active_to', 'varchar(5)')
    .addColumn('updated_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('monitor_rule_project').on('monitor_rule').columns(['project_id', 'device_type']).execute();

  await withId(db, db.schema.createTable('monitor_message'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('rule_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    // copied: the message must still read right after the device or the rule is renamed or deleted
    .addColumn('device_code', 'varchar(64)', notNull)
    .addColumn('device_name', 'varchar(64)', notNull)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('rule_name', 'varchar(40)', notNull)
    .addColumn('field_code', 'varchar(16)', notNull)
    .addColumn('description', 'varchar(200)', notNull)
    .addColumn('value', 'varchar(64)', notNull)
    .addColumn('severity', 'varchar(8)', notNull)
    .addColumn('status', 'varchar(8)', notNull)
    .addColumn('read', 'integer', notNull)
    .addColumn('read_by', 'varchar(64)')
    .addColumn('read_at', bigint)
    .addColumn('comment', 'varchar(200)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('cleared_at', bigint)
    .execute();
  // one open alarm per rule and device, whichever process raises it
  await sql`create unique index monitor_message_one_active on monitor_message (rule_id, device_id) where status = 'active'`.execute(db);
  await db.schema.createIndex('monitor_message_project').on('monitor_message').columns(['project_id', 'read', 'id']).execute();
  await db.schema.createIndex('monitor_message_project_status').on('monitor_message').columns(['project_id', 'status', 'id']).execute();
}
