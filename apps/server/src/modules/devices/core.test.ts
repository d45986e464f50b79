import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import { createTenantWithProject, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { connectDevice, createTestDevice, upPayload, waitFor } from './test-fixtures.ts';

/** The device core's public entry, as the scheduler, the prepaid loop and the factory bench use it. */
let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;
let token: string;

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  a = await createTenantWithProject(k.db, 'corea', ['devicemonitor', 'devicemonitor:control', 'deviceoperationlog', 'deviceoperationlog:export', 'mqttSetting_n', 'mqttSetting_n:btn_edit']);
  token = await k.login(a.username, a.password);
});
afterAll(() => k?.close());

const core = () => k.kelvin.devices;
const issuer = { userId: null, username: '定时任务' };

describe('设备核心：指令', () => {
  it('issueCommand + awaitOutcome resolve when the device acknowledges, and onCommandFinished hears it', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const client = await connectDevice(k, dev);
    client.on('message', (_t, p) => client.publish(dev.topics.ack, JSON.stringify({ id: JSON.parse(p.toString()).id, ok: true }), { qos: 1 }));
    const heard: number[] = [];
    core().onCommandFinished((o) => heard.push(o.commandId));
    const row = await core().devices.byId(dev.id);
    const cmd = await core().issueCommand(await core().devices.target(row!), { fieldCode: 'f04', value: 22 }, issuer, { ttl: 30 });
    const started = Date.now();
    const outcome = await core().awaitOutcome(cmd.id, { timeoutMs: 5000 });
    expect(outcome).toEqual({ commandId: cmd.id, status: 'acked', error: null });
    // the event ends the wait, not the once-a-second read
    expect(Date.now() - started).toBeLessThan(900);
    // the listeners run right after the commit; the wait may end first (its read sees the committed row)
    await vi.waitFor(() => expect(heard).toContain(cmd.id));
    const scope = { userId: 0, tenantId: a.tenantId, isPlatform: false, projectIds: null };
    const log = await core().devices.operationLog(scope, { deviceId: dev.id }).orderBy('id', 'desc').execute();
    expect(log[0]).toMatchObject({ command_id: cmd.id, username: '定时任务', result: '已执行' });
    await client.endAsync();
  });

  it('awaitOutcome answers null at its timeout for a device that never answers, then expired after the TTL', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const row = await core().devices.byId(dev.id);
    const cmd = await core().issueCommand(await core().devices.target(row!), { fieldCode: 'f04', value: 23 }, issuer, { ttl: 1 });
    expect(await core().awaitOutcome(cmd.id, { timeoutMs: 200 })).toBeNull();
    const outcome = await core().awaitOutcome(cmd.id, { timeoutMs: 5000 });
    expect(outcome).toMatchObject({ commandId: cmd.id, status: 'expired' });
  });

  it('a command finished elsewhere (another process) is still seen by the waiter', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const row = await core().devices.byId(dev.id);
    const cmd = await core().issueCommand(await core().devices.target(row!), { fieldCode: 'f04', value: 24 }, issuer, { ttl: 60 });
    const waiting = core().awaitOutcome(cmd.id, { timeoutMs: 5000 });
    // what another process's ingest would do: the row changes without an event in this process
    await k.db.updateTable('device_command').set({ status: 'rejected', error: '外部确认', finished_at: Date.now() }).where('id', '=', cmd.id).execute();
    expect(await waiting).toEqual({ commandId: cmd.id, status: 'rejected', error: '外部确认' });
  });
});

describe('设备核心：上报事件', () => {
  it('onReport is called once per stored report, after its batch committed', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const seen: { deviceId: number; ts: number; stored: boolean }[] = [];
    core().onReport((r) => {
      if (r.deviceId !== dev.id) return;
      seen.push({ deviceId: r.deviceId, ts: r.ts, stored: false });
    });
    const client = await connectDevice(k, dev);
    const ts = Date.now() - 1000;
    await client.publishAsync(dev.topics.up, upPayload({ f03: 21.5 }, ts), { qos: 1 });
    await waitFor(async () => seen.length > 0);
    expect(seen).toEqual([{ deviceId: dev.id, ts, stored: false }]);
    const state = await core().devices.latestState([dev.id], ['f03']);
    expect(state).toEqual([expect.objectContaining({ device_id: dev.id, field_code: 'f03', num: 21.5, ts })]);
    await client.endAsync();
  });
});

describe('设备历史：设定值取最后值，测量值取平均并带最小/最大', () => {
  it('a bucket of several reports gives a set point its last value and a measured value its average with a min/max band', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20020' });
    const client = await connectDevice(k, dev);
    const t = Date.now() - 3_600_000;
    // set temperature 20 then 26, room temperature 18 then 20, one second apart: one bucket of a two-day range
    await client.publishAsync(dev.topics.up, upPayload({ f04: 20, f03: 18 }, t), { qos: 1 });
    await client.publishAsync(dev.topics.up, upPayload({ f04: 26, f03: 20 }, t + 1000), { qos: 1 });
    await k.kelvin.devices.ingest.writer.flush();
    const res = await k.call('GET', `/api/v1/device/history?deviceId=${dev.id}&fields=f04,f03&from=${t - 86_400_000}&to=${t + 86_400_000}`, { token });
    expect(res.body.code).toBe(200);
    const series = Object.fromEntries(res.body.data.series.map((x: { field: string }) => [x.field, x]));
    expect(series.f04.points).toEqual([[t + 1000, 26]]); // never the average 23, which was never set
    expect(series.f04.bands).toBeUndefined();
    expect(series.f03.points).toEqual([[t, 19]]);
    expect(series.f03.bands).toEqual([[t, 18, 20]]);
    await client.endAsync();
  });
});

describe('设备操作日志：列表与导出同一查询', () => {
  it('list and export hold the same rows for the same range (from inclusive, to exclusive)', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const base = Date.UTC(2030, 0, 1);
    for (const [i, at] of [base - 1, base, base + 1000, base + 2000].entries()) {
      await k.db.insertInto('device_operation_log').values({
        tenant_id: a.tenantId, project_id: a.projectId, device_id: dev.id, device_code: dev.code, device_name: '边界测试设备', device_type: 'device20020',
        command_id: null, user_id: null, username: 'x', operation: `边界${i}`, detail: '', result: '成功', at,
      }).execute();
    }
    const range = `deviceId=${dev.id}&from=${base}&to=${base + 2000}`;
    const list = await k.call('GET', `/api/v1/device/operationlog?${range}`, { token });
    expect(list.body.data.rows.map((r: { operation: string }) => r.operation)).toEqual(['边界2', '边界1']);
    for (const q of [range, `deviceId=${dev.id}&atFrom=${base}&atTo=${base + 2000}`]) {
      const file = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/device/operationlog/export?${q}`, headers: { authorization: token } });
      expect(file.statusCode).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const ops: string[] = [];
      wb.worksheets[0].eachRow((row) => ops.push(String(row.getCell(5).value)));
      expect(ops.filter((o) => o.startsWith('边界'))).toEqual(['边界2', '边界1']);
    }
  });

  it('reissuing a secret is logged whichever screen does it', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    const res = await k.call('POST', `/api/v1/device/mqtt/credentials/${dev.id}`, { token });
    expect(res.body.code).toBe(200);
    const log = await k.call('GET', `/api/v1/device/operationlog?deviceId=${dev.id}`, { token });
    expect(log.body.data.rows[0]).toMatchObject({ operation: '重新生成密钥', username: a.username });
  });
});
