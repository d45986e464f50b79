import { spawn, type ChildProcess } from 'node:child_process';
import mqtt, { type MqttClient } from 'mqtt';
import { deviceTopic } from '@kelvin/contracts';
import { ROOT, SERVER_ARGS, ensureServerBuilt } from '../../../../scripts/build-server.mjs';
import { openDatabase, type Db } from '../db/index.ts';
import { hashSecret } from '../modules/devices/index.ts';
import { ADMIN_PASSWORD, createTenantWithProject } from './harness.ts';

/**
 * The compiled server (apps/server/dist, built here when stale) as a real process on a data dir: port 0 for HTTP and
 * MQTT, the ports read from its start banner. For what only a process shows: signals, exit codes, other processes
 * touching its files.
 */
export async function startServerProcess(opts: { dataDir: string; env?: Record<string, string> }) {
  await ensureServerBuilt({ quiet: true });
  const child = spawn('node', SERVER_ARGS, {
    cwd: ROOT,
    env: {
      ...process.env, PORT: '0', HOST: '127.0.0.1', MQTT_PORT: '0', KELVIN_DATA_DIR: opts.dataDir, KELVIN_ADMIN_PASSWORD: ADMIN_PASSWORD,
      KELVIN_SIMULATOR: 'off', KELVIN_DEMO: 'off', DATABASE_URL: '', LOG_LEVEL: 'warn', ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const watchers = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const w of watchers) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  /** resolves with the first match of `re` in the output (already there or still to come); rejects if the process exits first */
  const waitForOutput = (re: RegExp) => new Promise<RegExpMatchArray>((resolve, reject) => {
    const check = () => {
      const m = output.match(re);
      if (m) {
        watchers.delete(check);
        resolve(m);
      }
    };
    watchers.add(check);
    check();
    void exited.then(() => {
      if (watchers.delete(check)) reject(new Error(`服务已退出，未见 ${re}:\n${output}`));
    });
  });

  const banner = await waitForOutput(/控制台地址:\s+(http:\/\/\S+)[\s\S]*MQTT:\s+mqtt:\/\/localhost:(\d+)[\s\S]*\n={20,}\n/);
  return {
    child: child as ChildProcess,
    url: banner[1]!.replace('localhost', '127.0.0.1'),
    mqttUrl: `mqtt://127.0.0.1:${banner[2]}`,
    output: () => output,
    waitForOutput,
    exited,
    /** SIGTERM and the exit it leads to */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;

/**
 * A migrated database in a data dir holding a tenant with a project and one electric meter with a known secret, for
 * a server process started on it afterwards.
 */
export async function seedMeter(dataDir: string) {
  const { db } = await openDatabase({ dataDir });
  try {
    const t = await createTenantWithProject(db, 'proc', ['devicemonitor'], 'PT5010');
    const code = `PM-${process.pid}`;
    const secret = `secret-${code}`;
    const now = Date.now();
    const device = await db.insertInto('device').values({
      tenant_id: t.tenantId, project_id: t.projectId, area_id: t.buildingId, gateway_id: null, device_type: 'device20090',
      device_code: code, device_name: '进程测试电表', secret_hash: hashSecret(secret), enabled: 1, created_at: now, updated_at: now,
      last_report_at: null, online_until: null, last_connect_at: null, command_pending_at: null,
    }).returning('id').executeTakeFirstOrThrow();
    return { deviceId: device.id, code, secret, up: deviceTopic('proc', code, 'up') };
  } finally {
    await db.destroy();
  }
}

export type SeededMeter = Awaited<ReturnType<typeof seedMeter>>;

/**
 * The meter publishing QoS 1 reports, `inFlight` at a time, each with its own ts (1 ms apart), until stopped or
 * disconnected. `acked` holds the ts of every report the broker acknowledged (PUBACK: committed).
 */
export async function reportLoad(mqttUrl: string, meter: SeededMeter, inFlight = 20) {
  const client: MqttClient = await mqtt.connectAsync(mqttUrl, { clientId: meter.code, username: meter.code, password: meter.secret, reconnectPeriod: 0 });
  client.on('error', () => {});
  const acked: number[] = [];
  let stopped = false;
  // a publish in flight when the connection drops never settles (mqtt.js, no reconnect): the close ends it
  const closed = new Promise<'closed'>((resolve) => client.once('close', () => resolve('closed')));
  let ts = Date.now() - 3_600_000;
  const worker = async () => {
    while (!stopped && client.connected) {
      const mine = ++ts;
      try {
        const r = await Promise.race([client.publishAsync(meter.up, JSON.stringify({ ts: mine, fields: { f70: mine % 1e6, f71: 1.5 } }), { qos: 1 }), closed]);
        if (r === 'closed') return;
        acked.push(mine);
      } catch {
        return; // disconnected: not acknowledged, so not promised
      }
    }
  };
  const workers = Array.from({ length: inFlight }, worker);
  return {
    acked,
    /** resolves once at least n reports are acknowledged */
    async until(n: number) {
      while (acked.length < n) {
        if (!client.connected) throw new Error(`连接已断开，仅确认 ${acked.length} 条`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      stopped = true;
      await Promise.all(workers);
      await client.endAsync(true).catch(() => {});
    },
    /** ends when the server has closed the connection */
    finished: () => Promise.all(workers).then(() => client.endAsync(true).catch(() => {})),
  };
}

/** The ts of the meter's reports stored in device_history (field f71 is in every report). */
export async function storedReportTs(db: Db, deviceId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('device_history').select('ts').where('device_id', '=', deviceId).where('field_code', '=', 'f71').execute();
  return new Set(rows.map((r) => Number(r.ts)));
}
