import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { VERSION } from '@kelvin/contracts/version';
import type { KelvinConfig } from '../../config.ts';
import { sqliteFileOf, type Db } from '../../db/index.ts';
import { createLiveHub, liveRoutes } from '../../plugins/live.ts';
import type { MqttHub } from '../../plugins/mqtt.ts';
import { DEMO_DEVICES_PER_TYPE, provisionSimulatedDevices } from '../../simulator/provision.ts';
import { startSimulator, type Simulator } from '../../simulator/runner.ts';
import type { AuthService } from '../auth/service.ts';
import { commandRoutes } from '../commands/routes.ts';
import { createCommandService } from '../commands/service.ts';
import type { ProjectService } from '../projects/service.ts';
import { createIngest } from '../telemetry/ingest.ts';
import { postgresSink, sqliteSink } from '../telemetry/sinks.ts';
import { telemetryRoutes } from '../telemetry/routes.ts';
import { createTelemetryService } from '../telemetry/service.ts';
import { createDeviceDirectory } from './directory.ts';
import { deviceRoutes } from './routes.ts';
import { createDeviceService } from './service.ts';

/**
 * The live-devices domain (issue 3) wired together: device directory, ingest with its batch writer, commands,
 * live fan-out, the API, and — with KELVIN_SIMULATOR=on — the built-in simulated devices of the demo tenant.
 */
export async function createDeviceDomain(deps: { db: Db; config: KelvinConfig; mqtt: MqttHub | null; projects: ProjectService; log: FastifyBaseLogger }) {
  const { db, config, mqtt, log } = deps;
  const startedAt = Date.now();
  const onError = (err: unknown) => log.error({ err }, 'devices');
  const live = await createLiveHub({ db, databaseUrl: config.databaseUrl, schema: config.databaseSchema, onError });
  const directory = createDeviceDirectory(db);
  const commands = createCommandService({ db, mqtt, live, onError });
  const sink = config.databaseUrl?.startsWith('postgres') ? postgresSink(db) : sqliteSink(sqliteFileOf(config.dataDir));
  const ingest = createIngest({ db, sink, directory, commands, live, onError });
  const devices = createDeviceService({ db, projects: deps.projects, directory, commands, mqtt });
  const telemetry = createTelemetryService(db);
  mqtt?.setHandlers(ingest.handlers);
  commands.start();

  let simulator: Simulator | null = null;

  return {
    live,
    directory,
    commands,
    ingest,
    devices,
    telemetry,

    async routes(app: FastifyInstance, opts: { auth: AuthService }) {
      await app.register(deviceRoutes, { devices });
      await app.register(telemetryRoutes, { devices, telemetry, mqtt, external: !!config.mqttUrl, startedAt, version: VERSION });
      await app.register(commandRoutes, { devices, commands });
      await app.register(liveRoutes, { hub: live, auth: opts.auth, projects: deps.projects });
    },

    /** The in-process simulator (KELVIN_SIMULATOR=on): the demo tenant's devices as real MQTT clients. */
    async startSimulator() {
      if (!config.simulator || !mqtt) return;
      const sims = await provisionSimulatedDevices(db, { tenantCode: 'demo', perType: DEMO_DEVICES_PER_TYPE });
      const url = config.mqttUrl ?? `mqtt://127.0.0.1:${mqtt.port}`;
      simulator = startSimulator({ url, devices: sims, log: (msg) => log.info(msg) });
      log.info(`模拟设备已启动：${sims.length} 台（示范租户）`);
    },

    /** Shuts the domain down with the broker: nothing acknowledged is lost (the writer drains before and after). */
    async close() {
      await simulator?.stop();
      commands.stop();
      await ingest.writer.flush();
      await mqtt?.close();
      await ingest.writer.close();
      await live.close();
    },
  };
}

export type DeviceDomain = Awaited<ReturnType<typeof createDeviceDomain>>;
