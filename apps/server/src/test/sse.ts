import http from 'node:http';

export interface SseEvent { event: string; data: any }

/** Opens the SSE stream; `next(pred)` resolves with the first matching event. */
export function openSse(url: string, headers: Record<string, string> = {}, requests: http.ClientRequest[] = []) {
  const events: SseEvent[] = [];
  const waiters: { pred: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  let status = 0;
  const ready = new Promise<number>((resolve) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      status = res.statusCode ?? 0;
      resolve(status);
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!event || data === undefined) continue;
          const e = { event, data: JSON.parse(data) };
          events.push(e);
          for (const w of [...waiters]) if (w.pred(e)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(e);
          }
        }
      });
    });
    requests.push(req);
  });
  return {
    ready,
    events,
    next(pred: (e: SseEvent) => boolean, timeoutMs = 5000) {
      const hit = events.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise<SseEvent>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no such event')), timeoutMs);
        waiters.push({ pred, resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        } });
      });
    },
  };
}
