import type { Kysely } from 'kysely';
import { bigint, notNull } from '../dialect.ts';

/**
 * An external broker's accounts (Mosquitto dynamic security): which secret each device's broker account was last
 * given (its hash — the broker never tells), so a full re-sync can tell a current password from a stale one without
 * the secret; and the lease naming the one process that does the periodic work for all (re-sync, counting refusals).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('broker_client')
    .addColumn('device_code', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('secret_hash', 'varchar(64)', notNull)
    .addColumn('synced_at', bigint, notNull)
    .execute();
  await db.schema.createTable('broker_lease')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(64)', notNull)
    .addColumn('until', bigint, notNull)
    .execute();
}
