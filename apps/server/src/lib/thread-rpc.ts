import type { MessagePort, Worker } from 'node:worker_threads';

/** Calls answered by the other side (each resolves with what its handler returned, or rejects with its error). */
type Handlers = Record<string, (...args: never[]) => unknown>;

type Wire =
  | { k: 'call'; id: number; name: string; args: unknown[] }
  | { k: 'tell'; name: string; args: unknown[] }
  | { k: 'reply'; id: number; value?: unknown; error?: string };

/**
 * The one way two threads talk here: named calls with answers (`call`) and one-way notices (`tell`), both sides
 * alike. Answers are matched by id; a handler's failure travels back as its message.
 */
export function threadRpc(port: MessagePort | Worker, handlers: Handlers, onError: (err: unknown) => void) {
  let next = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(err: Error): void }>();
  const post = (m: Wire) => port.postMessage(m);
  port.on('message', (m: Wire) => {
    if (m.k === 'reply') {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.error !== undefined) w?.reject(new Error(m.error));
      else w?.resolve(m.value);
      return;
    }
    const handler = handlers[m.name] as ((...args: unknown[]) => unknown) | undefined;
    if (m.k === 'tell') {
      try {
        handler?.(...m.args);
      } catch (err) {
        onError(err);
      }
      return;
    }
    const id = m.id;
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown call ${m.name}`);
        return handler(...m.args);
      })
      .then((value) => post({ k: 'reply', id, value }), (err: unknown) => post({ k: 'reply', id, error: err instanceof Error ? err.message : String(err) }));
  });
  return {
    call<T = unknown>(name: string, ...args: unknown[]): Promise<T> {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        post({ k: 'call', id, name, args });
      });
    },
    tell(name: string, ...args: unknown[]) {
      post({ k: 'tell', name, args });
    },
    /** fails every call still waiting (the other side is gone) */
    failAll(err: Error) {
      for (const w of waiting.values()) w.reject(err);
      waiting.clear();
    },
  };
}

export type ThreadRpc = ReturnType<typeof threadRpc>;
