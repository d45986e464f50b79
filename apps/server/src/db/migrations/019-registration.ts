import type { Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * 入驻申请 (/reg): operator companies' applications and the SMS codes proving their phones; and the data
 * dictionary's per-tenant display names (the defaults are the registries in packages/contracts, never stored).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('registration_application'))
    .addColumn('company', 'varchar(60)', notNull)
    .addColumn('contact', 'varchar(30)', notNull)
    .addColumn('phone', 'varchar(20)', notNull)
    .addColumn('notes', 'varchar(300)')
    // pending → approving (the claim of one approval) → approved | rejected
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('ip', 'varchar(64)')
    .addColumn('reviewer_id', bigint)
    .addColumn('reviewer_name', 'varchar(64)')
    .addColumn('reviewed_at', bigint)
    .addColumn('reason', 'varchar(200)')
    .addColumn('tenant_id', bigint)
    .addColumn('tenant_code', 'varchar(32)')
    .addColumn('username', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('registration_application_status').on('registration_application').columns(['status', 'id']).execute();

  await withId(db, db.schema.createTable('registration_code'))
    .addColumn('phone', 'varchar(20)', notNull)
    .addColumn('ip', 'varchar(64)', notNull)
    .addColumn('code_hash', 'varchar(64)', notNull)
    .addColumn('tries', 'integer', notNull)
    .addColumn('created_at', bigint, notNull)
    .addColumn('expires_at', bigint, notNull)
    .addColumn('used_at', bigint)
    .execute();
  await db.schema.createIndex('registration_code_phone').on('registration_code').columns(['phone', 'created_at']).execute();
  await db.schema.createIndex('registration_code_ip').on('registration_code').columns(['ip', 'created_at']).execute();

  await withId(db, db.schema.createTable('dict_override'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('dict_code', 'varchar(64)', notNull)
    .addColumn('item_value', 'varchar(64)', notNull)
    .addColumn('label', 'varchar(40)', notNull)
    .addColumn('updated_by', 'varchar(64)')
    .addColumn('updated_at', bigint, notNull)
    .addUniqueConstraint('dict_override_item', ['tenant_id', 'dict_code', 'item_value'])
    .execute();
}
