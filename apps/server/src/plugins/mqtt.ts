import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import mqtt from 'mqtt';
import { DEVICE_PROTOCOL } from '@kelvin/contracts/device-protocol';
import { withSpan } from '../lib/trace.ts';
import { listen, openExtraListeners, type ExtraListenerOptions } from './mqtt-listeners.ts';

export type MqttStatus = 'off' | 'up' | 'down';

/** Largest device message accepted; bigger ones are acknowledged, dropped and counted. */
export const MAX_PAYLOAD_BYTES = DEVICE_PROTOCOL.maxPayloadBytes;

/** What an authenticated device may touch: topics under `kelvin/{tenantCode}/{deviceCode}/` (design §7). */
export interface DeviceSession {
  clientId: string;
  prefix: string;
}

export type RefuseReason = 'client_id' | 'anonymous' | 'auth' | 'acl_publish' | 'acl_subscribe' | 'oversize';

export interface MqttHandlers {
  /** device code + secret → its session, or null */
  authenticate(clientId: string, username: string, password: Buffer): Promise<DeviceSession | null>;
  /**
   * A device's `up` or `ack` message. Resolves once it is durably handled: the embedded broker sends PUBACK only
   * then, so an acknowledged report is never lost. `session` is null for messages from an external broker.
   */
  message(topic: string, payload: Buffer, session: DeviceSession | null): Promise<void>;
  /** the device subscribed to its `down` topic: commands waiting for it can go now */
  ready(session: DeviceSession): void;
  refused(reason: RefuseReason, clientId: string | null, topic: string, detail: string): void;
}

export interface MqttHub {
  status(): MqttStatus;
  /** Port of the embedded broker, when there is one. */
  port: number | null;
  /** the embedded broker's mqtts and MQTT-over-WebSocket ports, when configured (MQTT_TLS_PORT, MQTT_WS_PORT) */
  tlsPort: number | null;
  wsPort: number | null;
  /** the WebSocket listener is wss (a certificate is configured) */
  wsSecure: boolean;
  /** true with MQTT_URL: connection state of devices is unknown here */
  external: boolean;
  setHandlers(h: MqttHandlers): void;
  publish(topic: string, payload: string): Promise<void>;
  /** whether the device has a live connection (null: unknown, external broker) */
  isConnected(clientId: string): boolean | null;
  /** devices holding a connection to this process (null: unknown, external broker) */
  connectedCount(): number | null;
  /** drops a device's connection (credentials reissued, device disabled or deleted) */
  disconnect(clientId: string): void;
  close(): Promise<void>;
}

const WILDCARD_ID = /[+#/\s]/;

/** A command for a device whose connection has just gone: nothing was sent, the command keeps waiting (not a fault). */
export class DeviceGoneError extends Error {
  constructor(clientId: string) {
    super(`设备 ${clientId} 已断开连接，命令等待其重新上线`);
  }
}

/**
 * The device rules every broker applies alike (the embedded one here, Mosquitto's dynamic security through the
 * roles Kelvin writes, EMQX through Kelvin's HTTP endpoints): who may connect at all, and which topics are its own.
 */
export const deviceRules = {
  /** Refusal of a CONNECT before the secret is checked: empty or wildcard client id, no credentials, a borrowed name. */
  connect(clientId: string, username: string | undefined, password: string | Buffer | undefined): { reason: RefuseReason; detail: string } | null {
    if (!clientId || WILDCARD_ID.test(clientId)) return { reason: 'client_id', detail: '客户端标识为空或含通配符' };
    if (!username || !password || password.length === 0) return { reason: 'anonymous', detail: '未提供用户名或密码' };
    if (username !== clientId) return { reason: 'auth', detail: '用户名与客户端标识不一致' };
    return null;
  },
  /** the topics a device publishes to: its up and ack */
  publishTopics: (prefix: string) => [`${prefix}up`, `${prefix}ack`],
  /** the filters a device may subscribe to: its down topic (or its own subtree, which carries only down for it) */
  subscribeFilters: (prefix: string) => [`${prefix}down`, `${prefix}#`, `${prefix}+`],
};
const noHandlers: MqttHandlers = {
  authenticate: async () => null,
  message: async () => {},
  ready: () => {},
  refused: () => {},
};

/** Topic filters the server's ingest subscribes to on an external broker; a share group spreads them over processes. */
export function ingestFilters(shareGroup: string | undefined): string[] {
  const prefix = shareGroup ? `$share/${shareGroup}/` : '';
  return [`${prefix}kelvin/+/+/up`, `${prefix}kelvin/+/+/ack`];
}

/** Embedded aedes broker (default) or a client of an external broker (MQTT_URL); the same handlers serve both. */
export interface MqttOptions extends Omit<ExtraListenerOptions, 'host'> {
  port: number; host?: string; url?: string; shareGroup?: string; username?: string; password?: string; clientId?: string;
  /** the embedded broker: a device's connection came up or went away (the broker thread mirrors them to the main thread) */
  onConnection?(clientId: string, up: boolean): void;
}

export async function startMqtt(opts: MqttOptions): Promise<MqttHub> {
  const hub = opts.url ? await startExternal({ ...opts, url: opts.url }) : await startEmbedded({ ...opts, host: opts.host ?? '0.0.0.0' });
  return traced(hub);
}

/** A publish made while serving a request (a command) is a span of its trace. */
export function traced<H extends MqttHub>(hub: H): H {
  const publish = hub.publish;
  hub.publish = (topic, payload) => withSpan('MQTT 发布', 'producer', { 'messaging.destination': topic }, () => publish(topic, payload));
  return hub;
}

/** How many handled-but-unacknowledged messages may pile up before this client stops reading (backpressure). */
const HIGH_WATER = 20_000;

async function startExternal(opts: { url: string; shareGroup?: string; username?: string; password?: string; clientId?: string }): Promise<MqttHub> {
  let handlers = noHandlers;
  // A stable client id (MQTT_CLIENT_ID) keeps a persistent session: what the broker handed to this process and did not
  // get acknowledged (the process died before the batch committed) is delivered again when the process is back, and
  // the broker queues this member's share of the messages meanwhile. Without one (tests), a clean session.
  const client = mqtt.connect(opts.url, {
    clientId: opts.clientId ?? `kelvin-server-${process.pid}-${Date.now().toString(36)}`,
    clean: !opts.clientId,
    reconnectPeriod: 2000,
    // a refused CONNECT is retried too: the account may be made a moment later (dynamic security, by Kelvin itself)
    reconnectOnConnackError: true,
    // connected once the ingest's handlers are in place: a resumed session delivers what it held at once
    manualConnect: true,
    ...(opts.username !== undefined && { username: opts.username }),
    ...(opts.password !== undefined && { password: opts.password }),
  });
  client.on('connect', () => {
    client.subscribe(ingestFilters(opts.shareGroup), { qos: 1 });
  });
  client.on('error', () => {}); // reconnects on its own; status() reports 'down' meanwhile

  // PUBACK goes out only once a message is durably handled (its batch committed), as with the embedded broker, so a
  // crash loses nothing the broker believes delivered. mqtt.js reads the next packet only after handleMessage calls
  // back and then sends the PUBACK: the callback comes at once, and that PUBACK is held here until the handling ends.
  // A message whose handling failed is not acknowledged; the connection is renewed so the broker delivers it again.
  let generation = 0; // message ids of one connection mean nothing on the next
  const held = new Map<number, Promise<boolean>>();
  type Packet = { cmd: string; messageId?: number };
  const internals = client as unknown as { _sendPacket(packet: Packet, cb?: (err?: Error) => void, ...rest: unknown[]): void };
  const send = internals._sendPacket.bind(client);
  internals._sendPacket = (packet, cb, ...rest) => {
    const handled = packet.cmd === 'puback' && packet.messageId !== undefined ? held.get(packet.messageId) : undefined;
    if (!handled) return send(packet, cb, ...rest);
    held.delete(packet.messageId!);
    const gen = generation;
    cb?.();
    void handled.then((ok) => {
      if (ok && gen === generation && client.connected) send(packet);
    });
  };
  client.on('close', () => {
    generation++;
    held.clear();
  });
  let renewing = false;
  const renew = () => {
    if (renewing) return;
    renewing = true;
    setTimeout(() => {
      renewing = false;
      (client as unknown as { stream?: { destroy(): void } }).stream?.destroy();
    }, 1000).unref();
  };

  let inflight = 0;
  client.handleMessage = (packet, done) => {
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    if (payload.length > MAX_PAYLOAD_BYTES) {
      handlers.refused('oversize', null, packet.topic, `${payload.length} 字节`);
      return done();
    }
    inflight++;
    const p = handlers.message(packet.topic, payload, null).then(() => true, () => {
      renew();
      return false;
    }).finally(() => inflight--);
    if (packet.qos > 0 && packet.messageId !== undefined) held.set(packet.messageId, p);
    if (inflight > HIGH_WATER) void p.then(() => done());
    else done();
  };
  return {
    port: null,
    tlsPort: null,
    wsPort: null,
    wsSecure: false,
    external: true,
    status: () => (client.connected ? 'up' : 'down'),
    setHandlers: (h) => {
      handlers = h;
      if (!client.connected && !client.reconnecting) client.connect();
    },
    publish: async (topic, payload) => {
      await client.publishAsync(topic, payload, { qos: 1 });
    },
    isConnected: () => null,
    connectedCount: () => null,
    disconnect: () => {},
    // Leaving for good: unsubscribe first, or the broker keeps handing this persistent session its share of the
    // messages; then let what was already delivered be stored and acknowledged (bounded), then disconnect. What is
    // still unacknowledged then stays with the session and is delivered again to this client id.
    close: async () => {
      if (client.connected) await client.unsubscribeAsync(ingestFilters(opts.shareGroup)).catch(() => {});
      const until = Date.now() + 5000;
      while (inflight > 0 && client.connected && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setImmediate(r)); // the PUBACKs released by the last commit
      await client.endAsync();
    },
  };
}

interface KelvinClient extends Client {
  kelvinRawId?: string;
  kelvinSession?: DeviceSession;
}

async function startEmbedded(opts: { port: number; onConnection?(clientId: string, up: boolean): void } & ExtraListenerOptions): Promise<MqttHub> {
  let handlers = noHandlers;
  const connected = new Map<string, KelvinClient>();
  // device codes are up to 64 characters (MQTT 3.1.1 only promises 23)
  const broker = await Aedes.createBroker({ maxClientsIdLength: DEVICE_PROTOCOL.maxClientIdLength });

  const refuse = (code: number, message: string): AuthenticateError => Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;

  // aedes replaces an empty client id by a random one before authenticate: keep the one the device sent
  broker.preConnect = (client, packet, done) => {
    (client as KelvinClient).kelvinRawId = packet.clientId ?? '';
    done(null, true);
  };

  broker.authenticate = (client, username, password, done) => {
    const c = client as KelvinClient;
    const rawId = c.kelvinRawId ?? '';
    const refusal = deviceRules.connect(rawId, username, password);
    if (refusal) {
      handlers.refused(refusal.reason, rawId || null, '', refusal.detail);
      const [code, message]: [number, string] = refusal.reason === 'client_id' ? [2, '客户端标识不合法'] : refusal.reason === 'anonymous' ? [5, '不允许匿名连接'] : [4, '设备认证失败'];
      return done(refuse(code, message), false);
    }
    handlers.authenticate(rawId, username!, password!).then(
      (session) => {
        if (!session) {
          handlers.refused('auth', rawId, '', '设备编号或密钥错误，或设备已停用');
          return done(refuse(4, '设备认证失败'), false);
        }
        c.kelvinSession = session;
        done(null, true);
      },
      () => done(refuse(3, '服务暂不可用'), false),
    );
  };

  broker.authorizePublish = (client, packet, done) => {
    const session = (client as KelvinClient | null)?.kelvinSession;
    const topic = packet.topic;
    if (!client || !session || !deviceRules.publishTopics(session.prefix).includes(topic)) {
      handlers.refused('acl_publish', client?.id ?? null, topic, '只能发布到本设备的 up / ack 主题');
      return done(new Error('topic not allowed'));
    }
    // no retained device messages: the broker would keep them in memory for no reader
    packet.retain = false;
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    if (payload.length > MAX_PAYLOAD_BYTES) {
      handlers.refused('oversize', client.id, topic, `${payload.length} 字节`);
      return done(null);
    }
    handlers.message(topic, payload, session).then(() => done(null), (err: Error) => done(err));
  };

  // A device's up/ack message is consumed by the ingest in authorizePublish above, and no client may subscribe to it
  // (a device only to its own down topic), so it ends there: routing it on through aedes' topic matcher and
  // persistence cost a tenth of the broker thread at 10,000 messages/s for no reader. Everything else (commands the
  // server publishes) is routed as usual.
  // (internally aedes calls publish(packet, client, done); its typings only know publish(packet, done))
  type Publish = (packet: Parameters<Aedes['publish']>[0], client: Client | null | ((err?: Error) => void), done?: (err?: Error) => void) => void;
  const internal = broker as unknown as { publish: Publish };
  const route = internal.publish.bind(broker);
  internal.publish = (packet, client, done) => {
    if (client && typeof client !== 'function' && (client as KelvinClient).kelvinSession) return done?.();
    route(packet, client, done);
  };

  broker.authorizeSubscribe = (client, sub, done) => {
    const session = (client as KelvinClient).kelvinSession;
    const allowed = session && deviceRules.subscribeFilters(session.prefix).includes(sub.topic);
    if (!allowed) {
      handlers.refused('acl_subscribe', client.id, sub.topic, '只能订阅本设备的 down 主题');
      return done(null, null); // SUBACK failure, the connection stays
    }
    done(null, sub);
  };

  const announce = (client: KelvinClient) => {
    if (client.closed || connected.get(client.id) === client) return;
    connected.set(client.id, client);
    opts.onConnection?.(client.id, true);
  };
  broker.on('clientReady', (client) => announce(client as KelvinClient));
  broker.on('clientDisconnect', (client) => {
    if (connected.get(client.id) !== client) return; // taken over by a newer connection of the same id
    connected.delete(client.id);
    opts.onConnection?.(client.id, false);
  });
  broker.on('subscribe', (subs, client) => {
    const c = client as KelvinClient | null;
    const session = c?.kelvinSession;
    if (!c || !session) return;
    // aedes may handle a SUBSCRIBE sent right after CONNACK before it announces the connection (clientReady): a
    // device that subscribes is connected, so an older connection of the same id closing now is not taken for it
    announce(c);
    if (subs.some((s) => s.topic.startsWith(session.prefix))) handlers.ready(session);
  });

  // small PUBACK and command packets must not wait for Nagle's algorithm
  const server = net.createServer({ noDelay: true }, broker.handle);
  const port = await listen(server, opts.port, opts.host, '请用 MQTT_PORT 换一个端口，或用 MQTT_URL 连接外部消息服务器');
  // mqtts and WebSocket: the same broker, so the same authentication and topic rules
  const extra = await openExtraListeners(broker.handle, opts).catch(async (err: unknown) => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw err;
  });
  return {
    port,
    tlsPort: extra.tlsPort,
    wsPort: extra.wsPort,
    wsSecure: extra.wsSecure,
    external: false,
    status: () => (server.listening ? 'up' : 'down'),
    setHandlers: (h) => {
      handlers = h;
    },
    publish: (topic, payload) =>
      new Promise<void>((resolve, reject) => {
        broker.publish({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: false, dup: false }, (err) => (err ? reject(err) : resolve()));
      }),
    isConnected: (clientId) => connected.has(clientId),
    connectedCount: () => connected.size,
    disconnect: (clientId) => {
      connected.get(clientId)?.close();
    },
    close: async () => {
      // stop accepting first; the listener's callback fires once the broker has closed every connection
      const stopped = Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), extra.close()]);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await stopped;
    },
  };
}
