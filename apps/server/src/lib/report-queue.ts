/** How long a drain runs before it gives the event loop a turn. */
const SLICE_MS = 5;

/**
 * A handler's deferred steps (raises, clears, firings), one after another: undefined when there are none, so an item
 * that changes nothing costs no promise.
 */
export function inOrder(steps: (() => Promise<void>)[] | undefined): Promise<void> | undefined {
  if (!steps) return undefined;
  return (async () => {
    for (const step of steps) await step();
  })();
}

/**
 * Items handled one after another, in order, on the main thread, without holding up its event loop: a handler that
 * needs no I/O answers synchronously (no promise per item), one that does returns a promise and the next item waits
 * for it; every few milliseconds the drain yields (setImmediate), so ten thousand reports of one committed batch are
 * many short turns, not one long one. Beyond `max` waiting items new ones are dropped and counted: the consumers
 * (monitoring rules, strategy tasks) must never slow the ingest down.
 */
export function createReportQueue<T>(opts: { max: number; handle(item: T): Promise<void> | void; onError(err: unknown): void }) {
  let queue: T[] = [];
  let next = 0;
  let draining: Promise<void> | null = null;
  let dropped = 0;
  let stopped = false;
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

  async function drain() {
    let sliceStart = performance.now();
    while (next < queue.length && !stopped) {
      const item = queue[next]!;
      queue[next++] = undefined as T; // let the report go
      try {
        const pending = opts.handle(item);
        if (pending) await pending;
      } catch (err) {
        opts.onError(err);
      }
      if (next === queue.length) {
        queue = [];
        next = 0;
      }
      if (performance.now() - sliceStart >= SLICE_MS) {
        await turn();
        sliceStart = performance.now();
      }
    }
  }

  function kick() {
    if (draining || stopped) return;
    // an item pushed between the loop's end and this settling starts the next drain
    draining = drain().finally(() => {
      draining = null;
      if (next < queue.length) kick();
    });
  }

  return {
    push(item: T) {
      if (queue.length - next >= opts.max) {
        dropped++;
        return;
      }
      queue.push(item);
      kick();
    },
    /** Waits until every queued item has been handled (tests, shutdown). */
    async idle() {
      while (draining) await draining;
    },
    stats: () => ({ queued: queue.length - next, dropped }),
    stop() {
      stopped = true;
    },
  };
}
