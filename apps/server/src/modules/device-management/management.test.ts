import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { twoTenantsWithRoom } from './test-fixtures.ts';
import { createTestDevice, tryConnect } from '../devices/test-fixtures.ts';

let k: TestClient;
let a: Awaited<ReturnType<typeof twoTenantsWithRoom>>['a'];
let b: Awaited<ReturnType<typeof twoTenantsWithRoom>>['b'];
let tokenA: string;
let tokenB: string;
let roomA: number;

const CODES = [
  'deviceOnline_n', 'deviceOnline_n:export', 'dodifyDeviceIP_n', 'dodifyDeviceIP_n:control', 'mqttSetting_n', 'mqttSetting_n:btn_edit', 'deviceList_n',
  'deviceCardInfoList', 'deviceCardInfoList:btn_edit', 'deviceCardInfoList:export', 'deviceoperationlog', 'deviceoperationlog:export',
];
const DAY = 86_400_000;

async function sheet(url: string, token: string, name: string) {
  const res = await k.kelvin.app.inject({ method: 'GET', url, headers: { authorization: token } });
  expect(res.statusCode).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const ws = wb.getWorksheet(name)!;
  return ws.getSheetValues().slice(1).map((r) => (r as unknown[]).slice(1));
}
const H = 3_600_000;

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  ({ a, b, tokenA, tokenB, roomA } = await twoTenantsWithRoom(k, CODES, { a: 'mga', b: 'mgb', projectType: 'PT5010', floor: '1层', room: '101' }));
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

describe('物联网卡筛选与导出', () => {
  it('filters by package end and by having a card, and exports what the filter shows', async () => {
    const soon = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device4gElectric', code: 'CARD-SOON-1' });
    const later = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device4gElectric', code: 'CARD-LATER-1' });
    await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device4gElectric', code: 'CARD-NONE-1' });
    const save = (deviceCode: string, iccid: string, packageEnd: number) =>
      k.call('POST', '/api/v1/device/card/save', { token: tokenA, body: { deviceCode, iccid, carrier: '中国移动', packageEnd, dataLimitMb: 100, dataUsedMb: 12.5 } });
    expect((await save(soon.code, '89860000000000000001', Date.now() + 3 * DAY)).body.code).toBe(200);
    expect((await save(later.code, '89860000000000000002', Date.now() + 200 * DAY)).body.code).toBe(200);
    const codes = async (q: string) => (await k.call('GET', `/api/v1/device/card/list?projectId=${a.projectId}&keyword=CARD-&${q}`, { token: tokenA })).body.data.rows.map((r: { deviceCode: string }) => r.deviceCode);
    expect(await codes('packageLimitDays=7')).toEqual(['CARD-SOON-1']);
    expect(await codes('hasCard=0')).toEqual(['CARD-NONE-1']);
    expect(await codes('hasCard=1')).toEqual(['CARD-LATER-1', 'CARD-SOON-1']);
    const rows = await sheet(`/api/v1/device/card/export?projectId=${a.projectId}&keyword=CARD-&hasCard=1`, tokenA, '物联网卡');
    expect(rows[0]).toEqual(expect.arrayContaining(['设备编号', 'ICCID', '套餐到期', '剩余天数', '已用流量(MB)']));
    expect(rows.slice(1).map((r) => [r[0], r[4], r[10]])).toEqual([['CARD-LATER-1', '89860000000000000002', 12.5], ['CARD-SOON-1', '89860000000000000001', 12.5]]);
    expect((await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/device/card/export?projectId=${a.projectId}`, headers: { authorization: tokenB } })).statusCode).toBe(404);
  });
});

describe('设备操作日志导出', () => {
  it('exports the caller\'s tenant\'s log within the date range, newest first', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomA, type: 'device20090', code: 'OPLOG-A-1' });
    const devB = await createTestDevice(k, { tenantId: b.tenantId, projectId: b.projectId, type: 'device20090', code: 'OPLOG-B-1' });
    const t0 = Date.now() - 10 * DAY;
    const log = (d: { id: number; code: string }, tenantId: number, projectId: number, at: number, detail: string) => ({
      tenant_id: tenantId, project_id: projectId, device_id: d.id, device_code: d.code, device_name: d.code, device_type: 'device20090', command_id: null,
      user_id: null, username: 'tester', operation: '设备操作', detail, result: '已执行', at,
    });
    await k.db.insertInto('device_operation_log').values([
      log(dev, a.tenantId, a.projectId, t0, '早于范围'),
      log(dev, a.tenantId, a.projectId, t0 + 2 * DAY, '刷新数据'),
      log(dev, a.tenantId, a.projectId, t0 + 3 * DAY, '重启设备'),
      log(devB, b.tenantId, b.projectId, t0 + 2 * DAY, '别的租户'),
    ]).execute();
    const rows = await sheet(`/api/v1/device/operationlog/export?atFrom=${t0 + DAY}&atTo=${t0 + 5 * DAY}`, tokenA, '设备操作日志');
    expect(rows[0]).toEqual(['时间', '设备编号', '设备名称', '设备类型', '操作', '内容', '结果', '操作人']);
    expect(rows.slice(1).map((r) => [r[1], r[3], r[5]])).toEqual([['OPLOG-A-1', '电能表', '重启设备'], ['OPLOG-A-1', '电能表', '刷新数据']]);
    const other = await sheet(`/api/v1/device/operationlog/export?deviceId=${devB.id}`, tokenB, '设备操作日志');
    expect(other.slice(1).map((r) => r[5])).toEqual(['别的租户']);
    expect((await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/device/operationlog/export?projectId=${a.projectId}`, headers: { authorization: tokenB } })).statusCode).toBe(404);
  });
});
