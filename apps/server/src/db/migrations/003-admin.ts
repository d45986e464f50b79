import type { Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/** Administration and system settings: group types, leaders, tenant logo, SMS, system parameters, holidays. */
export async function up(db: Kysely<any>): Promise<void> {
  // Group types of tenant 0 with builtin = 1 are shared by every tenant; tenants add their own.
  await withId(db, db.schema.createTable('group_type'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('code', 'varchar(32)', notNull)
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('description', 'varchar(500)')
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', bigint, notNull)
    .addUniqueConstraint('group_type_tenant_code', ['tenant_id', 'code'])
    .execute();
  const now = Date.now();
  await db.insertInto('group_type').values([
    { tenant_id: 0, code: 'role', name: '角色', description: '按职能授予菜单与按钮权限', builtin: 1, created_at: now },
    { tenant_id: 0, code: 'department', name: '部门', description: '按组织架构分组', builtin: 1, created_at: now },
    { tenant_id: 0, code: 'free', name: '自定义组', description: '临时或跨部门的分组', builtin: 1, created_at: now },
  ]).execute();

  await db.schema.alterTable('user_role').addColumn('leader', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('user_role_role').on('user_role').column('role_id').execute();
  await db.schema.alterTable('tenant').addColumn('logo', 'text').execute();

  await withId(db, db.schema.createTable('sms_template'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('kind', 'varchar(32)', notNull)
    .addColumn('name', 'varchar(50)', notNull)
    .addColumn('content', 'varchar(500)', notNull)
    .addColumn('external_code', 'varchar(64)')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', bigint, notNull)
    .addUniqueConstraint('sms_template_tenant_kind', ['tenant_id', 'kind'])
    .execute();

  await db.schema.createTable('sms_setting')
    .addColumn('tenant_id', bigint, (c) => c.primaryKey())
    .addColumn('sign_name', 'varchar(20)', notNull)
    .addColumn('enabled', 'integer', notNull)
    .addColumn('low_balance', 'integer', notNull)
    .addColumn('alarm', 'integer', notNull)
    .addColumn('cut_off', 'integer', notNull)
    .addColumn('alarm_phones', 'varchar(500)', notNull)
    .addColumn('daily_limit', 'integer', notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();

  await withId(db, db.schema.createTable('sms_record'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint)
    .addColumn('kind', 'varchar(32)', notNull)
    .addColumn('phone', 'varchar(20)', notNull)
    .addColumn('sign_name', 'varchar(20)')
    .addColumn('content', 'varchar(600)', notNull)
    .addColumn('provider', 'varchar(32)', notNull)
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('error', 'varchar(300)')
    .addColumn('provider_msg_id', 'varchar(100)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('sent_at', bigint)
    .execute();
  await db.schema.createIndex('sms_record_tenant_created').on('sms_record').columns(['tenant_id', 'created_at']).execute();

  await db.schema.createTable('system_param')
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('key', 'varchar(64)', notNull)
    .addColumn('value', 'varchar(500)', notNull)
    .addColumn('updated_at', bigint, notNull)
    .addPrimaryKeyConstraint('system_param_pk', ['tenant_id', 'key'])
    .execute();

  // project_id 0 = every project of the tenant (a real 0 keeps the unique key working on both dialects).
  await withId(db, db.schema.createTable('holiday'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('date', 'varchar(10)', notNull)
    .addColumn('type', 'varchar(16)', notNull)
    .addColumn('name', 'varchar(50)')
    .addColumn('created_at', bigint, notNull)
    .addUniqueConstraint('holiday_tenant_project_date', ['tenant_id', 'project_id', 'date'])
    .execute();
}
