import { useErrorLog } from './error-log';
import { feedback } from './feedback';

/**
 * The shared handler for a screen chunk that cannot be loaded (spec §8). After a redeploy the chunks of the build a
 * tab was opened with are gone: reload once to get the new build; if that happened moments ago (the chunk is still
 * missing) or no new build is served, never reload on our own but say so and offer the reload button.
 */
export const NEW_VERSION_TITLE = '系统已更新';
export const NEW_VERSION_TEXT = '控制台已发布新版本，当前页面需要刷新后才能继续使用。';
export const RELOAD_LABEL = '刷新页面';

const GUARD_KEY = 'kelvin_chunk_reload_at';
/** An automatic reload within this window means the last one did not help. */
const GUARD_MS = 5 * 60_000;

const CHUNK_ERROR = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script|ChunkLoadError|Loading (?:CSS )?chunk \S+ failed/i;

export function isChunkLoadError(err: unknown): boolean {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err ?? '');
  return CHUNK_ERROR.test(text);
}

/** Starts a reload unless one was started recently in this browser tab; true when it did. */
export function reloadOnce(now = Date.now()): boolean {
  let last = 0;
  try {
    last = Number(sessionStorage.getItem(GUARD_KEY) ?? 0) || 0;
  } catch {
    return false; // no storage: no guard, so never reload on our own
  }
  if (now - last < GUARD_MS) return false;
  sessionStorage.setItem(GUARD_KEY, String(now));
  window.location.reload();
  return true;
}

/** The entry script of the build this tab runs. */
const runningEntry = () => document.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;

export type ServedBuild = 'new' | 'same' | 'unreachable';

/**
 * Whether the server now serves a different build than this tab runs: only then does a reload help (when a file is
 * missing from the build it serves, a reload would land on the same failure). 'unreachable' while it restarts.
 */
export async function servedBuild(current = runningEntry()): Promise<ServedBuild> {
  if (!current) return 'same';
  try {
    const res = await fetch('/', { cache: 'no-store' });
    if (!res.ok || !String(res.headers.get('content-type')).includes('text/html')) return 'unreachable';
    return (await res.text()).includes(current) ? 'same' : 'new';
  } catch {
    return 'unreachable';
  }
}

/** A redeploy restarts the server: a chunk that failed meanwhile is judged once it answers again (up to a minute). */
const RESTART_WAIT_MS = 60_000;
const RESTART_POLL_MS = 2_000;

export async function awaitServedBuild({
  current = runningEntry(),
  wait = RESTART_WAIT_MS,
  poll = RESTART_POLL_MS,
  sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
}: { current?: string | null; wait?: number; poll?: number; sleep?: (ms: number) => Promise<void> } = {}): Promise<ServedBuild> {
  const until = Date.now() + wait;
  for (;;) {
    const served = await servedBuild(current);
    if (served !== 'unreachable' || Date.now() >= until) return served;
    await sleep(poll);
  }
}

let checking = false;
let noticeOpen = false;
// the same failure reaches the preload event and then the boundary that rendered the screen
const seen = new WeakSet<object>();
/** The chunk failure handler: log it; reload once when a new build is served, else one notice with a reload button. */
export function handleChunkLoadError(err: unknown) {
  if (typeof err === 'object' && err !== null) {
    if (seen.has(err)) return;
    seen.add(err);
  }
  useErrorLog.getState().add(err);
  if (checking) return;
  checking = true;
  void awaitServedBuild().then((served) => {
    if (served === 'new' && reloadOnce()) return;
    checking = false;
    showNotice();
  });
}

function showNotice() {
  if (noticeOpen || !feedback.modal) return;
  noticeOpen = true;
  feedback.modal.info({
    title: NEW_VERSION_TITLE,
    content: NEW_VERSION_TEXT,
    okText: RELOAD_LABEL,
    onOk: () => window.location.reload(),
    onCancel: () => {
      noticeOpen = false;
    },
  });
}

/** Vite reports a failed preload of a chunk's dependencies here before the import rejects. */
export function installChunkErrorHandler() {
  window.addEventListener('vite:preloadError', (ev) => handleChunkLoadError((ev as Event & { payload?: unknown }).payload));
}
