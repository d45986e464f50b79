import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestKelvin, type TestClient } from './test/harness.ts';

/** The built console: history fallback for routes, a real 404 for build files that are not there (an older build's chunk). */
describe('static serving of the web build', () => {
  let k: TestClient;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-dist-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Kelvin</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'main-new.js'), 'console.log(1)');
    k = await startTestKelvin({ webDist: dist });
  });
  afterAll(async () => {
    await k.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('serves existing files and falls back to index.html for console routes', async () => {
    expect((await k.call('GET', '/assets/main-new.js')).body).toBe('console.log(1)');
    for (const url of ['/device/devicegroup', '/project/projectview2?_t=1', '/device/devicepage/0.5589', '/']) {
      const res = await k.call('GET', url);
      expect(res.status, url).toBe(200);
      expect(String(res.headers['content-type'])).toContain('text/html');
    }
  });

  it('answers a missing chunk, stylesheet or icon with 404, never with index.html', async () => {
    for (const url of ['/assets/device-group-OLD123.js', '/assets/index-OLD.css', '/assets/logo.png', '/favicon.ico', '/assets/x.js?v=1']) {
      const res = await k.call('GET', url);
      expect(res.status, url).toBe(404);
      expect(String(res.headers['content-type']), url).not.toContain('text/html');
    }
  });

  it('unknown API paths stay a 40400 envelope', async () => {
    const res = await k.call('GET', '/api/v1/no/such');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 40400 });
  });
});
