import type { FieldValue, LiveDeviceEvent } from '@kelvin/contracts';
import type { Db } from '../../../db/index.ts';
import type { LiveHub, LiveMessage } from '../../../plugins/live.ts';
import type { DeviceSession, MqttHandlers, RefuseReason } from '../../../plugins/mqtt.ts';
import type { CommandService } from '../commands.ts';
import type { DeviceDirectory } from '../directory.ts';
import { markConnected } from '../repository.ts';
import { createIngestCounters, type CounterName } from './counters.ts';
import { parseAck, parseUp, type RefusedField } from './parse.ts';
import type { BatchSink } from './sinks.ts';
import { createBatchWriter, type CommittedBatch, type Report } from './writer.ts';

const REFUSED_COUNTER: Record<RefuseReason, CounterName> = {
  client_id: 'refused_client_id',
  anonymous: 'refused_anonymous',
  auth: 'refused_auth',
  acl_publish: 'refused_acl_publish',
  acl_subscribe: 'refused_acl_subscribe',
  oversize: 'oversize',
};

/** "A report arrived": called once per stored report, after its batch committed (rules, roll-ups, billing read here). */
export type ReportListener = (report: Readonly<Report>) => void;

const REFUSED_FIELD_COUNTER: Record<RefusedField['reason'], CounterName> = {
  unknown_field: 'fields_unknown',
  out_of_range: 'fields_out_of_range',
};

/**
 * The one ingest path (design §7) behind both the embedded broker and an external one: topic → device, payload →
 * report → batch writer; acknowledgements → commands. Nothing a device sends can throw out of here: bad input is
 * dropped and counted.
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

  async function message(topic: string, payload: Buffer, session: DeviceSession | null): Promise<void> {
    const receivedAt = Date.now();
    counters.add('messages_received');
    const parts = topic.split('/');
    const code = parts[2] ?? '';
    const leaf = parts[3];
    const ctx = parts.length === 4 && parts[0] === 'kelvin' && (leaf === 'up' || leaf === 'ack') ? await directory.byCode(code) : null;
    // an external broker's ACL is its own business: here the topic must at least name a device of that tenant
    if (!ctx || ctx.tenantCode !== parts[1] || !ctx.enabled || (session && session.clientId !== ctx.code)) {
      counters.reject({ tenantId: ctx?.tenantId ?? null, deviceCode: code.slice(0, 64) || null, topic, reason: 'unknown_device', detail: '主题中的设备不存在、已停用或不属于该租户' }, 'unknown_device');
      return;
    }
    if (leaf === 'ack') {
      const ack = parseAck(payload);
      if (!ack.ok) {
        counters.reject({ tenantId: ctx.tenantId, deviceCode: ctx.code, topic, reason: 'malformed', detail: ack.reason }, 'malformed');
        return;
      }
      counters.add('acks');
      await commands.acknowledge(ctx.id, ack.value);
      return;
    }
    const up = parseUp(ctx.type, payload, receivedAt);
    if (!up.ok) {
      counters.reject({ tenantId: ctx.tenantId, deviceCode: ctx.code, topic, reason: 'malformed', detail: up.reason }, 'malformed');
      return;
    }
    if (up.value.droppedFields) counters.add('fields_dropped', up.value.droppedFields);
    for (const r of up.value.refused ?? []) {
      counters.reject({ tenantId: ctx.tenantId, deviceCode: ctx.code, topic, reason: r.reason, detail: r.detail }, REFUSED_FIELD_COUNTER[r.reason]);
    }
    if (up.value.points.length === 0) return; // every reading refused: nothing to store, the refusals are counted
    if (up.value.clockFixed) counters.add('clock_fixed');
    await writer.enqueue({
      deviceId: ctx.id,
      deviceType: ctx.type.code,
      tenantId: ctx.tenantId,
      projectId: ctx.projectId,
      heartbeatMs: ctx.type.heartbeatSeconds * 1000,
      receivedAt,
      ts: up.value.ts,
      points: up.value.points,
    });
  }

  const handlers: MqttHandlers = {
    async authenticate(clientId, _username, password) {
      const ctx = await directory.authenticate(clientId, password);
      return ctx && { clientId: ctx.code, prefix: ctx.prefix };
    },
    message: (topic, payload, session) => message(topic, payload, session).catch((err) => {
      deps.onError(err);
      throw err; // not acknowledged: the device sends it again
    }),
    ready(session) {
      directory.byCode(session.clientId).then(async (ctx) => {
        if (!ctx) return;
        await markConnected(deps.db, ctx.id, Date.now());
        await commands.deliverPending(ctx.id);
      }).catch(deps.onError);
    },
    refused(reason, clientId, topic, detail) {
      const record = (tenantId: number | null) =>
        counters.reject({ tenantId, deviceCode: clientId?.slice(0, 64) ?? null, topic, reason, detail }, REFUSED_COUNTER[reason]);
      // a wrong secret for a known device belongs to its tenant (authenticate has just looked the code up: a cache hit)
      if (reason !== 'auth' || !clientId) return record(null);
      directory.byCode(clientId).then((ctx) => record(ctx?.tenantId ?? null), () => record(null));
    },
  };

  return {
    handlers,
    writer,
    counters,
    message,
    onReport(listener: ReportListener) {
      reportListeners.push(listener);
    },
  };
}

export type Ingest = ReturnType<typeof createIngest>;
