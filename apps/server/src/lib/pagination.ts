import type { SelectQueryBuilder } from 'kysely';
import type { Page, PageQuery } from '@kelvin/contracts';
import { changesOf, type Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { epochCache } from './epoch-cache.ts';

/** How many rows a filtered query selects. */
export async function countRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = await query.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirst();
  return Number((row as { total?: number } | undefined)?.total ?? 0);
}

/**
 * Runs a filtered query as one page plus the total (the one pagination shape). `total` may answer the count from a
 * cache: it is handed the counting query to run when it has nothing valid.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageQuery,
  order: (q: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, O>,
  total: (count: () => Promise<number>) => Promise<number> = (count) => count(),
): Promise<Page<O>> {
  const n = await total(() => countRows(query));
  const rows = await order(query).limit(page.pageSize).offset((page.pageNo - 1) * page.pageSize).execute();
  return { total: n, rows };
}

/**
 * Totals of a list counted once per change of its tables (this process's writes; another process's within `ttlMs`)
 * instead of on every page: counting a 10,000-device project or a month of a million-row log costs a millisecond or
 * more, paging it costs microseconds. The key names the filter (scope included); pass the result to `paginate`.
 */
export function cachedTotals(db: Db, tables: readonly (keyof Database & string)[], opts: { ttlMs: number; max?: number }) {
  const changes = changesOf(db);
  const totals = epochCache<string, number>(opts.max ?? 2_000);
  return (key: unknown) => (count: () => Promise<number>) =>
    totals.get(JSON.stringify(key), changes.epoch(tables), count, () => Date.now() + opts.ttlMs);
}
