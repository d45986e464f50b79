import { ResultCode, type ApiEnvelope } from '@kelvin/contracts/codes';
import { feedback, toastError, toastWarning } from './feedback';
import { getStored } from './storage';
import { useErrorLog } from './error-log';

/** Client timeout of every call (spec §7, §9); the QR code download passes 300 s. */
export const REQUEST_TIMEOUT_MS = 10_000;
export const QR_DOWNLOAD_TIMEOUT_MS = 300_000;

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status: number,
    readonly data: unknown = null,
    /** the request's trace id (x-trace-id), to find it in 调用链路追踪 */
    readonly traceId: string | null = null,
  ) {
    super(message);
  }
}

/**
 * A failed API call goes to the bug日志 with its trace id — the failures the server keeps a trace of (5xx, and 4xx
 * but an expired session's 401 and a 404), so the id found there leads to the request in 调用链路追踪.
 */
function logFailure(method: string, url: string, err: ApiError) {
  if (err.status < 400 || err.status === 401 || err.status === 404) return;
  const e = new Error(`${method} ${url.split('?')[0]} → ${err.status}（${err.code}）：${err.message}`);
  e.stack = '';
  useErrorLog.getState().add(e, window.location.href, err.traceId ?? undefined);
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  timeout?: number;
  /** no toast: the caller shows the problem itself */
  silent?: boolean;
  /** extra request headers (e.g. the Idempotency-Key of a money action) */
  headers?: Record<string, string>;
}

type Hooks = { onLoggedOut: () => void };
const hooks: Hooks = { onLoggedOut: () => {} };
/** The session store registers what "log out and reload" means. */
export function setHttpHooks(h: Hooks) {
  Object.assign(hooks, h);
}

export function withQuery(url: string, query?: RequestOptions['query']): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${url}${url.includes('?') ? '&' : '?'}${s}` : url;
}

function authHeaders(): Record<string, string> {
  const token = getStored('token');
  const userId = getStored('loginId');
  return { ...(token ? { Authorization: token } : {}), ...(userId ? { userId } : {}) };
}

let loggedOutBoxOpen = false;
/** Spec §8: 401 / 40101 → a confirm box; 重新登录 logs out and reloads, 取消 stays. */
function showLoggedOut() {
  if (loggedOutBoxOpen || !feedback.modal) return;
  loggedOutBoxOpen = true;
  feedback.modal.confirm({
    title: '确认登出',
    content: '您已被登出，可以取消继续留在该页面，或者重新登录',
    okText: '重新登录',
    cancelText: '取消',
    maskClosable: false,
    keyboard: false,
    onOk: () => {
      hooks.onLoggedOut();
      window.location.reload();
    },
    afterClose: () => {
      loggedOutBoxOpen = false;
    },
  });
}

/** The error catalogue of spec §8, in one place. */
export function reportError(err: ApiError) {
  if (err.status === 401 || err.code === ResultCode.UNAUTHENTICATED) return showLoggedOut();
  if (err.code === ResultCode.BAD_CREDENTIALS) return toastWarning('账户或密码错误');
  if (err.code === ResultCode.NO_PERMISSION) return toastError('权限不足或认证已过期，请重新登录');
  toastError(err.message);
}

/** No answer (network down, timeout, a body cut off): shown unless silent, thrown with status 0 — never a refusal. */
function noAnswer(message: string, opts: RequestOptions): never {
  const err = new ApiError(message, 0, 0);
  if (!opts.silent) toastError(err.message);
  throw err;
}

async function send(method: string, url: string, opts: RequestOptions = {}): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeout ?? REQUEST_TIMEOUT_MS);
  const isForm = typeof FormData !== 'undefined' && opts.body instanceof FormData;
  try {
    return await fetch(withQuery(url, opts.query), {
      method,
      headers: { ...authHeaders(), ...opts.headers, ...(opts.body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}) },
      body: opts.body === undefined ? undefined : isForm ? (opts.body as FormData) : JSON.stringify(opts.body),
      signal: controller.signal,
    });
  } catch (e) {
    return noAnswer((e as Error).name === 'AbortError' ? '请求超时，请稍后重试' : `网络错误：${(e as Error).message}`, opts);
  } finally {
    clearTimeout(timer);
  }
}

/** The whole envelope (login answers data2/attr1 beside data); any failure is shown (unless silent) and thrown as ApiError. */
export async function requestEnvelope<T extends object>(method: string, url: string, opts: RequestOptions = {}): Promise<ApiEnvelope<unknown> & T> {
  const res = await send(method, url, opts);
  const body = (await res.json().catch(() => null)) as (ApiEnvelope<unknown> & T) | null;
  if (res.ok && body?.code === ResultCode.OK) return body;
  // headers came but the body did not (the page is unloading, the connection dropped): nothing, the session above
  // all, may be undone because of it
  if (res.ok && body === null) noAnswer('网络错误：响应不完整', opts);
  const err = new ApiError(body?.msg || `请求失败（${res.status}）`, body?.code ?? res.status, res.status, body?.data ?? null, body?.traceId ?? res.headers.get('x-trace-id'));
  logFailure(method, url, err);
  if (!opts.silent) reportError(err);
  throw err;
}

/** One call: resolves to the envelope's `data`. */
export async function request<T>(method: string, url: string, opts: RequestOptions = {}): Promise<T> {
  return (await requestEnvelope<object>(method, url, opts)).data as T;
}

/** File downloads (Excel, templates, QR codes): saved under the server's UTF-8 Content-Disposition name. */
export async function download(url: string, opts: RequestOptions & { fallbackName?: string; onProgress?: (bytes: number, rows: number | null) => void } = {}): Promise<void> {
  const res = await send('GET', url, opts);
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as ApiEnvelope<unknown> | null;
    const err = new ApiError(body?.msg || `下载失败（${res.status}）`, body?.code ?? res.status, res.status);
    if (!opts.silent) reportError(err);
    throw err;
  }
  const blob = opts.onProgress && res.body ? await readWithProgress(res, opts.onProgress) : await res.blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileNameOf(res.headers.get('content-disposition')) ?? opts.fallbackName ?? 'download';
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** The body read chunk by chunk, reporting the bytes so far and the rows the server announced (x-report-rows). */
async function readWithProgress(res: Response, onProgress: (bytes: number, rows: number | null) => void): Promise<Blob> {
  const rowsHeader = res.headers.get('x-report-rows');
  const rows = rowsHeader === null ? null : Number(rowsHeader);
  const reader = res.body!.getReader();
  const chunks: BlobPart[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    onProgress(bytes, rows);
  }
  return new Blob(chunks, { type: res.headers.get('content-type') ?? 'application/octet-stream' });
}

/** A file as a Blob (images shown in the page, e.g. photo thumbnails: an <img> cannot carry the token). */
export async function fetchBlob(url: string, opts: RequestOptions = {}): Promise<Blob> {
  const res = await send('GET', url, { silent: true, ...opts });
  if (!res.ok) throw new ApiError(`读取失败（${res.status}）`, res.status, res.status);
  return res.blob();
}

export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1] : null;
}

export const http = {
  get: <T>(url: string, query?: RequestOptions['query'], opts?: RequestOptions) => request<T>('GET', url, { ...opts, query }),
  post: <T>(url: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', url, { ...opts, body }),
  put: <T>(url: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', url, { ...opts, body }),
  del: <T>(url: string, opts?: RequestOptions) => request<T>('DELETE', url, opts),
};
