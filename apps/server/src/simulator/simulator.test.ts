import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_TYPES, DEVICE_TYPE_BY_CODE } from '@kelvin/contracts';
import { seedDemo } from '../db/seed/demo.ts';
import { startTestKelvin, type TestClient } from '../test/harness.ts';
import { waitFor } from '../modules/devices/test-fixtures.ts';
import { DeviceModel, outdoorTemperature } from './model.ts';
import {
  DEMO_DEVICES_PER_TYPE, FACTORY_BENCHES, FACTORY_LINE_DEVICE_TYPES, FACTORY_LINE_PROJECT_TYPE, provisionSimulatedDevices, provisionSimulatedDevicesDetailed,
} from './provision.ts';
import { startSimulator } from './runner.ts';
import { runLoad } from './load.ts';
import { connectWireDevice } from './wire.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const type = (code: string) => DEVICE_TYPE_BY_CODE.get(code)!;

describe('设备模型', () => {
  it('a heated room warms at a plausible rate with the valve open, then holds its set point by switching the valve (hysteresis 回差)', () => {
    const t0 = Date.UTC(2026, 0, 10, 2); // 10:00 in Shanghai, winter
    const m = new DeviceModel(type('device20020'), 'M-1', t0);
    m.state.f00 = 1;
    m.state.f03 = 17;
    m.state.f04 = 26;
    m.state.f18 = 1;
    m.step(t0 + 60_000);
    expect(m.state.f06).toBe(1);
    // warming: never falls, 1.5–4 °C in the first hour (not a jump, not a crawl)
    let last = m.state.f03 as number;
    for (let min = 5; min <= 60; min += 5) {
      m.step(t0 + min * 60_000);
      expect(m.state.f03 as number).toBeGreaterThanOrEqual(last - 0.1);
      last = m.state.f03 as number;
    }
    expect(last - 17).toBeGreaterThan(1.5);
    expect(last - 17).toBeLessThan(4);
    // then it holds 26 °C within the hysteresis band, the valve opening and closing
    const valve = new Set<number>();
    const temps: number[] = [];
    for (let min = 6 * 60; min <= 12 * 60; min += 5) {
      m.step(t0 + min * 60_000);
      valve.add(m.state.f06 as number);
      temps.push(m.state.f03 as number);
    }
    expect(valve).toEqual(new Set([0, 1]));
    expect(Math.min(...temps)).toBeGreaterThan(24.7);
    expect(Math.max(...temps)).toBeLessThan(26.6);
    // raising the set point opens the valve at once, and the room only warms
    m.state.f04 = 28;
    m.step(t0 + 12 * HOUR + 60_000);
    expect(m.state.f06).toBe(1);
    const before = m.state.f03 as number;
    m.step(t0 + 12.5 * HOUR);
    expect(m.state.f03 as number).toBeGreaterThan(before);
  });

  it('some rooms are vacant (thermostat off) and some heat pumps show a fault from the start', () => {
    const t0 = Date.UTC(2026, 0, 10, 2);
    const rooms = Array.from({ length: 50 }, (_, i) => new DeviceModel(type('device20020'), `V-${i}`, t0));
    const off = rooms.filter((m) => m.state.f00 === 0).length;
    expect(off).toBeGreaterThan(3);
    expect(off).toBeLessThan(20);
    const pumps = Array.from({ length: 30 }, (_, i) => new DeviceModel(type('device20050'), `P-${i}`, t0));
    expect(pumps.some((m) => m.state.f47 !== 0)).toBe(true);
    expect(pumps.filter((m) => m.state.f47 !== 0).length).toBeLessThan(15);
  });

  it('a room that is switched off cools toward the outdoor temperature, faster in the cold night than by day', () => {
    const t0 = Date.UTC(2026, 0, 10, 14); // 22:00 in Shanghai
    const m = new DeviceModel(type('device20020'), 'M-off', t0);
    m.state.f03 = 22;
    m.state.f00 = 0;
    m.step(t0 + 1000);
    expect(m.state.f06).toBe(0);
    m.step(t0 + HOUR);
    const drop = 22 - (m.state.f03 as number);
    expect(drop).toBeGreaterThan(0.3);
    expect(drop).toBeLessThan(1.2);
    m.step(t0 + 48 * HOUR);
    expect(m.state.f03 as number).toBeLessThan(10);
    expect(outdoorTemperature(Date.UTC(2026, 0, 10, 20), false)).toBeLessThan(outdoorTemperature(Date.UTC(2026, 0, 10, 7), false));
  });

  it('billing run time grows only while the valve is open, on the fan speed in use; T_eq follows', () => {
    const t0 = Date.UTC(2026, 0, 10, 2);
    const m = new DeviceModel(type('device20030'), 'M-2', t0);
    m.state.f00 = 1;
    m.state.f03 = 16;
    m.state.f04 = 26;
    m.state.f02 = 3;
    const before = { low: m.state.f20 as number, high: m.state.f22 as number };
    m.step(t0 + 1000);
    m.step(t0 + HOUR);
    expect((m.state.f22 as number) - before.high).toBeGreaterThan(0.7);
    expect(m.state.f20).toBe(before.low);
    expect(m.state.f23).toBeCloseTo(0.6 * (m.state.f20 as number) + 0.8 * (m.state.f21 as number) + (m.state.f22 as number), 1);
    m.state.f00 = 0;
    const off = m.state.f22;
    m.step(t0 + 3 * HOUR);
    expect(m.state.f22).toBe(off);
  });

  it('meters accumulate, solar generation follows daylight', () => {
    const night = Date.UTC(2026, 5, 1, 16); // 00:00 in Shanghai
    const noon = Date.UTC(2026, 5, 1, 4); // 12:00 in Shanghai
    const meter = new DeviceModel(type('calorimeter'), 'M-3', noon);
    const heat = meter.state.f60 as number;
    meter.step(noon + 5 * HOUR);
    expect(meter.state.f60 as number).toBeGreaterThan(heat);
    // reported every minute, a heat meter adds far less than its 0.001 GJ step each time: the count must still grow
    // (0.022 GJ/h × 0.8–1.2 over 3 h ≈ 0.05–0.08 GJ), not be rounded away report after report
    const slow = new DeviceModel(type('calorimeter'), 'M-3s', noon);
    const start = slow.state.f60 as number;
    for (let t = noon + MINUTE; t <= noon + 3 * HOUR; t += MINUTE) slow.step(t);
    expect((slow.state.f60 as number) - start).toBeGreaterThan(0.04);
    expect((slow.state.f60 as number) - start).toBeLessThan(0.09);
    const solar = new DeviceModel(type('deviceSolar_n'), 'M-4', noon);
    expect(solar.state.f90 as number).toBeGreaterThan(20);
    expect(solar.state.f95).toBe(1);
    solar.step(night);
    expect(solar.state.f90).toBe(0);
    expect(solar.state.f95).toBe(0);
  });

  it('applies commands, and refuses what the hardware would', () => {
    const m = new DeviceModel(type('device20020'), 'M-5');
    expect(m.apply({ id: 1, fields: { f04: 24 } })).toEqual({ ok: true });
    expect(m.state.f04).toBe(24);
    expect(m.apply({ id: 2, fields: { f04: 36 } })).toEqual({ ok: false, error: '设定温度超出设备限值 5～35 °C' });
    expect(m.apply({ id: 3, fields: { f01: 0 } })).toEqual({ ok: false, error: '地暖温控器不支持制冷和通风模式' });
    expect(m.apply({ id: 4, fields: { f04: 41 } }).ok).toBe(false);
    expect(m.apply({ id: 5, fields: { f10: 3 } }).ok).toBe(true);
    expect(m.apply({ id: 6, fields: { f04: 20 } })).toEqual({ ok: false, error: '设备已禁用，请先解除禁用' });
    expect(m.apply({ id: 7, fields: { f03: 20 } }).ok).toBe(false);
    expect(m.apply({ id: 8, action: 'resetAlarm' }).ok).toBe(false);
    expect(m.apply({ id: 9, action: 'reboot' })).toEqual({ ok: true, reboot: true });
    expect(m.state.f04).toBe(24);
  });
});

describe('示范租户与模拟器', () => {
  let k: TestClient;
  beforeAll(async () => {
    k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  });
  afterAll(() => k?.close());

  it('the demo tenant has simulated devices of every registry type, in rooms of projects of a matching type', async () => {
    await seedDemo(k.db);
    const devices = await k.db.selectFrom('device').innerJoin('area as p', 'p.id', 'device.project_id')
      .innerJoin('area as room', 'room.id', 'device.area_id')
      .select(['device.device_type', 'device.gateway_id', 'p.project_type', 'room.level'])
      .execute();
    for (const t of DEVICE_TYPES) {
      const mine = devices.filter((d) => d.device_type === t.code);
      expect(mine.length, t.code).toBeGreaterThanOrEqual(t.code === 'gateway' || t.code === 'manager' ? 1 : DEMO_DEVICES_PER_TYPE);
      const allowed = [...t.projectTypes, ...t.plantFor, ...(FACTORY_LINE_DEVICE_TYPES.includes(t.code) ? [FACTORY_LINE_PROJECT_TYPE] : [])];
      if (t.projectTypes.length) for (const d of mine) expect(allowed, t.code).toContain(d.project_type);
      // plant meters: one in a building of every project of those types
      for (const pt of t.plantFor) expect(mine.filter((d) => d.project_type === pt).every((d) => d.level === 'building'), `${t.code} in ${pt}`).toBe(true);
      for (const pt of t.plantFor) expect(mine.filter((d) => d.project_type === pt).length, `${t.code} in ${pt}`).toBeGreaterThan(0);
    }
    expect(devices.filter((d) => d.device_type === 'device20020').every((d) => d.level === 'room' && d.gateway_id !== null)).toBe(true);
    // the factory line holds one device per bench type
    expect(devices.filter((d) => d.project_type === FACTORY_LINE_PROJECT_TYPE && !['gateway', 'manager'].includes(d.device_type)).map((d) => d.device_type).sort())
      .toEqual([...FACTORY_LINE_DEVICE_TYPES].sort());
    // idempotent
    const again = await provisionSimulatedDevicesDetailed(k.db, { tenantCode: 'demo', perType: DEMO_DEVICES_PER_TYPE });
    expect(again.created).toBe(0);
    expect(again.devices.length).toBe(devices.length);
  });

  it('the demo varies: project sizes and room areas differ, benches are named as benches, most SIM cards are registered, a few devices stay unplugged', async () => {
    await seedDemo(k.db);
    const tenant = await k.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
    const areas = await k.db.selectFrom('area').select(['id', 'parent_id', 'level', 'name', 'floor_area', 'project_type']).where('tenant_id', '=', tenant.id).execute();
    const byId = new Map(areas.map((a) => [a.id, a]));
    const projectOf = (a: (typeof areas)[number]) => {
      let cur: (typeof areas)[number] | undefined = a;
      while (cur && cur.level !== 'project') cur = cur.parent_id === null ? undefined : byId.get(cur.parent_id);
      return cur!;
    };
    const roomsPer = new Map<number, number>();
    for (const a of areas) if (a.level === 'room') roomsPer.set(projectOf(a).id, (roomsPer.get(projectOf(a).id) ?? 0) + 1);
    expect(new Set(roomsPer.values()).size).toBeGreaterThan(4);
    expect(new Set(areas.filter((a) => a.level === 'room' && a.floor_area !== null).map((a) => a.floor_area)).size).toBeGreaterThan(5);
    // the factory line: a workshop with benches, and each bench's device named after it
    const factoryRooms = areas.filter((a) => a.level === 'room' && projectOf(a).project_type === FACTORY_LINE_PROJECT_TYPE).map((a) => a.name);
    expect(factoryRooms.sort()).toEqual([...FACTORY_BENCHES].sort());
    const benchDevices = await k.db.selectFrom('device').select('device_name').where('area_id', 'in', areas.filter((a) => factoryRooms.includes(a.name)).map((a) => a.id)).execute();
    expect(benchDevices.length).toBe(FACTORY_LINE_DEVICE_TYPES.length);
    for (const d of benchDevices) expect(d.device_name).toMatch(/测试台 /);
    // SIM cards: most 4G devices have one, not all
    const cellular = DEVICE_TYPES.filter((t) => t.sleeps).map((t) => t.code);
    const fourG = await k.db.selectFrom('device').select('device_code').where('tenant_id', '=', tenant.id).where('device_type', 'in', cellular).execute();
    const cards = await k.db.selectFrom('device_card').select(['device_code', 'carrier']).where('tenant_id', '=', tenant.id).execute();
    expect(cards.length).toBeGreaterThan(fourG.length / 2);
    expect(cards.length).toBeLessThan(fourG.length);
    expect(new Set(cards.map((c) => c.carrier)).size).toBeGreaterThan(1);
    // a few devices are left unplugged, never a gateway
    const all = await provisionSimulatedDevicesDetailed(k.db, { tenantCode: 'demo', perType: DEMO_DEVICES_PER_TYPE });
    const played = await provisionSimulatedDevices(k.db, { tenantCode: 'demo', perType: DEMO_DEVICES_PER_TYPE });
    const unplugged = all.devices.length - played.length;
    expect(unplugged).toBeGreaterThan(2);
    expect(unplugged).toBeLessThan(all.devices.length / 5);
    expect(played.filter((d) => d.type === 'gateway').length).toBe(all.devices.filter((d) => d.type === 'gateway').length);
  });

  it('simulated devices log in with their own credentials, report, and obey commands', async () => {
    await seedDemo(k.db); // idempotent: each test stands on its own
    const { devices } = await provisionSimulatedDevicesDetailed(k.db, { tenantCode: 'demo', perType: DEMO_DEVICES_PER_TYPE, types: ['device20020', 'calorimeter'] });
    const sim = startSimulator({ url: `mqtt://127.0.0.1:${k.kelvin.mqtt!.port}`, devices: devices.slice(0, 4), dropoutsPerHour: 0 });
    try {
      await waitFor(async () => sim.stats().connected === 4, 10_000);
      const thermo = await k.db.selectFrom('device').selectAll().where('device_code', '=', devices[0].code).executeTakeFirstOrThrow();
      await waitFor(async () => (await k.db.selectFrom('device_state').select('num').where('device_id', '=', thermo.id).where('field_code', '=', 'f03').executeTakeFirst()) !== undefined);
      const admin = await k.loginAdmin();
      const ok = await k.call('POST', `/api/v1/device/writedeviceattr/${thermo.id}/f04/25`, { token: admin });
      const refused = await k.call('POST', `/api/v1/device/writedeviceattr/${thermo.id}/f04/38`, { token: admin });
      await waitFor(async () => (await k.call('GET', `/api/v1/device/command/${ok.body.data.commandId}`, { token: admin })).body.data.status === 'acked');
      const r = await waitFor(async () => {
        const c = (await k.call('GET', `/api/v1/device/command/${refused.body.data.commandId}`, { token: admin })).body.data;
        return c.status === 'rejected' ? c : undefined;
      });
      expect(r.error).toContain('超出设备限值');
      // the device reports the new set point right after acknowledging
      await waitFor(async () => (await k.db.selectFrom('device_state').select('num').where('device_id', '=', thermo.id).where('field_code', '=', 'f04').executeTakeFirst())?.num === 25);
      expect(sim.stats()).toMatchObject({ acked: 1, rejected: 1 });
    } finally {
      await sim.stop();
    }
  });

  it('the load generator publishes at the asked rate over bare MQTT connections, and every report is committed once', async () => {
    await seedDemo(k.db);
    const { devices } = await provisionSimulatedDevicesDetailed(k.db, { tenantCode: 'demo', perType: DEMO_DEVICES_PER_TYPE, types: ['device20090'] });
    const ids = (await k.db.selectFrom('device').select('id').where('device_code', 'in', devices.map((d) => d.code)).execute()).map((d) => d.id);
    const points = async () => Number((await k.db.selectFrom('device_history').select((eb) => eb.fn.countAll().as('n'))
      .where('device_id', 'in', ids).where('field_code', 'in', ['f70', 'f71', 'f72']).executeTakeFirstOrThrow()).n);
    const before = await points();
    const url = `mqtt://127.0.0.1:${k.kelvin.mqtt!.port}`;
    const [step] = await runLoad({ url, devices, steps: [{ rate: 400, seconds: 2 }] });
    expect(step).toMatchObject({ rate: 400, published: 800, acked: 800, failed: 0 });
    expect(step.p95Ms).toBeGreaterThan(0);
    // PUBACK came after the commit: the rows are there the moment runLoad returns
    expect((await points()) - before).toBe(2400);

    const d = devices[0];
    const wrong = connectWireDevice({ host: '127.0.0.1', port: k.kelvin.mqtt!.port!, clientId: d.code, username: d.code, password: 'not-the-secret', topic: 'x' });
    await expect(wrong).rejects.toThrow('用户名或密码错误');
  });
});
