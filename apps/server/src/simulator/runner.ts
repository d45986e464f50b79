import mqtt, { type MqttClient } from 'mqtt';
import { DEVICE_TYPE_BY_CODE, deviceTopic, type DeviceTypeDef } from '@kelvin/contracts';
import { DeviceModel, prng, type DownMessage } from './model.ts';

/** A device the simulator plays: its code, tenant and type, and the secret it logs in with. */
export interface SimDeviceSpec {
  code: string;
  tenantCode: string;
  type: string;
  secret: string;
  /** wired in and never dropping off the network (a device on a factory test bench) */
  wired?: boolean;
}

export interface SimulatorOptions {
  url: string;
  devices: SimDeviceSpec[];
  /** report-frequency multiplier (2 = twice as often as the registry's reportSeconds) */
  rate?: number;
  /** how often a connected device drops off, per device and hour */
  dropoutsPerHour?: number;
  /** how often a device misreads (a meter read low, a room sensor spiking), per device and hour; 0 = never */
  misreadsPerHour?: number;
  log?: (msg: string) => void;
}

export interface SimulatorStats {
  devices: number;
  connected: number;
  reports: number;
  acked: number;
  rejected: number;
  dropouts: number;
  misreads: number;
}

export interface Simulator {
  stats(): SimulatorStats;
  stop(): Promise<void>;
}

type Phase = 'offline' | 'connecting' | 'online' | 'asleep';

interface SimDevice {
  spec: SimDeviceSpec;
  def: DeviceTypeDef;
  model: DeviceModel;
  client: MqttClient | null;
  phase: Phase;
  /** next report (online), next wake-up (asleep) or next reconnect (offline) */
  dueAt: number;
  /** sleepers: stay awake until then to take commands */
  awakeUntil: number;
}

const TICK_MS = 200;
const AWAKE_MS = 5_000;
const RECONNECT_MS = [5_000, 15_000];
const DROPOUT_MS = [60_000, 20 * 60_000];

/**
 * The built-in device simulator: every device a real MQTT client with its own credentials, reporting on its own
 * rhythm, obeying and acknowledging commands (or refusing what the hardware would), 4G devices sleeping between
 * wake-ups, and now and then a device dropping off the network for a while.
 */
export function startSimulator(opts: SimulatorOptions): Simulator {
  const rate = opts.rate ?? 1;
  const dropoutsPerHour = opts.dropoutsPerHour ?? 0.3;
  const misreadsPerHour = opts.misreadsPerHour ?? 0;
  const random = prng(opts.devices.length * 7919 + 17);
  const between = ([a, b]: number[]) => a + random() * (b - a);
  const stats = { reports: 0, acked: 0, rejected: 0, dropouts: 0, misreads: 0 };
  let stopped = false;
  const start = Date.now();
  const spread = Math.min(10_000, opts.devices.length * 20);

  const devices: SimDevice[] = opts.devices.flatMap((spec, i) => {
    const def = DEVICE_TYPE_BY_CODE.get(spec.type);
    if (!def) return [];
    return [{ spec, def, model: new DeviceModel(def, spec.code), client: null, phase: 'offline' as Phase, dueAt: start + (spread * i) / Math.max(1, opts.devices.length), awakeUntil: 0 }];
  });

  const interval = (d: SimDevice) => (d.def.reportSeconds * 1000 * (0.8 + 0.4 * random())) / rate;
  const topic = (d: SimDevice, leaf: 'up' | 'down' | 'ack') => deviceTopic(d.spec.tenantCode, d.spec.code, leaf);

  function report(d: SimDevice) {
    if (!d.client?.connected) return;
    stats.reports++;
    let payload = d.model.report();
    if (misreadsPerHour && random() < (misreadsPerHour * d.def.reportSeconds) / rate / 3600) {
      const wrong = d.model.misread(payload, random());
      if (wrong) {
        stats.misreads++;
        payload = wrong;
      }
    }
    d.client.publish(topic(d, 'up'), JSON.stringify(payload), { qos: 1 }, () => {});
  }

  function disconnect(d: SimDevice, phase: Phase, dueAt: number) {
    const client = d.client;
    d.client = null;
    d.phase = phase;
    d.dueAt = dueAt;
    client?.removeAllListeners();
    client?.on('error', () => {});
    client?.end(true);
  }

  function onCommand(d: SimDevice, payload: Buffer) {
    let msg: DownMessage;
    try {
      msg = JSON.parse(payload.toString('utf8')) as DownMessage;
    } catch {
      return; // a real device ignores what it cannot read
    }
    if (typeof msg.id !== 'number') return;
    const result = d.model.apply(msg);
    if (result.ok) stats.acked++;
    else stats.rejected++;
    const client = d.client;
    client?.publish(topic(d, 'ack'), JSON.stringify({ id: msg.id, ok: result.ok, ...(result.error && { error: result.error }) }), { qos: 1 }, () => {
      if (result.reboot) disconnect(d, 'offline', Date.now() + 3_000);
    });
    // the changed state is reported at once, as real devices do after a write
    if (result.ok && !result.reboot) report(d);
    if (d.def.sleeps) d.awakeUntil = Math.max(d.awakeUntil, Date.now() + 2_000);
  }

  function connect(d: SimDevice) {
    d.phase = 'connecting';
    const client = mqtt.connect(opts.url, {
      clientId: d.spec.code,
      username: d.spec.code,
      password: d.spec.secret,
      clean: true,
      reconnectPeriod: 0, // the simulator decides when to come back
      connectTimeout: 10_000,
      keepalive: 60,
    });
    d.client = client;
    client.on('connect', () => {
      if (d.client !== client) return;
      client.subscribe(topic(d, 'down'), { qos: 1 }, () => {
        if (d.client !== client) return;
        d.phase = 'online';
        report(d);
        d.dueAt = Date.now() + interval(d);
        if (d.def.sleeps) d.awakeUntil = Date.now() + AWAKE_MS;
      });
    });
    client.on('message', (_t, payload) => onCommand(d, payload));
    client.on('error', () => {});
    client.on('close', () => {
      if (d.client !== client || stopped) return;
      disconnect(d, 'offline', Date.now() + between(RECONNECT_MS));
    });
  }

  const timer = setInterval(() => {
    const now = Date.now();
    for (const d of devices) {
      if (d.phase === 'connecting') continue;
      if (d.phase === 'offline' || d.phase === 'asleep') {
        if (now >= d.dueAt) connect(d);
        continue;
      }
      // online
      if (d.def.sleeps) {
        if (now >= d.awakeUntil) disconnect(d, 'asleep', now + interval(d));
        continue;
      }
      if (!d.spec.wired && random() < (dropoutsPerHour * TICK_MS) / 3_600_000) {
        stats.dropouts++;
        disconnect(d, 'offline', now + between(DROPOUT_MS));
        continue;
      }
      if (now >= d.dueAt) {
        report(d);
        d.dueAt = now + interval(d);
      }
    }
  }, TICK_MS);

  opts.log?.(`模拟 ${devices.length} 台设备，连接 ${opts.url}`);

  return {
    stats: () => ({ devices: devices.length, connected: devices.filter((d) => d.phase === 'online').length, ...stats }),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all(devices.map((d) => {
        const client = d.client;
        d.client = null;
        return client ? client.endAsync(true).catch(() => {}) : undefined;
      }));
    },
  };
}
