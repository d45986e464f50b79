// Overhead of request tracing: GET /api/v1/area/projecttypelist (signed in) req/s with KELVIN_TRACE=off, on, and on
// with an OTLP collector (a stand-in that answers 200), each on a fresh server, keep-alive connections, a warm-up first.
// node scripts/bench-trace.mjs [seconds=10] [connections=16]
import http from 'node:http';
import { loginAdmin, machine, startServer } from './bench-lib.mjs';

const SECONDS = Number(process.argv[2] ?? 10);
const CONNECTIONS = Number(process.argv[3] ?? 16);
const PATH = '/api/v1/area/projecttypelist';

async function load(server, token, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const until = Date.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const one = () => new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path: PATH, agent, headers: { authorization: token } }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) done++;
        else failed++;
        resolve();
      });
    });
    req.on('error', () => {
      failed++;
      resolve();
    });
  });
  const worker = async () => {
    while (Date.now() < until) await one();
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
  return { rps: Math.round(done / ((Date.now() - t0) / 1000)), failed };
}

async function run(label, env) {
  const server = await startServer(env);
  try {
    const token = await loginAdmin(server.url);
    await load(server, token, 3); // warm-up (JIT, caches)
    const r = await load(server, token, SECONDS);
    console.log(`${label.padEnd(28)} ${String(r.rps).padStart(6)} 请求/秒${r.failed ? `（失败 ${r.failed}）` : ''}`);
    return r.rps;
  } finally {
    await server.stop();
  }
}

const collector = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('{}'));
});
await new Promise((r) => collector.listen(0, '127.0.0.1', r));

console.log(`调用链路追踪的开销：${PATH}，${CONNECTIONS} 个连接，每轮 ${SECONDS} 秒（${machine()}）`);
const off = await run('追踪关闭（KELVIN_TRACE=off）', { KELVIN_TRACE: 'off' });
const on = await run('追踪开启（默认）', {});
const otlp = await run('追踪开启 + OTLP 导出', { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.address().port}` });
console.log(`开启 / 关闭：${((on / off - 1) * 100).toFixed(1)} %；OTLP 导出 / 关闭：${((otlp / off - 1) * 100).toFixed(1)} %`);
collector.close();
