// The embedded MQTT broker and the message path, on a thread of their own (broker-thread.ts starts it): devices'
// connections, packets, acknowledgements and the parsing of every report never take the main thread's time, so an
// API answer or a report query cannot hold up a device, and ten thousand reports a second cannot hold up the API.
// On SQLite this thread also runs the batch writer (its transactions on the writer thread it starts): a report's
// PUBACK never waits for the main thread. Committed batches go to the main thread for the report listeners, pending
// commands and the live stream, in pieces (committed-pieces.ts). On PostgreSQL the reports are stored through the main thread's writer and pool.
// Device contexts and acknowledgements of commands are asked of the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { threadRpc } from '../../../lib/thread-rpc.ts';
import { startMqtt, type MqttHub, type MqttOptions } from '../../../plugins/mqtt.ts';
import { createContextCache, fromWire, type WireContext } from '../directory.ts';
import { committedPieces } from './committed-pieces.ts';
import { createIngestCounters } from './counters.ts';
import type { BrokerThreadData } from './broker-thread.ts';
import type { CounterBatch } from './ingest.ts';
import { createMessagePath } from './message-path.ts';
import { sqliteSink } from './sinks.ts';
import { createBatchWriter, type Report } from './writer.ts';

const port = parentPort!;
const { mqtt: options, sqlite } = workerData as BrokerThreadData;
let hub: MqttHub | null = null;

const rpc = threadRpc(port, {
  // a command for a device whose connection this thread has already seen close is not sent (false): the main
  // thread's mirror of the connections may not have heard of the close yet
  publish: async (topic: string, payload: string) => {
    const [, , code, leaf] = topic.split('/');
    if (leaf === 'down' && code && !hub!.isConnected(code)) return false;
    await hub!.publish(topic, payload);
    return true;
  },
  disconnect: (clientId: string) => hub?.disconnect(clientId),
  forget: (code: string | null) => (code === null ? directory.clear() : directory.invalidate(code)),
  flush: () => flush(),
  close: async () => {
    await hub?.close();
    if (writer) {
      await writer.close();
      await committed.drained();
    } else flushCounts();
  },
}, (err) => rpc.tell('error', String(err)));

const directory = createContextCache(async (code) => {
  const wire = await rpc.call<WireContext | null>('lookup', code);
  return wire && fromWire(wire);
});
const counters = createIngestCounters();
/** the counts so far, as they cross to the main thread */
const takeCounts = (): CounterBatch => {
  const { counters: counts, rejects } = counters.take();
  return { counters: counts, rejects };
};
const onError = (err: unknown) => rpc.tell('error', err instanceof Error ? err.message : String(err));

/** SQLite: this thread's own batch writer; its committed batches go to the main thread in pieces, its timings are told. */
const committed = committedPieces((piece) => rpc.call('committed', piece), onError);
const writer = sqlite ? createBatchWriter({
  sink: sqliteSink(sqlite.file, sqlite.gate),
  counters,
  onCommitted: committed.push,
  onError,
}) : null;
writer?.onBatch((t) => rpc.tell('timed', t));

/** PostgreSQL: reports go to the main thread's batch writer in chunks (one message per turn, at most CHUNK each). */
const CHUNK = 1000;
let chunk: { report: Report; resolve(): void; reject(err: Error): void }[] = [];
let scheduled = false;

function sendChunk() {
  scheduled = false;
  const items = chunk;
  chunk = [];
  if (!items.length) return;
  rpc.call<number[]>('store', items.map((i) => i.report), takeCounts()).then((failed) => {
    const bad = new Set(failed);
    items.forEach((item, n) => (bad.has(n) ? item.reject(new Error('report not stored')) : item.resolve()));
  }, (err: Error) => {
    for (const item of items) item.reject(err);
  });
}

function storeThroughMain(report: Report): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    chunk.push({ report, resolve, reject });
    if (chunk.length >= CHUNK) sendChunk();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(sendChunk);
    }
  });
}

/** PostgreSQL: counts of messages that never reach a chunk (malformed, refused, acknowledgements) */
function flushCounts() {
  if (counters.dirty()) rpc.tell('count', takeCounts());
}
if (!writer) setInterval(flushCounts, 500).unref();

/** what this thread holds is stored (its writer) or handed over (its counts) */
async function flush() {
  if (writer) {
    await writer.flush();
    await committed.drained();
  } else flushCounts();
}

const path = createMessagePath({
  directory,
  counters,
  enqueue: writer ? writer.enqueue : storeThroughMain,
  acknowledge: (deviceId, ack) => rpc.call('acknowledge', deviceId, ack),
  ready: (ctx) => rpc.tell('ready', ctx.id),
  onError,
});

try {
  hub = await startMqtt({ ...(options as MqttOptions), onConnection: (clientId, up) => rpc.tell('connection', clientId, up) });
  hub.setHandlers(path.handlers);
  rpc.tell('listening', { port: hub.port, tlsPort: hub.tlsPort, wsPort: hub.wsPort, wsSecure: hub.wsSecure });
} catch (err) {
  rpc.tell('failed', err instanceof Error ? err.message : String(err));
}
