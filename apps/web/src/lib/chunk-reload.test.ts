import { afterEach, describe, expect, it, vi } from 'vitest';
import { awaitServedBuild, isChunkLoadError, reloadOnce } from './chunk-reload';

describe('chunk load failures (spec §8 shared handler)', () => {
  afterEach(() => {
    sessionStorage.clear();
    vi.restoreAllMocks();
  });

  it('recognises the browsers\' failed dynamic imports, nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/a-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://x/assets/a-1.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });

  it('reloads automatically once, never again within the guard window', () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as unknown as Location);
    const t0 = 1_000_000_000;
    expect(reloadOnce(t0)).toBe(true);
    expect(reloadOnce(t0 + 1_000)).toBe(false);
    expect(reloadOnce(t0 + 4 * 60_000)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // a later deploy in the same browser tab may reload again
    expect(reloadOnce(t0 + 6 * 60_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe('which build the server serves after a chunk failed', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const html = (body: string) => new Response(body, { status: 200, headers: { 'content-type': 'text/html' } });

  it('waits while the server restarts, then tells a new build from the same one', async () => {
    const answers: Array<() => Promise<Response>> = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => Promise.resolve(new Response('', { status: 503 })),
      () => Promise.resolve(html('<script type="module" src="/assets/index-NEW.js"></script>')),
    ];
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => answers.shift()!());
    const sleep = vi.fn(() => Promise.resolve());
    expect(await awaitServedBuild({ current: '/assets/index-OLD.js', wait: 60_000, poll: 2_000, sleep })).toBe('new');
    expect(sleep).toHaveBeenCalledTimes(2);

    vi.spyOn(globalThis, 'fetch').mockImplementation(() => Promise.resolve(html('<script type="module" src="/assets/index-OLD.js"></script>')));
    expect(await awaitServedBuild({ current: '/assets/index-OLD.js', wait: 60_000, poll: 2_000, sleep })).toBe('same');
  });

  it('gives up after the wait and reports the server unreachable', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await awaitServedBuild({ current: '/assets/index-OLD.js', wait: 0, sleep: () => Promise.resolve() })).toBe('unreachable');
  });
});
