import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { deviceTopic } from '@kelvin/contracts';
import { findMosquitto, startMosquitto, type Mosquitto } from '../../../../../scripts/mosquitto-lib.mjs';
import { createTenantWithProject, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { hashSecret, simulatorKey, simulatorSecret } from '../devices/index.ts';
import { upPayload, waitFor } from '../devices/test-fixtures.ts';
import { DEVICE_MARK, connectDynsec, deviceAcls, roleOf, type DynsecClient } from './dynsec.ts';

/**
 * Kelvin's devices as Mosquitto dynamic-security accounts, against a real mosquitto started for this file (its own
 * port, config and dynsec file): the same refusals as the embedded broker, changes reflected within seconds, and a
 * full re-sync that needs no secret.
 */
const found = findMosquitto();
if (!found) console.warn('跳过 Mosquitto 动态安全测试：本机没有 mosquitto 或其 dynamic-security 插件（apt-get install mosquitto）');

let m: Mosquitto;
let k: TestClient;
let admin: DynsecClient;
let t: Awaited<ReturnType<typeof createTenantWithProject>>;
let other: Awaited<ReturnType<typeof createTenantWithProject>>;
let token: string;
const server = { username: 'kelvin-server', password: crypto.randomBytes(9).toString('hex') };

interface Creds { deviceId: number; code: string; password: string; up: string; down: string; ack: string }

async function createDevice(projectId = t.projectId, areaId = t.buildingId, as = token): Promise<Creds> {
  const res = await k.call('POST', `/api/v1/device/create/${projectId}/${areaId}/device20020`, { token: as, body: {} });
  expect(res.body.code, res.body.msg).toBe(200);
  const c = res.body.data.credentials;
  return { deviceId: c.deviceId, code: c.deviceCode, password: c.password, up: c.topics.up, down: c.topics.down, ack: c.topics.ack };
}

/** Resolves with the client once connected, or the CONNACK refusal. */
async function connect(opts: IClientOptions): Promise<MqttClient | Error> {
  const client = mqtt.connect(m.url, { reconnectPeriod: 0, connectTimeout: 5000, protocolVersion: 5, ...opts });
  return new Promise((resolve) => {
    const refused = (err: Error) => {
      client.end(true);
      resolve(err);
    };
    client.once('connect', () => {
      client.off('error', refused);
      client.on('error', () => {});
      resolve(client);
    });
    client.once('error', refused);
  });
}

const asDevice = (c: Creds, password = c.password) => connect({ clientId: c.code, username: c.code, password });

async function connected(c: Creds): Promise<MqttClient> {
  const client = await asDevice(c);
  if (client instanceof Error) throw client;
  return client;
}

/** Accepted (or refused) within a few seconds: the broker follows Kelvin asynchronously. */
async function eventually(c: Creds, accepted: boolean, password = c.password) {
  await waitFor(async () => {
    const client = await asDevice(c, password);
    const ok = !(client instanceof Error);
    if (ok) await client.endAsync();
    return ok === accepted;
  }, 10_000);
}

const history = async (deviceId: number) => {
  await k.kelvin.devices.ingest.writer.flush();
  return k.db.selectFrom('device_history').select(['field_code', 'num', 'ts']).where('device_id', '=', deviceId).orderBy('ts').execute();
};
const counter = async (name: string) => {
  await k.kelvin.devices.ingest.writer.flush();
  return Number((await k.db.selectFrom('ingest_counter').select('value').where('name', '=', name).executeTakeFirst())?.value ?? 0);
};
const brokerClient = async (code: string) => (await admin.run([{ command: 'getClient', username: code }]))[0];

beforeAll(async () => {
  if (!found) return;
  m = await startMosquitto();
  k = await startTestKelvin({
    mqttEnabled: true, mqttUrl: m.url, mqttUsername: server.username, mqttPassword: server.password,
    dynsec: { user: m.admin.username, password: m.admin.password, resyncMs: 0 },
  });
  await k.kelvin.broker.sync!.ready();
  admin = connectDynsec({ url: m.url, username: m.admin.username, password: m.admin.password });
  const codes = ['devicemonitor', 'deviceList_n', 'deviceList_n:btn_add', 'deviceList_n:btn_edit', 'deviceList_n:btn_del'];
  t = await createTenantWithProject(k.db, 'dyna', codes);
  other = await createTenantWithProject(k.db, 'dynb', codes);
  token = await k.login(t.username, t.password);
  await waitFor(async () => admin.connected() && k.kelvin.mqtt!.status() === 'up', 10_000).catch((err) => {
    console.error(m.log(), admin.connected(), k.kelvin.mqtt!.status());
    throw err;
  });
}, 60_000);
afterAll(async () => {
  await admin?.close();
  await k?.close();
  await m?.stop();
});

describe.skipIf(!found)('Mosquitto 动态安全：设备账号由 Kelvin 管理', () => {
  it('the server logs in with the account Kelvin made for it; a device created in Kelvin logs in with its secret and reports', async () => {
    const dev = await createDevice();
    await k.kelvin.broker.sync!.settled();
    const client = await connected(dev);
    const ts = Date.now() - 1000;
    await client.publishAsync(dev.up, upPayload({ f04: 23.5 }, ts), { qos: 1 });
    expect(await waitFor(async () => {
      const rows = await history(dev.deviceId);
      return rows.length ? rows : undefined;
    })).toEqual([{ field_code: 'f04', num: 23.5, ts }]);
    // its subscription to its own down topic is granted
    const granted = await client.subscribeAsync(dev.down, { qos: 1 });
    expect(granted[0].qos).toBe(1);
    await client.endAsync();
    const account = await brokerClient(dev.code);
    expect(account.data?.client).toMatchObject({ username: dev.code, clientid: dev.code, textname: DEVICE_MARK, roles: [{ rolename: roleOf(dev.code) }] });
  });

  it('refuses what the embedded broker refuses: anonymous, wildcard ids, a borrowed name, a wrong secret, foreign topics', async () => {
    const dev = await createDevice();
    const neighbour = await createDevice();
    const foreign = await createDevice(other.projectId, other.buildingId, await k.login(other.username, other.password));
    await k.kelvin.broker.sync!.settled();
    const before = await counter('refused_auth');

    expect(await connect({ clientId: dev.code })).toBeInstanceOf(Error); // anonymous
    expect(await connect({ clientId: `${dev.code}+`, username: `${dev.code}+`, password: dev.password })).toBeInstanceOf(Error);
    expect(await connect({ clientId: '#', username: dev.code, password: dev.password })).toBeInstanceOf(Error);
    expect(await connect({ clientId: neighbour.code, username: dev.code, password: dev.password })).toBeInstanceOf(Error);
    expect(await asDevice(dev, 'not-the-secret')).toBeInstanceOf(Error);
    expect(await asDevice(dev, neighbour.password)).toBeInstanceOf(Error);

    const client = await connected(dev);
    // MQTT 5 answers a refused publish with reason 135 (not authorised); nothing reaches the ingest
    for (const topic of [neighbour.up, foreign.up, deviceTopic('dynb', dev.code, 'up'), 'kelvin/dyna/x/down', neighbour.down]) {
      await expect(client.publishAsync(topic, upPayload({ f04: 30 }), { qos: 1 }), topic).rejects.toMatchObject({ code: 135 });
    }
    for (const filter of [neighbour.down, foreign.down, 'kelvin/#', `kelvin/dyna/+/down`, '$share/kelvin/kelvin/+/+/up', '$SYS/#']) {
      await expect(client.subscribeAsync(filter, { qos: 1 }), filter).rejects.toThrow('Not authorized');
    }
    await client.endAsync();
    expect(await history(neighbour.deviceId)).toEqual([]);
    expect(await history(foreign.deviceId)).toEqual([]);
    // Mosquitto's refusals reach the service monitor's counters through its $SYS log topic (6 refused CONNECTs)
    await waitFor(async () => (await counter('refused_auth')) >= before + 6, 10_000);
  });

  it('re-key, disable, enable and delete in Kelvin reach the broker within seconds (and drop the connection)', async () => {
    const dev = await createDevice();
    await eventually(dev, true);
    const held = await connected(dev);
    const dropped = new Promise<void>((r) => held.once('close', () => r()));

    const rekey = await k.call('POST', `/api/v1/device/credentials/${dev.deviceId}`, { token });
    expect(rekey.body.code).toBe(200);
    await dropped;
    const rekeyed = { ...dev, password: rekey.body.data.password as string };
    await eventually(rekeyed, true);
    expect(await asDevice(dev)).toBeInstanceOf(Error); // the old secret

    const held2 = await connected(rekeyed);
    const dropped2 = new Promise<void>((r) => held2.once('close', () => r()));
    expect((await k.call('POST', '/api/v1/device/active', { token, body: { ids: [dev.deviceId], enabled: false } })).body.code).toBe(200);
    await dropped2;
    await eventually(rekeyed, false);
    expect((await brokerClient(dev.code)).data?.client).toMatchObject({ disabled: true });

    expect((await k.call('POST', '/api/v1/device/active', { token, body: { ids: [dev.deviceId], enabled: true } })).body.code).toBe(200);
    await eventually(rekeyed, true);

    expect((await k.call('POST', '/api/v1/device/deletedevice', { token, body: { id: dev.deviceId } })).body.code).toBe(200);
    await eventually(rekeyed, false);
    expect((await brokerClient(dev.code)).error).toBeTruthy(); // the account is gone
    expect((await admin.run([{ command: 'getRole', rolename: roleOf(dev.code) }]))[0].error).toBeTruthy();
    expect(await k.db.selectFrom('broker_client').selectAll().where('device_code', '=', dev.code).execute()).toEqual([]);
  });

  it('a full re-sync needs no secret: it rebuilds accounts, sets derivable (simulated) secrets, disables stale passwords and removes orphans', async () => {
    const sync = k.kelvin.broker.sync!;
    // (a) the broker lost a device's account: rebuilt, but without the secret it cannot log in until reissued
    const lost = await createDevice();
    await eventually(lost, true);
    await admin.run([{ command: 'deleteClient', username: lost.code }, { command: 'deleteRole', rolename: roleOf(lost.code) }]);
    // (b) a simulated device written straight to the database (`./kelvin simulate` does): its secret derives from the simulator key
    const code = `DYNSIM-${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
    const secret = simulatorSecret(await simulatorKey(k.db), code);
    const now = Date.now();
    const sim = await k.db.insertInto('device').values({
      tenant_id: t.tenantId, project_id: t.projectId, area_id: t.buildingId, gateway_id: null, device_type: 'device20020', device_code: code,
      device_name: '模拟', secret_hash: hashSecret(secret), enabled: 1, created_at: now, updated_at: now, last_report_at: null, online_until: null,
      last_connect_at: null, command_pending_at: null,
    }).returning('id').executeTakeFirstOrThrow();
    // (c) a secret changed in the database while no process could tell the broker: the old password must stop working
    const stale = await createDevice();
    await eventually(stale, true);
    await k.db.updateTable('device').set({ secret_hash: hashSecret('issued-elsewhere') }).where('id', '=', stale.deviceId).execute();
    // (d) an account Kelvin made for a device that no longer exists
    await admin.run([
      { command: 'createRole', rolename: roleOf('GONE-1'), acls: deviceAcls('kelvin/dyna/GONE-1/') },
      { command: 'createClient', username: 'GONE-1', clientid: 'GONE-1', password: 'x', textname: DEVICE_MARK, roles: [{ rolename: roleOf('GONE-1') }] },
      // an account someone else made is left alone
      { command: 'createClient', username: 'someone-else', password: 'y' },
    ]);

    const report = await sync.resync();
    expect(report.deleted).toBe(1);
    expect(report.needRekey).toBeGreaterThanOrEqual(2); // lost and stale
    expect((await brokerClient(lost.code)).data?.client).toMatchObject({ username: lost.code, disabled: true });
    expect(await asDevice(lost)).toBeInstanceOf(Error);
    await eventually({ deviceId: sim.id, code, password: secret, up: '', down: '', ack: '' }, true);
    expect(await asDevice(stale)).toBeInstanceOf(Error);
    expect((await brokerClient('GONE-1')).error).toBeTruthy();
    expect((await brokerClient('someone-else')).data?.client).toMatchObject({ username: 'someone-else' });

    // reissuing the lost device's secret brings it back
    const rekey = await k.call('POST', `/api/v1/device/credentials/${lost.deviceId}`, { token });
    await eventually({ ...lost, password: rekey.body.data.password }, true);
    // a second re-sync has nothing left to do for the devices in line
    const again = await sync.resync();
    expect(again.deleted).toBe(0);
  });
});
