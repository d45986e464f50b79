/**
 * Devices that connected, collected for a moment and written together: ten thousand devices coming back at once are
 * a few writes, not ten thousand. `close` writes what is collected at once (closing: true) and waits for a write in
 * progress, so a device that connected just before the server stopped keeps its connection time and no timer fires
 * after the database is closed.
 */
export function createConnectionBatch(opts: { intervalMs: number; write(ids: number[], closing: boolean): Promise<void>; onError(err: unknown): void }) {
  let ids = new Set<number>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  function take(closing: boolean): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const taken = [...ids];
    ids = new Set();
    if (!taken.length) return writing;
    writing = writing.then(() => opts.write(taken, closing)).catch(opts.onError);
    return writing;
  }

  return {
    add(id: number) {
      if (closed) return;
      ids.add(id);
      timer ??= setTimeout(() => void take(false), opts.intervalMs);
    },
    async close() {
      closed = true;
      await take(true);
    },
  };
}
