import { withQuery } from './http';
import { getStored } from './storage';

/**
 * The live stream (SSE `/api/v1/live`) of one project (of every project the user sees without one), with the signed-in user's token (EventSource cannot send
 * headers); null when there is no token or no EventSource. EventSource reconnects by itself; close it when done.
 */
export function openLiveStream(projectId?: number): EventSource | null {
  const token = getStored('token');
  if (!token || typeof EventSource === 'undefined') return null;
  return new EventSource(withQuery('/api/v1/live', { token, projectId }));
}
