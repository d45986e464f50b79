import { z } from 'zod';
import { pageQuery } from './common.ts';

/** serviceMonitorManager (服务运行监控, platform only): the server's own health and the device ingest's counters. */

/** Ingest counters (summed over every server process) as the screen names them, in display order. */
export const INGEST_COUNTER_LABELS = {
  messages_received: '收到上报',
  messages_stored: '入库上报',
  points_stored: '入库数据点',
  points_duplicate: '重复数据点（已忽略）',
  acks: '指令应答',
  malformed: '格式错误',
  fields_dropped: '无法识别的字段',
  fields_unknown: '拒绝：未知字段',
  fields_out_of_range: '拒绝：读数超出量程',
  clock_fixed: '设备时钟异常（按接收时间入库）',
  unknown_device: '未知或停用设备',
  refused_client_id: '拒绝：客户端标识不合法',
  refused_anonymous: '拒绝：匿名连接',
  refused_auth: '拒绝：认证失败',
  refused_acl_publish: '拒绝：越权发布',
  refused_acl_subscribe: '拒绝：越权订阅',
  oversize: '消息过大',
} as const;
export type IngestCounterName = keyof typeof INGEST_COUNTER_LABELS;

/** Why a message or connection was refused (ingest_reject.reason). */
export const INGEST_REJECT_REASONS = {
  malformed: '格式错误',
  unknown_field: '未知字段',
  out_of_range: '读数超出量程',
  unknown_device: '未知或停用设备',
  client_id: '客户端标识不合法',
  anonymous: '匿名连接',
  auth: '认证失败',
  acl_publish: '越权发布',
  acl_subscribe: '越权订阅',
  oversize: '消息过大',
} as const;

export const ingestRejectQuery = pageQuery.extend({
  reason: z.enum(Object.keys(INGEST_REJECT_REASONS) as [keyof typeof INGEST_REJECT_REASONS], { error: '拒绝原因不存在' }).optional(),
  keyword: z.string().trim().max(64, '设备编号最多 64 个字符').optional(),
});

export interface ServiceStatus {
  version: string;
  startedAt: number;
  node: string;
  database: 'SQLite' | 'PostgreSQL';
  databaseUp: boolean;
  mqtt: { status: 'off' | 'up' | 'down'; mode: 'embedded' | 'external' | 'off'; port: number | null };
  /** devices registered / reporting within their heartbeat window / holding a connection to this process (null: external broker) */
  devices: { total: number; online: number; connected: number | null };
  counters: Record<IngestCounterName, number>;
  /** this server process: memory, and event-loop delay over the last full minute (null in the first minute) */
  process: { rssMb: number; heapUsedMb: number; eventLoopDelayMs: { mean: number; p99: number; max: number } | null };
  /** server time of the reading, for rates between two readings */
  at: number;
}

export interface IngestRejectRow {
  id: number;
  at: number;
  tenantCode: string | null;
  deviceCode: string | null;
  topic: string;
  reason: string;
  reasonLabel: string;
  detail: string;
}
