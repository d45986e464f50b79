/**
 * The Idempotency-Key of a money action (top-up, refund, deposit move, settlement). The server applies one key once,
 * so the key's life decides whether a retry can pay twice:
 *
 * - made when the dialog opens (one key per intended payment, not per HTTP request);
 * - no answer (network error, timeout): the outcome is unknown, so the key is KEPT and the amount is locked — the
 *   retry sends the same key and the same body, and the server answers with the first result or applies it once;
 * - the server refused (validation, limits): nothing was applied; a new key for the corrected attempt;
 * - the server accepted: the key is spent; a next payment (dialog opened again) gets a new one.
 */
export type AttemptState = 'ready' | 'unknown' | 'done';

export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class MoneyAttempt {
  private keyValue: string;
  private stateValue: AttemptState = 'ready';

  constructor(private readonly makeKey: () => string = newIdempotencyKey) {
    this.keyValue = makeKey();
  }

  /** the key to send with this try */
  get key(): string {
    return this.keyValue;
  }

  get state(): AttemptState {
    return this.stateValue;
  }

  /** while the outcome is unknown the amount and the other inputs must not change (a retry repeats the same request) */
  get locked(): boolean {
    return this.stateValue === 'unknown';
  }

  /** the request got no answer: keep the key for the retry */
  noAnswer(): void {
    this.stateValue = 'unknown';
  }

  /** the server refused it: nothing was applied; a fresh key for the next try */
  refused(): void {
    this.keyValue = this.makeKey();
    this.stateValue = 'ready';
  }

  /** the server applied it (or answered a retry with the first result): the key is spent */
  succeeded(): void {
    this.stateValue = 'done';
  }

  /** a new payment (the dialog opened again) */
  reset(): void {
    this.keyValue = this.makeKey();
    this.stateValue = 'ready';
  }
}

/** status 0 = no answer (see lib/http): the request may or may not have been applied */
export function settleAttempt(attempt: MoneyAttempt, error: unknown): void {
  const status = (error as { status?: number } | null)?.status;
  if (status === 0 || status === undefined || status >= 500) attempt.noAnswer();
  else attempt.refused();
}
