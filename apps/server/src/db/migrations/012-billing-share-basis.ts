import type { Kysely } from 'kysely';

/**
 * What a cost-share line was split by (the account's area, its equivalent or valve-open hours, the devices they came
 * from), as JSON: the share screens show it beside the amount, and it is the account's figure at the time of the run
 * (rooms and team members change later).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('billing_line').addColumn('basis', 'text').execute();
}
