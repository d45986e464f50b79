import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { findMosquitto, startMosquitto, type Mosquitto } from '../../../../scripts/mosquitto-lib.mjs';
import { createDb, dropSchema, type Db } from '../db/index.ts';
import { upPayload, waitFor } from '../modules/devices/test-fixtures.ts';
import { ADMIN_PASSWORD, createTenantWithProject } from './harness.ts';
import { openSse } from './sse.ts';

/**
 * Two real server processes (`node --import tsx apps/server/src/server.ts`) on one PostgreSQL schema behind a
 * Mosquitto started here with dynamic security: devices authenticated and confined by the broker, the ingest a
 * `$share` subscription (each report stored once), commands acknowledged through whichever process the broker hands
 * the ack to, live updates and sessions across processes. Runs in the PostgreSQL pass of the API tests.
 */
const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const found = findMosquitto();
if (!found) console.warn('跳过多进程测试：本机没有 mosquitto 或其 dynamic-security 插件（apt-get install mosquitto）');
else if (!pgUrl) console.warn('多进程测试只在 PostgreSQL 上运行（DATABASE_URL=postgres://…），SQLite 这一轮跳过');

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const schema = `kelvin_test_mp_${crypto.randomBytes(4).toString('hex')}`;
const serverAccount = { username: 'kelvin-server', password: crypto.randomBytes(9).toString('hex') };

interface Proc { name: string; url: string; child: ChildProcess; dataDir: string }
let m: Mosquitto;
let a: Proc;
let b: Proc;
let db: Db;
let t: Awaited<ReturnType<typeof createTenantWithProject>>;
let tokenA: string;
const clients: MqttClient[] = [];

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

async function startProcess(name: string): Promise<Proc> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `kelvin-mp-${name}-`));
  const child = spawn('node', ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', KELVIN_DATA_DIR: dataDir, KELVIN_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'warn',
      KELVIN_SIMULATOR: 'off', KELVIN_DEMO: 'off', DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema,
      MQTT_URL: m.url, MQTT_USERNAME: serverAccount.username, MQTT_PASSWORD: serverAccount.password, MQTT_CLIENT_ID: `kelvin-test-${name}`,
      MQTT_DYNSEC: 'on', MQTT_DYNSEC_USER: m.admin.username, MQTT_DYNSEC_PASSWORD: m.admin.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`进程 ${name} 未在 90 秒内启动:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('控制台地址')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`进程 ${name} 退出 (${code}):\n${output}`)));
  });
  return { name, url: `http://127.0.0.1:${port}`, child, dataDir };
}

async function stopProcess(p: Proc | undefined) {
  if (!p) return;
  if (p.child.exitCode === null && p.child.signalCode === null) {
    p.child.kill('SIGTERM');
    await new Promise((r) => p.child.once('exit', r));
  }
  fs.rmSync(p.dataDir, { recursive: true, force: true });
}

async function call(p: Proc, method: string, url: string, token?: string, body?: unknown) {
  const res = await fetch(p.url + url, {
    method,
    headers: { ...(token ? { authorization: token } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as { code: number; msg: string; data: any };
}

async function connectDevice(creds: { deviceCode: string; password: string }): Promise<MqttClient> {
  // the account reaches the broker within seconds of being issued
  return waitFor(async () => {
    const client = mqtt.connect(m.url, { clientId: creds.deviceCode, username: creds.deviceCode, password: creds.password, protocolVersion: 5, reconnectPeriod: 0, connectTimeout: 5000 });
    const ok = await new Promise<boolean>((r) => {
      client.once('connect', () => r(true));
      client.once('error', () => r(false));
    });
    if (!ok) {
      client.end(true);
      return undefined;
    }
    client.on('error', () => {});
    clients.push(client);
    return client;
  }, 15_000);
}

const historyOf = async (deviceId: number) => db.selectFrom('device_history').select(['field_code', 'num', 'ts']).where('device_id', '=', deviceId).orderBy('ts').execute();

describe.skipIf(!found || !pgUrl)('两个服务进程 + PostgreSQL + Mosquitto（动态安全）', () => {
  beforeAll(async () => {
    m = await startMosquitto();
    a = await startProcess('a'); // migrates the schema first
    b = await startProcess('b');
    db = createDb({ dataDir: a.dataDir, databaseUrl: pgUrl, schema });
    t = await createTenantWithProject(db, 'mproc', ['devicemonitor', 'devicemonitor:control', 'deviceList_n', 'deviceList_n:btn_add']);
    tokenA = (await call(a, 'POST', '/api/auth/jwt/token', undefined, { username: t.username, password: t.password })).data;
  }, 240_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await Promise.all([stopProcess(a), stopProcess(b)]);
    await db?.destroy();
    await m?.stop();
    if (pgUrl) await dropSchema(pgUrl, schema);
  }, 60_000);

  it('a login on one process is a session on the other', async () => {
    expect(tokenA).toEqual(expect.any(String));
    const onB = await call(b, 'GET', `/api/v1/device/devicelist?projectId=${t.projectId}`, tokenA);
    expect(onB.code).toBe(200);
    const tokenB = (await call(b, 'POST', '/api/auth/jwt/token', undefined, { username: t.username, password: t.password })).data;
    expect((await call(a, 'GET', `/api/v1/device/devicelist?projectId=${t.projectId}`, tokenB)).code).toBe(200);
  });

  it('devices authenticate through dynamic security, reports are stored once, an SSE client on B sees the reports of both processes, commands from A are acked through B', async () => {
    const made = await call(a, 'POST', `/api/v1/device/create/${t.projectId}/${t.buildingId}/device20020`, tokenA, {});
    const neighbour = await call(a, 'POST', `/api/v1/device/create/${t.projectId}/${t.buildingId}/device20020`, tokenA, {});
    expect(made.code, made.msg).toBe(200);
    const creds = made.data.credentials;
    const deviceId: number = creds.deviceId;
    const device = await connectDevice(creds);
    // refused by the broker: another device's topic, and the wrong secret
    await expect(device.publishAsync(neighbour.data.credentials.topics.up, upPayload({ f04: 30 }), { qos: 1 })).rejects.toMatchObject({ code: 135 });
    const wrong = mqtt.connect(m.url, { clientId: creds.deviceCode, username: creds.deviceCode, password: 'wrong', reconnectPeriod: 0 });
    expect(await new Promise((r) => {
      wrong.once('connect', () => r('accepted'));
      wrong.once('error', () => r('refused'));
    })).toBe('refused');
    wrong.end(true);

    // The broker hands consecutive messages of the shared subscription to the two processes in turn, so of four
    // reports sent one after the other (each waited for) both processes store some: B's SSE client must see them all.
    const sse = openSse(`${b.url}/api/v1/live?token=${encodeURIComponent(tokenA)}&projectId=${t.projectId}`);
    expect(await sse.ready).toBe(200);
    const base = Date.now() - 60_000;
    for (let i = 0; i < 4; i++) {
      const ts = base + i * 1000;
      await device.publishAsync(creds.topics.up, upPayload({ f04: 20 + i }, ts), { qos: 1 });
      await waitFor(async () => (await historyOf(deviceId)).length === i + 1, 10_000);
      await sse.next((e) => e.event === 'device' && e.data.deviceId === deviceId && e.data.ts === ts, 10_000);
    }
    // exactly once: the same report published again (a device's retry) is not stored twice
    await device.publishAsync(creds.topics.up, upPayload({ f04: 23 }, base + 3000), { qos: 1 });
    await device.publishAsync(creds.topics.up, upPayload({ f04: 24 }, base + 4000), { qos: 1 });
    await waitFor(async () => (await historyOf(deviceId)).length === 5, 10_000);
    expect((await historyOf(deviceId)).map((r) => [r.num, r.ts])).toEqual([0, 1, 2, 3, 4].map((i) => [20 + i, base + i * 1000]));
    expect(await historyOf(neighbour.data.credentials.deviceId)).toEqual([]);

    // commands issued on A; the device acknowledges each; acks alternate between the processes like reports
    await device.subscribeAsync(creds.topics.down, { qos: 1 });
    device.on('message', (_topic, payload) => {
      const { id } = JSON.parse(payload.toString());
      device.publish(creds.topics.ack, JSON.stringify({ id, ok: true }), { qos: 1 });
    });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(a, 'POST', `/api/v1/device/writedeviceattr/${deviceId}/f04/${22 + i}`, tokenA);
      expect(res.code, res.msg).toBe(200);
      ids.push(res.data.commandId);
      await waitFor(async () => (await call(a, 'GET', `/api/v1/device/command/${res.data.commandId}`, tokenA)).data.status === 'acked', 10_000);
    }
    for (const id of ids) expect((await call(b, 'GET', `/api/v1/device/command/${id}`, tokenA)).data.status).toBe('acked');
    // four acknowledgements consumed in all, once each, whichever process took them
    await waitFor(async () => Number((await db.selectFrom('ingest_counter').select('value').where('name', '=', 'acks').executeTakeFirst())?.value) === 4, 10_000);
  });
});
