import { sql, type Kysely } from 'kysely';
import { bigint, dialectOf, notNull } from '../dialect.ts';

/**
 * device_history keyed (device, ts, field) instead of (device, field, ts). The key set, and with it idempotency,
 * is the same; the order is what changes. A report of three fields now lands in one place of the B-tree instead of
 * three, so a batch dirties a third of the pages: measured on SQLite (1,000 devices, 10,000 reports/s of 3 fields),
 * the writer needs 8 s of CPU per 30 s of load instead of 20 s. Reads stay on the key prefix: every history query
 * asks for one device (or a set of them) over a time range and several fields at once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await db.schema.alterTable('device_history').dropConstraint('device_history_pk').execute();
    await db.schema.alterTable('device_history').addPrimaryKeyConstraint('device_history_pk', ['device_id', 'ts', 'field_code']).execute();
    return;
  }
  // SQLite cannot change a primary key in place: copy into a table of the new shape
  await db.schema.createTable('device_history_new')
    .addColumn('device_id', bigint, notNull)
    .addColumn('field_code', 'varchar(16)', notNull)
    .addColumn('ts', bigint, notNull)
    .addColumn('num', 'double precision')
    .addColumn('txt', 'varchar(64)')
    .addPrimaryKeyConstraint('device_history_pk', ['device_id', 'ts', 'field_code'])
    .modifyEnd(sql`without rowid`)
    .execute();
  await sql`INSERT INTO device_history_new (device_id, field_code, ts, num, txt) SELECT device_id, field_code, ts, num, txt FROM device_history`.execute(db);
  await db.schema.dropTable('device_history').execute();
  await db.schema.alterTable('device_history_new').renameTo('device_history').execute();
}
