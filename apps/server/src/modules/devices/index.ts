import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { VERSION } from '@kelvin/contracts/version';
import type { KelvinConfig } from '../../config.ts';
import { sqliteFileOf, writeGateOf, type Db } from '../../db/index.ts';
import type { LiveHub } from '../../plugins/live.ts';
import type { MqttHub } from '../../plugins/mqtt.ts';
import type { ProjectService } from '../projects/index.ts';
import { commandRoutes } from './command-routes.ts';
import { createCommandService, type CommandInput, type CommandIssuer, type CommandTarget } from './commands.ts';
import { createDeviceDirectory } from './directory.ts';
import { createRollupReads } from './rollups.ts';
import { deviceRoutes } from './routes.ts';
import { createDeviceService } from './service.ts';
import { isBrokerThread } from './telemetry/broker-thread.ts';
import { createIngest, type ReportListener } from './telemetry/ingest.ts';
import { postgresSink, sqliteSink } from './telemetry/sinks.ts';
import { telemetryRoutes } from './telemetry/routes.ts';
import { createTelemetryService } from './telemetry/service.ts';

export type { CommandInput, CommandIssuer, CommandOutcome, CommandTarget } from './commands.ts';
export { toCommandView } from './commands.ts';
export type { DeviceDbRow, DevicePatch, NewDevice } from './repository.ts';
export { codeOrNameLike } from './repository.ts';
export type { CredentialEvent, CredentialListener, DeviceService } from './service.ts';
export type { DeviceContext } from './directory.ts';
export { GATEWAY_TYPES, MONITOR_EXPORT_CODES, MONITOR_PAGE_CODES, canControl, canView, randomDeviceCode } from './service.ts';
export type { ReportListener } from './telemetry/ingest.ts';
export { startBrokerThread } from './telemetry/broker-thread.ts';
export type { RollupGrain, RollupQuery, RollupRow, StatsQuery, StatsRow, UsageGrain, UsageQuery, UsageRow } from './rollups.ts';
export { monthStartCst } from './rollups.ts';
export { hashSecret, newSecret, simulatorKey, simulatorSecret } from './credentials.ts';

/**
 * The device core: the one owner of devices, their latest state and history, commands and the device operation
 * log. Ingest (MQTT → batch writer → state, history), commands (issue → MQTT → ack → live update), device reads and
 * writes are all here; other modules (device management, factory test, the scheduler, billing) come in through
 * this object only.
 */
export async function createDeviceCore(deps: {
  db: Db;
  /** long reads (history ranges, the roll-ups of reports): off the main thread on SQLite (db/read-db.ts) */
  readDb: Db;
  config: KelvinConfig; mqtt: MqttHub | null; live: LiveHub; projects: ProjectService; log: FastifyBaseLogger;
}) {
  const { db, readDb, config, mqtt, live, log } = deps;
  const startedAt = Date.now();
  const onError = (err: unknown) => log.error({ err }, 'devices');
  const directory = createDeviceDirectory(db);
  const commands = createCommandService({ db, mqtt, live, onError });
  const sink = config.databaseUrl?.startsWith('postgres') ? postgresSink(db) : sqliteSink(sqliteFileOf(config.dataDir), writeGateOf(db));
  const ingest = createIngest({ db, sink, directory, commands, live, onError });
  const devices = createDeviceService({ db, readDb, projects: deps.projects, directory, commands, mqtt });
  const telemetry = createTelemetryService(db, readDb);
  const rollupReads = createRollupReads(readDb);
  if (isBrokerThread(mqtt)) mqtt.attach(ingest.port);
  else mqtt?.setHandlers(ingest.handlers);
  commands.start();

  return {
    /** device reads (scoped), device writes for the consumers, credentials, the operation log */
    devices,
    telemetry,
    ingest,
    directory,
    commands,

    /**
     * Issues a command to a device (validated by the caller against the registry), recorded in the operation log
     * under `issuer`; `ttl` (seconds) bounds how long it waits for an offline device. Await its end with
     * `awaitOutcome`.
     */
    issueCommand: (target: CommandTarget, input: CommandInput, issuer: CommandIssuer, opts: { ttl?: number } = {}) =>
      commands.create(target, input, issuer, opts.ttl),
    /** Many commands at once (one transaction per chunk), each then sent if its device is reachable; ids in order. */
    issueCommands: (items: { target: CommandTarget; input: CommandInput; issuer: CommandIssuer }[], opts: { ttl?: number } = {}) =>
      commands.createMany(items, opts.ttl),
    awaitOutcome: commands.awaitOutcome,
    /** Forgets the cached device contexts (credentials, enabled, topic prefix) of this process: read again on use. */
    reload: () => `已清空 ${directory.clear()} 台设备的缓存（认证与主题权限），下次连接或上报时重新读取`,
    /** commands by status (pending, sent, acked, rejected, expired) over every process, for /metrics */
    async commandCounts(): Promise<Record<string, number>> {
      const rows = await db.selectFrom('device_command').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
    /** "a command finished" (acked, rejected, expired), in this process */
    onCommandFinished: commands.onFinished,
    /** "a report arrived": called after each committed ingest batch, one call per device report */
    onReport: (listener: ReportListener) => ingest.onReport(listener),

    /*
     * Roll-ups for reports (hour: UTC hour; day and month: Asia/Shanghai), kept with every history insert: a year of
     * data is read from these, never from device_history. Device ids are the caller's, already scoped.
     */
    /** the stored hourly or daily rows (n, sum, min, max, first, last, delta) of some devices' fields */
    rollups: rollupReads.rollups,
    /** consumption of a cumulative counter per device and hour, day or month (resets and replaced meters handled) */
    usage: rollupReads.usage,
    /** the same consumption added up over the devices per bucket, with how many devices each bucket counts */
    usageTotals: rollupReads.usageTotals,
    /** min, max and mean per device, field and hour, day or month */
    stats: rollupReads.stats,
    /** a counter's last reading at or before an instant, per device (the ends of a period's use) */
    counterAt: rollupReads.counterAt,

    async routes(app: FastifyInstance) {
      await app.register(deviceRoutes, { devices });
      await app.register(telemetryRoutes, { devices, telemetry, mqtt, external: !!config.mqttUrl, startedAt, version: VERSION });
      await app.register(commandRoutes, { devices, commands, projects: deps.projects });
    },

    /** Shuts the core down with the broker: nothing acknowledged is lost (the writer drains before and after). */
    async close() {
      commands.stop();
      await ingest.writer.flush();
      await mqtt?.close();
      await ingest.closeConnections();
      await ingest.writer.close();
    },
  };
}

export type DeviceCore = Awaited<ReturnType<typeof createDeviceCore>>;
