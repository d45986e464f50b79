import type { Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * The billing engine: versioned tariffs and device parameters (a run over a past period uses the version in force
 * then), share teams with their members and related meters, metering plans, charge runs (one per project and period
 * start — the claim), the priced lines and the readings they came from, postpaid expense bills, and the prepaid
 * loop's supply actions and handled balance events.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('billing_tariff'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('scheme', 'integer', notNull)
    // the TariffDoc as JSON (validated by the contract on the way in)
    .addColumn('doc', 'text', notNull)
    .addColumn('effective_from', bigint, notNull)
    .addColumn('remark', 'varchar(200)')
    .addColumn('created_by', 'varchar(60)')
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('billing_tariff_project').on('billing_tariff').columns(['project_id', 'effective_from', 'id']).execute();

  await withId(db, db.schema.createTable('billing_device_param'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addColumn('charge_rate', 'varchar(12)', notNull)
    .addColumn('rated_power', 'varchar(12)', notNull)
    .addColumn('base_fee_fen', bigint, notNull)
    .addColumn('effective_from', bigint, notNull)
    .addColumn('created_by', 'varchar(60)')
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('billing_device_param_device').on('billing_device_param').columns(['device_id', 'effective_from', 'id']).execute();
  await db.schema.createIndex('billing_device_param_project').on('billing_device_param').columns(['project_id']).execute();

  await withId(db, db.schema.createTable('billing_share_team'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('name', 'varchar(40)', notNull)
    .addColumn('remark', 'varchar(200)')
    .addColumn('updated_by', 'varchar(60)')
    .addColumn('updated_at', bigint, notNull)
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('billing_share_team_project').on('billing_share_team').columns(['project_id']).execute();

  await withId(db, db.schema.createTable('billing_share_member'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('team_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .execute();
  // an account shares in one team (its share would otherwise be counted twice)
  await db.schema.createIndex('billing_share_member_account').on('billing_share_member').columns(['account_id']).unique().execute();
  await db.schema.createIndex('billing_share_member_team').on('billing_share_member').columns(['team_id']).execute();

  await withId(db, db.schema.createTable('billing_device_relation'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('team_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addColumn('role', 'varchar(10)', notNull)
    .execute();
  await db.schema.createIndex('billing_device_relation_one').on('billing_device_relation').columns(['team_id', 'device_id']).unique().execute();

  await withId(db, db.schema.createTable('billing_project_plan'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('name', 'varchar(40)', notNull)
    .addColumn('metering_method_type', 'varchar(20)', notNull)
    .addColumn('price', 'varchar(16)', notNull)
    .addColumn('effective_from', bigint, notNull)
    .addColumn('remark', 'varchar(200)')
    .addColumn('updated_by', 'varchar(60)')
    .addColumn('updated_at', bigint, notNull)
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('billing_project_plan_project').on('billing_project_plan').columns(['project_id']).execute();

  await withId(db, db.schema.createTable('billing_device_plan'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('plan_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addColumn('effective_from', bigint, notNull)
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('billing_device_plan_device').on('billing_device_plan').columns(['device_id', 'effective_from']).execute();
  await db.schema.createIndex('billing_device_plan_plan').on('billing_device_plan').columns(['plan_id']).execute();

  await withId(db, db.schema.createTable('billing_run'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('scheme', 'integer', notNull)
    .addColumn('period_from', bigint, notNull)
    .addColumn('period_until', bigint, notNull)
    // running | done
    .addColumn('state', 'varchar(10)', notNull)
    .addColumn('accounts', 'integer', notNull)
    .addColumn('lines', 'integer', notNull)
    .addColumn('total_fen', bigint, notNull)
    .addColumn('gaps', 'text', notNull)
    .addColumn('trigger', 'varchar(20)', notNull)
    .addColumn('started_at', bigint, notNull)
    .addColumn('finished_at', bigint)
    .execute();
  // the claim: one run per project and period start, whichever process or request asks
  await db.schema.createIndex('billing_run_claim').on('billing_run').columns(['project_id', 'period_from']).unique().execute();
  await db.schema.createIndex('billing_run_until').on('billing_run').columns(['project_id', 'period_until']).execute();

  await withId(db, db.schema.createTable('billing_line'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('run_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('seq', 'integer', notNull)
    .addColumn('device_id', bigint)
    .addColumn('method', 'varchar(20)', notNull)
    .addColumn('label', 'varchar(80)', notNull)
    .addColumn('quantity', 'double precision', notNull)
    .addColumn('unit', 'varchar(10)', notNull)
    .addColumn('unit_price', 'varchar(16)', notNull)
    .addColumn('amount_fen', bigint, notNull)
    .addColumn('period_from', bigint, notNull)
    .addColumn('period_until', bigint, notNull)
    .addColumn('entry_id', bigint)
    .addColumn('bill_id', bigint)
    .execute();
  // a resumed run never writes an account's lines twice
  await db.schema.createIndex('billing_line_one').on('billing_line').columns(['run_id', 'account_id', 'seq']).unique().execute();
  await db.schema.createIndex('billing_line_account').on('billing_line').columns(['account_id', 'period_until']).execute();
  await db.schema.createIndex('billing_line_project').on('billing_line').columns(['project_id', 'period_until']).execute();
  await db.schema.createIndex('billing_line_device').on('billing_line').columns(['device_id', 'period_until']).execute();

  await withId(db, db.schema.createTable('billing_reading'))
    .addColumn('run_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addColumn('field_code', 'varchar(8)', notNull)
    .addColumn('start_ts', bigint)
    .addColumn('start_value', 'double precision')
    .addColumn('end_ts', bigint)
    .addColumn('end_value', 'double precision')
    .addColumn('use', 'double precision', notNull)
    .execute();
  await db.schema.createIndex('billing_reading_one').on('billing_reading').columns(['run_id', 'device_id', 'field_code']).unique().execute();

  await withId(db, db.schema.createTable('billing_bill'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('period', 'varchar(7)', notNull)
    .addColumn('period_from', bigint, notNull)
    .addColumn('period_until', bigint, notNull)
    .addColumn('amount_fen', bigint, notNull)
    .addColumn('lines', 'integer', notNull)
    // issued | paid (overdue is issued past due_at)
    .addColumn('status', 'varchar(10)', notNull)
    .addColumn('issued_at', bigint, notNull)
    .addColumn('due_at', bigint, notNull)
    .addColumn('paid_at', bigint)
    .addColumn('pay_method', 'varchar(10)')
    .addColumn('paid_by', 'varchar(60)')
    .addColumn('entry_id', bigint)
    .execute();
  await db.schema.createIndex('billing_bill_one').on('billing_bill').columns(['account_id', 'period']).unique().execute();
  await db.schema.createIndex('billing_bill_project').on('billing_bill').columns(['project_id', 'period']).execute();

  await withId(db, db.schema.createTable('billing_supply'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .addColumn('balance_event_id', bigint, notNull)
    .addColumn('action', 'varchar(10)', notNull)
    .addColumn('status', 'varchar(12)', notNull)
    .addColumn('attempts', 'integer', notNull)
    .addColumn('command_id', bigint)
    .addColumn('last_error', 'varchar(200)')
    .addColumn('next_try_at', bigint)
    .addColumn('created_at', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('billing_supply_one').on('billing_supply').columns(['balance_event_id', 'device_id']).unique().execute();
  await db.schema.createIndex('billing_supply_command').on('billing_supply').columns(['command_id']).execute();
  await db.schema.createIndex('billing_supply_project').on('billing_supply').columns(['project_id', 'id']).execute();

  // a balance event is handled once (SMS, supply actions), by whichever process claims it first
  await db.schema.createTable('billing_event_done')
    .addColumn('balance_event_id', bigint, (c) => c.primaryKey())
    .addColumn('handled_at', bigint, notNull)
    .execute();
}
