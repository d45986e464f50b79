import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { VERSION } from '@kelvin/contracts/version';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ResultCode } from '@kelvin/contracts';
import type { KelvinConfig } from './config.ts';
import { changesOf, dropSchema, openDatabase, poolStats, sqliteFileOf, writeGateOf, type Db } from './db/index.ts';
import { listenForChanges } from './db/table-changes.ts';
import { openReadDb } from './db/read-db.ts';
import { startCheckpointer } from './db/checkpointer.ts';
import { syncMenus } from './db/seed/menus.ts';
import { seedPlatform } from './db/seed/platform.ts';
import { seedDemo } from './db/seed/demo.ts';
import { accessPlugin } from './plugins/access.ts';
import { installErrorHandler } from './plugins/errors.ts';
import { createLiveHub, liveRoutes } from './plugins/live.ts';
import { redactUri } from './lib/redact.ts';
import { processHealth } from './lib/process-health.ts';
import { systemScope } from './lib/scope.ts';
import { healthRoutes, readiness } from './plugins/health.ts';
import { installSecurityHeaders } from './plugins/security-headers.ts';
import { installTracing } from './plugins/trace.ts';
import { startMqtt, type MqttHub } from './plugins/mqtt.ts';
import { deviceProtocolRoutes } from './plugins/device-protocol.ts';
import { DEMO_DEVICES_PER_TYPE, provisionSimulatedDevices } from './simulator/provision.ts';
import { startSimulator, type Simulator } from './simulator/runner.ts';
import { authRoutes, createAuthService, loadSigningKey } from './modules/auth/index.ts';
import { createProjectFileService, createProjectService, projectRoutes } from './modules/projects/index.ts';
import { adminRoutes, createAdminServices } from './modules/admin/index.ts';
import { createSystemServices, removeTenantSettings, systemRoutes } from './modules/system/index.ts';
import { createImportService, importRoutes } from './modules/imports/index.ts';
import { createDeviceCore, startBrokerThread, type DeviceCore } from './modules/devices/index.ts';
import { createBroker, type Broker } from './modules/broker/index.ts';
import { createDeviceManagement } from './modules/device-management/index.ts';
import { createFactoryTestService, factoryTestRoutes } from './modules/factory-test/index.ts';
import { createMonitoring, type Monitoring } from './modules/monitoring/index.ts';
import { createAccounts, type Accounts } from './modules/accounts/index.ts';
import { createAutomation, type Automation, type Clock } from './modules/automation/index.ts';
import { createBilling, type Billing } from './modules/billing/index.ts';
import { createReports } from './modules/reports/index.ts';
import { createRepairs } from './modules/repairs/index.ts';
import { createHttpMetrics, createOps, type Ops } from './modules/ops/index.ts';
import { createBigScreens } from './modules/bigscreen/index.ts';
import { createDictionary } from './modules/dictionary/index.ts';
import { createRegistration } from './modules/registration/index.ts';
import { createShowroom } from './modules/showroom/index.ts';
import { createDepartments, type Departments } from './modules/departments/index.ts';
import { cstTime } from './lib/excel.ts';
import './types.ts';

export interface Kelvin {
  app: FastifyInstance;
  db: Db;
  mqtt: MqttHub | null;
  /** the device core: ingest, state and history, commands, the operation log */
  devices: DeviceCore;
  /** devices on an external broker: Mosquitto dynamic security, EMQX's HTTP auth */
  broker: Broker;
  /** monitoring rules and alarms */
  monitoring: Monitoring;
  /** accounts and money (the ledger, payments, threshold events) */
  accounts: Accounts;
  /** week programs, tasks, the scheduler */
  automation: Automation;
  /** the billing engine (tariffs, runs, bills, the prepaid loop) */
  billing: Billing;
  /** this process in the registry, the kept traces, the service monitor's actions */
  ops: Ops;
  /** department energy (departments, their meters and rooms over time, budgets) */
  departments: Departments;
  /** Credentials created on this start (printed once by server.ts). */
  firstStart: { admin: { username: string; password: string; generated: boolean } | null; demo: { username: string; password: string } | null };
  close(): Promise<void>;
}

/**
 * The composition root: builds the whole server — database (migrated and seeded), broker, every module through its
 * public entry, the hooks between modules, API and SPA. Does not listen.
 */
export async function buildKelvin(config: KelvinConfig, opts: { clock?: Clock; schedulerTickMs?: number; schedulerReloadMs?: number; scheduler?: boolean } = {}): Promise<Kelvin> {
  const processStartedAt = Date.now();
  const { db } = await openDatabase(config);
  await syncMenus(db);
  const admin = await seedPlatform(db, config.adminPassword);
  const demo = config.demo ? await seedDemo(db) : null;

  const key = await loadSigningKey(db);
  const auth = createAuthService(db, key, config.tokenTtlSeconds);
  const projects = createProjectService(db);
  const adminServices = createAdminServices(db, projects);
  // system.sms.send / system.params.params / system.holidays.calendar serve billing, monitoring and the schedulers
  const system = createSystemServices(db, projects, config.sms);
  const projectFiles = createProjectFileService(db, projects, config.dataDir);
  const imports = createImportService(projects);

  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : {
      level: config.logLevel,
      // the request log never carries a credential from the query string (the body is not logged)
      serializers: { req: (req) => ({ method: req.method, url: redactUri(req.url), remoteAddress: req.ip }) },
    },
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For only from configured proxies: anyone else could pick the address the login throttle sees
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
  app.decorate('db', db);
  app.decorate('config', config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installSecurityHeaders(app);
  // every API request's trace (before the access hook, so the sign-in check is inside it); kept or exported by ops
  if (config.trace?.enabled !== false) installTracing(app, { onFinished: (r) => ops.onRequestFinished(r) });
  // every answer's latency by route for /metrics, and the registry's requests per minute (tracing on or off)
  const http = createHttpMetrics();
  http.install(app);
  const onError = (what: string) => (err: unknown) => app.log.error({ err }, what);
  const live = await createLiveHub({ db, databaseUrl: config.databaseUrl, schema: config.databaseSchema, onError: onError('live') });
  // several processes on one PostgreSQL: each hears the others' writes to what it caches (sessions, grants, areas)
  const changeFeed = config.databaseUrl?.startsWith('postgres')
    ? await listenForChanges({ databaseUrl: config.databaseUrl, schema: config.databaseSchema, changes: changesOf(db), onError: onError('table changes') })
    : null;
  // long reads (history, reports, exports) on reader threads of their own (SQLite), so they never hold up the broker
  const reads = openReadDb(db, config);
  const checkpointer = config.databaseUrl?.startsWith('postgres') ? null : startCheckpointer(sqliteFileOf(config.dataDir));
  // devices on the embedded broker: broker and message path on a thread of their own; on an external broker, a client here
  const mqttOptions = {
    port: config.mqttPort, host: config.mqttHost, tlsPort: config.mqttTlsPort, wsPort: config.mqttWsPort, tls: config.mqttTls,
  };
  const mqtt = !config.mqttEnabled ? null : config.mqttUrl
    ? await startMqtt({
      ...mqttOptions, url: config.mqttUrl, shareGroup: config.mqttShareGroup,
      username: config.mqttUsername, password: config.mqttPassword, clientId: config.mqttClientId,
    })
    : await startBrokerThread({
      mqtt: mqttOptions,
      // SQLite: the thread commits reports itself (its own writer thread, through the write gate), never waiting for this one
      sqlite: config.databaseUrl?.startsWith('postgres') ? null : { file: sqliteFileOf(config.dataDir), gate: writeGateOf(db) },
    }, onError('mqtt'));
  const devices = await createDeviceCore({ db, readDb: reads.db, config, mqtt, live, projects, log: app.log });
  // an external broker's device accounts follow the core's credentials (Mosquitto), or ask Kelvin (EMQX)
  const broker = createBroker({ db, config, core: devices, log: app.log });
  const deviceManagement = createDeviceManagement({ db, projects, core: devices, mqtt, mqttUrl: config.mqttUrl });
  const factory = createFactoryTestService({ db, projects, core: devices, onError: onError('factory test') });
  const monitoring = createMonitoring({
    db, core: devices, live, projects, onError: onError('monitoring'),
    // an alarm with SMS on goes to the tenant's alarm phones (defaultSmsSetting), recorded whatever the provider
    notify: async (alarm) => {
      const settings = await system.sms.settings(alarm.tenant_id);
      if (!settings.enabled || !settings.alarm) return;
      const project = await projects.projectName(alarm.project_id);
      for (const phone of settings.alarmPhones) {
        await system.sms.send(alarm.tenant_id, {
          kind: 'alarm', phone, projectId: alarm.project_id,
          params: { project, device: alarm.device_name, alarm: `${alarm.rule_name}（${alarm.value}）`, time: cstTime(alarm.created_at) },
        });
      }
    },
  });

  // Accounts check the devices they pay for through the core (scoped to the caller).
  const accounts = createAccounts({
    db, projects, onError: onError('accounts'),
    device: async (actor, id) => {
      // scoped to the caller's tenant and projects (another's device does not exist); naming who pays for a device needs no right to its monitor page
      const d = await devices.devices.deviceById(actor.scope, id);
      if (!d) throw new Error('设备不存在');
      return { id: d.id, project_id: d.project_id, name: d.device_name, code: d.device_code };
    },
    // move-out snapshots the account's devices' latest readings
    readings: (deviceIds) => devices.devices.latestState(deviceIds),
  });

  // the demo tenant, just seeded, gets accounts with a real ledger
  if (demo) await accounts.seedDemo();

  const automation = createAutomation({
    db, core: devices, projects, onError: onError('automation'), clock: opts.clock, tickMs: opts.schedulerTickMs, reloadMs: opts.schedulerReloadMs,
    // the holiday calendar of system settings: holidays and 调休 working days of a project
    calendar: (tenantId, projectId, start, end) => system.holidays.calendar(tenantId, projectId, start, end),
    groupMembers: (groupIds) => deviceManagement.groupMembers(groupIds),
  });

  // Billing posts charges into the accounts ledger, commands through the core, SMS and holidays through system.
  const billing = createBilling({
    db, projects, core: devices, accounts: accounts.accounts, onError: onError('billing'),
    sms: (tenantId, msg) => system.sms.send(tenantId, msg),
    holidays: (tenantId, projectId, start, end) => system.holidays.calendar(tenantId, projectId, start, end),
    // the overtime pool's used hours per room (automation computes them from the power readings)
    overtime: async (tenantId, projectId, month) => {
      const scope = systemScope(tenantId);
      const rows = [];
      for (let pageNo = 1; ; pageNo++) {
        const page = await automation.automation.overtime(scope, { projectId, month, pageNo, pageSize: 200 });
        rows.push(...page.rows.map((r) => ({ areaId: r.areaId, usedHours: r.usedHours, approvedHours: r.approvedHours })));
        if (page.rows.length < 200) return rows;
      }
    },
  });

  // The data center reads what the other modules keep (and the core's roll-ups); it writes nothing.
  const reports = createReports({ db: reads.db, primaryDb: db, core: devices, projects });
  // Repair work orders name the project's devices through the core; photos live under the data dir.
  const repairs = createRepairs({ db, projects, devices: devices.devices, dataDir: config.dataDir });
  // The big screens read the core's state and roll-ups and monitoring's active alarms; their share links are theirs.
  const bigScreens = createBigScreens({ db, core: devices, projects, activeAlarms: (ids, limit) => monitoring.activeAlarms(ids, limit) });

  // Operating the server: its registry row, kept traces, and the service monitor's actions over the caches above.
  const ops = createOps({
    db, core: devices, version: VERSION, trace: config.trace ?? { slowMs: 500, keep: 10_000 }, onError: onError('ops'),
    roles: ['api', ...(mqtt ? ['ingest' as const] : []), ...(opts.scheduler !== false ? ['scheduler' as const] : [])],
    devicesConnected: () => mqtt?.connectedCount() ?? null,
    http,
    // /metrics reads the service monitor's figures (the same call its screen makes) and the ingest writer of this process
    metrics: {
      serviceStatus: () => devices.telemetry.serviceStatus({ mqtt, external: !!config.mqttUrl, startedAt: processStartedAt, version: VERSION }),
      readiness: () => readiness(db, mqtt),
      commandCounts: () => devices.commandCounts(),
      ingest: devices.ingest.writer,
      pool: () => poolStats(db, reads.busy()),
    },
    scrapeToken: config.metricsToken,
    authenticate: (token) => auth.authenticate(token),
    reloaders: [
      { name: '设备目录（设备认证、主题权限）', reload: () => devices.reload() },
      { name: '告警规则索引', reload: () => `已清空 ${monitoring.engine.invalidateAll()} 个项目的规则索引，下一次上报时重新读取` },
      { name: '定时任务、周程序与策略任务', reload: () => automation.reload() },
    ],
  });

  // 数据字典: the registries as dictionaries, with each tenant's own display names.
  const dictionary = createDictionary({ db });
  // 入驻申请: the captcha of the login page, SMS codes through system's provider, approval through the admin module's tenant creation.
  const registration = createRegistration({ db, checkCaptcha: auth.checkCaptcha, sms: system.sms, tenants: adminServices.tenants });
  // /demo: the demo tenant's showroom project, read through the projects and the device core.
  const showroom = createShowroom({ db, projects, core: devices });
  // Department energy reads the core's roll-ups of the meters and rooms assigned to each department.
  const departments = createDepartments({ db, projects, core: devices });

  // Hooks between modules, declared here so the whole wiring reads in one place.
  adminServices.tenants.registerCleanup(removeTenantSettings);
  adminServices.tenants.registerCleanup(dictionary.removeTenant);
  adminServices.tenants.registerCleanup((trx, tenantId) => automation.removeTenant(trx, tenantId));
  // Areas holding devices cannot be deleted; project figures count devices and online devices.
  projects.registerHolding({ what: '台设备', count: (areaId) => devices.devices.devicesOnArea(areaId) });
  projects.registerStats(async (projectIds) => {
    const counts = await devices.devices.projectDeviceCounts(projectIds);
    return new Map(projectIds.map((id) => [id, counts.get(id) ?? { devices: 0, online: 0 }]));
  });
  // The device monitor's statistic counts the active alarms of the devices shown.
  devices.devices.registerActiveAlarms((projectId) => monitoring.activeAlarmCounts(projectId));
  // Project cards and the map show today's alarms.
  projects.registerStats((projectIds) => monitoring.alarmsToday(projectIds));
  // The area export's second sheet lists the devices (the areaDevice template).
  imports.registerExportSheet((scope, areaIds) => deviceManagement.exportSheet(scope, areaIds));
  // Every stored report is checked against the monitoring rules (off the ingest path, in order).
  devices.onReport(monitoring.engine.onReport);
  monitoring.engine.start();
  // ... and judged for implausible readings (exception data; a daily sweep finds frozen values).
  devices.onReport(monitoring.exceptions.onReport);
  monitoring.exceptions.start();
  // "A command finished": the scheduler's runs record each device's outcome (the prepaid loop attaches here too).
  devices.onCommandFinished(automation.onCommandFinished);
  // Strategy tasks evaluate every stored report (in memory, off the ingest path).
  devices.onReport(automation.onReport);
  if (opts.scheduler !== false) automation.start();
  // A move-out settlement bills the project up to now and collects postpaid use not yet paid.
  accounts.accounts.registerUnbilled({ unbilled: billing.beforeSettlement, settled: billing.settled });
  // The prepaid loop: threshold crossings → SMS, cut-off and reconnect commands whose outcomes settle the actions.
  accounts.onBalanceEvent(billing.onBalanceEvent);
  devices.onCommandFinished(billing.onCommandFinished);
  // ... and a device switched back on at the wall while its account is cut off goes off again
  devices.onReport(billing.prepaid.onReport);
  if (opts.scheduler !== false) billing.start(config.billingIntervalMs);

  await app.register(swagger, {
    openapi: { info: { title: 'Kelvin 接口文档', version: VERSION, description: '设备接入的 MQTT 协议（AsyncAPI 3）见 [/api/docs/mqtt.html](/api/docs/mqtt.html)' } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(accessPlugin, { auth });

  await app.register(healthRoutes, { db, mqtt });
  await app.register(deviceProtocolRoutes, { mqtt, mqttUrl: config.mqttUrl });
  await app.register(authRoutes, { auth });
  await app.register(projectRoutes, { projects, files: projectFiles });
  await app.register(adminRoutes, adminServices);
  await app.register(systemRoutes, system);
  await app.register(importRoutes, { imports, projects });
  await devices.routes(app);
  await broker.routes(app);
  await app.register(liveRoutes, { hub: live, auth, projects });
  await deviceManagement.routes(app);
  await app.register(factoryTestRoutes, { factory });
  await monitoring.routes(app);
  await accounts.routes(app);
  await automation.routes(app);
  await billing.routes(app);
  await reports.routes(app);
  await repairs.routes(app);
  await ops.routes(app);
  await bigScreens.routes(app);
  await dictionary.routes(app);
  await registration.routes(app);
  await showroom.routes(app);
  await departments.routes(app);

  closeKeepAlive(app);
  registerSpa(app, config.webDist ?? path.resolve(import.meta.dirname, '../../web/dist'));

  processHealth(); // event-loop delay sampling from the start (service monitor, soak benchmark)
  await ops.start();
  await broker.start();
  // The in-process simulator (KELVIN_SIMULATOR=on): the demo tenant's devices as real MQTT clients.
  let simulator: Simulator | null = null;
  if (config.simulator && mqtt) {
    const sims = await provisionSimulatedDevices(db, { tenantCode: 'demo', perType: DEMO_DEVICES_PER_TYPE });
    // now and then a device misreads (exception data, monitoring/exceptions.ts): a few times an hour across the demo
    simulator = startSimulator({ url: config.mqttUrl ?? `mqtt://127.0.0.1:${mqtt.port}`, devices: sims, dropoutsPerHour: config.simulatorDropouts, misreadsPerHour: 0.02, log: (msg) => app.log.info(msg) });
    app.log.info(`模拟设备已启动：${sims.length} 台（示范租户）`);
  }
  // the demo tenant's billing needs its devices (the cold-station and building meters are share teams' totals)
  if (demo) await billing.seedDemo();
  // ... and a few repair records on them
  if (demo) await repairs.seedDemo();
  // ... and the departments of the demo's integrated-energy park with its meters
  if (demo) await departments.seedDemo();

  return {
    app,
    db,
    mqtt,
    devices,
    broker,
    monitoring,
    accounts,
    automation,
    billing,
    ops,
    departments,
    firstStart: { admin, demo },
    async close() {
      await app.close(); // stops accepting, waits for the requests in flight (closeKeepAlive below)
      await ops.stop();
      await simulator?.stop();
      await monitoring.engine.stop();
      await monitoring.exceptions.stop();
      await automation.stop();
      billing.stop();
      await broker.stop();
      await devices.close(); // drains the ingest around closing the broker
      await live.close();
      await changeFeed?.close();
      await reads.close();
      await checkpointer?.close();
      await db.destroy();
      if (config.databaseUrl && config.databaseSchema?.startsWith('kelvin_test_')) await dropSchema(config.databaseUrl, config.databaseSchema);
    },
  };
}

/**
 * While the server closes, a connection whose request was answered must end: HTTP keep-alive would leave it idle and
 * hold the close until its timeout (5 s) — half the 10 s a SIGTERM allows. Answers sent meanwhile say
 * `connection: close`, and connections that fall idle are closed as they do.
 */
function closeKeepAlive(app: FastifyInstance) {
  let closing: NodeJS.Timeout | null = null;
  app.addHook('preClose', (done) => {
    closing = setInterval(() => app.server.closeIdleConnections(), 100);
    closing.unref();
    done();
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onClose', (_app, done) => {
    if (closing) clearInterval(closing);
    done();
  });
}

/**
 * A request for a build file that is not there (a chunk of an older build, asked by a tab opened before a redeploy) must
 * fail as a 404: answering it with index.html makes the browser run HTML as a script and the console crash.
 */
export const isAssetPath = (url: string) => {
  const pathname = url.split('?')[0];
  return pathname.startsWith('/assets/') || /\.(?:m?js|css|map|png|jpe?g|gif|svg|ico|woff2?|ttf|json|webmanifest|txt)$/i.test(pathname);
};

/** The built SPA with history fallback; unknown /api paths answer 40400 in the envelope. */
function registerSpa(app: FastifyInstance, dist: string) {
  const hasDist = fs.existsSync(path.join(dist, 'index.html'));
  if (hasDist) {
    app.register(fastifyStatic, {
      root: dist, wildcard: false, index: false, maxAge: '1h', immutable: false,
      // assets carry a content hash; index.html names them, so it is never cached
      setHeaders: (res, file) => {
        if (file.endsWith('.html')) res.setHeader('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api') || !hasDist || request.method !== 'GET') {
      return reply.status(404).send({ code: ResultCode.NOT_FOUND, msg: '接口不存在', data: null });
    }
    if (isAssetPath(request.url)) return reply.status(404).header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send('文件不存在');
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
