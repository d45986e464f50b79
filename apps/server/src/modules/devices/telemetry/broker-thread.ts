import { threadRpc } from '../../../lib/thread-rpc.ts';
import { startTsWorker } from '../../../lib/ts-worker.ts';
import { DeviceGoneError, traced, type MqttHub, type MqttOptions, type MqttStatus } from '../../../plugins/mqtt.ts';
import type { CounterBatch, IngestPort } from './ingest.ts';
import type { AckMessage } from './parse.ts';
import type { BatchTiming, CommittedBatch, Report } from './writer.ts';

/** What the thread is started with: the broker's options, and on SQLite the file and write gate of its own writer. */
export interface BrokerThreadData {
  mqtt: Omit<MqttOptions, 'url' | 'onConnection'>;
  sqlite: { file: string; gate: SharedArrayBuffer | null } | null;
}

/** The embedded broker in its own thread, seen from the main thread: an MqttHub that the ingest attaches its port to. */
export interface BrokerThread extends MqttHub {
  attach(port: IngestPort): void;
}

export const isBrokerThread = (hub: MqttHub | null): hub is BrokerThread => !!hub && 'attach' in hub;

/**
 * Starts the embedded broker on a thread of its own (broker-thread.worker.ts) and answers once it listens, or fails
 * with its reason (a taken port, a missing certificate). Devices' connections are mirrored here, so `isConnected`
 * answers at once; publishing a command is a call into the thread.
 */
export async function startBrokerThread(data: BrokerThreadData, onError: (err: unknown) => void): Promise<BrokerThread> {
  const worker = startTsWorker(new URL('./broker-thread.worker.ts', import.meta.url), data);
  const connected = new Set<string>();
  let status: MqttStatus = 'down';
  let listening: (info: { port: number; tlsPort: number | null; wsPort: number | null; wsSecure: boolean }) => void;
  let failed: (err: Error) => void;
  const started = new Promise<Parameters<typeof listening>[0]>((resolve, reject) => {
    listening = resolve;
    failed = reject;
  });
  // what the thread asks before the ingest is attached waits for it (a device connecting in the first moment)
  let attached: (p: IngestPort) => void;
  const ingest = new Promise<IngestPort>((resolve) => (attached = resolve));

  const rpc = threadRpc(worker, {
    listening: (info: Parameters<typeof listening>[0]) => {
      status = 'up';
      listening(info);
    },
    failed: (message: string) => failed(new Error(message)),
    error: (message: string) => onError(new Error(`MQTT 线程：${message}`)),
    connection: (clientId: string, up: boolean) => (up ? connected.add(clientId) : connected.delete(clientId)),
    lookup: async (code: string) => (await ingest).lookup(code),
    store: async (reports: Report[], counts: CounterBatch) => (await ingest).store(reports, counts),
    acknowledge: async (deviceId: number, ack: AckMessage) => (await ingest).acknowledge(deviceId, ack),
    ready: (deviceId: number) => void ingest.then((p) => p.ready(deviceId)),
    count: (counts: CounterBatch) => void ingest.then((p) => p.count(counts)),
    committed: async (batch: CommittedBatch) => (await ingest).committed(batch),
    timed: (t: BatchTiming) => void ingest.then((p) => p.timed(t)),
  }, onError);
  let closing = false;
  worker.on('error', (err) => {
    status = 'down';
    failed(err);
    onError(err);
  });
  worker.on('exit', () => {
    status = 'down';
    connected.clear();
    rpc.failAll(new Error('MQTT 线程已退出'));
    if (!closing) failed(new Error('MQTT 线程已退出'));
  });

  const info = await started.catch(async (err: unknown) => {
    await worker.terminate();
    throw err;
  });
  const hub: BrokerThread = {
    port: info.port,
    tlsPort: info.tlsPort,
    wsPort: info.wsPort,
    wsSecure: info.wsSecure,
    external: false,
    status: () => status,
    setHandlers: () => {
      throw new Error('the broker thread runs its own message path: attach the ingest port instead');
    },
    attach(p: IngestPort) {
      p.onForget((code) => rpc.tell('forget', code));
      p.beforeFlush(() => (closing ? Promise.resolve() : rpc.call('flush')));
      attached(p);
    },
    publish: async (topic, payload) => {
      if (!(await rpc.call<boolean>('publish', topic, payload))) throw new DeviceGoneError(topic.split('/')[2] ?? topic);
    },
    isConnected: (clientId) => connected.has(clientId),
    connectedCount: () => connected.size,
    disconnect: (clientId) => rpc.tell('disconnect', clientId),
    async close() {
      if (closing) return;
      closing = true;
      // the thread closes the broker (every device's connection) while this thread still stores what it hands over
      await rpc.call('close').catch(() => {});
      status = 'down';
      await worker.terminate();
    },
  };
  return traced(hub);
}
