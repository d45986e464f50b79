import { create } from 'zustand';

/** Client errors for the 'bug日志' dialog (spec §2.2, §8): newest first, clearable. */
export interface LoggedError {
  message: string;
  stack: string;
  url: string;
  at: number;
  /** a failed API call's trace id (调用链路追踪) */
  traceId?: string;
}

interface ErrorLogState {
  errors: LoggedError[];
  add(err: unknown, url?: string, traceId?: string): void;
  clear(): void;
}

const MAX_ERRORS = 100;

export const useErrorLog = create<ErrorLogState>((set) => ({
  errors: [],
  add(err, url = window.location.href, traceId) {
    const e = err instanceof Error ? err : new Error(typeof err === 'string' ? err : JSON.stringify(err));
    set((s) => ({ errors: [{ message: e.message, stack: e.stack ?? '', url, at: Date.now(), ...(traceId && { traceId }) }, ...s.errors].slice(0, MAX_ERRORS) }));
  },
  clear: () => set({ errors: [] }),
}));

/** Window-level errors and unhandled promise rejections feed the log. */
export function installErrorCapture() {
  window.addEventListener('error', (ev) => useErrorLog.getState().add(ev.error ?? ev.message));
  window.addEventListener('unhandledrejection', (ev) => useErrorLog.getState().add(ev.reason));
}
