import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IClientOptions, MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createTenantWithProject, startTestKelvin, type TestClient } from '../test/harness.ts';
import { connectDevice, createTestDevice, nextMessage, tryConnect, upPayload, waitFor, type TestDevice } from '../modules/devices/test-fixtures.ts';
import { startMqtt } from './mqtt.ts';

/**
 * The embedded broker's mqtts and MQTT-over-WebSocket listeners: a device gets in with its own secret and its reports
 * are stored, a wrong secret and a foreign topic are refused exactly as on the plain listener, and the TLS listener
 * really is TLS (a client that does not trust the certificate, or speaks plain MQTT, gets nowhere).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-tls-'));
const certFile = path.join(dir, 'cert.pem');
const keyFile = path.join(dir, 'key.pem');
// node:crypto cannot issue X.509 certificates: a self-signed one for localhost from openssl, valid one day
execFileSync('openssl', [
  'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
  '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', keyFile, '-out', certFile,
], { stdio: 'ignore' });
const ca = fs.readFileSync(certFile);
/** the device trusts exactly this certificate (verification stays on) */
const trusting: IClientOptions = { ca, rejectUnauthorized: true, servername: 'localhost' };

const history = (id: number) => k.db.selectFrom('device_history').select(['field_code', 'num']).where('device_id', '=', id).orderBy('field_code').execute();
/** the refusals logged for a device (written with the counters, within a second) */
const rejects = (code: string, reason: string) => waitFor(async () => {
  const rows = await k.db.selectFrom('ingest_reject').select(['reason', 'topic']).where('device_code', '=', code).where('reason', '=', reason).execute();
  return rows.length ? rows : undefined;
});

let k: TestClient;
let plain: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;
let urls: { mqtts: string; wss: string; ws: string };

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0, mqttTlsPort: 0, mqttWsPort: 0, mqttTls: { certFile, keyFile } });
  // without certificate files the WebSocket listener is plain ws
  plain = await startTestKelvin({ mqttEnabled: true, mqttPort: 0, mqttWsPort: 0 });
  a = await createTenantWithProject(k.db, 'tlsa', ['devicemonitor', 'devicemonitor:control']);
  const hub = k.kelvin.mqtt!;
  expect(hub.wsSecure).toBe(true);
  expect(plain.kelvin.mqtt!.wsSecure).toBe(false);
  expect(plain.kelvin.mqtt!.tlsPort).toBeNull();
  urls = {
    mqtts: `mqtts://localhost:${hub.tlsPort}`,
    wss: `wss://localhost:${hub.wsPort}/mqtt`,
    ws: `ws://127.0.0.1:${plain.kelvin.mqtt!.wsPort}/mqtt`,
  };
});
afterAll(async () => {
  await k?.close();
  await plain?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Publishes a report over `client` and waits until its readings are in the history (the PUBACK means committed). */
async function reportStored(client: MqttClient, dev: TestDevice, db: TestClient, value: number) {
  await client.publishAsync(dev.topics.up, upPayload({ f03: value, f04: 22 }), { qos: 1 });
  const rows = await db.db.selectFrom('device_history').select(['field_code', 'num']).where('device_id', '=', dev.id).orderBy('field_code').execute();
  expect(rows).toEqual([{ field_code: 'f03', num: value }, { field_code: 'f04', num: 22 }]);
}

describe('MQTT over TLS (mqtts)', () => {
  it('a device connects with its secret, its report is stored, and a command reaches it and is acknowledged over TLS', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, dev, { url: urls.mqtts, options: trusting });
    await reportStored(client, dev, k, 21.5);
    expect(k.kelvin.mqtt!.isConnected(dev.code)).toBe(true);

    const received = nextMessage(client);
    const token = await k.login(a.username, a.password);
    const res = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f04/24.5`, { token });
    const down = await received;
    expect(down.body).toEqual({ id: res.body.data.commandId, fields: { f04: 24.5 } });
    await client.publishAsync(dev.topics.ack, JSON.stringify({ id: down.body.id, ok: true }), { qos: 1 });
    const row = await waitFor(async () => {
      const c = await k.db.selectFrom('device_command').select('status').where('id', '=', down.body.id).executeTakeFirst();
      return c?.status === 'acked' ? c : undefined;
    });
    expect(row.status).toBe('acked');
    await client.endAsync();
  });

  it('a wrong secret is refused over TLS, and a publish to another device\'s topic is dropped', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const other = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const refused = await tryConnect(k, { clientId: dev.code, username: dev.code, password: 'wrong-secret', ...trusting }, urls.mqtts);
    expect(refused?.message).toMatch(/Bad username or password|Not authorized/);
    expect(await tryConnect(k, { clientId: dev.code, ...trusting }, urls.mqtts)).not.toBeNull(); // anonymous

    const client = await connectDevice(k, dev, { url: urls.mqtts, options: trusting });
    // the broker closes the connection of a device publishing to another device's topic; nothing is stored for it
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    client.publish(other.topics.up, upPayload({ f03: 30 }), { qos: 1 });
    await closed;
    client.end(true);
    expect(await history(other.id)).toEqual([]);
    expect(await rejects(dev.code, 'acl_publish')).toContainEqual({ reason: 'acl_publish', topic: other.topics.up });
  });

  it('is really TLS: a client that does not trust the certificate, or speaks plain MQTT, is not connected', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const untrusted = await tryConnect(k, { clientId: dev.code, username: dev.code, password: dev.secret, rejectUnauthorized: true }, urls.mqtts);
    expect(untrusted?.message).toMatch(/self[- ]signed certificate/);
    const plainOnTls = await tryConnect(k, { clientId: dev.code, username: dev.code, password: dev.secret, connectTimeout: 1000 }, `mqtt://localhost:${k.kelvin.mqtt!.tlsPort}`);
    expect(plainOnTls?.message).toBe('connection closed');
    expect(k.kelvin.mqtt!.isConnected(dev.code)).toBe(false);
  });
});

describe('MQTT over WebSocket', () => {
  it('wss (certificate configured): a device connects, its report is stored; a wrong secret is refused', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, dev, { url: urls.wss, options: trusting });
    await reportStored(client, dev, k, 19.5);
    await client.endAsync();
    const refused = await tryConnect(k, { clientId: dev.code, username: dev.code, password: 'wrong-secret', ...trusting }, urls.wss);
    expect(refused?.message).toMatch(/Bad username or password|Not authorized/);
    expect(await rejects(dev.code, 'auth')).toHaveLength(1);
  });

  it('ws (no certificate): a device connects, its report is stored; a wrong secret is refused', async () => {
    const b = await createTenantWithProject(plain.db, 'wsb', []);
    const dev = await createTestDevice(plain, { tenantId: b.tenantId, projectId: b.projectId });
    const client = await connectDevice(plain, dev, { url: urls.ws });
    await reportStored(client, dev, plain, 18);
    await client.endAsync();
    const refused = await tryConnect(plain, { clientId: dev.code, username: dev.code, password: 'wrong-secret' }, urls.ws);
    expect(refused?.message).toMatch(/Bad username or password|Not authorized/);
  });

  it('an HTTP request that is not a WebSocket upgrade is told to use MQTT over WebSocket', async () => {
    const res = await fetch(urls.ws.replace('ws://', 'http://'));
    expect(res.status).toBe(426);
    expect(await res.text()).toContain('MQTT over WebSocket');
  });
});

describe('configuration', () => {
  it('MQTT_TLS_PORT needs both PEM files; an empty port is no listener', () => {
    expect(() => loadConfig({ MQTT_TLS_PORT: '8883' })).toThrow(/MQTT_TLS_PORT 需要同时设置 MQTT_TLS_CERT 和 MQTT_TLS_KEY/);
    expect(() => loadConfig({ MQTT_TLS_CERT: certFile })).toThrow(/须同时设置/);
    expect(loadConfig({ MQTT_TLS_PORT: '', MQTT_WS_PORT: '' })).toMatchObject({ mqttTlsPort: undefined, mqttWsPort: undefined, mqttTls: undefined });
    expect(loadConfig({ MQTT_TLS_PORT: '8883', MQTT_TLS_CERT: certFile, MQTT_TLS_KEY: keyFile })).toMatchObject({ mqttTlsPort: 8883, mqttTls: { certFile, keyFile } });
  });

  it('a certificate file that cannot be read stops the start with the variable and the path', async () => {
    await expect(startMqtt({ port: 0, host: '127.0.0.1', tlsPort: 0, tls: { certFile: path.join(dir, 'missing.pem'), keyFile } }))
      .rejects.toThrow(/无法读取 MQTT_TLS_CERT 指定的文件 .*missing\.pem/);
  });
});
