import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { runLoad } from './load.ts';
import { connectWireDevice, encodePublish, encodeTopic, packetReader } from './wire.ts';

describe('压测用 MQTT 连接', () => {
  it('reads CONNACK and PUBACK however the stream is cut, and skips other packets', () => {
    const seen: string[] = [];
    const read = packetReader({ connack: (c) => seen.push(`connack ${c}`), puback: (id) => seen.push(`puback ${id}`) });
    const command = encodePublish(encodeTopic('kelvin/t/d/down'), 7, '{"id":1}');
    const stream = Buffer.concat([Buffer.from([0x20, 2, 0, 0]), command, Buffer.from([0x40, 2, 0x01, 0x2c]), Buffer.from([0x40, 2, 0, 9])]);
    for (const b of stream) read(Buffer.from([b])); // one byte at a time
    read(Buffer.concat([Buffer.from([0x40, 2, 0, 10, 0x40]), Buffer.from([2, 0])]));
    read(Buffer.from([11]));
    expect(seen).toEqual(['connack 0', 'puback 300', 'puback 9', 'puback 10', 'puback 11']);
  });

  it('encodes a QoS 1 PUBLISH with a multi-byte remaining length', () => {
    const payload = 'x'.repeat(200);
    const p = encodePublish(encodeTopic('a/b'), 258, payload);
    expect(p[0]).toBe(0x32);
    expect([p[1], p[2]]).toEqual([(207 % 128) | 0x80, 1]); // 2 + 3 + 2 + 200 = 207
    expect(p.subarray(3, 8).toString('latin1')).toBe('\u0000\u0003a/b');
    expect([p[8], p[9]]).toEqual([1, 2]);
    expect(p.subarray(10).toString()).toBe(payload);
  });

  it('fails, rather than waits, when the server closes the connection before CONNACK', async () => {
    const server = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      await expect(connectWireDevice({ host: '127.0.0.1', port, clientId: 'D1', username: 'D1', password: 'p', topic: 't', timeoutMs: 5000 }))
        .rejects.toThrow(/D1 连接被服务器关闭|ECONNRESET/);
    } finally {
      server.close();
    }
  });

  it('the load generator counts as published only what reached a live connection, not writes to a dead socket', async () => {
    // a broker that accepts, acknowledges nothing but the CONNECT, and drops the connection after 300 ms
    const server = net.createServer((s) => {
      s.on('error', () => {});
      s.once('data', () => {
        s.write(Buffer.from([0x20, 2, 0, 0]));
        setTimeout(() => s.destroy(), 300);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const [step] = await runLoad({ url: `mqtt://127.0.0.1:${port}`, devices: [{ code: 'dev1', secret: 's', tenantCode: 't', type: 'device20090' }], steps: [{ rate: 100, seconds: 2 }], drainMs: 100 });
      expect(step.acked).toBe(0);
      expect(step.published).toBeGreaterThan(10);
      expect(step.published).toBeLessThan(60); // about 300 ms worth, not the 200 the step tried
    } finally {
      server.close();
    }
  });
});
