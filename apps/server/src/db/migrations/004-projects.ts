import type { Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/** Projects and areas: project contact details, project files; device groups, replacement records, stock and SIM cards. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('area').addColumn('contact', 'varchar(50)').execute();
  await db.schema.alterTable('area').addColumn('phone', 'varchar(32)').execute();
  await db.schema.alterTable('area').addColumn('remark', 'varchar(500)').execute();
  // Child counts, deletes, moves and imports look areas up by parent.
  await db.schema.createIndex('area_parent_name').on('area').columns(['parent_id', 'name']).execute();

  await withId(db, db.schema.createTable('project_file'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('name', 'varchar(255)', notNull)
    /** random name of the stored copy under the data dir; never derived from user input */
    .addColumn('stored_name', 'varchar(100)', notNull)
    .addColumn('size', bigint, notNull)
    .addColumn('mime', 'varchar(100)', notNull)
    .addColumn('uploaded_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('project_file_project').on('project_file').columns(['tenant_id', 'project_id']).execute();

  await withId(db, db.schema.createTable('device_group'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('name', 'varchar(50)', notNull)
    .addColumn('remark', 'varchar(200)')
    .addColumn('created_at', bigint, notNull)
    .addUniqueConstraint('device_group_project_name', ['project_id', 'name'])
    .execute();
  await db.schema.createTable('device_group_member')
    .addColumn('group_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addPrimaryKeyConstraint('device_group_member_pk', ['group_id', 'device_id'])
    .execute();
  await db.schema.createIndex('device_group_member_device').on('device_group_member').column('device_id').execute();

  // deviceBindRecord: every replacement, move and spare of a device, append-only (codes copied: devices change)
  await withId(db, db.schema.createTable('device_bind_record'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('device_id', bigint)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('action', 'varchar(16)', notNull)
    .addColumn('old_device_code', 'varchar(64)')
    .addColumn('new_device_code', 'varchar(64)')
    .addColumn('from_area_id', bigint)
    .addColumn('to_area_id', bigint)
    .addColumn('area_path', 'varchar(200)')
    .addColumn('detail', 'varchar(200)', notNull)
    .addColumn('user_id', bigint)
    .addColumn('username', 'varchar(64)')
    .addColumn('at', bigint, notNull)
    .execute();
  await db.schema.createIndex('device_bind_record_project_at').on('device_bind_record').columns(['project_id', 'at']).execute();

  // deviceStorage: devices a project keeps in stock (not installed, or taken out as spares)
  await withId(db, db.schema.createTable('device_stock'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('device_code', 'varchar(64)', notNull)
    .addColumn('device_name', 'varchar(64)', notNull)
    .addColumn('remark', 'varchar(200)')
    .addColumn('stocked_at', bigint, notNull)
    .addUniqueConstraint('device_stock_code', ['tenant_id', 'device_code'])
    .execute();
  await db.schema.createIndex('device_stock_project').on('device_stock').columns(['project_id', 'stocked_at']).execute();

  // deviceCardInfoList: the SIM card of a 4G device (by device code, so a stocked device can carry one too)
  await withId(db, db.schema.createTable('device_card'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('device_code', 'varchar(64)', notNull)
    .addColumn('iccid', 'varchar(32)', notNull)
    .addColumn('carrier', 'varchar(16)', notNull)
    .addColumn('activated_at', bigint)
    // end of the paid data package; packageLimitDays counts down to it
    .addColumn('package_end', bigint)
    .addColumn('data_limit_mb', 'double precision')
    .addColumn('data_used_mb', 'double precision')
    .addColumn('updated_at', bigint, notNull)
    .addUniqueConstraint('device_card_code', ['tenant_id', 'device_code'])
    .addUniqueConstraint('device_card_iccid', ['tenant_id', 'iccid'])
    .execute();
}
