import net from 'node:net';

/**
 * A bare MQTT 3.1.1 device connection for the load generator: CONNECT with the device's credentials, QoS 1 PUBLISH,
 * PUBACK matching — nothing else. At 10,000 messages/s a full client library costs the generator more CPU than the
 * server spends ingesting, and on a 2-core machine that CPU is taken from the server being measured. The behavioural
 * simulator (runner.ts) keeps using mqtt.js.
 */

const CONNECT = 0x10;
const CONNACK = 0x20;
const PUBLISH_QOS1 = 0x32;
const PUBACK = 0x40;
const DISCONNECT = Buffer.from([0xe0, 0x00]);

const CONNACK_REASON: Record<number, string> = {
  1: '协议版本不被接受',
  2: '客户端标识不合法',
  3: '服务暂不可用',
  4: '用户名或密码错误',
  5: '未获授权',
};

function remainingLength(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

const utf8 = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
};

export function encodeConnect(o: { clientId: string; username: string; password: string; keepaliveSeconds: number }): Buffer {
  const body = Buffer.concat([
    utf8('MQTT'),
    // level 4 (3.1.1); flags: username, password, clean session
    Buffer.from([4, 0x80 | 0x40 | 0x02, o.keepaliveSeconds >> 8, o.keepaliveSeconds & 0xff]),
    utf8(o.clientId),
    utf8(o.username),
    utf8(o.password),
  ]);
  return Buffer.concat([Buffer.from([CONNECT, ...remainingLength(body.length)]), body]);
}

/** A QoS 1 PUBLISH; `topic` pre-encoded with its length prefix (utf8()) since a device always uses the same one. */
export function encodePublish(topic: Buffer, messageId: number, payload: string): Buffer {
  const payloadLength = Buffer.byteLength(payload);
  const length = topic.length + 2 + payloadLength;
  const header = remainingLength(length);
  const out = Buffer.allocUnsafe(1 + header.length + length);
  let o = 0;
  out[o++] = PUBLISH_QOS1;
  for (const b of header) out[o++] = b;
  o += topic.copy(out, o);
  out[o++] = messageId >> 8;
  out[o++] = messageId & 0xff;
  out.write(payload, o, 'utf8');
  return out;
}

export const encodeTopic = utf8;

/**
 * Splits a byte stream from the broker into packets and hands over the ones a publishing device gets back:
 * CONNACK (return code) and PUBACK (message id). Anything else (a command PUBLISH, say) is skipped.
 */
export function packetReader(on: { connack(code: number): void; puback(messageId: number): void }) {
  let pending: Buffer | null = null;
  return (chunk: Buffer) => {
    const buf = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    let o = 0;
    for (;;) {
      if (buf.length - o < 2) break;
      let length = 0;
      let multiplier = 1;
      let i = o + 1;
      let complete = false;
      while (i < buf.length && i < o + 5) {
        const byte = buf[i++];
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if (!(byte & 0x80)) {
          complete = true;
          break;
        }
      }
      if (!complete || buf.length - i < length) break;
      const type = buf[o] & 0xf0;
      if (type === CONNACK) on.connack(buf[i + 1]);
      else if (type === PUBACK) on.puback((buf[i] << 8) | buf[i + 1]);
      o = i + length;
    }
    if (o < buf.length) pending = buf.subarray(o);
  };
}

export interface WireDevice {
  socket: net.Socket;
  /**
   * Sends one QoS 1 report: false at once when the connection is gone; `onSent` runs once the bytes were handed to a
   * live socket, `onAck` when its PUBACK arrives.
   */
  publish(payload: string, onAck: () => void, onSent?: () => void): boolean;
  inflight(): number;
  close(): Promise<void>;
}

/** Connects one device; resolves after a successful CONNACK, rejects with the broker's reason otherwise. */
export function connectWireDevice(o: { host: string; port: number; clientId: string; username: string; password: string; topic: string; timeoutMs?: number }): Promise<WireDevice> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: o.host, port: o.port, noDelay: true });
    const topic = encodeTopic(o.topic);
    const waiting = new Map<number, () => void>();
    let nextId = 0;
    let closed = false;
    let connected = false;
    const timer = setTimeout(() => fail(new Error(`${o.clientId} 连接超时`)), o.timeoutMs ?? 30_000);
    function fail(err: Error) {
      clearTimeout(timer);
      socket.destroy();
      reject(err); // no effect once connected
    }
    const device: WireDevice = {
      socket,
      publish(payload, onAck, onSent) {
        if (closed || socket.destroyed || !socket.writable) return false;
        // ids 1…65535; a device never has that many reports in flight
        nextId = (nextId % 65535) + 1;
        waiting.set(nextId, onAck);
        socket.write(encodePublish(topic, nextId, payload), (err) => {
          if (!err) onSent?.();
        });
        return true;
      },
      inflight: () => waiting.size,
      close: () => new Promise((done) => {
        if (closed) return done();
        closed = true;
        socket.end(DISCONNECT, () => done());
        socket.once('error', () => done());
      }),
    };
    socket.on('data', packetReader({
      connack(code) {
        if (code !== 0) return fail(new Error(`${o.clientId} 连接被拒绝：${CONNACK_REASON[code] ?? `返回码 ${code}`}`));
        clearTimeout(timer);
        connected = true;
        resolve(device);
      },
      puback(id) {
        const cb = waiting.get(id);
        if (!cb) return;
        waiting.delete(id);
        cb();
      },
    }));
    socket.on('error', (err) => fail(err));
    socket.once('close', () => {
      closed = true;
      if (!connected) fail(new Error(`${o.clientId} 连接被服务器关闭`));
    });
    // keepalive 0: the generator publishes constantly and must not be cut off during a long drain
    socket.write(encodeConnect({ clientId: o.clientId, username: o.username, password: o.password, keepaliveSeconds: 0 }));
  });
}
