import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { WebSocketServer, createWebSocketStream } from 'ws';

/**
 * The embedded broker's listeners besides plain MQTT: mqtts (MQTT over TLS, how devices reach a server over the
 * internet) and MQTT over WebSocket (browser-based test tools; WSS when a certificate is configured). Every listener
 * hands its connections to the same aedes broker, so authentication, topic rules and limits are the plain listener's.
 */
export interface ExtraListenerOptions {
  host: string;
  /** mqtts port (0: any free one); absent: no TLS listener */
  tlsPort?: number;
  /** MQTT over WebSocket port (0: any free one); absent: no WebSocket listener */
  wsPort?: number;
  /** PEM files of the server certificate (chain) and its private key: needed for mqtts, turn ws into wss */
  tls?: { certFile: string; keyFile: string };
}

export interface ExtraListeners {
  tlsPort: number | null;
  wsPort: number | null;
  /** the WebSocket listener speaks wss */
  wsSecure: boolean;
  close(): Promise<void>;
}

/** A WebSocket message carries one MQTT packet or part of one; devices' packets are at most 16 KB (MAX_PAYLOAD_BYTES). */
const WS_MAX_MESSAGE = 256 * 1024;

function readPem(file: string, variable: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (err) {
    throw new Error(`无法读取 ${variable} 指定的文件 ${file}：${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** Listens and answers the port; a taken port stops the start with a message naming what to change. */
export function listen(server: net.Server, port: number, host: string, whenBusy: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new Error(`MQTT 端口 ${port} 已被占用：${whenBusy}`));
      else reject(err);
    });
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

const closed = (server: net.Server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

export async function openExtraListeners(handle: (stream: Duplex, req?: http.IncomingMessage) => unknown, o: ExtraListenerOptions): Promise<ExtraListeners> {
  if (o.tlsPort !== undefined && !o.tls) throw new Error('MQTT_TLS_PORT 需要同时设置 MQTT_TLS_CERT 和 MQTT_TLS_KEY（证书与私钥文件）');
  const credentials = o.tls && { cert: readPem(o.tls.certFile, 'MQTT_TLS_CERT'), key: readPem(o.tls.keyFile, 'MQTT_TLS_KEY') };
  const servers: net.Server[] = [];
  let wss: WebSocketServer | null = null;
  const close = async () => {
    wss?.close();
    await Promise.all(servers.map(closed));
  };
  try {
    let tlsPort: number | null = null;
    if (o.tlsPort !== undefined && credentials) {
      // a bad certificate/key pair fails here, at start, with OpenSSL's reason
      const server = tls.createServer({ ...credentials, minVersion: 'TLSv1.2' }, (socket) => {
        socket.setNoDelay(true); // small PUBACKs and commands must not wait for Nagle's algorithm
        handle(socket);
      });
      // a failed handshake (plain MQTT on the TLS port, an untrusted client) only ends that connection
      server.on('tlsClientError', () => {});
      servers.push(server);
      tlsPort = await listen(server, o.tlsPort, o.host, '请用 MQTT_TLS_PORT 换一个端口');
    }
    let wsPort: number | null = null;
    if (o.wsPort !== undefined) {
      const server = credentials ? https.createServer({ ...credentials, minVersion: 'TLSv1.2' }) : http.createServer();
      server.on('request', (_req, res) => {
        res.writeHead(426, { 'content-type': 'text/plain; charset=utf-8' }).end('请使用 MQTT over WebSocket 连接');
      });
      servers.push(server);
      // handleProtocols: ws answers with the first subprotocol offered ('mqtt' from every MQTT client)
      wss = new WebSocketServer({ server, maxPayload: WS_MAX_MESSAGE, perMessageDeflate: false });
      wss.on('connection', (socket, req) => {
        const stream = createWebSocketStream(socket);
        stream.on('error', () => socket.terminate());
        handle(stream, req);
      });
      wsPort = await listen(server, o.wsPort, o.host, '请用 MQTT_WS_PORT 换一个端口');
    }
    return { tlsPort, wsPort, wsSecure: wsPort !== null && !!credentials, close };
  } catch (err) {
    await close();
    throw err;
  }
}
