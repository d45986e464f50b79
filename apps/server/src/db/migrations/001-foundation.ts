import { sql, type Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('tenant'))
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('contact', 'varchar(100)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('brand', 'varchar(100)')
    .addColumn('filing_no', 'varchar(100)')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', bigint, notNull)
    .execute();

  await withId(db, db.schema.createTable('app_user'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', notNull)
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('phone', 'varchar(32)')
    .addColumn('description', 'varchar(500)')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('all_projects', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_platform', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('app_user_tenant').on('app_user').column('tenant_id').execute();

  await withId(db, db.schema.createTable('role'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('parent_id', bigint)
    .addColumn('code', 'varchar(64)', notNull)
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('group_type', 'varchar(32)', notNull)
    .addColumn('description', 'varchar(500)')
    .addColumn('created_at', bigint, notNull)
    .addUniqueConstraint('role_tenant_code', ['tenant_id', 'code'])
    .execute();

  await db.schema.createTable('role_grant')
    .addColumn('role_id', bigint, notNull)
    .addColumn('code', 'varchar(128)', notNull)
    .addPrimaryKeyConstraint('role_grant_pk', ['role_id', 'code'])
    .execute();
  await db.schema.createTable('user_role')
    .addColumn('user_id', bigint, notNull)
    .addColumn('role_id', bigint, notNull)
    .addPrimaryKeyConstraint('user_role_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema.createTable('user_project')
    .addColumn('user_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addPrimaryKeyConstraint('user_project_pk', ['user_id', 'project_id'])
    .execute();

  await withId(db, db.schema.createTable('menu'))
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('title', 'varchar(100)', notNull)
    .addColumn('icon', 'varchar(64)')
    .addColumn('parent_code', 'varchar(64)')
    .addColumn('type', 'varchar(16)', notNull)
    .addColumn('path', 'varchar(200)', notNull)
    .addColumn('href', 'varchar(500)')
    .addColumn('order_no', 'integer', notNull)
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable('menu_element'))
    .addColumn('menu_code', 'varchar(64)', notNull)
    .addColumn('code', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(32)', notNull)
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('uri', 'varchar(200)')
    .addColumn('method', 'varchar(10)')
    .execute();

  await db.schema.createTable('session')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', bigint, notNull)
    .addColumn('created_at', bigint, notNull)
    .addColumn('expires_at', bigint, notNull)
    .addColumn('revoked_at', bigint)
    .execute();
  await db.schema.createIndex('session_user').on('session').column('user_id').execute();

  await withId(db, db.schema.createTable('login_attempt'))
    .addColumn('scope', 'varchar(16)', notNull)
    .addColumn('key', 'varchar(128)', notNull)
    .addColumn('at', bigint, notNull)
    .execute();
  await db.schema.createIndex('login_attempt_key').on('login_attempt').columns(['scope', 'key', 'at']).execute();

  await withId(db, db.schema.createTable('gate_log'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('user_id', bigint)
    .addColumn('username', 'varchar(64)')
    .addColumn('menu_code', 'varchar(64)')
    .addColumn('operation', 'varchar(200)', notNull)
    .addColumn('method', 'varchar(10)', notNull)
    .addColumn('uri', 'varchar(500)', notNull)
    .addColumn('host', 'varchar(64)')
    .addColumn('status', 'integer', notNull)
    .addColumn('at', bigint, notNull)
    .execute();
  await db.schema.createIndex('gate_log_tenant_at').on('gate_log').columns(['tenant_id', 'at']).execute();

  await withId(db, db.schema.createTable('area'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('parent_id', bigint)
    .addColumn('level', 'varchar(16)', notNull)
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('code', 'varchar(64)')
    .addColumn('sort_no', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('floor_area', 'double precision')
    .addColumn('project_type', 'varchar(16)')
    .addColumn('project_type2', 'integer')
    .addColumn('billing_scheme', 'integer')
    .addColumn('address', 'varchar(200)')
    .addColumn('lng', 'double precision')
    .addColumn('lat', 'double precision')
    .addColumn('alias', 'varchar(100)')
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('area_tenant_parent').on('area').columns(['tenant_id', 'parent_id']).execute();

  await db.schema.createTable('secret')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'varchar(500)', notNull)
    .execute();
  void sql;
}
