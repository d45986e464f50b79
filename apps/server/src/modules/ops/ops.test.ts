import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GONE_AFTER_BEATS, HEARTBEAT_MS, instanceStatus, traceKeptAs } from '@kelvin/contracts';
import { startTestKelvin, type TestClient } from '../../test/harness.ts';
import { tenantWithAdmin, type TenantFixture } from '../admin/fixtures.ts';
import { createTestDevice } from '../devices/test-fixtures.ts';
import { createRegistry } from './registry.ts';

/** 服务注册中心, 调用链路追踪 and the service monitor's actions, over one server (and a second sharing its database). */

let k: TestClient;
let admin: string;
let A: TenantFixture;
const SLOW_MS = 80;

beforeAll(async () => {
  k = await startTestKelvin({ trace: { slowMs: SLOW_MS, keep: 100 } });
  // routes that fail and dawdle on purpose (added before the server is ready)
  k.kelvin.app.get('/api/v1/test/boom', { config: { access: 'login' } }, async () => {
    await k.db.selectFrom('tenant').select('id').execute();
    throw new Error('故意失败');
  });
  k.kelvin.app.get('/api/v1/test/slow', { config: { access: 'login' } }, async () => {
    await k.db.selectFrom('app_user').select('id').execute();
    await new Promise((r) => setTimeout(r, SLOW_MS + 20));
    return { code: 200, msg: '操作成功', data: null };
  });
  admin = await k.loginAdmin();
  A = await tenantWithAdmin(k, 'opsa');
});
afterAll(() => k?.close());

const ops = () => k.kelvin.ops;
const HEX32 = /^[0-9a-f]{32}$/;

describe('调用链路追踪', () => {
  it('every API answer carries x-trace-id and traceparent; a traceparent sent is honoured', async () => {
    const res = await k.call('GET', '/api/health');
    expect(res.headers['x-trace-id']).toMatch(HEX32);
    expect(res.headers.traceparent).toBe(`00-${res.headers['x-trace-id']}-${String(res.headers.traceparent).split('-')[2]}-01`);
    const refused = await k.call('GET', '/api/v1/monitor/instances');
    expect(refused.headers['x-trace-id']).toMatch(HEX32);
    expect(refused.body.traceId).toBe(refused.headers['x-trace-id']);

    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const sent = await k.call('GET', '/api/health', { headers: { traceparent: `00-${trace}-00f067aa0ba902b7-01` } });
    expect(sent.headers['x-trace-id']).toBe(trace);
    expect(String(sent.headers.traceparent)).toMatch(new RegExp(`^00-${trace}-[0-9a-f]{16}-01$`));
    expect(String(sent.headers.traceparent)).not.toContain('00f067aa0ba902b7');
    // malformed or all-zero: a new trace
    for (const bad of ['00-zz-00f067aa0ba902b7-01', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, `ff-${trace}-00f067aa0ba902b7-01`]) {
      const r = await k.call('GET', '/api/health', { headers: { traceparent: bad } });
      expect(r.headers['x-trace-id']).not.toBe(trace);
      expect(r.headers['x-trace-id']).toMatch(HEX32);
    }
  });

  it('a failed request is kept with its request, handler and query spans; the envelope names the trace', async () => {
    const parentSpan = '00f067aa0ba902b7';
    const trace = 'aaf92f3577b34da6a3ce929d0e0e4736';
    const res = await k.call('GET', '/api/v1/test/boom', { token: admin, headers: { traceparent: `00-${trace}-${parentSpan}-01` } });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 50000, traceId: trace });
    expect(JSON.stringify(res.body)).not.toContain('故意失败');
    await ops().traces.flush();
    const detail = (await k.call('GET', `/api/v1/monitor/traces/${trace}`, { token: admin })).body.data;
    expect(detail).toMatchObject({ traceId: trace, status: 500, kept: 'error', method: 'GET', route: '/api/v1/test/boom', username: 'admin' });
    const root = detail.spans.find((s: any) => s.kind === 'server');
    expect(root).toMatchObject({ parentSpanId: parentSpan, name: 'GET /api/v1/test/boom', error: '故意失败' });
    expect(root.attributes['http.status_code']).toBe(500);
    const handler = detail.spans.find((s: any) => s.kind === 'internal');
    expect(handler.parentSpanId).toBe(root.spanId);
    const queries = detail.spans.filter((s: any) => s.kind === 'client');
    // the sign-in check's queries hang off the request, the handler's own query off the handler
    expect(queries.some((s: any) => s.parentSpanId === root.spanId)).toBe(true);
    const own = queries.find((s: any) => s.parentSpanId === handler.spanId);
    expect(own.attributes['db.statement']).toMatch(/select .*from "tenant"/i);
    for (const s of detail.spans) expect(s.end).toBeGreaterThanOrEqual(s.start);
  });

  it('a slow request is kept; a quick success, a 401 and a 404 are not', async () => {
    const slow = await k.call('GET', '/api/v1/test/slow', { token: admin });
    const quick = await k.call('GET', '/api/v1/monitor/instances', { token: admin });
    const expired = await k.call('GET', '/api/v1/monitor/instances', { token: 'nonsense' });
    const missing = await k.call('GET', '/api/v1/no/such/thing', { token: admin });
    expect([slow.status, quick.status, expired.status, missing.status]).toEqual([200, 200, 401, 404]);
    await ops().traces.flush();
    const find = async (id: string) => (await k.call('GET', `/api/v1/monitor/traces?traceId=${id}`, { token: admin })).body.data;
    expect((await find(slow.headers['x-trace-id'] as string)).rows).toMatchObject([{ kept: 'slow', status: 200 }]);
    expect((await find(slow.headers['x-trace-id'] as string)).rows[0].durationMs).toBeGreaterThanOrEqual(SLOW_MS);
    for (const r of [quick, expired, missing]) expect((await find(r.headers['x-trace-id'] as string)).total).toBe(0);
    expect(traceKeptAs(403, 1, 500)).toBe('error');
    expect(traceKeptAs(409, 1, 500)).toBe('error');
    expect(traceKeptAs(503, 1, 500)).toBe('error');
    expect(traceKeptAs(200, 499, 500)).toBeNull();
  });

  it('search filters: path, status, duration, user, kept, time range, trace id', async () => {
    const t0 = Date.now();
    await k.call('GET', '/api/v1/test/boom', { token: A.token });
    await k.call('GET', '/api/v1/test/slow', { token: A.token });
    await k.call('POST', '/api/v1/monitor/mqttbroadcast', { token: admin, body: { action: 'nonsense' } });
    await ops().traces.flush();
    const q = async (s: string) => (await k.call('GET', `/api/v1/monitor/traces?from=${t0}&${s}`, { token: admin })).body.data;
    expect((await q(`username=${A.username}`)).rows.map((r: any) => r.route).sort()).toEqual(['/api/v1/test/boom', '/api/v1/test/slow']);
    expect((await q('status=400')).rows).toMatchObject([{ route: '/api/v1/monitor/mqttbroadcast', kept: 'error', username: 'admin' }]);
    expect((await q('path=slow')).rows.every((r: any) => r.path.includes('slow'))).toBe(true);
    expect((await q(`minDuration=${SLOW_MS}`)).rows.every((r: any) => r.durationMs >= SLOW_MS)).toBe(true);
    expect((await q(`minDuration=${SLOW_MS}`)).total).toBeGreaterThanOrEqual(1);
    expect((await q('kept=slow')).rows.every((r: any) => r.kept === 'slow')).toBe(true);
    expect((await q(`to=${t0}`)).total).toBe(0);
    const bad = await k.call('GET', '/api/v1/monitor/traces?traceId=xyz', { token: admin });
    expect(bad.body).toMatchObject({ code: 40000, msg: '追踪号应为 32 位十六进制' });
    expect((await k.call('GET', `/api/v1/monitor/traces/${'1'.repeat(32)}`, { token: admin })).body.code).toBe(40400);
  });

  it('the store keeps the newest rows only (pruned in one batch)', async () => {
    for (let i = 0; i < 130; i++) await k.call('GET', '/api/v1/monitor/instances', { token: A.token }); // 403: kept
    await ops().traces.flush();
    await ops().traces.prune();
    const rows = await k.db.selectFrom('ops_trace').select('id').orderBy('id').execute();
    expect(rows.length).toBe(100);
    const max = rows.at(-1)!.id;
    expect(rows[0]!.id).toBe(max - 99);
  });
});

describe('服务注册中心', () => {
  it('this process is registered with its roles and figures, and beats', async () => {
    const list = (await k.call('GET', '/api/v1/monitor/instances', { token: admin })).body.data;
    const self = list.find((i: any) => i.self);
    expect(self).toMatchObject({ id: ops().instanceId, status: 'up', pid: process.pid, roles: ['api', 'scheduler'], stoppedAt: null });
    expect(self.rssMb).toBeGreaterThan(0);
    const before = self.heartbeatAt;
    await new Promise((r) => setTimeout(r, 5));
    await ops().registry.beat();
    const after = (await k.call('GET', '/api/v1/monitor/instances', { token: admin })).body.data.find((i: any) => i.self);
    expect(after.heartbeatAt).toBeGreaterThan(before);
    expect(after.requestsPerMin).toBeGreaterThan(0);
  });

  it('the gone rule on a fake clock: up, gone after 3 silent intervals, stopped on close, pruned after 7 days', async () => {
    expect(instanceStatus({ heartbeatAt: 0, stoppedAt: null }, GONE_AFTER_BEATS * HEARTBEAT_MS)).toBe('up');
    expect(instanceStatus({ heartbeatAt: 0, stoppedAt: null }, GONE_AFTER_BEATS * HEARTBEAT_MS + 1)).toBe('gone');
    expect(instanceStatus({ heartbeatAt: 0, stoppedAt: 5 }, 1)).toBe('stopped');

    let now = Date.now();
    const clock = { now: () => now };
    const figures = { devicesConnected: () => 3, requestsPerMinute: () => 7 };
    const other = createRegistry({ db: k.db, id: 'fake-host-1', roles: ['api', 'ingest'], version: 't', figures, clock, onError: (e) => { throw e; } });
    await other.start();
    await other.stop(); // no timer left behind; the row is "stopped" — bring it back to life for the clock's walk
    await k.db.updateTable('ops_instance').set({ stopped_at: null }).where('id', '=', 'fake-host-1').execute();
    const statusOf = async () => (await ops().registry.list()).find((i) => i.id === 'fake-host-1');
    now += 10_000;
    await other.beat();
    expect(await statusOf()).toMatchObject({ status: 'up', devicesConnected: 3, requestsPerMin: 7, roles: ['api', 'ingest'] });
    now += 3 * HEARTBEAT_MS + 1;
    // the listing process's own clock is the real one: list through a registry on the fake clock
    const viewer = createRegistry({ db: k.db, id: 'viewer', roles: [], version: 't', figures, clock, onError: () => {} });
    expect((await viewer.list()).find((i) => i.id === 'fake-host-1')?.status).toBe('gone');
    now += 7 * 24 * 3_600_000;
    await viewer.prune();
    expect((await viewer.list()).find((i) => i.id === 'fake-host-1')).toBeUndefined();
    // that prune took this server's row too (its clock is a week behind the fake one): the next beat registers again
    await ops().registry.beat();
    expect((await ops().registry.list()).find((i) => i.self)?.status).toBe('up');
  });

  it('two servers on one database list each other; a closed one shows as stopped', async () => {
    const second = await startTestKelvin({ dataDir: (k as any).dataDir, databaseSchema: k.kelvin.app.config.databaseSchema, trace: { slowMs: 500, keep: 100 } }, { scheduler: false });
    try {
      const ids = (await k.call('GET', '/api/v1/monitor/instances', { token: admin })).body.data.map((i: any) => i.id);
      expect(ids).toContain(second.kelvin.ops.instanceId);
      const token = await second.loginAdmin();
      const seen = (await second.call('GET', '/api/v1/monitor/instances', { token })).body.data;
      expect(seen.find((i: any) => i.self).roles).toEqual(['api']);
      expect(seen.map((i: any) => i.id)).toContain(ops().instanceId);
    } finally {
      // the second server's close must not drop the shared PostgreSQL schema (nor the SQLite data dir): close the Kelvin only
      second.kelvin.app.config.databaseSchema = undefined;
      await second.kelvin.close();
    }
    const list = (await k.call('GET', '/api/v1/monitor/instances', { token: admin })).body.data;
    expect(list.find((i: any) => i.id === second.kelvin.ops.instanceId)?.status).toBe('stopped');
  });
});

describe('服务运行监控的操作', () => {
  it('iot reload names what it reloaded; broadcast and 4G refresh count devices and issue commands; all audited', async () => {
    const reload = (await k.call('POST', '/api/v1/monitor/iotreload', { token: admin })).body;
    expect(reload.code).toBe(200);
    expect(reload.data.items.map((i: any) => i.name)).toEqual(['设备目录（设备认证、主题权限）', '告警规则索引', '定时任务、周程序与策略任务']);

    const online = await createTestDevice(k, { tenantId: A.tenantId, projectId: A.projectId });
    await createTestDevice(k, { tenantId: A.tenantId, projectId: A.projectId }); // offline: not reached
    const cellular = await createTestDevice(k, { tenantId: A.tenantId, projectId: A.projectId, type: 'deviceAG2410' });
    await k.db.updateTable('device').set({ online_until: Date.now() + 600_000 }).where('id', '=', online.id).execute();

    const b = (await k.call('POST', '/api/v1/monitor/mqttbroadcast', { token: admin, body: { tenantId: A.tenantId, action: 'syncTime' } })).body;
    expect(b.data).toEqual({ action: 'syncTime', online: 1, asked: 1, unsupported: 0 });
    const r1 = (await k.call('POST', '/api/v1/monitor/rturefresh', { token: admin, body: { tenantId: A.tenantId, projectId: A.projectId } })).body;
    expect(r1.data).toEqual({ devices: 1, asked: 1, sentNow: 0, alreadyWaiting: 0 });
    const r2 = (await k.call('POST', '/api/v1/monitor/rturefresh', { token: admin, body: { tenantId: A.tenantId } })).body;
    expect(r2.data).toMatchObject({ devices: 1, asked: 0, alreadyWaiting: 1 });

    const commands = await k.db.selectFrom('device_command').select(['device_id', 'action', 'username']).where('tenant_id', '=', A.tenantId).orderBy('id').execute();
    expect(commands).toEqual([
      { device_id: online.id, action: 'syncTime', username: 'admin' },
      { device_id: cellular.id, action: 'refresh', username: 'admin' },
    ]);
    const audit = await k.db.selectFrom('gate_log').select(['operation', 'menu_code', 'status']).where('uri', 'like', '/api/v1/monitor/%').where('method', '=', 'POST').orderBy('id').execute();
    expect(audit.map((a) => a.operation)).toEqual(expect.arrayContaining(['重新加载物联网配置', 'MQTT 广播', '4G RTU 刷新']));
    expect(audit.every((a) => a.menu_code === 'serviceMonitorManager')).toBe(true);

    const targets = (await k.call('GET', '/api/v1/monitor/targets', { token: admin })).body.data;
    expect(targets.find((t: any) => t.id === A.tenantId)).toMatchObject({ online: 1, cellular: 1, projects: [{ id: A.projectId }] });

    const bad = (await k.call('POST', '/api/v1/monitor/mqttbroadcast', { token: admin, body: { projectId: A.projectId, action: 'refresh' } })).body;
    expect(bad).toMatchObject({ code: 40000, msg: '选择项目前请先选择租户' });
    expect((await k.call('POST', '/api/v1/monitor/iotreload', { token: A.token })).status).toBe(403);
  });
});

describe('OTLP 导出', () => {
  it('the kept requests\' spans reach a collector as OTLP JSON; a collector that is down only counts drops', async () => {
    const bodies: any[] = [];
    const collector = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        bodies.push({ url: req.url, type: req.headers['content-type'], json: JSON.parse(text) });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', () => r()));
    const port = (collector.address() as { port: number }).port;
    const t = await startTestKelvin({ trace: { slowMs: 500, keep: 100, otlpEndpoint: `http://127.0.0.1:${port}/` } });
    try {
      const token = await t.loginAdmin();
      await t.call('GET', '/api/health'); // not kept: not exported
      const res = await t.call('GET', '/api/v1/monitor/traces?status=1', { token }); // 400: kept
      await t.kelvin.ops.exporter!.flush();
      expect(bodies.length).toBeGreaterThanOrEqual(1);
      expect(bodies[0]).toMatchObject({ url: '/v1/traces', type: 'application/json' });
      const rs = bodies[0].json.resourceSpans[0];
      expect(rs.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'kelvin' } });
      const spans = bodies.flatMap((b) => b.json.resourceSpans[0].scopeSpans[0].spans);
      const root = spans.find((s: any) => s.traceId === res.headers['x-trace-id'] && s.kind === 2);
      expect(root).toMatchObject({ name: 'GET /api/v1/monitor/traces', status: { code: 2 } });
      expect(spans.some((s: any) => s.name === 'GET /api/health')).toBe(false);
      expect(root.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(root.startTimeUnixNano).toMatch(/^\d{19}$/);
      expect(BigInt(root.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(root.startTimeUnixNano));
      expect(root.attributes).toContainEqual({ key: 'http.status_code', value: { intValue: '400' } });
      const child = spans.find((s: any) => s.traceId === res.headers['x-trace-id'] && s.kind === 3);
      expect(child.parentSpanId).toBeTruthy();
      expect(t.kelvin.ops.exporter!.stats().dropped).toBe(0);

      await new Promise<void>((r) => collector.close(() => r()));
      collector.closeAllConnections();
      await t.call('GET', '/api/v1/monitor/instances', { token: 'expired-or-not' }); // 401: not kept
      await t.call('GET', '/api/v1/monitor/traces?status=2', { token });
      await t.kelvin.ops.exporter!.flush();
      expect(t.kelvin.ops.exporter!.stats().dropped).toBeGreaterThan(0);
    } finally {
      await t.close();
      collector.close();
    }
  });
});
