import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const E2E_ADMIN_PASSWORD = 'E2e#Admin-2026';

/** Starts the built console on a free port with a fresh data dir (demo tenant on); returns the teardown. */
export default async function globalSetup() {
  const root = path.resolve(import.meta.dirname, '..');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-e2e-'));
  const child = spawn('node', ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      KELVIN_DATA_DIR: dataDir,
      KELVIN_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      KELVIN_DEMO: 'on',
      // the demo tenant's simulated devices (the devices spec controls them); KELVIN_E2E_SIMULATOR=off to leave them out
      KELVIN_SIMULATOR: process.env.KELVIN_E2E_SIMULATOR ?? 'on',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`服务未在 60 秒内启动:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(/控制台地址:\s+(http:\/\/\S+)/);
      const demo = output.match(/示范租户:\s+(\S+) \/ (\S+)/);
      if (m && demo) {
        clearTimeout(timer);
        // the embedded broker's port, for specs that play devices over MQTT
        const broker = output.match(/MQTT:\s+(mqtt:\/\/[^\s（]+)/);
        if (broker) process.env.KELVIN_E2E_MQTT_URL = broker[1];
        process.env.KELVIN_E2E_DEMO_USER = demo[1];
        process.env.KELVIN_E2E_DEMO_PASSWORD = demo[2];
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`服务退出 (${code}):\n${output}`)));
  });
  process.env.KELVIN_E2E_URL = url;
  process.env.KELVIN_E2E_ADMIN_PASSWORD = E2E_ADMIN_PASSWORD;
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
