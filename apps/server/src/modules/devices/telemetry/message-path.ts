import type { DeviceSession, MqttHandlers, RefuseReason } from '../../../plugins/mqtt.ts';
import type { ContextCache, DeviceContext } from '../directory.ts';
import type { CounterName, IngestCounters } from './counters.ts';
import { parseAck, parseUp, type AckMessage, type RefusedField } from './parse.ts';
import type { Report } from './writer.ts';

const REFUSED_COUNTER: Record<RefuseReason, CounterName> = {
  client_id: 'refused_client_id',
  anonymous: 'refused_anonymous',
  auth: 'refused_auth',
  acl_publish: 'refused_acl_publish',
  acl_subscribe: 'refused_acl_subscribe',
  oversize: 'oversize',
};

const REFUSED_FIELD_COUNTER: Record<RefusedField['reason'], CounterName> = {
  unknown_field: 'fields_unknown',
  out_of_range: 'fields_out_of_range',
};

/** What the message path needs around it: the same on the main thread and in the broker thread. */
export interface MessagePathDeps {
  directory: Pick<ContextCache, 'byCode' | 'authenticate'>;
  counters: IngestCounters;
  /** resolves once the report is committed */
  enqueue(report: Report): Promise<void>;
  acknowledge(deviceId: number, ack: AckMessage): Promise<unknown>;
  /** the device subscribed to its down topic: commands waiting for it can go now */
  ready(ctx: DeviceContext): void;
  onError(err: unknown): void;
}

/**
 * The one message path (design §7) behind the embedded broker (in its thread) and an external one: topic → device,
 * payload → report → batch writer; acknowledgements → commands. Nothing a device sends can throw out of here: bad
 * input is dropped and counted.
 */
export function createMessagePath(deps: MessagePathDeps) {
  const { directory, counters } = deps;

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
      await deps.acknowledge(ctx.id, ack.value);
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
    await deps.enqueue({
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
      directory.byCode(session.clientId).then((ctx) => {
        if (ctx) deps.ready(ctx);
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
  return { handlers, message };
}
