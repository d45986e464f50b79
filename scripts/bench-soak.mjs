// `./kelvin bench soak`: a long run at a steady ingest rate with live-event (SSE) clients attached and the console
// polling, to see whether memory or event-loop delay creep up. Each minute prints the server's memory, event-loop
// delay (over that minute, measured inside the server) and what was stored and streamed. Flat is the goal.
import { parseArgs } from 'node:util';
import { api, loginAdmin, machine, simulate, startServer } from './bench-lib.mjs';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    rate: { type: 'string', default: '5000' },
    devices: { type: 'string', default: '1000' },
    sse: { type: 'string', default: '5' },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
if (!(minutes > 0) || !(rate > 0)) throw new Error('--minutes 与 --rate 必须是正数');

const server = await startServer();
const controller = new AbortController();
try {
  console.log(`▶ 长稳测试：${minutes} 分钟 × ${rate} 条/秒，${values.devices} 台设备，${values.sse} 个实时事件订阅，控制台每 5 秒轮询；机器：${machine()}`);
  const token = await loginAdmin(server.url);
  let ready = false;
  const sim = simulate(server, ['--tenant', 'soak', '--devices', values.devices, '--load', `${rate}:${minutes * 60}`, '--json'], (line) => {
    if (line.includes('"ready"')) ready = true;
  });
  while (!ready) await new Promise((r) => setTimeout(r, 200));

  // live-event clients: read and count the stream as a browser would
  let events = 0;
  for (let i = 0; i < Number(values.sse); i++) {
    fetch(`${server.url}/api/v1/live?token=${encodeURIComponent(token)}`, { signal: controller.signal }).then(async (res) => {
      const text = new TextDecoder();
      for await (const chunk of res.body) events += text.decode(chunk, { stream: true }).split('\n\n').length - 1;
    }).catch(() => {});
  }
  // the console: the service monitor and a device list, every 5 s
  const poll = setInterval(() => {
    api(server.url, 'GET', '/api/v1/monitor/service', token).catch(() => {});
    api(server.url, 'GET', '/api/v1/device/devicelist?pageNo=1&pageSize=50', token).catch(() => {});
  }, 5000);

  const samples = [];
  let last = { stored: 0, events: 0, at: Date.now() };
  console.log('分钟 │ 常驻内存 │ 堆 │ 事件循环延迟 平均 / p99 / 最大 │ 入库 条/秒 │ 实时事件/秒');
  for (let m = 1; m <= minutes; m++) {
    await new Promise((r) => setTimeout(r, 60_000));
    const s = await api(server.url, 'GET', '/api/v1/monitor/service', token);
    const now = Date.now();
    const secs = (now - last.at) / 1000;
    const row = {
      minute: m, rssMb: s.process.rssMb, heapMb: s.process.heapUsedMb, eld: s.process.eventLoopDelayMs,
      storedPerSecond: Math.round((s.counters.messages_stored - last.stored) / secs), eventsPerSecond: Math.round((events - last.events) / secs),
    };
    last = { stored: s.counters.messages_stored, events, at: now };
    samples.push(row);
    const eld = row.eld ? `${row.eld.mean} / ${row.eld.p99} / ${row.eld.max} ms` : '（第一分钟）';
    console.log(`${String(m).padStart(4)} │ ${String(row.rssMb).padStart(5)} MB │ ${String(row.heapMb).padStart(4)} MB │ ${eld.padStart(22)} │ ${String(row.storedPerSecond).padStart(7)} │ ${row.eventsPerSecond}`);
  }
  clearInterval(poll);
  controller.abort();
  await sim.done.catch(() => {});

  if (samples.length >= 4) {
    const early = samples[1];
    const tail = samples.slice(-Math.max(1, Math.floor(samples.length / 4)));
    const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const rssGrowth = (avg(tail.map((r) => r.rssMb)) - early.rssMb) / early.rssMb;
    const heapGrowth = (avg(tail.map((r) => r.heapMb)) - early.heapMb) / early.heapMb;
    console.log(`\n第 2 分钟 → 最后 1/4：常驻内存 ${early.rssMb} → ${Math.round(avg(tail.map((r) => r.rssMb)))} MB（${(rssGrowth * 100).toFixed(1)}%），堆 ${early.heapMb} → ${Math.round(avg(tail.map((r) => r.heapMb)))} MB（${(heapGrowth * 100).toFixed(1)}%）`);
    console.log(heapGrowth < 0.25 ? '✓ 内存平稳' : '✗ 堆在增长：请用 --inspect 或堆快照查原因');
  }
} finally {
  controller.abort();
  await server.stop();
}
