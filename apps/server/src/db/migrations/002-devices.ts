import { sql, type Kysely } from 'kysely';
import { bigint, dialectOf, notNull, withId } from '../dialect.ts';

/** Devices, their latest state and history, commands, the device operation log and ingest counters. */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';

  await withId(db, db.schema.createTable('device'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('area_id', bigint)
    .addColumn('gateway_id', bigint)
    .addColumn('device_type', 'varchar(32)', notNull)
    // the MQTT client id and user name
    .addColumn('device_code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('device_name', 'varchar(64)', notNull)
    // sha256 hex of a random 32-byte secret: high entropy, so a fast hash is enough
    .addColumn('secret_hash', 'varchar(64)', notNull)
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .addColumn('last_report_at', bigint)
    // last_report_at + the type's heartbeat window: online ⇔ online_until > now (indexable, no per-type SQL)
    .addColumn('online_until', bigint)
    .addColumn('last_connect_at', bigint)
    // set while commands wait for the device; the next report or connect delivers them
    .addColumn('command_pending_at', bigint)
    .execute();
  await db.schema.createIndex('device_project_type').on('device').columns(['project_id', 'device_type']).execute();
  await db.schema.createIndex('device_tenant_type').on('device').columns(['tenant_id', 'device_type']).execute();
  await db.schema.createIndex('device_area').on('device').column('area_id').execute();
  await db.schema.createIndex('device_gateway').on('device').column('gateway_id').execute();

  await db.schema.createTable('device_state')
    .addColumn('device_id', bigint, notNull)
    .addColumn('field_code', 'varchar(16)', notNull)
    .addColumn('num', 'double precision')
    .addColumn('txt', 'varchar(64)')
    .addColumn('ts', bigint, notNull)
    .addPrimaryKeyConstraint('device_state_pk', ['device_id', 'field_code'])
    .execute();

  // PK (device, field, ts): a redelivered report inserts nothing (ON CONFLICT DO NOTHING)
  let history = db.schema.createTable('device_history')
    .addColumn('device_id', bigint, notNull)
    .addColumn('field_code', 'varchar(16)', notNull)
    .addColumn('ts', bigint, notNull)
    .addColumn('num', 'double precision')
    .addColumn('txt', 'varchar(64)')
    .addPrimaryKeyConstraint('device_history_pk', ['device_id', 'field_code', 'ts']);
  if (!postgres) history = history.modifyEnd(sql`without rowid`);
  await history.execute();

  await withId(db, db.schema.createTable('device_command'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addColumn('field_code', 'varchar(16)')
    .addColumn('value', 'varchar(64)')
    .addColumn('action', 'varchar(32)')
    // pending → sent → acked | rejected | expired
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('error', 'varchar(200)')
    .addColumn('user_id', bigint)
    .addColumn('username', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('sent_at', bigint)
    .addColumn('finished_at', bigint)
    .addColumn('expires_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('device_command_device_status').on('device_command').columns(['device_id', 'status']).execute();
  await db.schema.createIndex('device_command_status_expires').on('device_command').columns(['status', 'expires_at']).execute();

  await withId(db, db.schema.createTable('device_operation_log'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    // copied so the log still reads right after the device is renamed or deleted
    .addColumn('device_code', 'varchar(64)', notNull)
    .addColumn('device_name', 'varchar(64)', notNull)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('command_id', bigint)
    .addColumn('user_id', bigint)
    .addColumn('username', 'varchar(64)')
    .addColumn('operation', 'varchar(64)', notNull)
    .addColumn('detail', 'varchar(200)', notNull)
    .addColumn('result', 'varchar(32)', notNull)
    .addColumn('at', bigint, notNull)
    .execute();
  await db.schema.createIndex('device_oplog_tenant_at').on('device_operation_log').columns(['tenant_id', 'at']).execute();
  await db.schema.createIndex('device_oplog_device_at').on('device_operation_log').columns(['device_id', 'at']).execute();
  await db.schema.createIndex('device_oplog_command').on('device_operation_log').column('command_id').execute();

  // received / stored / malformed / refused … summed over every process
  await db.schema.createTable('ingest_counter')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();

  // a sample of refused messages (at most one per device and reason per minute) so an operator can see why
  await withId(db, db.schema.createTable('ingest_reject'))
    .addColumn('tenant_id', bigint)
    .addColumn('device_code', 'varchar(64)')
    .addColumn('topic', 'varchar(200)', notNull)
    .addColumn('reason', 'varchar(32)', notNull)
    .addColumn('detail', 'varchar(200)', notNull)
    .addColumn('at', bigint, notNull)
    .execute();
  await db.schema.createIndex('ingest_reject_at').on('ingest_reject').column('at').execute();
}
