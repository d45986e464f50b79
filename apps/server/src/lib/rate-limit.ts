import { AppError } from './errors.ts';
import { ResultCode } from '@kelvin/contracts';

/**
 * A fixed-window counter per key (an address) for public endpoints that read a lot (the /demo tour). Kept in the
 * process: behind several processes each allows its own share, which is the point of it — a cap on the load one
 * address can put on one process — not an accounting that must be exact.
 */
export function rateLimiter(opts: { limit: number; windowMs: number; message: string; now?: () => number }) {
  const hits = new Map<string, { start: number; n: number }>();
  const now = opts.now ?? Date.now;
  return {
    hit(key: string) {
      const t = now();
      const w = hits.get(key);
      if (!w || t - w.start >= opts.windowMs) {
        if (hits.size > 10_000) for (const [k, v] of hits) if (t - v.start >= opts.windowMs) hits.delete(k);
        hits.set(key, { start: t, n: 1 });
        return;
      }
      w.n += 1;
      if (w.n > opts.limit) throw new AppError(ResultCode.TOO_MANY_REQUESTS, opts.message);
    },
  };
}
