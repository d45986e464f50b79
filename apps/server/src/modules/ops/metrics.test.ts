import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestKelvin, type TestClient } from '../../test/harness.ts';
import { tenantWithAdmin, type TenantFixture } from '../admin/fixtures.ts';
import { connectDevice, createTestDevice, upPayload } from '../devices/test-fixtures.ts';

const SCRAPE_TOKEN = 'scrape-token-0123456789abcdef';
let k: TestClient;
let admin: string;
let A: TenantFixture;

beforeAll(async () => {
  k = await startTestKelvin({ mqttEnabled: true, mqttPort: 0, metricsToken: SCRAPE_TOKEN });
  admin = await k.loginAdmin();
  A = await tenantWithAdmin(k, 'metrica');
});
afterAll(() => k?.close());

interface Parsed {
  types: Map<string, string>;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

/** A strict reader of the text format 0.0.4: every line is a HELP, a TYPE or a sample of a declared family. */
function parse(text: string): Parsed {
  expect(text.endsWith('\n')).toBe(true);
  const types = new Map<string, string>();
  const samples: Parsed['samples'] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    let m = line.match(/^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/);
    if (m) continue;
    m = line.match(/^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram)$/);
    if (m) {
      expect(types.has(m[1]!), `family ${m[1]} declared twice`).toBe(false);
      types.set(m[1]!, m[2]!);
      continue;
    }
    m = line.match(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|\+Inf|-Inf|NaN)$/);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const labels: Record<string, string> = {};
    const body = m![2] ?? '';
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
    let consumed = 0;
    for (let l = re.exec(body); l; l = re.exec(body)) {
      labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
      consumed = re.lastIndex;
    }
    expect(consumed, `labels of ${line}`).toBe(body.length);
    const name = m![1]!;
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    expect(types.has(family), `sample of an undeclared family: ${line}`).toBe(true);
    if (family !== name) expect(types.get(family)).toBe('histogram');
    samples.push({ name, labels, value: Number(m![3] === '+Inf' ? Infinity : m![3]) });
  }
  return { types, samples };
}

const scrape = async (token = admin) => {
  const res = await k.call('GET', '/metrics', { token });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parse(res.body as string);
};
const value = (p: Parsed, name: string, labels: Record<string, string> = {}) =>
  p.samples.find((s) => s.name === name && Object.entries(labels).every(([k2, v]) => s.labels[k2] === v))?.value;

describe('/metrics（Prometheus 文本格式）', () => {
  it('parses as the text format; histograms are cumulative and end in +Inf = _count', async () => {
    const p = await scrape();
    for (const [family, type] of p.types) {
      if (type !== 'histogram') continue;
      const series = new Map<string, number[]>();
      for (const s of p.samples.filter((x) => x.name === `${family}_bucket`)) {
        const { le, ...rest } = s.labels;
        const key = JSON.stringify(rest);
        series.set(key, [...(series.get(key) ?? []), s.value]);
        if (le === '+Inf') expect(s.value, `${family} +Inf`).toBe(value(p, `${family}_count`, rest as Record<string, string>));
      }
      for (const counts of series.values()) expect(counts, family).toEqual([...counts].sort((a, b) => a - b));
    }
    expect([...p.types.keys()]).toEqual(expect.arrayContaining([
      'kelvin_ready', 'kelvin_ingest_total', 'kelvin_ingest_batch_duration_seconds', 'kelvin_ingest_queue_depth', 'kelvin_commands',
      'kelvin_http_request_duration_seconds', 'kelvin_event_loop_delay_seconds', 'process_resident_memory_bytes', 'nodejs_heap_used_bytes',
    ]));
    expect(value(p, 'kelvin_ready', { check: 'database' })).toBe(1);
    expect(value(p, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 2 ** 20);
    if (process.env.DATABASE_URL?.startsWith('postgres')) {
      expect(value(p, 'kelvin_db_pool_connections', { state: 'max' })).toBe(10);
      expect(value(p, 'kelvin_db_pool_waiting')).toBe(0);
    } else {
      expect(value(p, 'kelvin_db_connections', { role: 'ingest_writer' })).toBe(1);
      expect(value(p, 'kelvin_db_connections', { role: 'reader' })).toBeGreaterThanOrEqual(1);
      expect(value(p, 'kelvin_db_reader_busy', { reader: '0' })).toBe(0);
    }
  });

  it('a request shows up in the latency histogram under its route template, never its raw URL', async () => {
    const labels = { method: 'GET', route: '/api/v1/device/detail/:id', status: '4xx' };
    const before = value(await scrape(), 'kelvin_http_request_duration_seconds_count', labels) ?? 0;
    expect((await k.call('GET', '/api/v1/device/detail/987654', { token: A.token })).status).toBe(404);
    const after = await scrape();
    expect(value(after, 'kelvin_http_request_duration_seconds_count', labels)).toBe(before + 1);
    expect(value(after, 'kelvin_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(before + 1);
    expect(after.samples.some((s) => s.labels.route?.includes('987654'))).toBe(false);
    // the registry's requests per minute come from the same hook
    await k.kelvin.ops.registry.beat();
    const row = await k.db.selectFrom('ops_instance').select('requests_per_min').where('id', '=', k.kelvin.ops.instanceId).executeTakeFirstOrThrow();
    expect(row.requests_per_min).toBeGreaterThanOrEqual(1);
  });

  it('ingest and commands: the service monitor\'s counters, this process\'s batches and queue, commands by status', async () => {
    const dev = await createTestDevice(k, { tenantId: A.tenantId, projectId: A.projectId, areaId: A.buildingId });
    const before = await scrape();
    const client = await connectDevice(k, dev);
    for (let i = 0; i < 5; i++) await client.publishAsync(dev.topics.up, upPayload({ f03: 20 + i }, Date.now() - 10_000 + i), { qos: 1 });
    await client.endAsync();
    const now = Date.now();
    await k.db.insertInto('device_command').values(['acked', 'acked', 'expired'].map((status) => ({
      tenant_id: A.tenantId, project_id: A.projectId, device_id: dev.id, field_code: 'f04', value: '22', action: null, status, error: null, user_id: null, username: null,
      created_at: now, sent_at: now, finished_at: now, expires_at: now + 60_000,
    }))).execute();

    const p = await scrape();
    expect(value(p, 'kelvin_ingest_committed_messages_total')! - value(before, 'kelvin_ingest_committed_messages_total')!).toBe(5);
    expect(value(p, 'kelvin_ingest_batch_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(value(p, 'kelvin_commands', { status: 'acked' })).toBe(2);
    expect(value(p, 'kelvin_commands', { status: 'expired' })).toBe(1);
    // the same figures as the service monitor's screen
    const monitor = (await k.call('GET', '/api/v1/monitor/service', { token: admin })).body.data;
    for (const [counter, n] of Object.entries(monitor.counters as Record<string, number>)) {
      expect(value(p, 'kelvin_ingest_total', { counter }), counter).toBe(n);
    }
    expect(value(p, 'kelvin_ingest_total', { counter: 'messages_stored' })).toBeGreaterThanOrEqual(5);
    expect(value(p, 'kelvin_devices', { state: 'total' })).toBe(monitor.devices.total);
  });

  it('refuses everyone but platform administrators and the configured scrape token; a refusal is audited', async () => {
    const none = await k.call('GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(40101);
    expect((await k.call('GET', '/metrics', { token: 'not-a-token' })).status).toBe(401);
    expect((await k.call('GET', '/metrics', { token: `${SCRAPE_TOKEN}x` })).status).toBe(401);

    const tenantAdmin = await k.call('GET', '/metrics', { token: A.token });
    expect(tenantAdmin.status).toBe(403);
    expect(tenantAdmin.body).toMatchObject({ code: 40301, msg: '只有平台管理员或配置的采集令牌可以读取运行指标' });
    const audit = await k.db.selectFrom('gate_log').select(['operation', 'status']).where('uri', '=', '/metrics').where('tenant_id', '=', A.tenantId).execute();
    expect(audit).toEqual([{ operation: '拒绝访问：查询', status: 403 }]);

    expect((await k.call('GET', '/metrics', { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } })).status).toBe(200);
    await scrape(admin);
    // not part of the API document (it is not a JSON endpoint)
    const doc = (await k.call('GET', '/api/docs/json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });
});
