import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestKelvin, type TestClient } from '../test/harness.ts';
import { openReadDb, type ReadDb } from './read-db.ts';
import { dialectOf } from './dialect.ts';

let k: TestClient;
let reads: ReadDb;
beforeAll(async () => {
  k = await startTestKelvin();
  reads = openReadDb(k.db, { dataDir: (k as any).dataDir });
});
afterAll(async () => {
  await reads?.close();
  await k?.close();
});

describe('长查询的读取线程', () => {
  it('sees what the main connection committed, answers the same rows, and refuses writes', async () => {
    const id = await createTenant(k.db, 'readers');
    const main = await k.db.selectFrom('tenant').selectAll().where('id', '=', id).execute();
    expect(await reads.db.selectFrom('tenant').selectAll().where('id', '=', id).execute()).toEqual(main);
    if (dialectOf(k.db) === 'sqlite') {
      await expect(reads.db.updateTable('tenant').set({ name: 'x' }).where('id', '=', id).execute()).rejects.toThrow(/readonly/i);
      await expect(reads.db.transaction().execute(async () => {})).rejects.toThrow('读取线程只用于查询');
    }
    expect((await k.db.selectFrom('tenant').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name).not.toBe('x');
  });

  it('many rows, nulls, text, a repeated column name and no rows come back as the main connection answers them', async () => {
    const many = sql<Record<string, unknown>>`with recursive c(i) as (select 1 union all select i + 1 from c where i < 3000)
      select i, i * 0.25 as q, case when i % 3 = 0 then null else 'n' || i end as t, i as dup, -i as dup from c order by i`;
    const fromMain = (await many.execute(k.db)).rows;
    expect(fromMain).toHaveLength(3000);
    expect((await many.execute(reads.db)).rows).toEqual(fromMain);
    expect((await sql`select 1 as one where 1 = 0`.execute(reads.db)).rows).toEqual([]);
  });

  it.runIf(!process.env.DATABASE_URL?.startsWith('postgres'))('a long read leaves the main thread free: a timer fires while it runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    let ticksWhenDone = -1;
    // ~10^7 rows of a recursive count: hundreds of milliseconds of SQLite work
    const long = sql<{ n: number }>`with recursive c(i) as (select 1 union all select i + 1 from c where i < 6000000) select count(*) as n from c`
      .execute(reads.db).then((r) => { ticksWhenDone = ticks; return r.rows[0]!.n; });
    expect(await long).toBe(6_000_000);
    clearInterval(timer);
    expect(ticksWhenDone).toBeGreaterThan(3);
  });

  it.runIf(!process.env.DATABASE_URL?.startsWith('postgres'))('an error in the reader answers that query only; the next one works', async () => {
    await expect(sql`select * from no_such_table`.execute(reads.db)).rejects.toThrow(/no such table/);
    expect((await sql<{ one: number }>`select 1 as one`.execute(reads.db)).rows).toEqual([{ one: 1 }]);
  });
});
