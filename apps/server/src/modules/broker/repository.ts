import type { Db } from '../../db/index.ts';

/** device code → hash of the secret its broker account was last given */
export async function syncedHashes(db: Db, codes?: string[]): Promise<Map<string, string>> {
  if (codes && !codes.length) return new Map();
  let q = db.selectFrom('broker_client').select(['device_code', 'secret_hash']);
  if (codes) q = q.where('device_code', 'in', codes);
  return new Map((await q.execute()).map((r) => [r.device_code, r.secret_hash]));
}

export async function recordSynced(db: Db, rows: { code: string; secretHash: string }[]) {
  const now = Date.now();
  for (let i = 0; i < rows.length; i += 500) {
    await db.insertInto('broker_client')
      .values(rows.slice(i, i + 500).map((r) => ({ device_code: r.code, secret_hash: r.secretHash, synced_at: now })))
      .onConflict((oc) => oc.column('device_code').doUpdateSet((eb) => ({ secret_hash: eb.ref('excluded.secret_hash'), synced_at: eb.ref('excluded.synced_at') })))
      .execute();
  }
}

export async function forgetSynced(db: Db, codes: string[]) {
  for (let i = 0; i < codes.length; i += 500) await db.deleteFrom('broker_client').where('device_code', 'in', codes.slice(i, i + 500)).execute();
}

/**
 * Takes or renews the lease `name` for `holder` until now + ttl; true when held. A lease whose holder stopped renewing
 * passes to the next process that asks once it has run out.
 */
export async function claimLease(db: Db, name: string, holder: string, ttlMs: number): Promise<boolean> {
  const now = Date.now();
  await db.insertInto('broker_lease').values({ name, holder, until: now + ttlMs }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const r = await db.updateTable('broker_lease').set({ holder, until: now + ttlMs })
    .where('name', '=', name).where((eb) => eb.or([eb('holder', '=', holder), eb('until', '<', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function releaseLease(db: Db, name: string, holder: string) {
  await db.deleteFrom('broker_lease').where('name', '=', name).where('holder', '=', holder).execute();
}
