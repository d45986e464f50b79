import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { KelvinConfig } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { DeviceCore } from '../devices/index.ts';
import { createEmqxAuth } from './emqx.ts';
import { brokerRoutes } from './routes.ts';
import { createBrokerSync, type BrokerSync } from './sync.ts';

export type { BrokerSync, ResyncReport } from './sync.ts';
export { TOKEN_HEADER } from './routes.ts';

/** The ingest's own account on an external broker: MQTT_USERNAME / MQTT_PASSWORD, or the user info of MQTT_URL. */
export function serverAccount(config: Pick<KelvinConfig, 'mqttUrl' | 'mqttUsername' | 'mqttPassword'>): { username: string; password: string } | undefined {
  if (config.mqttUsername) return { username: config.mqttUsername, password: config.mqttPassword ?? '' };
  try {
    const url = new URL(config.mqttUrl ?? '');
    if (url.username) return { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  } catch {
    // no URL, no account
  }
  return undefined;
}

/**
 * Devices on an external broker: Mosquitto's dynamic security kept in line with the device core (MQTT_DYNSEC=on),
 * and the HTTP authentication/authorization endpoints EMQX calls (KELVIN_BROKER_AUTH_TOKEN).
 */
export function createBroker(deps: { db: Db; config: KelvinConfig; core: DeviceCore; log: FastifyBaseLogger }) {
  const { config } = deps;
  const server = serverAccount(config);
  const emqx = createEmqxAuth({ core: deps.core, server, shareGroup: config.mqttShareGroup });
  const sync: BrokerSync | null = config.dynsec && config.mqttUrl
    ? createBrokerSync({
      db: deps.db, core: deps.core, log: deps.log,
      options: { url: config.mqttUrl, user: config.dynsec.user, password: config.dynsec.password, resyncMs: config.dynsec.resyncMs, shareGroup: config.mqttShareGroup, server },
    })
    : null;

  return {
    /** null unless MQTT_DYNSEC=on */
    sync,
    emqx,
    async start() {
      await sync?.start();
    },
    async stop() {
      await sync?.stop();
    },
    async routes(app: FastifyInstance) {
      await app.register(brokerRoutes, { emqx, token: config.brokerAuthToken });
    },
  };
}

export type Broker = ReturnType<typeof createBroker>;
