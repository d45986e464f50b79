import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, request } from './http';
import { useSession } from '../stores/session';

/** fetch answering with headers whose body cannot be read (the page unloads mid-response) */
const headersWithoutBody = () => vi.fn(async () => ({ ok: true, status: 200, json: () => Promise.reject(new TypeError('body stream aborted')) }) as unknown as Response);

describe('HTTP 客户端', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('a response whose body never arrives is a network error (status 0), not a refusal', async () => {
    vi.stubGlobal('fetch', headersWithoutBody());
    const err = await request('GET', '/api/x', { silent: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(0);
  });

  it('keeps the session when the user-info load is cut off, logs out when the server refuses it', async () => {
    useSession.setState({ token: 'T1', status: 'idle' });
    vi.stubGlobal('fetch', headersWithoutBody());
    await expect(useSession.getState().loadUser()).rejects.toThrow('响应不完整');
    expect(useSession.getState().token).toBe('T1');

    vi.stubGlobal('fetch', vi.fn(async () => ({ ok: false, status: 401, json: async () => ({ code: 40101, msg: '未登录', data: null }) }) as unknown as Response));
    await expect(useSession.getState().loadUser()).rejects.toThrow();
    expect(useSession.getState().token).toBeNull();
  });
});
