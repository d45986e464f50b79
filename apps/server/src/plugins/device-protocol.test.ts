import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEVICE_ACTION_LABELS, DEVICE_TYPES, type DeviceTypeDef } from '@kelvin/contracts';
import { VERSION } from '@kelvin/contracts/version';
import { DEVICE_PROTOCOL } from '@kelvin/contracts/device-protocol';
import { createTenantWithProject, startTestKelvin, type TestClient } from '../test/harness.ts';
import { connectDevice, createTestDevice, nextMessage, upPayload, waitFor } from '../modules/devices/test-fixtures.ts';
import { MAX_PAYLOAD_BYTES } from './mqtt.ts';

/**
 * The published device protocol (AsyncAPI 3 at /api/docs/mqtt) against the registry it is generated from and the
 * server's real behaviour: every registry type with every field, range, unit and enum value is in it; every
 * reference resolves; and what its schemas accept or refuse is what the ingest and the command service do.
 */

type Obj = Record<string, any>;
let k: TestClient;
let doc: Obj;

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0, mqttWsPort: 0 });
  const res = await k.call('GET', '/api/docs/mqtt', { headers: { host: 'kelvin.example.com:8080' } });
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => k?.close());

const message = (name: string): Obj => doc.components.messages[name];
/** the JSON Schema of a message's payload as a validator */
const validator = (name: string) => z.fromJSONSchema(message(name).payload);

function resolve(ref: string): unknown {
  return ref.slice(2).split('/').reduce<any>((node, key) => node?.[key], doc);
}

describe('AsyncAPI 文档的结构', () => {
  it('is an AsyncAPI 3.0.0 document served without a token, with the servers devices reach', () => {
    expect(doc.asyncapi).toBe('3.0.0');
    expect(doc.info).toMatchObject({ title: 'Kelvin 设备 MQTT 协议', version: VERSION });
    const hub = k.kelvin.mqtt!;
    expect(doc.servers).toEqual({
      mqtt: expect.objectContaining({ host: `kelvin.example.com:${hub.port}`, protocol: 'mqtt', protocolVersion: '3.1.1' }),
      ws: expect.objectContaining({ host: `kelvin.example.com:${hub.wsPort}`, protocol: 'ws', pathname: '/mqtt' }),
    });
    expect(Object.fromEntries(Object.entries(doc.channels as Obj).map(([k, c]) => [k, c.address]))).toEqual({
      up: 'kelvin/{tenant}/{device}/up', down: 'kelvin/{tenant}/{device}/down', ack: 'kelvin/{tenant}/{device}/ack',
    });
    expect(Object.fromEntries(Object.entries(doc.operations as Obj).map(([k, o]) => [k, [o.action, o.bindings.mqtt.qos]]))).toEqual({
      sendReport: ['send', 1], receiveCommand: ['receive', 1], sendAck: ['send', 1],
    });
  });

  it('every $ref resolves', () => {
    const refs: string[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [key, x] of Object.entries(v)) {
          if (key === '$ref') refs.push(x as string);
          else walk(x);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(DEVICE_TYPES.length * 4);
    expect(refs.filter((r) => resolve(r) === undefined)).toEqual([]);
  });

  it('the limits it states are the ones the broker applies', () => {
    expect(MAX_PAYLOAD_BYTES).toBe(DEVICE_PROTOCOL.maxPayloadBytes);
    expect(doc.info.description).toContain(`${DEVICE_PROTOCOL.maxFields} 个字段`);
  });
});

describe('每个登记的设备类型都在文档里', () => {
  // one case per registry type: a type added to the registry without appearing in the document fails here by name
  it.each(DEVICE_TYPES.map((t) => [t.code, t] as [string, DeviceTypeDef]))('%s: report and command with every field, range, unit and value', (code, t) => {
    const report = message(`report_${code}`);
    expect(report, `report_${code}`).toBeDefined();
    expect(report['x-kelvin-device-type']).toMatchObject({ code, name: t.name, heartbeatSeconds: t.heartbeatSeconds, sleeps: t.sleeps });
    const fields = report.payload.properties.fields.properties as Obj;
    expect(Object.keys(fields)).toEqual(t.fields.map((f) => f.code));
    for (const f of t.fields) {
      const s = fields[f.code];
      expect(s.title, `${code}.${f.code}`).toBe(f.label);
      expect(s['x-kelvin-writable']).toBe(f.writable);
      expect(s['x-kelvin-unit']).toBe(f.unit || undefined);
      if (f.kind === 'number') expect([s.type, s.minimum, s.maximum, s['x-kelvin-step']], `${code}.${f.code}`).toEqual(['number', f.min, f.max, f.step]);
      if (f.kind === 'enum' || f.kind === 'bool') {
        expect(s.enum).toEqual(Object.keys(f.options!).map(Number));
        expect(s['x-kelvin-enum-labels']).toEqual(f.options);
      }
      if (f.kind === 'time') expect(s.pattern).toBeDefined();
      if (f.kind === 'text') expect(s.maxLength).toBe(f.maxLength ?? 64);
    }
    expect(doc.channels.up.messages[`report_${code}`]).toEqual({ $ref: `#/components/messages/report_${code}` });
    expect(doc.operations.sendReport.messages).toContainEqual({ $ref: `#/channels/up/messages/report_${code}` });

    const command = message(`command_${code}`);
    const variants: Obj[] = command.payload.oneOf ?? [command.payload];
    const write = variants.find((v) => !v.properties.action);
    expect(Object.keys(write?.properties.fields.properties ?? {})).toEqual(t.fields.filter((f) => f.writable).map((f) => f.code));
    const action = variants.find((v) => v.properties.action)!.properties.action;
    expect(action.enum).toEqual(t.actions);
    expect(action['x-kelvin-enum-labels']).toEqual(Object.fromEntries(t.actions.map((a) => [a, DEVICE_ACTION_LABELS[a]])));
    expect(doc.operations.receiveCommand.messages).toContainEqual({ $ref: `#/channels/down/messages/command_${code}` });

    // the examples are valid by the document's own schemas
    for (const e of [...report.examples, ...command.examples]) expect(validator(e.name === '上报' ? `report_${code}` : `command_${code}`).safeParse(e.payload).success, `${code} ${e.name}`).toBe(true);
  });

  it('holds no type the registry does not have', () => {
    const reports = Object.keys(doc.components.messages).filter((m) => m.startsWith('report_'));
    expect(reports.sort()).toEqual(DEVICE_TYPES.map((t) => `report_${t.code}`).sort());
  });
});

describe('文档与服务端行为一致', () => {
  it('a report its schema accepts is stored; a reading its schema refuses is refused by the ingest', async () => {
    const a = await createTenantWithProject(k.db, 'protoa', ['devicemonitor', 'devicemonitor:control']);
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20020' });
    const schema = validator('report_device20020');
    const good = { ts: Date.now(), fields: { f03: 21.5, f04: 22, f28: '06:30' } };
    const bad = { ts: Date.now() + 1, fields: { f04: 41 } }; // set point above its range
    expect([schema.safeParse(good).success, schema.safeParse(bad).success]).toEqual([true, false]);
    const client = await connectDevice(k, dev);
    await client.publishAsync(dev.topics.up, JSON.stringify(good), { qos: 1 });
    await client.publishAsync(dev.topics.up, JSON.stringify(bad), { qos: 1 });
    const rows = await k.db.selectFrom('device_history').select(['field_code', 'num']).where('device_id', '=', dev.id).where('field_code', '=', 'f04').execute();
    expect(rows).toEqual([{ field_code: 'f04', num: 22 }]);
    await waitFor(async () => (await k.db.selectFrom('ingest_reject').select('reason').where('device_code', '=', dev.code).where('reason', '=', 'out_of_range').execute()).length > 0);

    // the server's command is valid by the command schema, and an ack by the ack schema settles it
    const received = nextMessage(client);
    const token = await k.login(a.username, a.password);
    const res = await k.call('POST', `/api/v1/device/writedeviceattr/${dev.id}/f28/7:15`, { token });
    expect(res.body.code).toBe(200);
    const down = await received;
    expect(down.body).toEqual({ id: res.body.data.commandId, fields: { f28: '07:15' } });
    expect(validator('command_device20020').safeParse(down.body).success).toBe(true);
    const action = nextMessage(client);
    await k.call('POST', `/api/v1/device/refreshdevice/${dev.id}`, { token });
    expect(validator('command_device20020').safeParse((await action).body).success).toBe(true);
    const ack = { id: down.body.id, ok: true };
    expect(validator('ack').safeParse(ack).success).toBe(true);
    expect(validator('ack').safeParse({ id: down.body.id }).success).toBe(false);
    await client.publishAsync(dev.topics.ack, JSON.stringify(ack), { qos: 1 });
    await waitFor(async () => (await k.db.selectFrom('device_command').select('status').where('id', '=', down.body.id).executeTakeFirst())?.status === 'acked');
    await client.publishAsync(dev.topics.up, upPayload({ f04: 23 }), { qos: 1 });
    await client.endAsync();
  });
});

describe('页面', () => {
  it('/api/docs/mqtt.html renders the document without a token or a script: every type, its fields and the rules', async () => {
    const res = await k.call('GET', '/api/docs/mqtt.html');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const html = res.body as string;
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('kelvin/{tenant}/{device}/ack');
    for (const t of DEVICE_TYPES) {
      expect(html, t.code).toContain(`id="${t.code}"`);
      for (const f of t.fields) expect(html, `${t.code}.${f.code}`).toContain(f.label.replace(/&/g, '&amp;'));
    }
    expect(html).toContain('同一 id');
  });

  it('the OpenAPI document points at it', async () => {
    const openapi = (await k.call('GET', '/api/docs/json')).body;
    expect(openapi.info.description).toContain('/api/docs/mqtt.html');
  });
});
