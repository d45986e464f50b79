import { ResultCode } from '@kelvin/contracts';

/** The one error path: throw an AppError anywhere, the error handler renders the envelope. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
  get httpStatus(): number {
    return httpStatusOf(this.code);
  }
}

export function httpStatusOf(code: number): number {
  if (code === ResultCode.OK) return 200;
  const status = Math.floor(code / 100);
  return status >= 400 && status < 600 ? status : 500;
}

export const notFound = (what = '数据') => new AppError(ResultCode.NOT_FOUND, `${what}不存在`);
export const forbidden = (msg: string) => new AppError(ResultCode.FORBIDDEN, msg);
export const conflict = (msg: string) => new AppError(ResultCode.CONFLICT, msg);
export const invalid = (msg: string, path: string[] = []) =>
  new AppError(ResultCode.VALIDATION, msg, { errors: [{ path: path.join('.'), message: msg }] });

export function ok<T>(data: T, msg = '操作成功') {
  return { code: ResultCode.OK, msg, data };
}
