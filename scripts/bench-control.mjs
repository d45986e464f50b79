// `./kelvin bench control`: a fresh server, 1,000 simulated thermostats online (the simulator in another process,
// each a real MQTT client), then set-temperature commands through the API: command → device acknowledgement →
// the reported value committed and visible. Timings come from the live event stream (emitted after commit) and each
// result is checked against GET /device/detail.
import { parseArgs } from 'node:util';
import { api, cpuSeconds, loginAdmin, machine, openLive, percentile, simulate, startServer, waitOnline } from './bench-lib.mjs';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000' },
    commands: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '10' },
  },
});
const DEVICES = Number(values.devices);
const COMMANDS = Number(values.commands);
const CONCURRENCY = Number(values.concurrency);
const TIMEOUT_MS = 15_000;

const server = await startServer();
let sim;
try {
  console.log(`▶ 控制往返压测：${DEVICES} 台模拟温控器在线，${COMMANDS} 条设定温度指令（并发 ${CONCURRENCY}）；机器：${machine()}`);
  sim = simulate(server, ['--tenant', 'bench', '--type', 'device20020', '--per-type', String(DEVICES), '--dropouts', '0']);
  const token = await loginAdmin(server.url);
  const devices = await waitOnline(server.url, token, 'device20020', DEVICES);

  // live events: command acknowledgements by command id, reported set points by device
  const acks = new Map();
  const stateWaiters = new Map();
  const live = await openLive(server.url, token, (event, data, at) => {
    if (event === 'command' && (data.status === 'acked' || data.status === 'rejected')) {
      // the acknowledgement may arrive before the POST answer: keep it until someone waits for it
      const waiter = acks.get(data.commandId);
      if (typeof waiter === 'function') waiter(data.status, at);
      else acks.set(data.commandId, [data.status, at]);
    }
    if (event === 'device' && data.fields.f04 !== undefined) stateWaiters.get(`${data.deviceId}:${data.fields.f04}`)?.(at);
  });

  const toAck = [];
  const toState = [];
  let failures = 0;
  let mismatches = 0;
  let next = 0;
  const cpu0 = { at: Date.now(), server: cpuSeconds(server.child.pid), sim: cpuSeconds(sim.child.pid) };

  async function one(i) {
    const device = devices[i % devices.length];
    const value = 16 + ((i * 7) % 29) / 2; // 16 … 30 in steps of 0.5, never the same twice in a row for a device
    const stateSeen = new Promise((resolve) => stateWaiters.set(`${device.id}:${value}`, resolve));
    const started = performance.now();
    const res = await api(server.url, 'POST', `/api/v1/device/writedeviceattr/${device.id}/f04/${value}`, token);
    const acked = new Promise((resolve) => {
      const early = acks.get(res.commandId);
      if (Array.isArray(early)) resolve(early);
      else acks.set(res.commandId, (status, at) => resolve([status, at]));
    });
    const timeout = new Promise((resolve) => setTimeout(() => resolve(null), TIMEOUT_MS));
    const ack = await Promise.race([acked, timeout]);
    const seen = await Promise.race([stateSeen, timeout]);
    stateWaiters.delete(`${device.id}:${value}`);
    acks.delete(res.commandId);
    if (!ack || ack[0] !== 'acked' || !seen) {
      failures++;
      return;
    }
    toAck.push(ack[1] - started);
    toState.push(seen - started);
    const detail = await api(server.url, 'GET', `/api/v1/device/detail/${device.id}`, token);
    // (with more commands than devices a later command may already have changed it)
    if (detail.fields.f04 !== value && COMMANDS <= devices.length) mismatches++;
  }

  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < COMMANDS) await one(next++);
  }));
  const wall = (Date.now() - cpu0.at) / 1000;
  const serverCpu = Math.round(((cpuSeconds(server.child.pid) - cpu0.server) / wall) * 100);
  live.destroy();

  const fmt = (xs, p) => `${Math.round(percentile(xs, p))} ms`;
  console.log(`\n  ${toAck.length} 条成功，${failures} 条失败/超时，${mismatches} 条详情与设定不符；用时 ${wall.toFixed(1)} s（${(COMMANDS / wall).toFixed(0)} 条/秒），服务端 CPU ${serverCpu}%`);
  console.log(`  指令 → 设备确认:        p50 ${fmt(toAck, 50)}  p95 ${fmt(toAck, 95)}  p99 ${fmt(toAck, 99)}`);
  console.log(`  指令 → 新值可在接口读到: p50 ${fmt(toState, 50)}  p95 ${fmt(toState, 95)}  p99 ${fmt(toState, 99)}`);
  console.log('\n▶ README「Measured」可用的结果');
  console.log('| 在线设备 | 指令数 | 并发 | 指令→确认 p50 / p95 | 指令→新值可读 p50 / p95 | 失败 |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  console.log(`| ${devices.length} | ${COMMANDS} | ${CONCURRENCY} | ${fmt(toAck, 50)} / ${fmt(toAck, 95)} | ${fmt(toState, 50)} / ${fmt(toState, 95)} | ${failures} |`);
} finally {
  sim?.child.kill('SIGTERM');
  await sim?.done.catch(() => {});
  await server.stop();
}
