import { z } from 'zod';

z.config(z.locales.zhCN());

export * from './codes.ts';

/** A plain decimal number as text: no hex, no exponent, no blanks, no '+' (so '0x19', '2.5e1' and ' 25' are not 25). */
const PLAIN_DECIMAL = /^-?\d{1,16}(\.\d{1,12})?$/;

/** Text or number → number, only for plain decimals; anything else is NaN. */
export function parseDecimal(value: unknown): number {
  if (typeof value === 'number') return value;
  return typeof value === 'string' && PLAIN_DECIMAL.test(value) ? Number(value) : NaN;
}

/**
 * The one number reader of every contract (query strings, path parameters and bodies): plain decimal text becomes a
 * number, an empty query value counts as absent, anything else is refused by `schema` with its own message.
 */
export function decimal<T extends z.ZodType<number>>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' ? (v === '' ? undefined : PLAIN_DECIMAL.test(v) ? Number(v) : v) : v), schema);
}

/** The one pagination shape: pageNo from 1, pageSize at most 200. */
export const pageQuery = z.object({
  pageNo: decimal(z.number().int().min(1, '页码从 1 开始')).default(1),
  pageSize: decimal(z.number().int().min(1).max(200, '每页最多 200 条')).default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const idParam = z.object({ id: decimal(z.number().int('编号必须是整数')) });
