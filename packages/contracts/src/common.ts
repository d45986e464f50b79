import { z } from 'zod';

z.config(z.locales.zhCN());

/** Product codes of design §5. */
export const ResultCode = {
  OK: 200,
  VALIDATION: 40000,
  BAD_CREDENTIALS: 40001,
  UNAUTHENTICATED: 40101,
  FORBIDDEN: 40300,
  NO_PERMISSION: 40301,
  NOT_FOUND: 40400,
  CONFLICT: 40900,
  TOO_MANY_REQUESTS: 42900,
  SERVER_ERROR: 50000,
} as const;

export interface ApiEnvelope<T> {
  code: number;
  msg: string;
  data: T;
}

export interface Page<T> {
  total: number;
  rows: T[];
}

/** The one pagination shape: pageNo from 1, pageSize at most 200. */
export const pageQuery = z.object({
  pageNo: z.coerce.number().int().min(1, '页码从 1 开始').default(1),
  pageSize: z.coerce.number().int().min(1).max(200, '每页最多 200 条').default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const idParam = z.object({ id: z.coerce.number().int('编号必须是整数') });
