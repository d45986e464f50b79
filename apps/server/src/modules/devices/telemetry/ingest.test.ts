import net from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createTenantWithProject, startTestKelvin, type TestClient } from '../../../test/harness.ts';
import { connectDevice, createTestDevice, tryConnect, upPayload, waitFor, type TestDevice } from '../test-fixtures.ts';

let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;

const counters = async () => Object.fromEntries((await k.db.selectFrom('ingest_counter').select(['name', 'value']).execute()).map((r) => [r.name, Number(r.value)]));
const history = (id: number) => k.db.selectFrom('device_history').selectAll().where('device_id', '=', id).orderBy('field_code').orderBy('ts').execute();
const state = async (id: number) => Object.fromEntries((await k.db.selectFrom('device_state').selectAll().where('device_id', '=', id).execute()).map((s) => [s.field_code, s.num ?? s.txt]));
/** Counters are written with the next batch or within a second. */
const countersSettled = async () => {
  await k.kelvin.devices.ingest.writer.flush();
  return counters();
};

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  a = await createTenantWithProject(k.db, 'ingesta', ['devicemonitor']);
});
afterAll(() => k?.close());

describe('MQTT 接入', () => {
  let dev: TestDevice;
  beforeAll(async () => {
    dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: a.buildingId });
  });

  it('stores a report once even when it is delivered twice (QoS 1 redelivery): PUBACK comes after the commit', async () => {
    const client = await connectDevice(k, dev);
    const ts = Date.now() - 1000;
    const payload = upPayload({ f03: 21.4, f04: 22, f28: '6:30' }, ts);
    await client.publishAsync(dev.topics.up, payload, { qos: 1 });
    // no flush: the acknowledgement itself means the rows are committed
    expect((await history(dev.id)).map((h) => [h.field_code, h.ts, h.num ?? h.txt])).toEqual([['f03', ts, 21.4], ['f04', ts, 22], ['f28', ts, '06:30']]);
    await client.publishAsync(dev.topics.up, payload, { qos: 1, dup: true });
    await client.publishAsync(dev.topics.up, payload, { qos: 1 });
    expect(await history(dev.id)).toHaveLength(3);
    expect(await state(dev.id)).toEqual({ f03: 21.4, f04: 22, f28: '06:30' });
    const row = await k.db.selectFrom('device').select(['last_report_at', 'online_until']).where('id', '=', dev.id).executeTakeFirstOrThrow();
    expect(row.online_until! - row.last_report_at!).toBe(600_000); // device20020's heartbeat window
    const c = await countersSettled();
    expect(c.points_duplicate).toBeGreaterThanOrEqual(6);
    await client.endAsync();
  });

  it('an older report adds history but does not overwrite newer state', async () => {
    const client = await connectDevice(k, dev);
    const now = Date.now();
    await client.publishAsync(dev.topics.up, upPayload({ f04: 25 }, now), { qos: 1 });
    await client.publishAsync(dev.topics.up, upPayload({ f04: 19 }, now - 60_000), { qos: 1 });
    expect((await state(dev.id)).f04).toBe(25);
    expect((await history(dev.id)).filter((h) => h.field_code === 'f04').map((h) => h.num)).toEqual(expect.arrayContaining([19, 25]));
    await client.endAsync();
  });

  it('malformed payloads are dropped and counted, the connection and the next good report are unaffected', async () => {
    const bad = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, bad);
    const before = (await countersSettled()).malformed ?? 0;
    for (const p of ['not json', '[]', '{"ts":1}', '{"fields":{}}', '{"fields":{"f04":{"x":1}}}', JSON.stringify({ fields: { 'bad code!': 1 } })]) {
      await client.publishAsync(bad.topics.up, p, { qos: 1 });
    }
    await client.publishAsync(bad.topics.up, 'x'.repeat(20 * 1024), { qos: 1 }); // over the payload limit
    expect(client.connected).toBe(true);
    await client.publishAsync(bad.topics.up, upPayload({ f04: 23, f03: 'warm', f99: 7 }), { qos: 1 });
    // f03 is numeric: the text value is dropped, the rest is stored; the unknown code f99 is refused
    expect(await state(bad.id)).toEqual({ f04: 23 });
    const c = await countersSettled();
    expect(c.malformed - before).toBe(6);
    expect(c.oversize).toBeGreaterThanOrEqual(1);
    expect(c.fields_dropped).toBeGreaterThanOrEqual(1);
    const samples = await k.db.selectFrom('ingest_reject').select(['reason', 'device_code']).where('device_code', '=', bad.code).execute();
    expect(samples.map((s) => s.reason)).toEqual(expect.arrayContaining(['malformed', 'oversize']));
    await client.endAsync();
  });

  it('readings outside their field\'s range and codes the type does not have are refused, counted and listed; the rest is kept', async () => {
    const dev2 = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, dev2);
    const before = await countersSettled();
    await client.publishAsync(dev2.topics.up, upPayload({ f04: 99, f03: 1000, f00: 7, f05: 2, zz99: 123, evil_field_01: 'hello' }), { qos: 1 });
    expect(await state(dev2.id)).toEqual({ f05: 2 });
    expect((await history(dev2.id)).map((h) => h.field_code)).toEqual(['f05']);
    // a message whose every reading is refused stores nothing and is not "malformed"
    await client.publishAsync(dev2.topics.up, upPayload({ f04: -5 }), { qos: 1 });
    expect(await history(dev2.id)).toHaveLength(1);
    const c = await countersSettled();
    expect((c.fields_out_of_range ?? 0) - (before.fields_out_of_range ?? 0)).toBe(4);
    expect((c.fields_unknown ?? 0) - (before.fields_unknown ?? 0)).toBe(2);
    expect(c.malformed).toBe(before.malformed);
    const platform = await k.loginAdmin();
    const listed = await k.call('GET', `/api/v1/monitor/ingestrejects?keyword=${dev2.code}&pageSize=50`, { token: platform });
    expect(listed.body.code).toBe(200);
    const rows = listed.body.data.rows as { reason: string; reasonLabel: string; detail: string; deviceCode: string }[];
    expect(rows.map((r) => r.reasonLabel).sort()).toEqual(['未知字段', '读数超出量程']);
    expect(rows.find((r) => r.reason === 'out_of_range')!.detail).toMatch(/^f0[34]=/);
    expect(rows.every((r) => r.deviceCode === dev2.code)).toBe(true);
    await client.endAsync();
  });

  it('a device publishing to another device topic is disconnected, nothing is stored for the other device, and it is logged', async () => {
    const victim = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const intruder = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, intruder);
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    client.publish(victim.topics.up, upPayload({ f04: 30 }), { qos: 1 });
    await closed;
    await countersSettled();
    expect(await history(victim.id)).toEqual([]);
    expect((await counters()).refused_acl_publish).toBeGreaterThanOrEqual(1);
    const logged = await k.db.selectFrom('ingest_reject').select(['reason', 'topic']).where('device_code', '=', intruder.code).execute();
    expect(logged).toContainEqual({ reason: 'acl_publish', topic: victim.topics.up });
    client.end(true);
  });

  it('a device may subscribe only to its own down topic', async () => {
    const other = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, dev, { subscribe: false });
    // mqtt.js reports the refusals as an error carrying the SUBACK
    const granted = await client.subscribeAsync([dev.topics.down, other.topics.down, 'kelvin/#'], { qos: 1 }).then(
      (g) => g.map((x) => x.qos),
      (err: { packet?: { granted: number[] } }) => err.packet?.granted,
    );
    expect(granted).toEqual([1, 128, 128]);
    expect(client.connected).toBe(true);
    await client.endAsync();
  });

  it('refuses anonymous clients, wildcard or mismatched client ids, wrong secrets and disabled devices', async () => {
    expect(await tryConnect(k, { clientId: dev.code })).toMatchObject({ code: 5 });
    expect(await tryConnect(k, { clientId: 'dev/+', username: 'dev/+', password: 'x' })).toMatchObject({ code: 2 });
    expect(await tryConnect(k, { clientId: 'other', username: dev.code, password: dev.secret })).toMatchObject({ code: 4 });
    expect(await tryConnect(k, { clientId: dev.code, username: dev.code, password: 'wrong' })).toMatchObject({ code: 4 });
    expect(await tryConnect(k, { clientId: dev.code, username: dev.code, password: dev.secret })).toBeNull();
    const off = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    await k.db.updateTable('device').set({ enabled: 0 }).where('id', '=', off.id).execute();
    expect(await tryConnect(k, { clientId: off.code, username: off.code, password: off.secret })).toMatchObject({ code: 4 });
    // a wrong secret is counted under its device's tenant once the device is looked up: wait for that, not a fixed time
    const c = await waitFor(async () => {
      const now = await countersSettled();
      return now.refused_auth >= 3 ? now : undefined;
    }).catch(() => countersSettled());
    expect(c.refused_anonymous).toBeGreaterThanOrEqual(1);
    expect(c.refused_client_id).toBeGreaterThanOrEqual(1);
    expect(c.refused_auth).toBeGreaterThanOrEqual(3);
  });

  it('keeps working while many reports arrive at once: one transaction per batch, all stored', async () => {
    const room = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: '批量层' });
    const devs = await Promise.all(Array.from({ length: 20 }, () => createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: room })));
    const clients = await Promise.all(devs.map((d) => connectDevice(k, d, { subscribe: false })));
    const t0 = Date.now() - 10_000;
    await Promise.all(clients.flatMap((c, i) => Array.from({ length: 25 }, (_, j) => c.publishAsync(devs[i].topics.up, upPayload({ f03: 20 + j / 10, f04: 22, f06: j % 2 }, t0 + j), { qos: 1 }))));
    const n = await k.db.selectFrom('device_history').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', 'in', devs.map((d) => d.id)).executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(20 * 25 * 3);
    await Promise.all(clients.map((c) => c.endAsync()));
  });
});

describe('外部消息服务器 (MQTT_URL)', () => {
  it('ingests from an external broker through the same path: stored once, foreign or unknown topics dropped', async () => {
    // a plain broker without authentication stands in for Mosquitto/EMQX
    const broker = await Aedes.createBroker();
    const server = net.createServer(broker.handle);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const ext = await startTestKelvin({ mqttEnabled: true, mqttUrl: url, mqttShareGroup: '' });
    try {
      const t = await createTenantWithProject(ext.db, 'extern', ['devicemonitor']);
      const other = await createTenantWithProject(ext.db, 'externb', ['devicemonitor']);
      const dev = await createTestDevice(ext, { tenantId: t.tenantId, projectId: t.projectId });
      const foreign = await createTestDevice(ext, { tenantId: other.tenantId, projectId: other.projectId });
      await waitFor(async () => ext.kelvin.mqtt!.status() === 'up');
      const pub = await mqtt.connectAsync(url, { clientId: 'field-device' });
      await new Promise((r) => setTimeout(r, 200)); // the server's subscription is in place
      const ts = Date.now() - 5000;
      await pub.publishAsync(dev.topics.up, upPayload({ f04: 26 }, ts), { qos: 1 });
      await pub.publishAsync(dev.topics.up, upPayload({ f04: 26 }, ts), { qos: 1 });
      // a topic naming another tenant's device under this tenant's code
      await pub.publishAsync(`kelvin/${dev.tenantCode}/${foreign.code}/up`, upPayload({ f04: 11 }), { qos: 1 });
      const rows = await waitFor(async () => {
        await ext.kelvin.devices.ingest.writer.flush();
        const r = await ext.db.selectFrom('device_history').selectAll().where('device_id', '=', dev.id).execute();
        return r.length ? r : undefined;
      });
      expect(rows.map((r) => [r.field_code, r.num, r.ts])).toEqual([['f04', 26, ts]]);
      await waitFor(async () => {
        await ext.kelvin.devices.ingest.writer.flush();
        return (await ext.db.selectFrom('ingest_counter').select('value').where('name', '=', 'unknown_device').executeTakeFirst())?.value;
      });
      expect(await ext.db.selectFrom('device_history').selectAll().where('device_id', '=', foreign.id).execute()).toEqual([]);

      // commands: the server cannot see connections on an external broker; a sleeping 4G device's report wakes delivery
      const sleeper = await createTestDevice(ext, { tenantId: t.tenantId, projectId: t.projectId, type: 'device4GHeating' });
      await ext.db.updateTable('device').set({ online_until: Date.now() + 600_000 }).where('id', '=', sleeper.id).execute();
      const cmd = await ext.kelvin.devices.commands.create(
        { id: sleeper.id, tenantId: t.tenantId, tenantCode: sleeper.tenantCode, projectId: t.projectId, deviceType: 'device4GHeating', deviceCode: sleeper.code, deviceName: '4G', onlineUntil: Date.now() + 600_000 },
        { fieldCode: 'f04', value: 18 }, { userId: null, username: 'test' },
      );
      expect(cmd.status).toBe('pending');
      const device = await mqtt.connectAsync(url, { clientId: sleeper.code });
      await device.subscribeAsync(sleeper.topics.down, { qos: 1 });
      const down = new Promise<any>((r) => device.once('message', (_t, p) => r(JSON.parse(p.toString()))));
      await device.publishAsync(sleeper.topics.up, upPayload({ f03: 17.5 }), { qos: 1 });
      expect(await down).toEqual({ id: cmd.id, fields: { f04: 18 } });
      await device.publishAsync(sleeper.topics.ack, JSON.stringify({ id: cmd.id, ok: true }), { qos: 1 });
      await waitFor(async () => (await ext.db.selectFrom('device_command').select('status').where('id', '=', cmd.id).executeTakeFirst())?.status === 'acked');
      await device.endAsync();
      await pub.endAsync();
    } finally {
      await ext.close();
      await new Promise<void>((r) => broker.close(() => r()));
      server.close();
    }
  });
});
