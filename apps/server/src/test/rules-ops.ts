import { w, type Row } from './endpoint-rules.ts';

/** /monitorManager (platform only): the registry, the kept traces and the service monitor's actions. */

const CONTROL = 'serviceMonitorManager:control';
const SOME_TRACE = 'a'.repeat(32);

/** a kept trace to read: a refused call (403) by tenant A's administrator, written at once */
async function keptTrace() {
  const res = await w.k.call('GET', '/api/v1/monitor/instances', { token: w.A.token, headers: { traceparent: `00-${SOME_TRACE}-00f067aa0ba902b7-01` } });
  if (res.status !== 403) throw new Error(`expected a refusal, got ${res.status}`);
  await w.k.kelvin.ops.traces.flush();
  return 0;
}

export const OPS_ROWS: Row[] = [
  { method: 'GET', path: '/api/v1/monitor/instances', code: 'serviceEurekaManager', kind: 'platform' },
  { method: 'GET', path: '/api/v1/monitor/traces', code: 'serviceZipkinManager', kind: 'platform' },
  { method: 'GET', path: '/api/v1/monitor/traces/{traceId}', code: 'serviceZipkinManager', kind: 'platform', setup: keptTrace, url: () => `/api/v1/monitor/traces/${SOME_TRACE}` },
  { method: 'GET', path: '/api/v1/monitor/targets', code: CONTROL, kind: 'platform' },
  { method: 'POST', path: '/api/v1/monitor/iotreload', code: CONTROL, kind: 'platform' },
  { method: 'POST', path: '/api/v1/monitor/mqttbroadcast', code: CONTROL, kind: 'platform', body: () => ({ action: 'refresh' }) },
  { method: 'POST', path: '/api/v1/monitor/rturefresh', code: CONTROL, kind: 'platform', body: () => ({}) },
];
