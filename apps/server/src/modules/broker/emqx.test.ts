import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithProject, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { createTestDevice, waitFor, type TestDevice } from '../devices/test-fixtures.ts';
import { TOKEN_HEADER } from './index.ts';

/**
 * The endpoints EMQX 5's HTTP authenticator and authorizer call, driven by a stand-in for EMQX: a plain HTTP client
 * sending the request bodies of the documented templates (README, "EMQX") to a listening server.
 */
const TOKEN = 'emqx-shared-secret-0123456789';
const server = { username: 'kelvin-server', password: 'server-pass-2026' };
let k: TestClient;
let base: string;
let dev: TestDevice;
let neighbour: TestDevice;
let foreign: TestDevice;

/** EMQX's request: POST, JSON body from the template, the shared secret in a header. */
async function emqx(path: '/api/mqtt/auth' | '/api/mqtt/acl', body: Record<string, string>, token: string | null = TOKEN) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== null ? { [TOKEN_HEADER]: token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { result: string; is_superuser?: boolean } };
}
const auth = (clientid: string, username: string, password: string) => emqx('/api/mqtt/auth', { clientid, username, password, peerhost: '10.0.0.9' });
const acl = (d: { code: string }, action: 'publish' | 'subscribe', topic: string, username = d.code) =>
  emqx('/api/mqtt/acl', { clientid: d.code, username, topic, action, qos: '1', retain: 'false' });

const counter = async (name: string) => {
  await k.kelvin.devices.ingest.writer.flush();
  return Number((await k.db.selectFrom('ingest_counter').select('value').where('name', '=', name).executeTakeFirst())?.value ?? 0);
};

beforeAll(async () => {
  k = await startTestKelvin({ brokerAuthToken: TOKEN, mqttUsername: server.username, mqttPassword: server.password });
  const address = await k.kelvin.app.listen({ port: 0, host: '127.0.0.1' });
  base = address;
  const t = await createTenantWithProject(k.db, 'emqxa', ['devicemonitor']);
  const o = await createTenantWithProject(k.db, 'emqxb', ['devicemonitor']);
  dev = await createTestDevice(k, { tenantId: t.tenantId, projectId: t.projectId });
  neighbour = await createTestDevice(k, { tenantId: t.tenantId, projectId: t.projectId });
  foreign = await createTestDevice(k, { tenantId: o.tenantId, projectId: o.projectId });
});
afterAll(() => k?.close());

describe('EMQX HTTP 认证与授权', () => {
  it('only EMQX (the shared secret) is answered', async () => {
    expect(await auth(dev.code, dev.code, dev.secret)).toEqual({ status: 200, body: { result: 'allow', is_superuser: false } });
    for (const token of [null, '', 'emqx-shared-secret-012345678', `${TOKEN}x`]) {
      const res = await emqx('/api/mqtt/auth', { clientid: dev.code, username: dev.code, password: dev.secret }, token);
      expect(res, String(token)).toEqual({ status: 403, body: { result: 'deny' } });
    }
  });

  it('authentication: a device with its secret is allowed; anonymous, wildcard ids, borrowed names, wrong secrets and disabled devices are denied and counted', async () => {
    const before = { anonymous: await counter('refused_anonymous'), id: await counter('refused_client_id'), auth: await counter('refused_auth') };
    expect((await auth(dev.code, dev.code, dev.secret)).body.result).toBe('allow');
    expect((await auth(dev.code, '', '')).body.result).toBe('deny');
    expect((await auth(dev.code, dev.code, '')).body.result).toBe('deny');
    expect((await emqx('/api/mqtt/auth', { clientid: dev.code })).body.result).toBe('deny');
    expect((await auth('', dev.code, dev.secret)).body.result).toBe('deny');
    expect((await auth(`${dev.code}/#`, `${dev.code}/#`, dev.secret)).body.result).toBe('deny');
    expect((await auth('+', dev.code, dev.secret)).body.result).toBe('deny');
    expect((await auth(neighbour.code, dev.code, dev.secret)).body.result).toBe('deny');
    expect((await auth(dev.code, dev.code, neighbour.secret)).body.result).toBe('deny');
    expect((await auth('NO-SUCH-DEVICE', 'NO-SUCH-DEVICE', 'x')).body.result).toBe('deny');
    await k.db.updateTable('device').set({ enabled: 0 }).where('id', '=', neighbour.id).execute();
    k.kelvin.devices.devices.forget(neighbour.code);
    expect((await auth(neighbour.code, neighbour.code, neighbour.secret)).body.result).toBe('deny');
    await k.db.updateTable('device').set({ enabled: 1 }).where('id', '=', neighbour.id).execute();
    k.kelvin.devices.devices.reenable(neighbour.code);
    expect((await auth(neighbour.code, neighbour.code, neighbour.secret)).body.result).toBe('allow');
    await waitFor(async () => (await counter('refused_anonymous')) === before.anonymous + 3
      && (await counter('refused_client_id')) === before.id + 3 && (await counter('refused_auth')) === before.auth + 4);
  });

  it('authorization: a device publishes only to its own up/ack and subscribes only to its own down', async () => {
    for (const topic of [dev.topics.up, dev.topics.ack]) expect((await acl(dev, 'publish', topic)).body, topic).toEqual({ result: 'allow' });
    for (const topic of [dev.topics.down, `kelvin/${dev.tenantCode}/${dev.code}/#`]) expect((await acl(dev, 'subscribe', topic)).body, topic).toEqual({ result: 'allow' });
    const before = { pub: await counter('refused_acl_publish'), sub: await counter('refused_acl_subscribe') };
    const foreignPublish = [neighbour.topics.up, foreign.topics.up, dev.topics.down, `kelvin/${foreign.tenantCode}/${dev.code}/up`, 'kelvin/+/+/up', '$SYS/broker/log/N'];
    for (const topic of foreignPublish) expect((await acl(dev, 'publish', topic)).body, topic).toEqual({ result: 'deny' });
    const foreignSubscribe = [neighbour.topics.down, foreign.topics.down, 'kelvin/#', dev.topics.up, '$share/kelvin/kelvin/+/+/up'];
    for (const topic of foreignSubscribe) expect((await acl(dev, 'subscribe', topic)).body, topic).toEqual({ result: 'deny' });
    // a client claiming a device's id under another name gets nothing
    expect((await acl(dev, 'publish', dev.topics.up, neighbour.code)).body).toEqual({ result: 'deny' });
    await waitFor(async () => (await counter('refused_acl_publish')) === before.pub + foreignPublish.length + 1
      && (await counter('refused_acl_subscribe')) === before.sub + foreignSubscribe.length);
  });

  it('the server account: its password, the ingest subscriptions and commands, nothing else', async () => {
    expect((await auth('kelvin-a', server.username, server.password)).body.result).toBe('allow');
    expect((await auth('kelvin-a', server.username, 'wrong')).body.result).toBe('deny');
    const s = { code: 'kelvin-a' };
    for (const topic of ['$share/kelvin/kelvin/+/+/up', '$share/kelvin/kelvin/+/+/ack', 'kelvin/+/+/up']) {
      expect((await acl(s, 'subscribe', topic, server.username)).body, topic).toEqual({ result: 'allow' });
    }
    expect((await acl(s, 'publish', dev.topics.down, server.username)).body).toEqual({ result: 'allow' });
    for (const [action, topic] of [['publish', dev.topics.up], ['publish', 'kelvin/+/+/down'], ['subscribe', '#'], ['subscribe', '$SYS/#']] as const) {
      expect((await acl(s, action, topic, server.username)).body, topic).toEqual({ result: 'deny' });
    }
  });
});
