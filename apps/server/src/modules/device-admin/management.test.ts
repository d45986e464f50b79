import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArea, createTenantWithProject, createUser, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { createTestDevice, tryConnect } from '../devices/test-fixtures.ts';

let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;
let b: Awaited<ReturnType<typeof createTenantWithProject>>;
let tokenA: string;
let tokenB: string;
let roomA: number;

const CODES = [
  'deviceOnline_n', 'deviceOnline_n:export', 'dodifyDeviceIP_n', 'dodifyDeviceIP_n:control', 'mqttSetting_n', 'mqttSetting_n:btn_edit', 'deviceList_n',
];
const H = 3_600_000;

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  a = await createTenantWithProject(k.db, 'mga', CODES, 'PT5010');
  b = await createTenantWithProject(k.db, 'mgb', CODES, 'PT5010');
  tokenA = await k.login(a.username, a.password);
  tokenB = await k.login(b.username, b.password);
  const floor = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'floor', name: '1层' });
  roomA = await createArea(k.db, { tenantId: a.tenantId, parentId: floor, level: 'room', name: '101' });
});
afterAll(() => k?.close());

async function history(deviceId: number, fieldCode: string, ts: number[]) {
  await k.db.insertInto('device_history').values(ts.map((t) => ({ device_id: deviceId, field_code: fieldCode, ts: t, num: 1, txt: null }))).execute();
}

describe('设备在线统计', () => {
  it('counts per hour the devices that reported within it, by type, and the devices registered by then', async () => {
    const base = Math.floor(Date.now() / H) * H - 10 * H;
    const meter = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device24201_n' });
    const relay = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device4gElectric' });
    const late = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device24201_n' });
    await k.db.updateTable('device').set({ created_at: base - H }).where('id', 'in', [meter.id, relay.id]).execute();
    await k.db.updateTable('device').set({ created_at: base + H + 60_000 }).where('id', '=', late.id).execute();
    // meter: three reports in hour 0, one in hour 1; relay: hour 1 only; late: hour 2. f70 is a list field of both types
    await history(meter.id, 'f70', [base + 1000, base + 2000, base + H - 1, base + H + 5]);
    await history(relay.id, 'f70', [base + H + 100]);
    await history(late.id, 'f70', [base + 2 * H + 100]);
    // a report outside the range is not counted
    await history(meter.id, 'f70', [base + 3 * H + 10]);

    const res = await k.call('GET', `/api/v1/device/report/online/v2/${a.projectId}?from=${base}&to=${base + 3 * H}`, { token: tokenA });
    expect(res.body.code).toBe(200);
    const points = res.body.data.points as { t: number; online: number; devices: number; byType: Record<string, number> }[];
    expect(points.map((p) => p.t)).toEqual([base, base + H, base + 2 * H]);
    expect(points.map((p) => p.online)).toEqual([1, 2, 1]);
    expect(points.map((p) => p.devices)).toEqual([2, 3, 3]);
    expect(points[1].byType).toEqual({ device24201_n: 1, device4gElectric: 1 });
    expect(res.body.data.types.map((t: { code: string }) => t.code)).toEqual(['device24201_n', 'device4gElectric']);

    const oneType = await k.call('GET', `/api/v1/device/report/online/v2/${a.projectId}?from=${base}&to=${base + 3 * H}&deviceType=device4gElectric`, { token: tokenA });
    expect(oneType.body.data.points.map((p: { online: number }) => p.online)).toEqual([0, 1, 0]);
  });

  it('now: online and offline per type of the project', async () => {
    const on = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20090' });
    await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20090' });
    await k.db.updateTable('device').set({ online_until: Date.now() + 600_000, last_report_at: Date.now() }).where('id', '=', on.id).execute();
    const res = await k.call('GET', `/api/v1/device/report/online/${a.projectId}`, { token: tokenA });
    expect(res.body.data.find((t: { code: string }) => t.code === 'device20090')).toMatchObject({ total: 2, online: 1, offline: 1 });
  });

  it('refuses a reversed or too long range, another tenant\'s project, and users without the screen', async () => {
    const now = Date.now();
    const reversed = await k.call('GET', `/api/v1/device/report/online/v2/${a.projectId}?from=${now}&to=${now - H}`, { token: tokenA });
    expect(reversed.body).toMatchObject({ code: 40000, msg: expect.stringContaining('开始时间必须早于结束时间') });
    const long = await k.call('GET', `/api/v1/device/report/online/v2/${a.projectId}?from=${now - 32 * 24 * H}&to=${now}`, { token: tokenA });
    expect(long.body).toMatchObject({ code: 40000, msg: expect.stringContaining('31 天') });
    expect((await k.call('GET', `/api/v1/device/report/online/v2/${a.projectId}?from=${now - H}&to=${now}`, { token: tokenB })).body.code).toBe(40400);
    expect((await k.call('GET', `/api/v1/device/report/online/${a.projectId}`, { token: tokenB })).body.code).toBe(40400);
    await createUser(k.db, { tenantId: a.tenantId, username: 'mga_plain', password: 'Plain#Pass2026', codes: ['deviceList_n'] });
    const plain = await k.login('mga_plain', 'Plain#Pass2026');
    expect((await k.call('GET', `/api/v1/device/report/online/${a.projectId}`, { token: plain })).body.code).toBe(40301);
  });
});

describe('修改设备地址', () => {
  it('records the requested address per device, supersedes an open request, and is closed by a person', async () => {
    const d1 = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device4gElectric' });
    const d2 = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device4gElectric' });
    const first = await k.call('POST', '/api/v1/device/address/request', { token: tokenA, body: { projectId: a.projectId, deviceIds: [d1.id, d2.id], host: 'iot.example.cn', port: 1883 } });
    expect(first.body).toMatchObject({ code: 200, data: { created: 2 } });
    expect(first.body.data.rows[0]).toMatchObject({ status: 'requested', statusLabel: '已登记，待现场改写', host: 'iot.example.cn', port: 1883, requestedBy: a.username, online: false });

    const again = await k.call('POST', '/api/v1/device/address/request', { token: tokenA, body: { projectId: a.projectId, deviceIds: [d1.id], host: '10.0.0.8', port: 8883, remark: '迁移到新机房' } });
    expect(again.body.data.created).toBe(1);
    const list = await k.call('GET', `/api/v1/device/address/list?projectId=${a.projectId}&keyword=${d1.code}`, { token: tokenA });
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.rows.map((r: { host: string; status: string; remark: string | null }) => [r.host, r.status, r.remark]))
      .toEqual([['10.0.0.8', 'requested', '迁移到新机房'], ['iot.example.cn', 'cancelled', '被新的登记取代']]);

    const id = again.body.data.rows[0].id;
    const confirmed = await k.call('POST', `/api/v1/device/address/close/${id}`, { token: tokenA, body: { status: 'confirmed' } });
    expect(confirmed.body.data).toMatchObject({ status: 'confirmed', closedBy: a.username });
    const twice = await k.call('POST', `/api/v1/device/address/close/${id}`, { token: tokenA, body: { status: 'cancelled' } });
    expect(twice.body).toMatchObject({ code: 40900, msg: '该登记已确认改写，不能再修改' });
    const open = await k.call('GET', `/api/v1/device/address/list?projectId=${a.projectId}&status=requested`, { token: tokenA });
    expect(open.body.data.rows.map((r: { deviceCode: string }) => r.deviceCode)).toEqual([d2.code]);
    // nothing was sent to any device
    expect(await k.db.selectFrom('device_command').select('id').where('device_id', 'in', [d1.id, d2.id]).execute()).toEqual([]);
  });

  it('validates the address and keeps to the caller\'s project and tenant', async () => {
    const d = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device4gElectric' });
    const bad = await k.call('POST', '/api/v1/device/address/request', { token: tokenA, body: { projectId: a.projectId, deviceIds: [d.id], host: 'http://x.cn', port: 70000 } });
    expect(bad.body.code).toBe(40000);
    expect(JSON.stringify(bad.body.data)).toContain('服务器地址应为域名或 IP 地址');
    const foreign = await k.call('POST', '/api/v1/device/address/request', { token: tokenB, body: { projectId: b.projectId, deviceIds: [d.id], host: 'x.cn', port: 1 } });
    expect(foreign.body).toMatchObject({ code: 40000, msg: `设备 ${d.id} 不存在或不属于该项目` });
    const made = await k.call('POST', '/api/v1/device/address/request', { token: tokenA, body: { projectId: a.projectId, deviceIds: [d.id], host: 'x.cn', port: 1 } });
    const id = made.body.data.rows[0].id;
    expect((await k.call('POST', `/api/v1/device/address/close/${id}`, { token: tokenB, body: { status: 'cancelled' } })).body.code).toBe(40400);
    expect((await k.call('GET', `/api/v1/device/address/list?projectId=${a.projectId}`, { token: tokenB })).body.code).toBe(40400);
  });
});

describe('MQTT 设置', () => {
  it('shows the embedded broker, saves the address installers use, and re-issues a secret that replaces the old one', async () => {
    const empty = await k.call('GET', `/api/v1/device/mqtt/setting?projectId=${a.projectId}`, { token: tokenA });
    expect(empty.body.data).toMatchObject({
      host: null, port: null, broker: { kind: 'embedded', port: k.kelvin.mqtt!.port }, tenantCode: 'mga',
      topics: { up: 'kelvin/mga/{deviceCode}/up', down: 'kelvin/mga/{deviceCode}/down', ack: 'kelvin/mga/{deviceCode}/ack' },
    });
    const saved = await k.call('POST', '/api/v1/device/mqtt/setting', { token: tokenA, body: { projectId: a.projectId, host: 'mqtt.example.cn', port: 8883, tls: true } });
    expect(saved.body.data).toMatchObject({ host: 'mqtt.example.cn', port: 8883, tls: true, updatedBy: a.username });
    const changed = await k.call('POST', '/api/v1/device/mqtt/setting', { token: tokenA, body: { projectId: a.projectId, host: '192.168.1.20', port: 1883, tls: false } });
    expect(changed.body.data).toMatchObject({ host: '192.168.1.20', port: 1883, tls: false });
    expect((await k.call('POST', '/api/v1/device/mqtt/setting', { token: tokenA, body: { projectId: a.projectId, host: 'a.cn', port: 0 } })).body.code).toBe(40000);
    expect((await k.call('POST', '/api/v1/device/mqtt/setting', { token: tokenB, body: { projectId: a.projectId, host: 'a.cn', port: 1 } })).body.code).toBe(40400);

    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20090' });
    const re = await k.call('POST', `/api/v1/device/mqtt/credentials/${dev.id}`, { token: tokenA });
    expect(re.body.data).toMatchObject({ deviceCode: dev.code, clientId: dev.code, username: dev.code, topics: { up: `kelvin/mga/${dev.code}/up` } });
    expect(await tryConnect(k, { clientId: dev.code, username: dev.code, password: dev.secret })).not.toBeNull();
    expect(await tryConnect(k, { clientId: dev.code, username: dev.code, password: re.body.data.password })).toBeNull();
    expect((await k.call('POST', `/api/v1/device/mqtt/credentials/${dev.id}`, { token: tokenB })).body.code).toBe(40400);
  });
});

describe('设备二维码', () => {
  it('downloads an SVG label whose QR code carries the finder patterns, with the code printed below', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20090', name: '配电间 <1号> 电表' });
    const res = await k.call('GET', `/api/v1/device/qrcode/${dev.id}`, { token: tokenA });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(`设备二维码-${dev.code}.svg`);
    const svg = String(res.body);
    expect(svg).toContain(`>${dev.code}</text>`);
    expect(svg).toContain('配电间 &lt;1号&gt; 电表');
    // rebuild the module grid from the path and check the top-left finder pattern (7×7 ring around a 3×3 block)
    const cell = 8;
    const dark = new Set([...svg.matchAll(/M(\d+) (\d+)h/g)].map((m) => `${Number(m[1]) / cell - 4},${Number(m[2]) / cell - 4}`));
    for (let r = 0; r < 7; r++) {
      for (let c = 0; c < 7; c++) {
        const ring = r === 0 || r === 6 || c === 0 || c === 6;
        const core = r >= 2 && r <= 4 && c >= 2 && c <= 4;
        expect(dark.has(`${c},${r}`)).toBe(ring || core);
      }
    }
    expect((await k.call('GET', `/api/v1/device/qrcode/${dev.id}`, { token: tokenB })).body.code).toBe(40400);
  });
});
