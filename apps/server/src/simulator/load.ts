import mqtt, { type MqttClient } from 'mqtt';
import { deviceTopic } from '@kelvin/contracts';
import type { SimDeviceSpec } from './runner.ts';

/** One step of a load run: messages per second (over all devices) for so many seconds. */
export interface LoadStep {
  rate: number;
  seconds: number;
}

export interface StepResult {
  rate: number;
  seconds: number;
  published: number;
  /** PUBACKs received; the embedded broker acknowledges only after the batch holding the message committed */
  acked: number;
  failed: number;
  /** acknowledged messages per second over the step */
  ackedPerSecond: number;
  pointsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

const TICK_MS = 10;

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * The load generator (bench ingest): every device a real MQTT client with its own credentials, publishing QoS 1
 * reports of `fields` readings at an exact total rate, round-robin over the devices, with strictly increasing
 * timestamps per device (so nothing is a duplicate). Latency is publish → PUBACK.
 */
export async function runLoad(opts: { url: string; devices: SimDeviceSpec[]; steps: LoadStep[]; fields?: string[]; onReady?: () => void; onStep?: (r: StepResult) => void; drainMs?: number }): Promise<StepResult[]> {
  const fields = opts.fields ?? ['f70', 'f71', 'f72'];
  const clients: { client: MqttClient; topic: string; lastTs: number; value: number }[] = [];
  // connect in waves so the broker is not hit by a thousand CONNECTs at once
  for (let i = 0; i < opts.devices.length; i += 100) {
    const wave = opts.devices.slice(i, i + 100);
    clients.push(...(await Promise.all(wave.map(async (d) => {
      const client = await mqtt.connectAsync(opts.url, {
        clientId: d.code, username: d.code, password: d.secret, clean: true, reconnectPeriod: 0, keepalive: 120, connectTimeout: 30_000,
      });
      client.on('error', () => {});
      return { client, topic: deviceTopic(d.tenantCode, d.code, 'up'), lastTs: 0, value: 1000 + Math.random() * 1000 };
    }))));
  }

  opts.onReady?.();
  const results: StepResult[] = [];
  let cursor = 0;
  for (const step of opts.steps) {
    const latencies: number[] = [];
    let published = 0;
    let acked = 0;
    let failed = 0;
    let outstanding = 0;
    let lastAckAt = 0;
    const start = Date.now();
    const end = start + step.seconds * 1000;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const now = Date.now();
        const due = Math.floor(((Math.min(now, end) - start) / 1000) * step.rate) - published;
        for (let n = 0; n < due; n++) {
          const c = clients[cursor];
          cursor = (cursor + 1) % clients.length;
          c.lastTs = Math.max(now, c.lastTs + 1);
          c.value += 0.01;
          const values: Record<string, number> = {};
          for (const [i, f] of fields.entries()) values[f] = i === 0 ? Math.round(c.value * 100) / 100 : Math.round((200 + Math.random() * 40) * 10) / 10;
          const sent = Date.now();
          published++;
          outstanding++;
          c.client.publish(c.topic, JSON.stringify({ ts: c.lastTs, fields: values }), { qos: 1 }, (err) => {
            outstanding--;
            if (err) failed++;
            else {
              acked++;
              lastAckAt = Date.now();
              latencies.push(lastAckAt - sent);
            }
          });
        }
        if (now >= end) {
          clearInterval(timer);
          resolve();
        }
      }, TICK_MS);
    });
    // wait for what is still in flight (bounded), so the step's figures count every acknowledgement
    const drainUntil = Date.now() + (opts.drainMs ?? 10_000);
    while (outstanding > 0 && Date.now() < drainUntil) await new Promise((r) => setTimeout(r, 20));
    // committed per second from the step's start to its last acknowledgement (at least the step's length)
    const elapsed = Math.max(step.seconds, (lastAckAt - start) / 1000);
    latencies.sort((a, b) => a - b);
    const r: StepResult = {
      rate: step.rate,
      seconds: step.seconds,
      published,
      acked,
      failed: failed + outstanding,
      ackedPerSecond: Math.round(acked / elapsed),
      pointsPerSecond: Math.round((acked * fields.length) / elapsed),
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.at(-1) ?? 0,
    };
    results.push(r);
    opts.onStep?.(r);
  }
  await Promise.all(clients.map((c) => c.client.endAsync().catch(() => {})));
  return results;
}
