import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/index.ts';
import { ADMIN_PASSWORD } from './harness.ts';
import { reportLoad, seedMeter, startServerProcess, storedReportTs } from './process.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A login whose body is sent in two halves: the request is in flight (routed, waiting for its body) in between. */
function slowLogin(url: string) {
  const body = JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD });
  const half = Math.floor(body.length / 2);
  const u = new URL('/api/auth/jwt/token', url);
  const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, half));
  return { answer, finish: () => req.end(body.slice(half)) };
}

// a server process on SQLite; it runs once, in the SQLite pass
describe.skipIf(process.env.DATABASE_URL?.startsWith('postgres'))('SIGTERM：优雅停止', () => {
  it('stops accepting, finishes the request in flight and the ingest batch, keeps every acknowledged report, exits 0 (within the 10 s grace)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-shutdown-'));
    dirs.push(dataDir);
    const meter = await seedMeter(dataDir);
    // debug: the server logs each request as it arrives, so the test knows the slow one is in flight
    const server = await startServerProcess({ dataDir, env: { LOG_LEVEL: 'debug' } });
    const load = await reportLoad(server.mqttUrl, meter);
    await load.until(200);

    const login = slowLogin(server.url);
    await server.waitForOutput(/"url":"\/api\/auth\/jwt\/token"/);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await server.waitForOutput(/已停止接受新请求/);

    // a new request now is turned away (503 on an open connection, or the connection refused), never served
    const late = await fetch(`${server.url}/api/health`).then((r) => r.status, () => 'refused');
    expect(late === 503 || late === 'refused', `new request after SIGTERM: ${late}`).toBe(true);

    // the request in flight gets its answer
    login.finish();
    const answered = await login.answer;
    expect(answered.status).toBe(200);
    expect(answered.body.code).toBe(200);
    expect(typeof answered.body.data).toBe('string');

    const exit = await server.exited;
    await load.finished();
    console.log(`SIGTERM → 退出 ${Date.now() - signalled} ms；停止前已确认 ${load.acked.length} 条上报`);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.output()).toMatch(/Kelvin 已停止/);

    // every report the broker acknowledged is stored
    const { db } = await openDatabase({ dataDir });
    try {
      const stored = await storedReportTs(db, meter.deviceId);
      const lost = load.acked.filter((ts) => !stored.has(ts));
      expect(lost, `${lost.length} of ${load.acked.length} acknowledged reports missing`).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
