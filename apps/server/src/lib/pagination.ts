import type { SelectQueryBuilder } from 'kysely';
import type { Page, PageQuery } from '@kelvin/contracts';

/** Runs a filtered query as one page plus the total (the one pagination shape). */
export async function paginate<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: PageQuery,
  order: (q: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, O>,
): Promise<Page<O>> {
  const countRow = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirst();
  const rows = await order(query)
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize)
    .execute();
  return { total: Number((countRow as { total?: number } | undefined)?.total ?? 0), rows };
}
