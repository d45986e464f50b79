/** Envelope and result codes without zod, so the web shell can import them without the validation library. */
/** Product codes of design §5. */
export const ResultCode = {
  OK: 200,
  VALIDATION: 40000,
  BAD_CREDENTIALS: 40001,
  /** the account has failed logins: answer the image captcha (GET /api/auth/captcha) with the password */
  CAPTCHA_REQUIRED: 40002,
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
  /** on a failure: the request's trace id (调用链路追踪) */
  traceId?: string;
}

export interface Page<T> {
  total: number;
  rows: T[];
}

