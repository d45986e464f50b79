import type { FieldValue, LiveDeviceEvent } from '@kelvin/contracts';
import type { Db } from '../../../db/index.ts';
import type { LiveHub, LiveMessage } from '../../../plugins/live.ts';
import type { CommandService } from '../commands.ts';
import { toWire, type DeviceDirectory, type WireContext } from '../directory.ts';
import { markConnected } from '../repository.ts';
import { createConnectionBatch } from './connection-batch.ts';
import { createIngestCounters, type CounterDeltas } from './counters.ts';
import { createMessagePath } from './message-path.ts';
import type { AckMessage } from './parse.ts';
import type { BatchSink } from './sinks.ts';
import { createBatchWriter, type BatchTiming, type CommittedBatch, type Report } from './writer.ts';

/** "A report arrived": called once per stored report, after its batch committed (rules, roll-ups, billing read here). */
export type ReportListener = (report: Readonly<Report>) => void;

/** how long connections are collected before their time is written */
const CONNECTED_BATCH_MS = 100;

/** Counter deltas as they cross threads (the undo stays behind). */
export type CounterBatch = Omit<CounterDeltas, 'undo'>;

/**
 * What the broker thread asks of the main thread's ingest (telemetry/broker-thread.ts): plain data both ways. The
 * thread runs the message path; the batch writer, the command service and the listeners stay here.
 */
export interface IngestPort {
  /** the device's context as the database has it now */
  lookup(code: string): Promise<WireContext | null>;
  /** stores reports (each settles when its batch commits) and adds the thread's counts; answers the failed indexes */
  store(reports: Report[], counts: CounterBatch): Promise<number[]>;
  acknowledge(deviceId: number, ack: AckMessage): Promise<void>;
  ready(deviceId: number): void;
  count(counts: CounterBatch): void;
  /** a cached context was forgotten here (null: all): the thread forgets it too */
  onForget(listener: (code: string | null) => void): void;
  /** before the writer flushes (tests, shutdown): the thread stores or hands over what it holds */
  beforeFlush(f: () => Promise<unknown>): void;
  /** a piece of a batch the thread's own writer committed (SQLite): listeners, pending commands, the live stream */
  committed(batch: CommittedBatch): void;
  /** a transaction of the thread's writer (/metrics) */
  timed(t: BatchTiming): void;
}

/**
 * The ingest of this process: the message path for an external broker (and tests), the batch writer, and the port
 * the embedded broker's thread uses. Committed batches reach the report listeners, pending commands and the live
 * stream here.
 */
export function createIngest(deps: { db: Db; sink: BatchSink; directory: DeviceDirectory; commands: CommandService; live: LiveHub; onError(err: unknown): void; batchIntervalMs?: number }) {
  const { directory, commands, live } = deps;
  const counters = createIngestCounters();
  const reportListeners: ReportListener[] = [];

  function onCommitted(batch: CommittedBatch) {
    for (const id of batch.pendingCommandDevices) commands.deliverPending(id).catch(deps.onError);
    for (const listener of reportListeners) {
      for (const r of batch.reports) {
        try {
          listener(r);
        } catch (err) {
          deps.onError(err);
        }
      }
    }
    if (!live.wanted()) return;
    // one event per device per batch, its fields merged (a later report of the batch wins)
    const byDevice = new Map<number, LiveMessage & { kind: 'device' }>();
    for (const r of batch.reports) {
      let m = byDevice.get(r.deviceId);
      if (!m) {
        const data: LiveDeviceEvent = { deviceId: r.deviceId, projectId: r.projectId, ts: r.ts, lastReportAt: r.receivedAt, onlineUntil: r.receivedAt + r.heartbeatMs, fields: {} };
        byDevice.set(r.deviceId, (m = { kind: 'device', tenantId: r.tenantId, projectId: r.projectId, data }));
      }
      if (r.ts >= m.data.ts) m.data.ts = r.ts;
      m.data.lastReportAt = Math.max(m.data.lastReportAt, r.receivedAt);
      m.data.onlineUntil = Math.max(m.data.onlineUntil, r.receivedAt + r.heartbeatMs);
      for (const p of r.points) m.data.fields[p.code] = (p.num ?? p.txt) as FieldValue;
    }
    live.publish([...byDevice.values()]);
  }

  const writer = createBatchWriter({ sink: deps.sink, counters, onCommitted, onError: deps.onError, intervalMs: deps.batchIntervalMs });

  /** Connected and subscribed: the connection time, then the commands that waited for it (none while closing). */
  const connections = createConnectionBatch({
    intervalMs: CONNECTED_BATCH_MS,
    async write(ids, closing) {
      for (let i = 0; i < ids.length; i += 500) {
        const pending = await markConnected(deps.db, ids.slice(i, i + 500), Date.now());
        if (!closing) for (const id of pending) commands.deliverPending(id).catch(deps.onError);
      }
    },
    onError: deps.onError,
  });
  const ready = (deviceId: number) => connections.add(deviceId);

  const path = createMessagePath({
    directory, counters, enqueue: writer.enqueue, acknowledge: commands.acknowledge, ready: (ctx) => ready(ctx.id), onError: deps.onError,
  });

  const port: IngestPort = {
    lookup: async (code) => {
      const ctx = await directory.load(code);
      return ctx && toWire(ctx);
    },
    async store(reports, counts) {
      counters.merge(counts);
      return writer.enqueueMany(reports);
    },
    async acknowledge(deviceId, ack) {
      await commands.acknowledge(deviceId, ack);
    },
    ready,
    count: (counts) => counters.merge(counts),
    onForget: (listener) => directory.onForget(listener),
    beforeFlush: (f) => writer.beforeFlush(f),
    committed: onCommitted,
    timed: (t) => writer.timed(t),
  };

  return {
    handlers: path.handlers,
    writer,
    counters,
    message: path.message,
    port,
    onReport(listener: ReportListener) {
      reportListeners.push(listener);
    },
    /** writes the connection times collected so far (the broker is closed: no new ones come) */
    closeConnections: () => connections.close(),
  };
}

export type Ingest = ReturnType<typeof createIngest>;
