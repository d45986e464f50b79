import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { deviceTopic } from '@kelvin/contracts';
import type { TestClient } from '../../test/harness.ts';
import { hashSecret } from './credentials.ts';

/** Test fixtures of the live-devices domain: devices with a known secret, and real mqtt.js clients for them. */
export interface TestDevice {
  id: number;
  code: string;
  secret: string;
  tenantCode: string;
  projectId: number;
  topics: { up: string; down: string; ack: string };
}

let serial = 0;

export async function createTestDevice(k: TestClient, d: { tenantId: number; projectId: number; areaId?: number | null; type?: string; code?: string; name?: string }): Promise<TestDevice> {
  const code = d.code ?? `T${process.pid}-${Date.now().toString(36)}-${++serial}`;
  const secret = `secret-${code}`;
  const now = Date.now();
  const row = await k.db.insertInto('device').values({
    tenant_id: d.tenantId, project_id: d.projectId, area_id: d.areaId ?? null, gateway_id: null, device_type: d.type ?? 'device20020',
    device_code: code, device_name: d.name ?? `测试设备 ${code}`, secret_hash: hashSecret(secret), enabled: 1, created_at: now, updated_at: now,
    last_report_at: null, online_until: null, last_connect_at: null, command_pending_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  const tenantCode = (await k.db.selectFrom('tenant').select('code').where('id', '=', d.tenantId).executeTakeFirstOrThrow()).code;
  return {
    id: row.id, code, secret, tenantCode, projectId: d.projectId,
    topics: { up: deviceTopic(tenantCode, code, 'up'), down: deviceTopic(tenantCode, code, 'down'), ack: deviceTopic(tenantCode, code, 'ack') },
  };
}

export function brokerUrl(k: TestClient) {
  return `mqtt://127.0.0.1:${k.kelvin.mqtt!.port}`;
}

/**
 * Connects (throws on a refused CONNACK); `subscribe` also subscribes to the device's down topic. `url`: another of
 * the broker's listeners (mqtts://, ws://, wss://).
 */
export async function connectDevice(k: TestClient, dev: TestDevice, opts: { subscribe?: boolean; options?: IClientOptions; url?: string } = {}): Promise<MqttClient> {
  const client = mqtt.connect(opts.url ?? brokerUrl(k), {
    clientId: dev.code, username: dev.code, password: dev.secret, reconnectPeriod: 0, connectTimeout: 5000, ...opts.options,
  });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
    client.once('close', () => reject(new Error('connection closed')));
  });
  client.on('error', () => {});
  if (opts.subscribe !== false) await client.subscribeAsync(dev.topics.down, { qos: 1 });
  return client;
}

/**
 * Resolves with the CONNACK error (or null when the broker accepted the connection, or 'connection closed' when it
 * ended without a CONNACK: a failed TLS handshake); `url` as for connectDevice.
 */
export async function tryConnect(k: TestClient, options: IClientOptions, url = brokerUrl(k)): Promise<Error | null> {
  const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 5000, ...options });
  try {
    return await new Promise<Error | null>((resolve) => {
      client.once('connect', () => resolve(null));
      client.once('error', (err) => resolve(err));
      client.once('close', () => resolve(new Error('connection closed')));
    });
  } finally {
    await client.endAsync(true);
  }
}

export const upPayload = (fields: Record<string, unknown>, ts = Date.now()) => JSON.stringify({ ts, fields });

/** The next message on the client (a command on the down topic), or a timeout error. */
export function nextMessage(client: MqttClient, timeoutMs = 5000): Promise<{ topic: string; body: any }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no message')), timeoutMs);
    client.once('message', (topic, payload) => {
      clearTimeout(timer);
      resolve({ topic, body: JSON.parse(payload.toString()) });
    });
  });
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Writes electric-meter readings (f70, kWh) through the real ingest writer, so the roll-ups are the ones production
 * keeps. Each reading: [device id, China Standard Time 'YYYY-MM-DDTHH:mm:ss', value].
 */
export async function ingestKwh(k: TestClient, at: { tenantId: number; projectId: number }, readings: [number, string, number][]) {
  const writer = k.kelvin.devices.ingest.writer;
  const done = readings.map(([deviceId, time, kwh]) => writer.enqueue({
    deviceId, deviceType: 'device20090', tenantId: at.tenantId, projectId: at.projectId, heartbeatMs: 60_000, receivedAt: Date.now(), ts: Date.parse(`${time}+08:00`),
    points: [{ code: 'f70', num: kwh, txt: null }],
  }));
  await writer.flush();
  await Promise.all(done);
}
