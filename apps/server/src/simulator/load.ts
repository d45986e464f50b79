import { deviceTopic } from '@kelvin/contracts';
import type { SimDeviceSpec } from './runner.ts';
import { connectWireDevice, type WireDevice } from './wire.ts';

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
  /**
   * Sustained rate: acknowledgements that arrived in the step's steady part (after its first quarter, at most 5 s
   * of warm-up, up to the last publish) per second. While the server keeps up this equals the target rate.
   */
  ackedPerSecond: number;
  pointsPerSecond: number;
  /** the fewest acknowledgements in any whole second of the steady part */
  slowestSecond: number;
  /** every acknowledgement of the step, from its start to the last one */
  overallPerSecond: number;
  /** acknowledgements per second of the step, second by second */
  timeline: number[];
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
 * The load generator (bench ingest): every device a real MQTT connection with its own credentials, publishing QoS 1
 * reports of `fields` readings at an exact total rate, round-robin over the devices, with strictly increasing
 * timestamps per device (so nothing is a duplicate). Latency is publish → PUBACK.
 */
export async function runLoad(opts: { url: string; devices: SimDeviceSpec[]; steps: LoadStep[]; fields?: string[]; onReady?: () => void; onStep?: (r: StepResult) => void; drainMs?: number }): Promise<StepResult[]> {
  const fields = opts.fields ?? ['f70', 'f71', 'f72'];
  const url = new URL(opts.url);
  if (url.protocol !== 'mqtt:' && url.protocol !== 'tcp:') throw new Error(`压测只支持 mqtt:// 地址，收到 ${opts.url}`);
  const host = url.hostname;
  const port = Number(url.port || 1883);
  const clients: { wire: WireDevice; lastTs: number; value: number }[] = [];
  try {
    // connect in waves so the broker is not hit by a thousand CONNECTs at once
    for (let i = 0; i < opts.devices.length; i += 100) {
      const wave = opts.devices.slice(i, i + 100);
      clients.push(...(await Promise.all(wave.map(async (d) => ({
        wire: await connectWireDevice({ host, port, clientId: d.code, username: d.code, password: d.secret, topic: deviceTopic(d.tenantCode, d.code, 'up') }),
        lastTs: 0,
        value: 1000 + Math.random() * 1000,
      })))));
    }
    opts.onReady?.();
    const results: StepResult[] = [];
    let cursor = 0;
    for (const step of opts.steps) {
      const latencies: number[] = [];
      const perSecond: number[] = [];
      // `attempted` paces the step; `published` counts only reports whose bytes reached a live connection
      let attempted = 0;
      let published = 0;
      let acked = 0;
      let lastAckAt = 0;
      const start = Date.now();
      const end = start + step.seconds * 1000;
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          const now = Date.now();
          const due = Math.floor(((Math.min(now, end) - start) / 1000) * step.rate) - attempted;
          for (let n = 0; n < due; n++) {
            const c = clients[cursor];
            cursor = (cursor + 1) % clients.length;
            c.lastTs = Math.max(now, c.lastTs + 1);
            c.value += 0.01;
            let body = `{"ts":${c.lastTs},"fields":{"${fields[0]}":${Math.round(c.value * 100) / 100}`;
            for (let i = 1; i < fields.length; i++) body += `,"${fields[i]}":${Math.round((200 + Math.random() * 40) * 10) / 10}`;
            const sent = now;
            attempted++;
            c.wire.publish(body + '}}', () => {
              acked++;
              lastAckAt = Date.now();
              latencies.push(lastAckAt - sent);
              const second = Math.floor((lastAckAt - start) / 1000);
              perSecond[second] = (perSecond[second] ?? 0) + 1;
            }, () => published++);
          }
          if (now >= end) {
            clearInterval(timer);
            resolve();
          }
        }, TICK_MS);
      });
      // wait for what is still in flight (bounded), so the step's figures count every acknowledgement
      const drainUntil = Date.now() + (opts.drainMs ?? 10_000);
      while (published > acked && Date.now() < drainUntil) await new Promise((r) => setTimeout(r, 20));
      results.push(stepResult(step, fields.length, { published, acked, lastAckAt, start, latencies, perSecond }));
      opts.onStep?.(results.at(-1)!);
    }
    return results;
  } finally {
    await Promise.all(clients.map((c) => c.wire.close()));
  }
}

function stepResult(step: LoadStep, fieldCount: number, m: { published: number; acked: number; lastAckAt: number; start: number; latencies: number[]; perSecond: number[] }): StepResult {
  const warmSeconds = Math.min(5, Math.floor(step.seconds / 4));
  const steady: number[] = [];
  for (let s = warmSeconds; s < step.seconds; s++) steady.push(m.perSecond[s] ?? 0);
  const ackedPerSecond = Math.round(steady.reduce((a, b) => a + b, 0) / Math.max(1, steady.length));
  m.latencies.sort((a, b) => a - b);
  return {
    rate: step.rate,
    seconds: step.seconds,
    published: m.published,
    acked: m.acked,
    failed: m.published - m.acked,
    ackedPerSecond,
    pointsPerSecond: ackedPerSecond * fieldCount,
    slowestSecond: steady.length ? Math.min(...steady) : 0,
    overallPerSecond: Math.round(m.acked / Math.max(step.seconds, (m.lastAckAt - m.start) / 1000)),
    timeline: Array.from(m.perSecond, (n) => n ?? 0),
    p50Ms: percentile(m.latencies, 50),
    p95Ms: percentile(m.latencies, 95),
    p99Ms: percentile(m.latencies, 99),
    maxMs: m.latencies.at(-1) ?? 0,
  };
}
