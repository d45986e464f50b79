import { sql, type Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * The money roll-up: per account, China Standard Time day, book, kind and top-up method, the count and the signed sum
 * of its ledger entries. ledger.ts `post()` — the one writer of ledger_entry — adds to it in the same transaction, so
 * the money reports read days instead of entries and 核对账目 proves the two equal. Existing entries are rolled up here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('ledger_day'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('account_id', bigint, notNull)
    // the CST day's start, ms epoch (00:00 Asia/Shanghai)
    .addColumn('day', bigint, notNull)
    .addColumn('book', 'varchar(8)', notNull)
    .addColumn('kind', 'varchar(24)', notNull)
    // '' when the entry has no method (a unique key treats NULLs as distinct)
    .addColumn('method', 'varchar(8)', notNull)
    .addColumn('count', bigint, notNull)
    .addColumn('sum_fen', bigint, notNull)
    .addUniqueConstraint('ledger_day_key', ['account_id', 'day', 'kind', 'method'])
    .execute();
  await db.schema.createIndex('ledger_day_project').on('ledger_day').columns(['project_id', 'day']).execute();
  // integer division floors (all instants are after 1970): the day start is ((t + 8 h) / 1 day) × 1 day − 8 h
  await sql`insert into ledger_day (tenant_id, project_id, account_id, day, book, kind, method, count, sum_fen)
    select tenant_id, project_id, account_id, ((created_at + 28800000) / 86400000) * 86400000 - 28800000, book, kind, coalesce(method, ''), count(*), sum(amount_fen)
    from ledger_entry
    group by tenant_id, project_id, account_id, ((created_at + 28800000) / 86400000) * 86400000 - 28800000, book, kind, coalesce(method, '')`.execute(db);
}
