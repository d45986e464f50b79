import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startMqtt } from '../plugins/mqtt.ts';
import { CONTENT_SECURITY_POLICY } from '../plugins/security-headers.ts';
import { createTenantWithProject, startTestKelvin, type TestClient } from './harness.ts';

/** What a probe of the running server found: each refusal here is a finding that must stay fixed. */
let k: TestClient;
const PROXY = '10.0.0.1';

beforeAll(async () => {
  k = await startTestKelvin({ trustProxy: [PROXY] });
});
afterAll(() => k?.close());

const guess = (i: number, remoteAddress: string, forwardedFor: string) => k.kelvin.app.inject({
  method: 'POST', url: '/api/auth/jwt/token', remoteAddress, headers: { 'x-forwarded-for': forwardedFor },
  payload: { username: `probe${i}-${remoteAddress}`, password: 'not-the-password' },
});

describe('转发头与登录限流', () => {
  it('X-Forwarded-For from a client that is not a configured proxy is ignored: the throttle and the gate log see the socket', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 32; i++) codes.push((await guess(i, '10.7.7.7', `198.51.100.${i}`)).json().code);
    expect(codes.slice(0, 30).every((c) => c === 40001)).toBe(true);
    expect(codes.at(-1)).toBe(42900);
    const hosts = await k.db.selectFrom('gate_log').select('host').where('operation', '=', '登录').where('username', 'like', 'probe%-10.7.7.7').distinct().execute();
    expect(hosts.map((h) => h.host)).toEqual(['10.7.7.7']);
  });

  it('behind a configured proxy the forwarded address is the client', async () => {
    for (let i = 0; i < 3; i++) await guess(i, PROXY, '203.0.113.9');
    const hosts = await k.db.selectFrom('gate_log').select('host').where('username', 'like', `probe%-${PROXY}`).distinct().execute();
    expect(hosts.map((h) => h.host)).toEqual(['203.0.113.9']);
  });

  it('TRUST_PROXY is a list of addresses or networks, none by default', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });
});

describe('安全响应头', () => {
  it('every answer carries the CSP (no inline scripts), frame refusal, nosniff and a referrer policy', async () => {
    for (const url of ['/api/health', '/api/nope', '/device/devicemonitor', '/api/docs']) {
      const res = await k.kelvin.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
    const script = CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith('script-src'));
    expect(script).toBe("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });
});

describe('空修改、下载前的错误、日志中的凭据', () => {
  let t: Awaited<ReturnType<typeof createTenantWithProject>>;
  let token: string;
  beforeAll(async () => {
    t = await createTenantWithProject(k.db, 'hard', ['devicegroup', 'devicegroup:btn_add', 'devicegroup:btn_edit', 'equipmentRecords_n', 'equipmentRecords_n:export']);
    token = await k.login(t.username, t.password);
  });

  it('an update with nothing to change ({} or only unknown keys) is a 40000 in Chinese, not an SQL error', async () => {
    const created = await k.call('POST', '/api/v1/device/group/create', { token, body: { projectId: t.projectId, name: '一号分组' } });
    expect(created.body.code).toBe(200);
    const id = created.body.data.id;
    for (const body of [{}, { nope: 1, other: 'x' }]) {
      const res = await k.call('PUT', `/api/v1/device/group/${id}`, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 40000, msg: '没有要修改的内容' });
    }
    const huge = await k.kelvin.app.inject({ method: 'PUT', url: `/api/v1/device/group/${id}`, headers: { authorization: token, 'content-type': 'application/json' }, payload: '{"name":1e309}' });
    expect(huge.statusCode).toBe(400);
    const row = await k.db.selectFrom('device_group').select('name').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.name).toBe('一号分组');
  });

  it('an export refused before it starts answers the envelope (unknown or another tenant\'s project)', async () => {
    const other = await createTenantWithProject(k.db, 'hardother', []);
    for (const projectId of [987654, other.projectId]) {
      const res = await k.call('GET', `/api/v1/device/factorytest/export?projectId=${projectId}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(40400);
      expect(res.body.msg).toMatch(/不存在/);
    }
    const good = await k.call('GET', `/api/v1/device/factorytest/export?projectId=${t.projectId}`, { token });
    expect(good.status).toBe(200);
    expect(String(good.headers['content-type'])).toContain('spreadsheetml');
  });

  it('credentials in a query string never reach the gate log', async () => {
    const viaQuery = await k.kelvin.app.inject({ method: 'POST', url: `/api/v1/device/group/create?token=${encodeURIComponent(token)}&x=1`, payload: { projectId: t.projectId, name: '查询串令牌' } });
    expect(viaQuery.json().code).toBe(200);
    await k.kelvin.app.inject({ method: 'POST', url: `/api/auth/jwt/token?password=Secret123&captchaCode=ABCD&key=k1`, payload: { username: 'nobody', password: 'x' } });
    const uris = (await k.db.selectFrom('gate_log').select('uri').where((eb) => eb.or([eb('uri', 'like', '%token=%'), eb('uri', 'like', '%password=%')])).execute()).map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['/api/v1/device/group/create?token=***&x=1', '/api/auth/jwt/token?password=***&captchaCode=***&key=***']));
    const all = (await k.db.selectFrom('gate_log').select('uri').execute()).map((r) => r.uri).join('\n');
    expect(all).not.toContain(token.slice(-20));
    expect(all).not.toContain('Secret123');
  });

  it('numbers in query strings are plain decimals: 0x19, 2.5e1 and %2025 are refused', async () => {
    for (const v of ['0x19', '2.5e1', '%2025']) {
      const res = await k.call('GET', `/api/v1/device/group/list?projectId=${v}`, { token });
      expect(res.status, v).toBe(400);
      expect(res.body.code, v).toBe(40000);
    }
    expect((await k.call('GET', `/api/v1/device/group/list?projectId=${t.projectId}`, { token })).body.code).toBe(200);
  });
});

describe('内置 MQTT 的监听地址', () => {
  it('MQTT_HOST defaults to HOST', () => {
    expect(loadConfig({ HOST: '127.0.0.1' }).mqttHost).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '127.0.0.1', MQTT_HOST: '0.0.0.0' }).mqttHost).toBe('0.0.0.0');
  });

  it('the broker listens on MQTT_HOST only', async () => {
    const external = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    const hub = await startMqtt({ port: 0, host: '127.0.0.1' });
    const reach = (host: string) => new Promise<boolean>((resolve) => {
      const s = net.connect(hub.port!, host, () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    try {
      expect(await reach('127.0.0.1')).toBe(true);
      if (external) expect(await reach(external)).toBe(false);
    } finally {
      await hub.close();
    }
  });
});
