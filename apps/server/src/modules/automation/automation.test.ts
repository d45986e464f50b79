import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { createArea, createTenantWithProject, createUser, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { connectDevice, createTestDevice, upPayload, waitFor, type TestDevice } from '../devices/test-fixtures.ts';

/** Shanghai wall time → epoch ms. */
const cst = (s: string) => Date.parse(`${s}+08:00`);
let t = cst('2026-11-23T07:00:00'); // a Monday
const clock = { now: () => t };

const MENUS = ['task', 'scheduledTask', 'memoryScheduledTask', 'strategicsTask', 'holidayTask', 'thermostatprogram', 'programscheme'];
const CODES = ['projectlist', 'overtimePool_n', 'overtimePool_n:btn_edit', ...MENUS.flatMap((m) => [m, `${m}:btn_add`, `${m}:btn_edit`, `${m}:btn_del`])];

let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;
let token: string;
let roomId: number;
let good: TestDevice; // 20020, acknowledges everything
let bad: TestDevice; // 20020, refuses everything
let plain: TestDevice; // 20000, executes server-side programs
const clients: MqttClient[] = [];

/** A connected device that acknowledges (or refuses with `refuse`) every command. */
async function online(dev: TestDevice, refuse?: string) {
  const c = await connectDevice(k, dev);
  c.on('message', (_topic, payload) => {
    const { id } = JSON.parse(payload.toString());
    c.publish(dev.topics.ack, JSON.stringify(refuse ? { id, ok: false, error: refuse } : { id, ok: true }), { qos: 1 });
  });
  clients.push(c);
  return c;
}

const api = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, as = token) => (await k.call(method, url, { token: as, body })).body;
const tick = () => k.kelvin.automation.scheduler.tick();
const runsOf = async (taskId: number) => (await api('GET', `/api/v1/task/${taskId}/runs?pageNo=1&pageSize=50`)).data;
/** Waits until no run of the task is still running (acknowledgements arrive over MQTT). */
const settled = (taskId: number) => waitFor(async () => {
  const page = await runsOf(taskId);
  return page.rows.every((r: { status: string }) => r.status !== 'running') && page;
});
const commandsTo = async (deviceId: number) => (await k.db.selectFrom('device_command').select(['id', 'field_code', 'value']).where('device_id', '=', deviceId).execute());

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 }, { clock, scheduler: false });
  a = await createTenantWithProject(k.db, 'auta', CODES);
  token = await k.login(a.username, a.password);
  roomId = await createArea(k.db, { tenantId: a.tenantId, parentId: a.buildingId, level: 'room', name: '101' });
  good = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomId, type: 'device20020' });
  bad = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, type: 'device20020' });
  plain = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: roomId, type: 'device20000' });
  await online(good);
  await online(bad, '设备忙');
  await online(plain);
});
afterAll(async () => {
  for (const c of clients) await c.endAsync();
  await k?.close();
});

describe('任务契约与执行记录', () => {
  it('POST /api/v1/task (once) → data.id; at runAt it fires once; runs carry startedAt and per-device results; retry resends to the failed device only', async () => {
    const runAt = t + 5 * 60_000;
    const created = await api('POST', '/api/v1/task', { projectId: a.projectId, name: '早上开机', kind: 'once', runAt, deviceIds: [good.id, bad.id], writes: [{ fieldCode: 'f00', value: 1 }] });
    expect(created).toMatchObject({ code: 200, data: { id: expect.any(Number) } });
    const id = created.data.id as number;
    const listed = (await api('GET', `/api/v1/task?projectId=${a.projectId}&kind=once`)).data;
    expect(listed.rows.find((r: { id: number }) => r.id === id)).toMatchObject({ kind: 'once', kindLabel: '定时任务', deviceCount: 2, nextRunAt: runAt, description: '2026-11-23 07:05 执行一次' });

    t = runAt - 1000;
    await tick();
    expect((await runsOf(id)).total).toBe(0);
    t = runAt;
    await tick();
    await tick();
    const page = await settled(id);
    expect(page.total).toBe(1);
    const run = page.rows[0];
    expect(run).toMatchObject({ startedAt: runAt, scheduledAt: runAt, trigger: 'schedule', status: 'partial', counts: { acked: 1, rejected: 1, pending: 0, expired: 0 } });
    const byDevice = Object.fromEntries(run.results.map((r: { deviceId: number; status: string }) => [r.deviceId, r.status]));
    expect(byDevice).toEqual({ [good.id]: 'acked', [bad.id]: 'rejected' });
    expect(run.results.find((r: { deviceId: number }) => r.deviceId === bad.id)).toMatchObject({ error: '设备忙', commandId: expect.any(Number), fieldCode: 'f00', value: '1' });

    const goodBefore = (await commandsTo(good.id)).length;
    const retried = await api('POST', `/api/v1/task/run/${run.id}/retry`, {});
    expect(retried).toMatchObject({ code: 200, data: { trigger: 'retry', retryOf: run.id } });
    expect(retried.data.results.map((r: { deviceId: number }) => r.deviceId)).toEqual([bad.id]);
    expect((await commandsTo(good.id)).length).toBe(goodBefore);
    const after = await settled(id);
    expect(after.total).toBe(2);
    // nothing failed in a fully good run: retry refuses
    const goodTask = await api('POST', '/api/v1/task', { projectId: a.projectId, name: '只开好设备', kind: 'once', runAt: t + 60_000, deviceIds: [good.id], writes: [{ fieldCode: 'f04', value: 21 }] });
    t += 60_000;
    await tick();
    const goodRun = (await settled(goodTask.data.id)).rows[0];
    expect(goodRun.status).toBe('success');
    expect(await api('POST', `/api/v1/task/run/${goodRun.id}/retry`, {})).toMatchObject({ code: 40000, msg: expect.stringContaining('没有失败的设备') });
  });

  it('writes are checked by the registry of the target devices; a time already past is refused; bad input changes nothing', async () => {
    const before = await k.db.selectFrom('automation_task').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(await api('POST', '/api/v1/task', { projectId: a.projectId, name: 'x', kind: 'once', runAt: t + 60_000, deviceIds: [good.id], writes: [{ fieldCode: 'f04', value: 99 }] }))
      .toMatchObject({ code: 40000, msg: expect.stringContaining('设定温度') });
    expect(await api('POST', '/api/v1/task', { projectId: a.projectId, name: 'x', kind: 'once', runAt: t + 60_000, deviceIds: [good.id], writes: [{ fieldCode: 'f03', value: 20 }] }))
      .toMatchObject({ code: 40000, msg: expect.stringContaining('只读') });
    expect(await api('POST', '/api/v1/task', { projectId: a.projectId, name: 'x', kind: 'once', runAt: t - 3_600_000, deviceIds: [good.id], writes: [{ fieldCode: 'f00', value: 1 }] }))
      .toMatchObject({ code: 40000, msg: expect.stringContaining('执行时间已过') });
    expect(await api('POST', '/api/v1/task', { projectId: a.projectId, name: 'x', kind: 'once', runAt: t + 60_000, deviceIds: [999_999], writes: [{ fieldCode: 'f00', value: 1 }] }))
      .toMatchObject({ code: 40000, msg: expect.stringContaining('不存在') });
    const after = await k.db.selectFrom('automation_task').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a task kind needs its own menu\'s codes', async () => {
    const only = await createUser(k.db, { tenantId: a.tenantId, username: 'aut_onlytask', password: 'Only#Task2026', codes: ['task', 'task:btn_add'] });
    expect(only.id).toBeGreaterThan(0);
    const tok = await k.login('aut_onlytask', 'Only#Task2026');
    const periodic = { projectId: a.projectId, name: '每天', kind: 'periodic', rule: { every: 'daily', at: '08:00' }, deviceIds: [good.id], writes: [{ fieldCode: 'f00', value: 1 }] };
    expect(await api('POST', '/api/v1/task', periodic, tok)).toMatchObject({ code: 40301 });
    expect(await api('GET', `/api/v1/task?projectId=${a.projectId}&kind=periodic`, undefined, tok)).toMatchObject({ code: 40301 });
    expect(await api('POST', '/api/v1/task', { ...periodic, kind: 'once', runAt: t + 60_000 }, tok)).toMatchObject({ code: 200 });
  });
});

describe('错过的时间点', () => {
  it('once: `late` runs it late, `skip-record` records it as missed and sends nothing; a second pass changes nothing', async () => {
    t += 5 * 60_000;
    await tick(); // whatever earlier tests left due
    const runAt = t + 60_000;
    const body = { projectId: a.projectId, kind: 'once', runAt, deviceIds: [good.id], writes: [{ fieldCode: 'f00', value: 0 }] };
    const late = (await api('POST', '/api/v1/task', { ...body, name: '补执行', missedPolicy: 'late' })).data.id;
    const skip = (await api('POST', '/api/v1/task', { ...body, name: '记错过', missedPolicy: 'skip-record' })).data.id;
    const commands = (await commandsTo(good.id)).length;
    t = runAt + 10 * 60_000; // the server was down for ten minutes
    await tick();
    await tick();
    const lateRuns = await settled(late);
    expect(lateRuns.rows).toEqual([expect.objectContaining({ trigger: 'late', status: 'success', scheduledAt: runAt, startedAt: t })]);
    const skipRuns = await runsOf(skip);
    expect(skipRuns.rows).toEqual([expect.objectContaining({ status: 'missed', statusLabel: '已错过', scheduledAt: runAt, startedAt: null, results: [] })]);
    expect((await commandsTo(good.id)).length).toBe(commands + 1);
  });

  it('periodic, down for three days: the latest is run late, the older ones recorded missed, then back on schedule', async () => {
    t = cst('2026-11-23T07:10:00');
    const id = (await api('POST', '/api/v1/task', {
      projectId: a.projectId, name: '每天 07:30', kind: 'periodic', rule: { every: 'daily', at: '07:30' }, missedPolicy: 'late', deviceIds: [good.id], writes: [{ fieldCode: 'f04', value: 20 }],
    })).data.id;
    t = cst('2026-11-26T08:00:00'); // Thursday: 23rd, 24th, 25th and 26th 07:30 passed
    await tick();
    const page = await settled(id);
    const rows = page.rows.map((r: { scheduledAt: number; status: string; trigger: string }) => [r.scheduledAt, r.status, r.trigger]);
    expect(rows).toEqual([
      [cst('2026-11-26T07:30:00'), 'success', 'late'],
      [cst('2026-11-25T07:30:00'), 'missed', 'schedule'],
      [cst('2026-11-24T07:30:00'), 'missed', 'schedule'],
      [cst('2026-11-23T07:30:00'), 'missed', 'schedule'],
    ]);
    t = cst('2026-11-27T07:30:00');
    await tick();
    await tick();
    expect((await settled(id)).rows[0]).toMatchObject({ scheduledAt: t, trigger: 'schedule', startedAt: t });
    expect((await runsOf(id)).total).toBe(5);
  });
});

describe('周程序', () => {
  it('a memory type (20020) gets the program pushed as one command and acknowledged', async () => {
    const res = await api('POST', '/api/v1/weekprogram/', {
      projectId: a.projectId, name: '办公室', deviceType: 'device20020', deviceIds: [good.id], holidayRule: 'off',
      slots: [{ weekday: 1, at: '07:00', writes: [{ fieldCode: 'f00', value: 1 }, { fieldCode: 'f04', value: 22 }] }, { weekday: 1, at: '18:00', writes: [{ fieldCode: 'f00', value: 0 }] }],
    });
    expect(res).toMatchObject({ code: 200, data: { id: expect.any(Number) } });
    const runs = await waitFor(async () => {
      const page = (await api('GET', `/api/v1/weekprogram/${res.data.id}/runs`)).data;
      return page.rows[0]?.status === 'success' && page;
    });
    expect(runs.rows[0]).toMatchObject({ trigger: 'push', results: [{ deviceId: good.id, fieldCode: 'f09', value: 'H=off;1 07:00 f00=1,f04=22;1 18:00 f00=0', status: 'acked' }] });
    const listed = (await api('GET', `/api/v1/weekprogram?projectId=${a.projectId}`)).data.rows.find((r: { id: number }) => r.id === res.data.id);
    expect(listed).toMatchObject({ memory: true, nextRunAt: null, deviceCount: 1, description: ['周一 07:00 电源=1、设定温度=22；18:00 电源=0'] });
    expect((await api('GET', `/api/v1/weekprogram/listbydevice/${good.id}`)).data.map((p: { id: number }) => p.id)).toContain(res.data.id);
    expect((await api('GET', `/api/v1/weekprogram/listbyarea/${roomId}`)).data.map((p: { id: number }) => p.id)).toContain(res.data.id);
  });

  it('a server-executed program (20000, assigned to a room) fires its slots; on a holiday with rule `off` it switches off at 00:00', async () => {
    t = cst('2026-12-01T06:00:00'); // Tuesday
    await k.db.insertInto('holiday').values({ tenant_id: a.tenantId, project_id: 0, date: '2026-12-02', type: 'holiday', name: '测试假日', created_at: Date.now() }).execute();
    k.kelvin.automation.scheduler.invalidateCalendars();
    const id = (await api('POST', '/api/v1/weekprogram', {
      projectId: a.projectId, name: '房间程序', deviceType: 'device20000', areaIds: [roomId], holidayRule: 'off',
      slots: [2, 3].map((weekday) => ({ weekday, at: '07:00', writes: [{ fieldCode: 'f00', value: 1 }] })),
    })).data.id;
    const program = (await api('GET', `/api/v1/weekprogram/${id}`)).data;
    expect(program).toMatchObject({ memory: false, deviceCount: 1, nextRunAt: cst('2026-12-01T07:00:00') });
    t = cst('2026-12-01T07:00:00');
    await tick();
    t = cst('2026-12-02T00:00:00');
    await tick();
    t = cst('2026-12-02T07:00:00');
    await tick();
    const runs = await waitFor(async () => {
      const page = (await api('GET', `/api/v1/weekprogram/${id}/runs`)).data;
      return page.rows.every((r: { status: string }) => r.status !== 'running') && page;
    });
    expect(runs.rows.map((r: { scheduledAt: number; results: { value: string; deviceId: number }[] }) => [r.scheduledAt, r.results.map((x) => `${x.deviceId}:${x.value}`)])).toEqual([
      [cst('2026-12-02T00:00:00'), [`${plain.id}:0`]],
      [cst('2026-12-01T07:00:00'), [`${plain.id}:1`]],
    ]);
    // executetask: the slot in effect now (the holiday's switch-off)
    const now = await api('POST', `/api/v1/weekprogram/executetask/${id}`);
    expect(now).toMatchObject({ code: 200, data: { trigger: 'manual', results: [{ deviceId: plain.id, fieldCode: 'f00', value: '0' }] } });
  });
});

describe('策略任务', () => {
  it('fires when the condition has held for N minutes (by report time), then not again within the cool-down', async () => {
    const id = (await api('POST', '/api/v1/task', {
      projectId: a.projectId, name: '低温开暖', kind: 'strategy', deviceType: 'device20020', deviceIds: [good.id],
      condition: { source: 'device', fieldCode: 'f03', operator: 'lt', threshold: 16, forMinutes: 20 }, cooldownMinutes: 30,
      writes: [{ fieldCode: 'f00', value: 1 }, { fieldCode: 'f04', value: 22 }],
    })).data.id;
    const listed = (await api('GET', `/api/v1/task?projectId=${a.projectId}&kind=strategy`)).data.rows.find((r: { id: number }) => r.id === id);
    expect(listed.description).toBe('室内温度 低于 16 持续 20 分钟，冷却 30 分钟');
    const reporter = clients[0]!; // the acknowledging client of `good` also reports
    const ts0 = Date.now() - 60 * 60_000;
    const report = async (f03: number, ts: number) => {
      await reporter.publishAsync(good.topics.up, upPayload({ f03 }, ts), { qos: 1 });
      await k.kelvin.devices.ingest.writer.flush();
      await k.kelvin.automation.strategy.idle();
    };
    await report(15, ts0);
    await report(15.5, ts0 + 10 * 60_000);
    expect((await runsOf(id)).total).toBe(0);
    await report(15.2, ts0 + 21 * 60_000);
    expect((await runsOf(id)).total).toBe(1);
    t += 60_000;
    await report(15, ts0 + 22 * 60_000);
    expect((await runsOf(id)).total).toBe(1);
    // warm again: the breach restarts
    await report(18, ts0 + 23 * 60_000);
    t += 31 * 60_000; // cool-down over
    await report(15, ts0 + 24 * 60_000);
    expect((await runsOf(id)).total).toBe(1);
    await report(15, ts0 + 45 * 60_000);
    const page = await settled(id);
    expect(page.total).toBe(2);
    expect(page.rows[0]).toMatchObject({ trigger: 'strategy', status: 'success', results: [{ deviceId: good.id, fieldCode: 'f00' }, { deviceId: good.id, fieldCode: 'f04' }] });
  });
});
