import type { Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * Device management screens: server address change requests (dodifyDeviceIP_n), the MQTT address
 * installers load into devices (mqttSetting_n), and factory bench runs with their steps (test-equipment pages).
 */
export async function up(db: Kysely<any>): Promise<void> {
  // A request to point a device at another server. The registry has no such field, so nothing is sent: the
  // request is recorded and closed by a person (confirmed after the installer rewrote it, or cancelled).
  await withId(db, db.schema.createTable('device_address_change'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('device_id', bigint)
    // copied: the record must still read right after the device is renamed, replaced or deleted
    .addColumn('device_code', 'varchar(64)', notNull)
    .addColumn('device_name', 'varchar(64)', notNull)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('host', 'varchar(253)', notNull)
    .addColumn('port', 'integer', notNull)
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('remark', 'varchar(200)')
    .addColumn('requested_by', 'varchar(64)')
    .addColumn('requested_at', bigint, notNull)
    .addColumn('closed_by', 'varchar(64)')
    .addColumn('closed_at', bigint)
    .execute();
  await db.schema.createIndex('device_address_change_project').on('device_address_change').columns(['project_id', 'requested_at']).execute();

  await db.schema.createTable('project_mqtt_setting')
    .addColumn('project_id', bigint, (c) => c.primaryKey())
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('host', 'varchar(253)', notNull)
    .addColumn('port', 'integer', notNull)
    .addColumn('tls', 'integer', notNull)
    .addColumn('updated_by', 'varchar(64)')
    .addColumn('updated_at', bigint, notNull)
    .execute();

  await withId(db, db.schema.createTable('factory_test_run'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addColumn('device_code', 'varchar(64)', notNull)
    .addColumn('device_name', 'varchar(64)', notNull)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('bench', 'varchar(48)', notNull)
    // running → passed | failed | aborted
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('step_count', 'integer', notNull)
    .addColumn('passed', 'integer', notNull)
    .addColumn('failed', 'integer', notNull)
    .addColumn('step_timeout_s', 'integer', notNull)
    .addColumn('user_id', bigint)
    .addColumn('username', 'varchar(64)')
    .addColumn('started_at', bigint, notNull)
    .addColumn('finished_at', bigint)
    // moved on by the runner at every step: a run whose runner died stops being "running" when this goes stale
    .addColumn('heartbeat_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('factory_test_run_project').on('factory_test_run').columns(['project_id', 'started_at']).execute();
  await db.schema.createIndex('factory_test_run_device').on('factory_test_run').columns(['device_id', 'started_at']).execute();

  await db.schema.createTable('factory_test_step')
    .addColumn('run_id', bigint, notNull)
    .addColumn('seq', 'integer', notNull)
    .addColumn('kind', 'varchar(16)', notNull)
    .addColumn('label', 'varchar(200)', notNull)
    .addColumn('field_code', 'varchar(16)')
    // the written value, an action code, or the comma-separated fields a reading step expects
    .addColumn('value', 'varchar(200)')
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('message', 'varchar(200)')
    .addColumn('command_id', bigint)
    .addColumn('started_at', bigint)
    .addColumn('finished_at', bigint)
    .addPrimaryKeyConstraint('factory_test_step_pk', ['run_id', 'seq'])
    .execute();
}
