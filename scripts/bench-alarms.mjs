// `./kelvin bench alarms`: a report that breaks a monitoring rule → the alarm visible to a browser over SSE
// (/api/v1/live), while the load generator keeps the ingest busy. A fresh server (SQLite, embedded broker); N meters
// of the load generator in one project with R rules on their fields that the load never breaks (every operator; each
// report is checked against all of them), plus one probe rule. A probe meter of the same project (a real MQTT
// client) reports a breaking value, waits for the `alarm` event of its raise on an SSE stream opened like the
// browser's, then reports a normal value and waits for the clear; publish → event is the latency.
import { parseArgs } from 'node:util';
import mqtt from 'mqtt';
import { api, createQuietRules, machine, percentile, provisionLoadDevices, simulate, startServer } from './bench-lib.mjs';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000' },
    rules: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '5000' },
    seconds: { type: 'string', default: '60' },
    postgres: { type: 'string' },
  },
});
const devices = Number(values.devices);
const rules = Number(values.rules);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
if (!(devices > 0) || !(rules > 0) || !(rate > 0) || !(seconds >= 20)) throw new Error('--devices、--rules、--rate 必须是正数，--seconds 至少 20');

const server = await startServer({}, values.postgres);
const controller = new AbortController();
try {
  console.log(`▶ 告警压测：${devices} 台设备，${rules} 条规则，接入 ${rate} 条/秒 × ${seconds} s；数据库：${values.postgres ? 'PostgreSQL' : 'SQLite'}；机器：${machine()}`);
  const { token, projectId, areaId } = await provisionLoadDevices(server, 'bench', devices);
  const t0 = Date.now();
  await createQuietRules(server.url, token, projectId, rules - 1);
  await api(server.url, 'POST', '/api/v1/monitorrule', token, {
    projectId, name: '压测探针：电压过高', deviceType: 'device20090', fieldCode: 'f71', operator: 'gt', threshold: 250, forSeconds: 0, severity: 'critical', notifySms: false, enabled: true,
  });
  console.log(`  ${rules} 条规则已建（${((Date.now() - t0) / 1000).toFixed(1)} s）`);

  // the probe meter: a device of the project with its own credentials
  const made = await api(server.url, 'POST', `/api/v1/device/create/${projectId}/${areaId}/device20090`, token, { deviceName: '告警探针电表' });
  const cred = made.credentials;
  const probe = mqtt.connect(server.mqttUrl, { clientId: cred.clientId, username: cred.username, password: cred.password, reconnectPeriod: 0 });
  await new Promise((resolve, reject) => {
    probe.once('connect', resolve);
    probe.once('error', reject);
  });

  // the browser's stream: alarm events of the project
  const waiting = new Map(); // `${status}` → resolve
  let streamEvents = 0;
  const stream = await fetch(`${server.url}/api/v1/live?token=${encodeURIComponent(token)}&projectId=${projectId}`, { signal: controller.signal });
  (async () => {
    const text = new TextDecoder();
    let buf = '';
    for await (const chunk of stream.body) {
      buf += text.decode(chunk, { stream: true });
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        streamEvents++;
        if (!block.startsWith('event: alarm')) continue;
        const data = JSON.parse(block.slice(block.indexOf('data: ') + 6));
        if (data.deviceId === cred.deviceId) waiting.get(data.status)?.(Date.now());
      }
    }
  })().catch(() => {});

  let ts = Date.now();
  async function probeOnce(value, status) {
    const seen = new Promise((resolve) => {
      waiting.set(status, resolve);
      setTimeout(() => resolve(null), 10_000);
    });
    ts = Math.max(Date.now(), ts + 1);
    const sent = Date.now();
    probe.publish(cred.topics.up, JSON.stringify({ ts, fields: { f70: 1000 + ts / 1e9, f71: value, f72: 220 } }), { qos: 1 });
    const at = await seen;
    waiting.delete(status);
    return at === null ? null : at - sent;
  }

  let loadResult = null;
  let ready = false;
  const load = simulate(server, ['--tenant', 'bench', '--devices', String(devices), '--load', `${rate}:${seconds}`, '--json'], (line) => {
    if (line.includes('"ready"')) ready = true;
    else if (line.startsWith('{')) loadResult = JSON.parse(line);
  });
  while (!ready) await new Promise((r) => setTimeout(r, 100));
  const loadStart = Date.now();
  await new Promise((r) => setTimeout(r, 5_000)); // past the load's warm-up
  const raised = [];
  const cleared = [];
  let missed = 0;
  while (Date.now() - loadStart < (seconds - 5) * 1000) {
    const up = await probeOnce(260, 'active');
    if (up === null) missed++;
    else raised.push(up);
    await new Promise((r) => setTimeout(r, 200));
    const down = await probeOnce(220, 'cleared');
    if (down === null) missed++;
    else cleared.push(down);
    await new Promise((r) => setTimeout(r, 200));
  }
  await load.done;
  await probe.endAsync();

  const line = (name, xs) => `${name}：${xs.length} 次，p50 ${percentile(xs, 50)} ms，p95 ${percentile(xs, 95)} ms，最大 ${xs.length ? Math.max(...xs) : 0} ms`;
  console.log('\n▶ 上报 → 浏览器收到告警事件（SSE）');
  console.log(`  ${line('告警产生', raised)}`);
  console.log(`  ${line('告警恢复', cleared)}`);
  console.log(`  超过 10 s 未收到：${missed} 次；事件流共收到 ${streamEvents} 个事件`);
  if (loadResult) console.log(`  同时接入：目标 ${loadResult.rate} 条/秒，入库确认 ${loadResult.ackedPerSecond} 条/秒，p95 ${loadResult.p95Ms} ms，未确认 ${loadResult.failed}`);
  console.log('\n▶ README 可用的结果');
  console.log('| devices | rules | ingest (msg/s) | alarms measured | p50 | p95 | max | clears p95 | ingest committed (msg/s) | ingest p95 |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(`| ${devices} | ${rules} | ${rate} | ${raised.length} | ${percentile(raised, 50)} ms | ${percentile(raised, 95)} ms | ${raised.length ? Math.max(...raised) : 0} ms | ${percentile(cleared, 95)} ms | ${loadResult?.ackedPerSecond ?? '—'} | ${loadResult?.p95Ms ?? '—'} ms |`);
  const met = raised.length >= 10 && missed === 0 && percentile(raised, 95) <= 2000;
  console.log(met ? '\n✓ 达到目标：告警从上报到浏览器 p95 ≤ 2 s（1,000 台设备、1,000 条规则、接入 5,000 条/秒）' : '\n✗ 未达到目标（告警从上报到浏览器 p95 ≤ 2 s，且无遗漏）');
} finally {
  controller.abort();
  await server.stop();
}
