import type { Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * 部门能耗 (departmentEnergy): the departments of a project (a tree with headcount, floor area and a monthly budget in
 * kWh) and what is assigned to them — a meter, or a room whose meters count — with effective days, so a meter moved
 * on a date counts for each department over its own days.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('department'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('parent_id', bigint)
    .addColumn('name', 'varchar(60)', notNull)
    .addColumn('headcount', bigint)
    // m² × 100 (two decimals, exact)
    .addColumn('area_cm2', bigint)
    .addColumn('budget_kwh', bigint)
    .addColumn('sort_no', bigint, notNull)
    .addColumn('remark', 'varchar(200)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('department_project').on('department').columns(['project_id', 'parent_id']).execute();

  await withId(db, db.schema.createTable('department_assignment'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('department_id', bigint, notNull)
    .addColumn('kind', 'varchar(8)', notNull)
    .addColumn('device_id', bigint)
    .addColumn('area_id', bigint)
    // the first Asia/Shanghai day it holds (epoch ms of 00:00) and the first day it no longer holds (null: open)
    .addColumn('valid_from', bigint, notNull)
    .addColumn('valid_to', bigint)
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('department_assignment_department').on('department_assignment').columns(['department_id', 'valid_from']).execute();
  await db.schema.createIndex('department_assignment_project').on('department_assignment').columns(['project_id', 'device_id']).execute();
}
