import path from 'node:path';
import { z } from 'zod';

/** Environment parsed once (design §4). */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  KELVIN_DATA_DIR: z.string().default('./data'),
  KELVIN_ADMIN_PASSWORD: z.string().min(8, '管理员密码至少 8 位').optional(),
  DATABASE_URL: z.string().optional(),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  MQTT_URL: z.string().optional(),
  KELVIN_SIMULATOR: z.enum(['on', 'off']).default('off'),
  KELVIN_DEMO: z.enum(['on', 'off']).default('off'),
  KELVIN_WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface KelvinConfig {
  port: number;
  host: string;
  dataDir: string;
  adminPassword?: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use (tests isolate themselves in one). */
  databaseSchema?: string;
  mqttPort: number;
  mqttUrl?: string;
  /** false: no broker at all (most API tests). */
  mqttEnabled: boolean;
  simulator: boolean;
  demo: boolean;
  webDist?: string;
  logLevel: string;
  tokenTtlSeconds: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): KelvinConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`环境变量有误:\n${lines}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.KELVIN_DATA_DIR),
    adminPassword: e.KELVIN_ADMIN_PASSWORD,
    databaseUrl: e.DATABASE_URL || undefined,
    mqttPort: e.MQTT_PORT,
    mqttUrl: e.MQTT_URL || undefined,
    mqttEnabled: true,
    simulator: e.KELVIN_SIMULATOR === 'on',
    demo: e.KELVIN_DEMO === 'on' || e.KELVIN_SIMULATOR === 'on',
    webDist: e.KELVIN_WEB_DIST,
    logLevel: e.LOG_LEVEL,
    tokenTtlSeconds: 12 * 3600,
  };
}
