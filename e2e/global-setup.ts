import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ARGS, ensureServerBuilt } from '../scripts/build-server.mjs';

export const E2E_ADMIN_PASSWORD = 'E2e#Admin-2026';

export interface ConsoleServer {
  url: string;
  /** shown on the first start of a data dir only */
  demo: { username: string; password: string } | null;
  mqttUrl: string | null;
  stop(): Promise<void>;
}

/** Starts the server on the given port (0 = a free one) over a data dir; the caller owns both. */
export async function startConsoleServer(opts: { dataDir: string; port?: number; env?: Record<string, string> }): Promise<ConsoleServer> {
  const root = path.resolve(import.meta.dirname, '..');
  // the compiled server, as ./kelvin start runs it (built here when a source changed)
  await ensureServerBuilt();
  const child = spawn('node', SERVER_ARGS, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(opts.port ?? 0),
      HOST: '127.0.0.1',
      MQTT_PORT: '0',
      KELVIN_DATA_DIR: opts.dataDir,
      KELVIN_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      KELVIN_DEMO: 'on',
      // the demo tenant's simulated devices (the devices spec controls them); KELVIN_E2E_SIMULATOR=off to leave them out
      KELVIN_SIMULATOR: process.env.KELVIN_E2E_SIMULATOR ?? 'on',
      // a device the journey commands is never off the network for minutes while still shown 在线 (heartbeat window)
      KELVIN_SIM_DROPOUTS: '0',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise<ConsoleServer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`服务未在 150 秒内启动:\n${output}`)), 150_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(/控制台地址:\s+(http:\/\/\S+)/);
      const demo = output.match(/示范租户:\s+(\S+) \/ (\S+)/);
      // the start banner is complete at its closing rule
      if (m && /\n={20,}\n/.test(output.slice(output.indexOf(m[0])))) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        child.stdout.resume();
        child.stderr.resume();
        const broker = output.match(/MQTT:\s+(mqtt:\/\/[^\s（]+)/);
        resolve({
          url: m[1],
          demo: demo ? { username: demo[1], password: demo[2] } : null,
          mqttUrl: broker ? broker[1] : null,
          async stop() {
            if (child.exitCode !== null) return;
            const exited = new Promise((r) => child.once('exit', r));
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`服务退出 (${code}):\n${output}`)));
  });
}

/** Starts the built console on a free port with a fresh data dir (demo tenant on); returns the teardown. */
export default async function globalSetup() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-e2e-'));
  const server = await startConsoleServer({ dataDir });
  // the embedded broker's port, for specs that play devices over MQTT
  if (server.mqttUrl) process.env.KELVIN_E2E_MQTT_URL = server.mqttUrl;
  if (!server.demo) throw new Error('示范租户未创建');
  process.env.KELVIN_E2E_DEMO_USER = server.demo.username;
  process.env.KELVIN_E2E_DEMO_PASSWORD = server.demo.password;
  process.env.KELVIN_E2E_URL = server.url;
  // the data dir, for specs that must know a server secret (the public registration mints its image captcha)
  process.env.KELVIN_E2E_DATA_DIR = dataDir;
  process.env.KELVIN_E2E_ADMIN_PASSWORD = E2E_ADMIN_PASSWORD;
  return async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
