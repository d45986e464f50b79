import { sql, type Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * Monitoring, second part: rules get a range (`outside`: threshold … threshold_high) and "N reports in a row"; and
 * exception data — implausible readings (a meter running backwards, an impossible jump, a frozen value, a sensor
 * reading outside its range) with the reading, handled by an operator with a note.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitor_rule').addColumn('threshold_high', 'double precision').execute();
  await db.schema.alterTable('monitor_rule').addColumn('for_reports', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await withId(db, db.schema.createTable('exception_data'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    // copied: the record must still read right after the device is renamed or deleted
    .addColumn('device_code', 'varchar(64)', notNull)
    .addColumn('device_name', 'varchar(64)', notNull)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('field_code', 'varchar(16)', notNull)
    .addColumn('kind', 'varchar(16)', notNull)
    .addColumn('value', 'varchar(64)', notNull)
    .addColumn('previous', 'varchar(64)')
    .addColumn('description', 'varchar(200)', notNull)
    .addColumn('reading_at', bigint, notNull)
    .addColumn('handled', 'integer', notNull)
    .addColumn('handled_by', 'varchar(64)')
    .addColumn('handled_at', bigint)
    .addColumn('note', 'varchar(200)')
    .addColumn('created_at', bigint, notNull)
    .execute();
  // one open record per device, field and kind: a meter that keeps running backwards is one record until handled
  await sql`create unique index exception_data_one_open on exception_data (device_id, field_code, kind) where handled = 0`.execute(db);
  await db.schema.createIndex('exception_data_project').on('exception_data').columns(['project_id', 'handled', 'id']).execute();
}
