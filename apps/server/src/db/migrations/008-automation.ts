import { sql, type Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * Automation: week programs, program schemes, tasks, their runs (one row per fired occurrence, claimed in the database
 * so each occurrence fires once across restarts and processes), per-device results, strategy cool-downs and the
 * overtime pool. Lists of ids, slots, writes and rules are JSON text (read whole, never queried inside).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('automation_program'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('name', 'varchar(40)', notNull)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('slots', 'text', notNull)
    .addColumn('holiday_rule', 'varchar(16)', notNull)
    .addColumn('device_ids', 'text', notNull)
    .addColumn('group_ids', 'text', notNull)
    .addColumn('area_ids', 'text', notNull)
    .addColumn('scheme_id', bigint)
    .addColumn('missed_policy', 'varchar(16)', notNull)
    .addColumn('enabled', 'integer', notNull)
    // occurrences up to this instant have been claimed (or recorded as missed) by some process
    .addColumn('cursor_at', bigint, notNull)
    .addColumn('updated_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('automation_program_project').on('automation_program').columns(['project_id']).execute();

  await withId(db, db.schema.createTable('automation_scheme'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('name', 'varchar(40)', notNull)
    .addColumn('device_type', 'varchar(32)', notNull)
    .addColumn('slots', 'text', notNull)
    .addColumn('remark', 'varchar(200)')
    .addColumn('updated_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('automation_scheme_project').on('automation_scheme').columns(['project_id']).execute();

  await withId(db, db.schema.createTable('automation_task'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('name', 'varchar(40)', notNull)
    .addColumn('kind', 'varchar(16)', notNull)
    .addColumn('device_type', 'varchar(32)')
    .addColumn('device_ids', 'text', notNull)
    .addColumn('group_ids', 'text', notNull)
    .addColumn('area_ids', 'text', notNull)
    .addColumn('writes', 'text', notNull)
    .addColumn('run_at', bigint)
    .addColumn('rule', 'text')
    .addColumn('skip_holidays', 'integer', notNull)
    .addColumn('at', 'varchar(5)')
    .addColumn('holiday_type', 'varchar(16)')
    .addColumn('condition', 'text')
    .addColumn('cooldown_minutes', 'integer')
    .addColumn('program_id', bigint)
    .addColumn('missed_policy', 'varchar(16)', notNull)
    .addColumn('enabled', 'integer', notNull)
    .addColumn('remark', 'varchar(200)')
    .addColumn('cursor_at', bigint, notNull)
    .addColumn('updated_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('automation_task_project').on('automation_task').columns(['project_id', 'kind']).execute();

  await withId(db, db.schema.createTable('automation_run'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('task_id', bigint)
    .addColumn('program_id', bigint)
    // 't:{taskId}' or 'p:{programId}': with scheduled_at the claim of one occurrence
    .addColumn('source', 'varchar(24)', notNull)
    .addColumn('scheduled_at', bigint)
    .addColumn('trigger', 'varchar(16)', notNull)
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('retry_of', bigint)
    // set while commands are being issued; a claim left unfinished (process died) is taken over after a lease
    .addColumn('issuing_since', bigint)
    .addColumn('started_at', bigint)
    .addColumn('finished_at', bigint)
    .addColumn('created_at', bigint, notNull)
    .execute();
  // one run per source and due time, whichever process gets there first (manual runs have no due time)
  await db.schema.createIndex('automation_run_occurrence').on('automation_run').columns(['source', 'scheduled_at']).unique().execute();
  await db.schema.createIndex('automation_run_task').on('automation_run').columns(['task_id', 'id']).execute();
  await db.schema.createIndex('automation_run_program').on('automation_run').columns(['program_id', 'id']).execute();
  await sql`create index automation_run_issuing on automation_run (issuing_since) where issuing_since is not null`.execute(db);

  await withId(db, db.schema.createTable('automation_run_result'))
    .addColumn('run_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addColumn('device_code', 'varchar(64)', notNull)
    .addColumn('device_name', 'varchar(64)', notNull)
    .addColumn('field_code', 'varchar(16)')
    .addColumn('value', 'text')
    .addColumn('command_id', bigint)
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('error', 'varchar(200)')
    .addColumn('updated_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('automation_run_result_run').on('automation_run_result').columns(['run_id']).execute();
  await db.schema.createIndex('automation_run_result_command').on('automation_run_result').columns(['command_id']).execute();
  await sql`create index automation_run_result_pending on automation_run_result (updated_at) where status = 'pending'`.execute(db);

  // a strategy task's last firing per device (device 0: the task as a whole), for its cool-down across processes
  await db.schema.createTable('automation_cooldown')
    .addColumn('task_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addColumn('fired_at', bigint, notNull)
    .addPrimaryKeyConstraint('automation_cooldown_pk', ['task_id', 'device_id'])
    .execute();

  await withId(db, db.schema.createTable('automation_overtime'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('program_id', bigint, notNull)
    .addColumn('area_id', bigint, notNull)
    .addColumn('account_name', 'varchar(40)')
    .addColumn('month', 'varchar(7)', notNull)
    .addColumn('approved_minutes', 'integer', notNull)
    .addColumn('updated_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('automation_overtime_room_month').on('automation_overtime').columns(['area_id', 'month']).unique().execute();
}
