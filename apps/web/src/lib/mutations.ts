import { useMutation } from '@tanstack/react-query';
import { toastSuccess } from './feedback';

/**
 * A change made from a screen (删除, 保存 …): the call, then its toast (`done`), `then` (close the dialog, forget a
 * selection that is gone) and the screen's queries refreshed. A failure is the HTTP client's toast; nothing else runs.
 * The refresh is not awaited: the change is done when the server answered.
 */
export function useChange<V, R = unknown>(call: (v: V) => Promise<R>, { done, refresh, then }: {
  done: string;
  refresh: () => unknown;
  then?: (result: R, v: V) => void;
}) {
  return useMutation({
    mutationFn: call,
    onSuccess: (result, v) => {
      toastSuccess(done);
      then?.(result, v);
      void refresh();
    },
  });
}
