import { sql, type Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * Accounts and money: the people billed, their rooms and devices, groups, the one append-only ledger (two books:
 * balance and deposit) with the cached balances on the account row, idempotency keys, refunds awaiting approval,
 * per-project limits, threshold events, move-out settlements, payment accounts (keys encrypted) and online orders.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('account_group'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('name', 'varchar(60)', notNull)
    .addColumn('manager_account_id', bigint)
    .addColumn('remark', 'varchar(200)')
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('account_group_project').on('account_group').columns(['project_id', 'id']).execute();

  await withId(db, db.schema.createTable('account'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('kind', 'varchar(16)', notNull)
    .addColumn('name', 'varchar(60)', notNull)
    .addColumn('phone', 'varchar(20)', notNull)
    .addColumn('id_number', 'varchar(32)')
    .addColumn('move_in_date', 'varchar(10)')
    .addColumn('status', 'varchar(16)', notNull)
    // cached sums of the ledger's two books, changed only together with an entry (核对账目 proves it)
    .addColumn('balance_fen', bigint, notNull)
    .addColumn('deposit_fen', bigint, notNull)
    .addColumn('group_id', bigint)
    .addColumn('remark', 'varchar(200)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('closed_at', bigint)
    .execute();
  await db.schema.createIndex('account_project').on('account').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('account_tenant_phone').on('account').columns(['tenant_id', 'phone']).execute();

  await withId(db, db.schema.createTable('account_room'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('room_id', bigint, notNull)
    .addColumn('active', 'integer', notNull)
    .addColumn('created_at', bigint, notNull)
    .addColumn('released_at', bigint)
    .execute();
  // a room is paid for by one open account at a time, whichever request races
  await sql`create unique index account_room_one_active on account_room (room_id) where active = 1`.execute(db);
  await db.schema.createIndex('account_room_account').on('account_room').columns(['account_id']).execute();

  await withId(db, db.schema.createTable('account_device'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('device_id', bigint, notNull)
    .execute();
  await db.schema.createIndex('account_device_account').on('account_device').columns(['account_id']).execute();

  await withId(db, db.schema.createTable('ledger_entry'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('book', 'varchar(8)', notNull)
    .addColumn('kind', 'varchar(24)', notNull)
    .addColumn('amount_fen', bigint, notNull)
    .addColumn('balance_after_fen', bigint, notNull)
    .addColumn('method', 'varchar(8)')
    .addColumn('reason', 'varchar(200)')
    .addColumn('cause_type', 'varchar(32)')
    .addColumn('cause_id', 'varchar(64)')
    .addColumn('actor_id', bigint)
    .addColumn('actor_name', 'varchar(64)')
    .addColumn('idem_key', 'varchar(80)')
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('ledger_entry_account').on('ledger_entry').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('ledger_entry_project').on('ledger_entry').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('ledger_entry_cause').on('ledger_entry').columns(['cause_type', 'cause_id']).execute();

  await withId(db, db.schema.createTable('idempotency_key'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('key', 'varchar(80)', notNull)
    .addColumn('request_hash', 'varchar(64)', notNull)
    .addColumn('result', 'text', notNull)
    .addColumn('created_at', bigint, notNull)
    .addUniqueConstraint('idempotency_key_tenant_key', ['tenant_id', 'key'])
    .execute();

  await withId(db, db.schema.createTable('account_refund'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('amount_fen', bigint, notNull)
    .addColumn('reason', 'varchar(200)', notNull)
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('entry_id', bigint)
    .addColumn('requested_by', bigint)
    .addColumn('requested_name', 'varchar(64)')
    .addColumn('decided_by', bigint)
    .addColumn('decided_name', 'varchar(64)')
    .addColumn('decision_comment', 'varchar(200)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('decided_at', bigint)
    .execute();
  await db.schema.createIndex('account_refund_project').on('account_refund').columns(['project_id', 'created_at']).execute();

  await withId(db, db.schema.createTable('money_setting'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('topup_max_fen', bigint)
    .addColumn('balance_max_fen', bigint)
    .addColumn('refund_approval_fen', bigint, notNull)
    .addColumn('warning1_fen', bigint, notNull)
    .addColumn('warning2_fen', bigint, notNull)
    .addColumn('overdraft_fen', bigint, notNull)
    .addColumn('updated_at', bigint, notNull)
    .addUniqueConstraint('money_setting_project', ['project_id'])
    .execute();

  await withId(db, db.schema.createTable('balance_event'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('kind', 'varchar(16)', notNull)
    .addColumn('balance_fen', bigint, notNull)
    .addColumn('entry_id', bigint, notNull)
    .addColumn('created_at', bigint, notNull)
    .execute();
  await db.schema.createIndex('balance_event_project').on('balance_event').columns(['project_id', 'id']).execute();

  await withId(db, db.schema.createTable('account_settlement'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('balance_fen', bigint, notNull)
    .addColumn('deposit_fen', bigint, notNull)
    .addColumn('deducted_fen', bigint, notNull)
    .addColumn('unbilled_fen', bigint, notNull)
    .addColumn('net_fen', bigint, notNull)
    .addColumn('reason', 'varchar(200)', notNull)
    // the latest readings of the account's devices at move-out (JSON), for the next tenant's start
    .addColumn('readings', 'text', notNull)
    .addColumn('actor_name', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .execute();

  await withId(db, db.schema.createTable('payment_account'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('provider', 'varchar(16)', notNull)
    .addColumn('mch_id', 'varchar(32)', notNull)
    .addColumn('app_id', 'varchar(64)', notNull)
    // AES-256-GCM under the stored payment key (never returned whole)
    .addColumn('api_key_enc', 'text', notNull)
    .addColumn('api_key_tail', 'varchar(8)', notNull)
    .addColumn('private_key_enc', 'text')
    .addColumn('cert_serial_no', 'varchar(64)')
    .addColumn('platform_public_key', 'text')
    .addColumn('notify_url', 'varchar(300)')
    .addColumn('updated_at', bigint, notNull)
    .addUniqueConstraint('payment_account_project', ['project_id'])
    .execute();

  await withId(db, db.schema.createTable('payment_order'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    .addColumn('order_no', 'varchar(40)', notNull)
    .addColumn('provider', 'varchar(16)', notNull)
    .addColumn('amount_fen', bigint, notNull)
    .addColumn('status', 'varchar(16)', notNull)
    .addColumn('qr_payload', 'varchar(300)')
    .addColumn('provider_txn_id', 'varchar(64)')
    .addColumn('entry_id', bigint)
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', bigint, notNull)
    .addColumn('paid_at', bigint)
    .addColumn('closed_at', bigint)
    .addUniqueConstraint('payment_order_no', ['order_no'])
    .execute();
  await db.schema.createIndex('payment_order_project').on('payment_order').columns(['project_id', 'id']).execute();
}
