import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** An optional port: unset or empty (an environment file's `MQTT_TLS_PORT=`) means none. */
const optionalPort = (name: string) => z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number({ error: `${name} 须为端口号` }).int(`${name} 须为端口号`).min(1, `${name} 须为 1～65535`).max(65535, `${name} 须为 1～65535`).optional());

/** Environment parsed once (design §4). */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  KELVIN_DATA_DIR: z.string().default('./data'),
  KELVIN_ADMIN_PASSWORD: z.string().min(8, '管理员密码至少 8 位').optional(),
  DATABASE_URL: z.string().optional(),
  // PostgreSQL schema of this installation (created when missing); default: the server's search_path
  DATABASE_SCHEMA: z.string().regex(/^([a-z_][a-z0-9_]{0,62})?$/, 'DATABASE_SCHEMA 只能含小写字母、数字和下划线').optional(),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  // address of the embedded broker's listener (default: HOST)
  MQTT_HOST: z.string().optional(),
  MQTT_URL: z.string().optional(),
  // the embedded broker's mqtts listener (needs the two PEM files) and MQTT over WebSocket (wss with the files)
  MQTT_TLS_PORT: optionalPort('MQTT_TLS_PORT'),
  MQTT_TLS_CERT: z.string().optional(),
  MQTT_TLS_KEY: z.string().optional(),
  MQTT_WS_PORT: optionalPort('MQTT_WS_PORT'),
  // addresses/CIDRs of reverse proxies whose X-Forwarded-For is believed (comma separated); default: none
  TRUST_PROXY: z.string().regex(/^[0-9A-Fa-f.:/,\s]*$/, 'TRUST_PROXY 只能是以逗号分隔的 IP 地址或网段').default(''),
  // shared-subscription group of the ingest on an external broker ('' = plain subscription, a single process)
  MQTT_SHARE_GROUP: z.string().regex(/^[A-Za-z0-9_-]*$/, 'MQTT_SHARE_GROUP 只能含字母、数字、下划线或减号').default('kelvin'),
  // the ingest's account on an external broker (or user:password in MQTT_URL)
  MQTT_USERNAME: z.string().optional(),
  MQTT_PASSWORD: z.string().optional(),
  // the ingest's client id on an external broker: stable per process, so its persistent session (and the reports the
  // broker holds for it after a crash) is found again on restart; default kelvin-{host}-{PORT}
  MQTT_CLIENT_ID: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'MQTT_CLIENT_ID 只能含字母、数字、点、下划线或减号（最多 64 个）').optional(),
  // Mosquitto's dynamic-security plugin managed by Kelvin: a broker client and role per device
  MQTT_DYNSEC: z.enum(['on', 'off']).default('off'),
  MQTT_DYNSEC_USER: z.string().optional(),
  MQTT_DYNSEC_PASSWORD: z.string().optional(),
  // full re-sync of the broker's clients besides the one at start (0: only at start)
  MQTT_DYNSEC_RESYNC_MINUTES: z.coerce.number({ error: 'MQTT_DYNSEC_RESYNC_MINUTES 须为分钟数' }).int().min(0).max(1440).default(10),
  // shared secret of the EMQX HTTP authentication/authorization calls (header x-kelvin-broker-token); unset: no such endpoints
  KELVIN_BROKER_AUTH_TOKEN: z.string().min(16, 'KELVIN_BROKER_AUTH_TOKEN 至少 16 个字符').optional().or(z.literal('')),
  KELVIN_SIMULATOR: z.enum(['on', 'off']).default('off'),
  // how often a simulated device drops off the network, per device and hour (0 for browser journeys that command devices)
  KELVIN_SIM_DROPOUTS: z.coerce.number({ error: 'KELVIN_SIM_DROPOUTS 须为每台设备每小时的掉线次数' }).min(0).max(60).default(0.3),
  KELVIN_DEMO: z.enum(['on', 'off']).default('off'),
  KELVIN_WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  KELVIN_BILLING_INTERVAL_MINUTES: z.coerce.number({ error: 'KELVIN_BILLING_INTERVAL_MINUTES 须为分钟数' }).int().min(0).max(60, '预付费至少每小时计费一次').default(15),
  // SMS: 'record' keeps every message in the SMS record list only; 'aliyun' sends through Aliyun SMS.
  // 调用链路追踪: requests at least this slow are kept (failed ones always), the newest this many, and every
  // request's spans are exported over OTLP/HTTP JSON when a collector is named
  // off: no request tracing at all (the overhead benchmark's baseline)
  KELVIN_TRACE: z.enum(['on', 'off']).default('on'),
  KELVIN_TRACE_SLOW_MS: z.coerce.number({ error: 'KELVIN_TRACE_SLOW_MS 须为毫秒数' }).int().min(1, 'KELVIN_TRACE_SLOW_MS 至少 1 毫秒').default(500),
  KELVIN_TRACE_KEEP: z.coerce.number({ error: 'KELVIN_TRACE_KEEP 须为条数' }).int().min(100, 'KELVIN_TRACE_KEEP 至少 100 条').max(1_000_000, 'KELVIN_TRACE_KEEP 最多 1000000 条').default(10_000),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url('OTEL_EXPORTER_OTLP_ENDPOINT 须为 http(s) 地址').optional().or(z.literal('')),
  // a Prometheus scraper's Bearer token for /metrics (besides platform administrators' tokens); unset: admins only
  KELVIN_METRICS_TOKEN: z.string().min(16, 'KELVIN_METRICS_TOKEN 至少 16 个字符').optional().or(z.literal('')),
  SMS_PROVIDER: z.enum(['record', 'aliyun']).default('record'),
  SMS_ALIYUN_ACCESS_KEY_ID: z.string().optional(),
  SMS_ALIYUN_ACCESS_KEY_SECRET: z.string().optional(),
  SMS_ALIYUN_ENDPOINT: z.string().url().default('https://dysmsapi.aliyuncs.com'),
  SMS_ALIYUN_REGION: z.string().default('cn-hangzhou'),
}).superRefine((e, ctx) => {
  if (!e.MQTT_TLS_CERT !== !e.MQTT_TLS_KEY) ctx.addIssue({ code: 'custom', path: ['MQTT_TLS_CERT'], message: 'MQTT_TLS_CERT 与 MQTT_TLS_KEY 须同时设置（证书与私钥的 PEM 文件）' });
  if (e.MQTT_TLS_PORT !== undefined && !e.MQTT_TLS_CERT) ctx.addIssue({ code: 'custom', path: ['MQTT_TLS_PORT'], message: 'MQTT_TLS_PORT 需要同时设置 MQTT_TLS_CERT 和 MQTT_TLS_KEY' });
});

/** Every variable the server reads (deploy/kelvin.env.example must list each one: deploy.test.ts). */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export interface SmsConfig {
  provider: 'record' | 'aliyun';
  aliyun?: { accessKeyId: string; accessKeySecret: string; endpoint: string; regionId: string };
}

export interface KelvinConfig {
  port: number;
  host: string;
  dataDir: string;
  adminPassword?: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use (tests and benchmarks isolate themselves in one). */
  databaseSchema?: string;
  mqttPort: number;
  /** listen address of the embedded broker */
  mqttHost: string;
  mqttUrl?: string;
  /** the embedded broker's mqtts port (0: any free one; absent: none) */
  mqttTlsPort?: number;
  /** the embedded broker's MQTT-over-WebSocket port (0: any free one; absent: none); wss when mqttTls is set */
  mqttWsPort?: number;
  /** PEM files of the broker's certificate and key (mqtts, wss) */
  mqttTls?: { certFile: string; keyFile: string };
  /** proxies trusted for X-Forwarded-For (addresses/CIDRs); empty: the socket's address is the client's */
  trustProxy: string[];
  /** $share group for the ingest subscription on an external broker; empty: plain subscription */
  mqttShareGroup?: string;
  /** the ingest's account and client id on an external broker */
  mqttUsername?: string;
  mqttPassword?: string;
  mqttClientId?: string;
  /** Mosquitto dynamic security managed by Kelvin (admin account of `$CONTROL/dynamic-security/v1`) */
  dynsec?: { user: string; password: string; resyncMs: number };
  /** shared secret of the EMQX HTTP authentication/authorization endpoints; absent: they answer 404 */
  brokerAuthToken?: string;
  /** false: no broker at all (most API tests). */
  mqttEnabled: boolean;
  simulator: boolean;
  /** simulated dropouts per device and hour */
  simulatorDropouts: number;
  demo: boolean;
  webDist?: string;
  logLevel: string;
  tokenTtlSeconds: number;
  /** SMS provider (absent = the record provider). */
  sms?: SmsConfig;
  /** kept traces: slow threshold (ms), how many; OTLP collector base URL (absent: no export) */
  trace?: { slowMs: number; keep: number; otlpEndpoint?: string; enabled?: boolean };
  /** Bearer token a Prometheus scraper may use for /metrics (absent: platform administrators only) */
  metricsToken?: string;
  /** the billing schedule's interval (prepaid charges at least this often); 0: runs only when asked (benchmarks) */
  billingIntervalMs?: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): KelvinConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`环境变量有误:\n${lines}`);
  }
  const e = parsed.data;
  if (e.MQTT_DYNSEC === 'on' && (!e.MQTT_URL || !e.MQTT_DYNSEC_USER || !e.MQTT_DYNSEC_PASSWORD)) {
    throw new Error('环境变量有误:\n  MQTT_DYNSEC: 开启动态安全需要 MQTT_URL、MQTT_DYNSEC_USER 与 MQTT_DYNSEC_PASSWORD');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.KELVIN_DATA_DIR),
    adminPassword: e.KELVIN_ADMIN_PASSWORD,
    databaseUrl: e.DATABASE_URL || undefined,
    databaseSchema: e.DATABASE_URL?.startsWith('postgres') ? e.DATABASE_SCHEMA || undefined : undefined,
    mqttPort: e.MQTT_PORT,
    mqttHost: e.MQTT_HOST || e.HOST,
    trustProxy: e.TRUST_PROXY.split(',').map((s) => s.trim()).filter(Boolean),
    mqttUrl: e.MQTT_URL || undefined,
    mqttTlsPort: e.MQTT_TLS_PORT,
    mqttWsPort: e.MQTT_WS_PORT,
    mqttTls: e.MQTT_TLS_CERT && e.MQTT_TLS_KEY ? { certFile: path.resolve(e.MQTT_TLS_CERT), keyFile: path.resolve(e.MQTT_TLS_KEY) } : undefined,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    mqttUsername: e.MQTT_USERNAME || undefined,
    mqttPassword: e.MQTT_PASSWORD || undefined,
    mqttClientId: e.MQTT_CLIENT_ID || (e.MQTT_URL ? `kelvin-${os.hostname().replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 40)}-${e.PORT}` : undefined),
    dynsec: e.MQTT_DYNSEC === 'on' ? { user: e.MQTT_DYNSEC_USER!, password: e.MQTT_DYNSEC_PASSWORD!, resyncMs: e.MQTT_DYNSEC_RESYNC_MINUTES * 60_000 } : undefined,
    brokerAuthToken: e.KELVIN_BROKER_AUTH_TOKEN || undefined,
    mqttEnabled: true,
    simulator: e.KELVIN_SIMULATOR === 'on',
    simulatorDropouts: e.KELVIN_SIM_DROPOUTS,
    demo: e.KELVIN_DEMO === 'on' || e.KELVIN_SIMULATOR === 'on',
    webDist: e.KELVIN_WEB_DIST,
    logLevel: e.LOG_LEVEL,
    tokenTtlSeconds: 12 * 3600,
    billingIntervalMs: e.KELVIN_BILLING_INTERVAL_MINUTES * 60_000,
    metricsToken: e.KELVIN_METRICS_TOKEN || undefined,
    trace: { enabled: e.KELVIN_TRACE === 'on', slowMs: e.KELVIN_TRACE_SLOW_MS, keep: e.KELVIN_TRACE_KEEP, otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT || undefined },
    sms: {
      provider: e.SMS_PROVIDER,
      aliyun: e.SMS_ALIYUN_ACCESS_KEY_ID && e.SMS_ALIYUN_ACCESS_KEY_SECRET
        ? { accessKeyId: e.SMS_ALIYUN_ACCESS_KEY_ID, accessKeySecret: e.SMS_ALIYUN_ACCESS_KEY_SECRET, endpoint: e.SMS_ALIYUN_ENDPOINT, regionId: e.SMS_ALIYUN_REGION }
        : undefined,
    },
  };
}
