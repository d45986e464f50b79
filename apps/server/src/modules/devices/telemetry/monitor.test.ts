import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithProject, startTestKelvin, type TestClient } from '../../../test/harness.ts';
import { connectDevice, createTestDevice, tryConnect, upPayload } from '../test-fixtures.ts';

let k: TestClient;
let a: Awaited<ReturnType<typeof createTenantWithProject>>;

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0 });
  // a tenant user even with every device code: the service monitor is the platform's
  a = await createTenantWithProject(k.db, 'monitora', ['devicemonitor', 'monitorManager', 'serviceMonitorManager']);
});
afterAll(() => k?.close());

describe('服务运行监控', () => {
  it('shows the database, the broker, devices online and connected, and the ingest counters of every process', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId, areaId: a.buildingId });
    const client = await connectDevice(k, dev);
    await client.publishAsync(dev.topics.up, upPayload({ f03: 21.5, f04: 22 }), { qos: 1 });
    await client.publishAsync(dev.topics.up, 'not json', { qos: 1 });
    await k.kelvin.devices.ingest.writer.flush();
    const admin = await k.loginAdmin();
    const s = (await k.call('GET', '/api/v1/monitor/service', { token: admin })).body.data;
    expect(s).toMatchObject({
      version: '0057', database: process.env.DATABASE_URL?.startsWith('postgres') ? 'PostgreSQL' : 'SQLite', databaseUp: true,
      mqtt: { status: 'up', mode: 'embedded', port: k.kelvin.mqtt!.port },
      devices: { total: 1, online: 1, connected: 1 },
    });
    expect(s.counters).toMatchObject({ messages_stored: 1, points_stored: 2, malformed: 1 });
    expect(s.counters.refused_auth).toBe(0);
    await client.endAsync();
  });

  it('lists refused messages and connections newest first, filtered by reason and device, page by page', async () => {
    const dev = await createTestDevice(k, { tenantId: a.tenantId, projectId: a.projectId });
    expect(await tryConnect(k, { clientId: dev.code, username: dev.code, password: 'wrong-secret' })).not.toBeNull();
    await k.kelvin.devices.ingest.writer.flush();
    const admin = await k.loginAdmin();
    const refused = (await k.call('GET', `/api/v1/monitor/ingestrejects?reason=auth&keyword=${dev.code}`, { token: admin })).body.data;
    expect(refused.total).toBe(1);
    // the device exists: the refusal is its tenant's
    expect(refused.rows[0]).toMatchObject({ deviceCode: dev.code, tenantCode: 'monitora', reason: 'auth', reasonLabel: '认证失败' });
    const all = (await k.call('GET', '/api/v1/monitor/ingestrejects?pageSize=1', { token: admin })).body.data;
    expect(all.total).toBeGreaterThanOrEqual(2); // + the malformed report of the first test
    expect(all.rows).toHaveLength(1);
    expect((await k.call('GET', '/api/v1/monitor/ingestrejects?reason=nonsense', { token: admin })).body).toMatchObject({ code: 40000, msg: expect.stringContaining('拒绝原因不存在') });
    const s = (await k.call('GET', '/api/v1/monitor/service', { token: admin })).body.data;
    expect(s.counters.refused_auth).toBeGreaterThanOrEqual(1);
  });

  it('is the platform administrator\'s only: a tenant user gets 40301 even holding the menu codes', async () => {
    const token = await k.login(a.username, a.password);
    for (const url of ['/api/v1/monitor/service', '/api/v1/monitor/ingestrejects']) {
      expect((await k.call('GET', url, { token })).body.code).toBe(40301);
    }
  });
});
