import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestKelvin, twoTenants, type TenantWithProject, type TestClient } from '../test/harness.ts';
import { connectDevice, createTestDevice, upPayload, type TestDevice } from '../modules/devices/test-fixtures.ts';
import { openSse } from '../test/sse.ts';
import { createLiveHub, type LiveMessage } from './live.ts';

let k: TestClient;
let base: string;
let a: TenantWithProject, tokenA: string, tokenB: string;
let dev: TestDevice;

const streams: http.ClientRequest[] = [];
const openStream = (url: string, headers: Record<string, string> = {}) => openSse(url, headers, streams);

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  await k.kelvin.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(k.kelvin.app.server.address() as AddressInfo).port}`;
  ({ a, tokenA, tokenB } = await twoTenants(k, 'live', ['devicemonitor', 'devicemonitor:control']));
  dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
});
afterAll(async () => {
  for (const s of streams) s.destroy();
  await k?.close();
});

describe('实时事件 (SSE)', () => {
  it('streams a device state change and the command status to the tenant, not to another tenant', async () => {
    const mine = openStream(`${base}/api/v1/live?token=${encodeURIComponent(tokenA)}&projectId=${a.projectId}`);
    const theirs = openStream(`${base}/api/v1/live`, { authorization: tokenB });
    expect(await mine.ready).toBe(200);
    expect(await theirs.ready).toBe(200);
    await mine.next((e) => e.event === 'ready');
    await theirs.next((e) => e.event === 'ready');

    const client = await connectDevice(k, dev);
    client.on('message', (_t, p) => {
      const { id } = JSON.parse(p.toString());
      client.publish(dev.topics.ack, JSON.stringify({ id, ok: true }), { qos: 1 });
      client.publish(dev.topics.up, upPayload({ f04: 26.5 }), { qos: 1 });
    });
    await client.publishAsync(dev.topics.up, upPayload({ f03: 19.5, f04: 22 }), { qos: 1 });
    const state = await mine.next((e) => e.event === 'device' && e.data.fields.f03 === 19.5);
    expect(state.data).toMatchObject({ deviceId: dev.id, projectId: a.projectId, lastReportAt: expect.any(Number), onlineUntil: expect.any(Number), fields: { f03: 19.5, f04: 22 } });

    const res = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f04/26.5`, { token: tokenA });
    const acked = await mine.next((e) => e.event === 'command' && e.data.commandId === res.body.data.commandId && e.data.status === 'acked');
    expect(acked.data).toMatchObject({ deviceId: dev.id, projectId: a.projectId, error: null });
    await mine.next((e) => e.event === 'device' && e.data.fields.f04 === 26.5);
    await client.endAsync();
    await new Promise((r) => setTimeout(r, 200));
    expect(theirs.events.filter((e) => e.event !== 'ready')).toEqual([]);
  });

  it('refuses a stream without a valid token, and a project of another tenant', async () => {
    const none = openStream(`${base}/api/v1/live`);
    expect(await none.ready).toBe(401);
    const foreign = openStream(`${base}/api/v1/live?token=${encodeURIComponent(tokenB)}&projectId=${a.projectId}`);
    expect(await foreign.ready).toBe(404);
  });

  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))('fans out across processes through PostgreSQL LISTEN/NOTIFY', async () => {
    const config = k.kelvin.app.config;
    // a second hub on its own connections stands in for another server process
    const other = await createLiveHub({ db: k.db, databaseUrl: config.databaseUrl, schema: config.databaseSchema, onError: () => {} });
    try {
      const got = new Promise<LiveMessage>((resolve) => other.subscribe(resolve));
      const client = await connectDevice(k, dev);
      await client.publishAsync(dev.topics.up, upPayload({ f03: 18.25 }), { qos: 1 });
      const m = await got;
      expect(m).toMatchObject({ kind: 'device', tenantId: a.tenantId, data: { deviceId: dev.id, fields: { f03: 18.3 } } });
      await client.endAsync();
    } finally {
      await other.close();
    }
  });
});
