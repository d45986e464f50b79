import { z } from 'zod';

z.config(z.locales.zhCN());

export * from './codes.ts';

/** The one pagination shape: pageNo from 1, pageSize at most 200. */
export const pageQuery = z.object({
  pageNo: z.coerce.number().int().min(1, '页码从 1 开始').default(1),
  pageSize: z.coerce.number().int().min(1).max(200, '每页最多 200 条').default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const idParam = z.object({ id: z.coerce.number().int('编号必须是整数') });
