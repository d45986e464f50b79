import type { Kysely } from 'kysely';
import { bigint, notNull, withId } from '../dialect.ts';

/**
 * Public share links of a project's big screen (/dataviews?token=…): only the SHA-256 of the random token is kept,
 * with the first characters as a hint to tell links apart; a link ends when it expires or is revoked.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('dataview_share'))
    .addColumn('tenant_id', bigint, notNull)
    .addColumn('project_id', bigint, notNull)
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('token_hint', 'varchar(8)', notNull)
    .addColumn('note', 'varchar(60)')
    .addColumn('created_by', bigint)
    .addColumn('created_by_name', 'varchar(64)', notNull)
    .addColumn('created_at', bigint, notNull)
    .addColumn('expires_at', bigint, notNull)
    .addColumn('revoked_at', bigint)
    .addColumn('revoked_by_name', 'varchar(64)')
    .execute();
  await db.schema.createIndex('dataview_share_project').on('dataview_share').columns(['project_id', 'id']).execute();
}
