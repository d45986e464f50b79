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
import { dropSchema, openDatabase, pingDb, type Db } from './db/index.ts';
import { syncMenus } from './db/seed/menus.ts';
import { seedPlatform } from './db/seed/platform.ts';
import { seedDemo } from './db/seed/demo.ts';
import { accessPlugin } from './plugins/access.ts';
import { installErrorHandler } from './plugins/errors.ts';
import { startMqtt, type MqttHub } from './plugins/mqtt.ts';
import { createDeviceDomain, type DeviceDomain } from './modules/devices/domain.ts';
import { createAuthService } from './modules/auth/service.ts';
import { loadSigningKey } from './modules/auth/tokens.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { createProjectService } from './modules/projects/service.ts';
import { projectRoutes } from './modules/projects/routes.ts';
import { createAdminServices } from './modules/admin/service.ts';
import { adminRoutes } from './modules/admin/routes.ts';
import { createSystemServices } from './modules/system/service.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { createProjectFileService } from './modules/projects/files.ts';
import { createImportService } from './modules/imports/service.ts';
import { importRoutes } from './modules/imports/routes.ts';
import { createDeviceAdmin } from './modules/device-admin/domain.ts';
import './types.ts';

export interface Kelvin {
  app: FastifyInstance;
  db: Db;
  mqtt: MqttHub | null;
  /** live devices (issue 3): ingest, commands, live fan-out, simulator */
  devices: DeviceDomain;
  /** Credentials created on this start (printed once by server.ts). */
  firstStart: { admin: { username: string; password: string; generated: boolean } | null; demo: { username: string; password: string } | null };
  close(): Promise<void>;
}

/** Builds the whole server: database (migrated and seeded), broker, API and SPA. Does not listen. */
export async function buildKelvin(config: KelvinConfig): Promise<Kelvin> {
  const { db } = await openDatabase(config);
  await syncMenus(db);
  const admin = await seedPlatform(db, config.adminPassword);
  const demo = config.demo ? await seedDemo(db) : null;

  const mqtt = config.mqttEnabled ? await startMqtt({ port: config.mqttPort, url: config.mqttUrl, shareGroup: config.mqttShareGroup }) : null;
  const key = await loadSigningKey(db);
  const auth = createAuthService(db, key, config.tokenTtlSeconds);
  const projects = createProjectService(db);
  const adminServices = createAdminServices(db, projects);
  // system.sms.send / system.params.params / system.holidays.calendar serve billing, monitoring and the schedulers
  const system = createSystemServices(db, projects, config.sms);
  const projectFiles = createProjectFileService(db, projects, config.dataDir);
  const imports = createImportService(projects);

  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
  app.decorate('db', db);
  app.decorate('config', config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  const devices = await createDeviceDomain({ db, config, mqtt, projects, log: app.log });
  const deviceAdmin = createDeviceAdmin({ db, projects, deviceDomain: devices, imports, mqtt });

  await app.register(swagger, {
    openapi: { info: { title: 'Kelvin 接口文档', version: VERSION } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(accessPlugin, { auth });

  app.get('/api/health', { schema: { tags: ['系统'], summary: '健康检查' }, config: { access: 'public' } }, async () => ({
    code: ResultCode.OK,
    msg: '正常',
    data: { status: 'ok', version: VERSION, db: (await pingDb(db)) ? 'up' : 'down', mqtt: mqtt?.status() ?? 'off' },
  }));
  await app.register(authRoutes, { auth });
  await app.register(projectRoutes, { projects, files: projectFiles });
  await app.register(adminRoutes, adminServices);
  await app.register(systemRoutes, system);
  await app.register(importRoutes, { imports, projects });
  await app.register(devices.routes, { auth });
  await deviceAdmin.routes(app);

  registerSpa(app, config.webDist ?? path.resolve(import.meta.dirname, '../../web/dist'));

  await devices.startSimulator();

  return {
    app,
    db,
    mqtt,
    devices,
    firstStart: { admin, demo },
    async close() {
      await app.close();
      await devices.close(); // stops the simulator, drains the ingest around closing the broker
      await db.destroy();
      if (config.databaseUrl && config.databaseSchema?.startsWith('kelvin_test_')) await dropSchema(config.databaseUrl, config.databaseSchema);
    },
  };
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
    app.register(fastifyStatic, { root: dist, wildcard: false, index: false, maxAge: '1h', immutable: false });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api') || !hasDist || request.method !== 'GET') {
      return reply.status(404).send({ code: ResultCode.NOT_FOUND, msg: '接口不存在', data: null });
    }
    if (isAssetPath(request.url)) return reply.status(404).header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send('文件不存在');
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
