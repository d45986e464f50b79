import net from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt from 'mqtt';

export type MqttStatus = 'off' | 'up' | 'down';

/** Credentials check for device connections; the devices domain installs the real one. */
export type DeviceAuthenticator = (clientId: string, username: string | undefined, password: Buffer | undefined) => Promise<boolean>;

export interface MqttHub {
  status(): MqttStatus;
  /** Port of the embedded broker, when there is one. */
  port: number | null;
  setAuthenticator(fn: DeviceAuthenticator): void;
  close(): Promise<void>;
}

/** Embedded aedes broker (default) or a client of an external broker (MQTT_URL). */
export async function startMqtt(opts: { port: number; url?: string }): Promise<MqttHub> {
  if (opts.url) {
    const client = mqtt.connect(opts.url, { clientId: `kelvin-server-${process.pid}-${Date.now()}`, reconnectPeriod: 2000 });
    return {
      port: null,
      status: () => (client.connected ? 'up' : 'down'),
      setAuthenticator: () => {},
      close: () => client.endAsync().then(() => undefined),
    };
  }
  let authenticator: DeviceAuthenticator = async () => false;
  const broker = await Aedes.createBroker();
  broker.authenticate = (client, username, password, done) => {
    authenticator(client.id, username, password ?? undefined).then(
      (good) => {
        if (good) return done(null, true);
        const err = new Error('设备认证失败') as AuthenticateError;
        err.returnCode = 4; // bad user name or password
        done(err, false);
      },
      () => done(null, false),
    );
  };
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new Error(`MQTT 端口 ${opts.port} 已被占用：请用 MQTT_PORT 换一个端口，或用 MQTT_URL 连接外部消息服务器`));
      } else reject(err);
    });
    server.listen(opts.port, '0.0.0.0', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    status: () => (server.listening ? 'up' : 'down'),
    setAuthenticator: (fn) => {
      authenticator = fn;
    },
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
