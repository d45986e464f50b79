import { z } from 'zod';
import { decimal, pageQuery } from './common.ts';

/**
 * Operating Kelvin itself (/monitorManager, platform only): the registry of server processes (serviceEurekaManager),
 * the kept request traces (serviceZipkinManager) and the service monitor's actions (serviceMonitorManager).
 */

// ---- 服务注册中心

/** Every process writes its row this often. */
export const HEARTBEAT_MS = 5_000;
/** A process silent for this many intervals is 已离线. */
export const GONE_AFTER_BEATS = 3;
/** Gone and stopped rows older than this are pruned. */
export const INSTANCE_KEEP_MS = 7 * 24 * 3_600_000;

export const INSTANCE_ROLES = { api: '接口服务', ingest: '设备接入', scheduler: '调度' } as const;
export type InstanceRole = keyof typeof INSTANCE_ROLES;
export const INSTANCE_STATUS = { up: '运行中', gone: '已离线', stopped: '已停止' } as const;
export type InstanceStatus = keyof typeof INSTANCE_STATUS;

/** The gone rule: stopped on a graceful close; gone when no heartbeat came for GONE_AFTER_BEATS intervals. */
export function instanceStatus(row: { heartbeatAt: number; stoppedAt: number | null }, now: number, intervalMs = HEARTBEAT_MS): InstanceStatus {
  if (row.stoppedAt !== null) return 'stopped';
  return now - row.heartbeatAt > GONE_AFTER_BEATS * intervalMs ? 'gone' : 'up';
}

export interface InstanceDto {
  id: string;
  host: string;
  pid: number;
  version: string;
  node: string;
  roles: InstanceRole[];
  startedAt: number;
  heartbeatAt: number;
  stoppedAt: number | null;
  status: InstanceStatus;
  /** 1-minute load average of the host */
  load1: number;
  rssMb: number;
  heapUsedMb: number;
  /** devices holding an MQTT connection to this process (null: external broker or no broker) */
  devicesConnected: number | null;
  /** event-loop delay p99 over the last heartbeat interval */
  loopP99Ms: number | null;
  requestsPerMin: number;
  /** the process answering this call */
  self: boolean;
}

// ---- 调用链路追踪

/** Slow requests (≥ this many ms) are kept; KELVIN_TRACE_SLOW_MS changes it. */
export const TRACE_SLOW_MS_DEFAULT = 500;
/** Newest kept traces; KELVIN_TRACE_KEEP changes it. */
export const TRACE_KEEP_DEFAULT = 10_000;

/**
 * Which finished requests are kept: every server error, every refusal but 401 (an expired session) and 404 (probes,
 * an old tab asking for something deleted) — those are routine noise — and every slow request.
 */
export function traceKeptAs(status: number, durationMs: number, slowMs: number): TraceKept | null {
  if (status >= 500 || (status >= 400 && status !== 401 && status !== 404)) return 'error';
  return durationMs >= slowMs ? 'slow' : null;
}

export const TRACE_KEPT = { error: '失败', slow: '慢请求' } as const;
export type TraceKept = keyof typeof TRACE_KEPT;

export const SPAN_KINDS = { server: '请求', internal: '处理', client: '数据库', producer: 'MQTT 发布' } as const;
export type SpanKind = keyof typeof SPAN_KINDS;

export interface TraceSpan {
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: SpanKind;
  /** epoch ms (fractional) */
  start: number;
  end: number;
  attributes: Record<string, string | number | boolean>;
  /** the failure, when the span failed */
  error: string | null;
}

export interface TraceRow {
  id: number;
  traceId: string;
  instanceId: string;
  at: number;
  durationMs: number;
  method: string;
  route: string;
  path: string;
  status: number;
  username: string | null;
  tenantId: number | null;
  kept: TraceKept;
  spanCount: number;
}

export interface TraceDetail extends TraceRow {
  spans: TraceSpan[];
  /** spans not recorded because the request made too many */
  droppedSpans: number;
}

const hex32 = z.string().trim().toLowerCase().regex(/^[0-9a-f]{32}$/, '追踪号应为 32 位十六进制');
export const traceIdParam = z.object({ traceId: hex32 });

const epoch = (label: string) => decimal(z.number({ error: `${label}应为时间` }).int().min(0, `${label}应为时间`));
export const traceQuery = pageQuery.extend({
  traceId: hex32.optional().or(z.literal('').transform(() => undefined)),
  path: z.string().trim().max(200, '路径最多 200 个字符').optional(),
  status: decimal(z.number({ error: '状态码应为 100–599 的整数' }).int('状态码应为 100–599 的整数').min(100, '状态码应为 100–599 的整数').max(599, '状态码应为 100–599 的整数')).optional(),
  minDuration: decimal(z.number({ error: '耗时应为毫秒数' }).int('耗时应为整数毫秒').min(0, '耗时不能为负')).optional(),
  username: z.string().trim().max(64, '用户名最多 64 个字符').optional(),
  kept: z.enum(['error', 'slow'], { error: '保留原因不存在' }).optional(),
  from: epoch('开始时间').optional(),
  to: epoch('结束时间').optional(),
});
export type TraceQuery = z.infer<typeof traceQuery>;

// ---- 服务运行监控的操作

export interface ReloadItem {
  name: string;
  detail: string;
}
export interface ReloadResult {
  instanceId: string;
  items: ReloadItem[];
  at: number;
}

/** What a broadcast asks of every online device: report its state now, or set its clock to the server's. */
export const BROADCAST_ACTIONS = { refresh: '立即上报', syncTime: '校时' } as const;
export type BroadcastAction = keyof typeof BROADCAST_ACTIONS;

const targetFields = {
  tenantId: decimal(z.number({ error: '租户编号应为整数' }).int('租户编号应为整数').positive('租户编号应为正整数')).optional(),
  projectId: decimal(z.number({ error: '项目编号应为整数' }).int('项目编号应为整数').positive('项目编号应为正整数')).optional(),
};
/** a project is named only within its tenant */
const tenantOfProject = (b: { tenantId?: number; projectId?: number }) => b.projectId === undefined || b.tenantId !== undefined;
const PROJECT_WITHOUT_TENANT = { message: '选择项目前请先选择租户', path: ['projectId'] };
export const broadcastBody = z.object({
  ...targetFields,
  action: z.enum(['refresh', 'syncTime'], { error: '广播内容应为「立即上报」或「校时」' }),
}).refine(tenantOfProject, PROJECT_WITHOUT_TENANT);
export type BroadcastBody = z.infer<typeof broadcastBody>;

export const rtuRefreshBody = z.object(targetFields).refine(tenantOfProject, PROJECT_WITHOUT_TENANT);
export type RtuRefreshBody = z.infer<typeof rtuRefreshBody>;

export interface BroadcastResult {
  action: BroadcastAction;
  /** devices online in the chosen tenant/project */
  online: number;
  /** commands issued */
  asked: number;
  /** online devices whose type does not support the action */
  unsupported: number;
}

export interface RtuRefreshResult {
  /** 4G devices (types that sleep between wake-ups) in the chosen tenant/project */
  devices: number;
  /** commands issued: sent now to the awake ones, delivered at the next wake-up to the others */
  asked: number;
  sentNow: number;
  /** devices that already had a refresh waiting (not asked twice) */
  alreadyWaiting: number;
}

export interface OpsTarget {
  id: number;
  code: string;
  name: string;
  online: number;
  cellular: number;
  projects: { id: number; name: string }[];
}
