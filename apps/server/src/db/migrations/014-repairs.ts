import type { Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * 维修记录 (repairRecord): repair work orders of a project (a device or a location, assignee, state, result), their
 * photos (stored under the data dir by a random name, like project files) and the timeline of who did what.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('repair_record'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('device_id', bigint)
    // the device's name and code when it was reported (the device may be renamed, replaced or deleted later)
    .addColumn('device_name', 'varchar(64)')
    .addColumn('device_code', 'varchar(64)')
    .addColumn('location', 'varchar(200)')
    .addColumn('fault', 'varchar(500)', notNull)
    .addColumn('reporter', 'varchar(60)', notNull)
    .addColumn('phone', 'varchar(20)')
    .addColumn('priority', 'varchar(8)', notNull)
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('assignee_id', bigint)
    .addColumn('assignee_name', 'varchar(64)')
    .addColumn('result', 'varchar(500)')
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .addColumn('finished_at', bigint)
    .execute();
  await db.schema.createIndex('repair_record_project').on('repair_record').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('repair_record_tenant').on('repair_record').columns(['tenant_id', 'id']).execute();

  await withId(db, db.schema.createTable('repair_photo'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('repair_id', bigint, notNull)
    .addColumn('name', 'varchar(255)', notNull)
    .addColumn('stored_name', 'varchar(64)', notNull)
    .addColumn('size', bigint, notNull)
    .addColumn('mime', 'varchar(100)', notNull)
    .addColumn('uploaded_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('repair_photo_repair').on('repair_photo').columns(['repair_id', 'id']).execute();

  await withId(db, db.schema.createTable('repair_event'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('repair_id', bigint, notNull)
    .addColumn('action', 'varchar(16)', notNull)
    .addColumn('from_status', 'varchar(16)')
    .addColumn('to_status', 'varchar(16)')
    .addColumn('note', 'varchar(500)')
    .addColumn('actor_id', bigint)
    .addColumn('actor_name', 'varchar(64)')
    .addColumn('at', bigint, notNull)
    .execute();
  await db.schema.createIndex('repair_event_repair').on('repair_event').columns(['repair_id', 'id']).execute();
}
