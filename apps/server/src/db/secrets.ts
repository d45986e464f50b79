import type { Db } from './index.ts';

/**
 * A secret generated once and kept in the database, so every server process (and `./kelvin simulate` in another
 * process) finds the same value: made on first use, and whoever inserts first wins a race.
 */
export async function storedSecret(db: Db, key: string, make: () => string): Promise<string> {
  const row = await db.selectFrom('secret').select('value').where('key', '=', key).executeTakeFirst();
  if (row?.value) return row.value;
  await db.insertInto('secret').values({ key, value: make() }).onConflict((oc) => oc.column('key').doNothing()).execute();
  return (await db.selectFrom('secret').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value;
}
