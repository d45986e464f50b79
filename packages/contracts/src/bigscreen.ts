import { z } from 'zod';
import { decimal } from './common.ts';
import { positiveIdOf } from './device-admin.ts';
import type { AlarmSeverity } from './monitoring.ts';

/**
 * 大屏: the comprehensive screen (monitoringCenterTose, every project of the user), the project screen (monitorScreen)
 * and its public read-only share (/dataviews?token=…). One summary shape serves all three.
 */

/** Spec §9: scroll board and digital flop defaults. */
export const SCROLL_BOARD_DEFAULTS = { rowNum: 5, waitTime: 2000, headerHeight: 35, carousel: 'single' } as const;
export const DIGITAL_FLOP_DEFAULTS = { animationFrame: 50, toFixed: 0 } as const;

/** The cumulative counters the screens add up: electricity (kWh) and heat (GJ, the heat meters' registry counter). */
export const BIGSCREEN_ELECTRIC_FIELDS = ['f70', 'f48'] as const;
export const BIGSCREEN_HEAT_FIELD = 'f60';

/** Today so far against the whole of yesterday (Asia/Shanghai days); null = no readings in that day. */
export interface BigScreenEnergy {
  today: number | null;
  yesterday: number | null;
  unit: string;
  /** devices with the counter */
  meters: number;
}

export interface BigScreenAlarm {
  id: number;
  projectId: number;
  projectName: string;
  deviceName: string;
  ruleName: string;
  severity: AlarmSeverity;
  value: string;
  createdAt: number;
}

export interface BigScreenTopDevice {
  deviceId: number;
  deviceName: string;
  /** the building (or project) it stands in */
  place: string;
  usage: number;
}

export interface BigScreenProject {
  id: number;
  name: string;
  lng: number | null;
  lat: number | null;
  devices: number;
  online: number;
  /** 0–100, one decimal; null without devices */
  onlineRate: number | null;
  activeAlarms: number;
  status: 'normal' | 'alarm' | 'offline' | 'empty' | 'unknown';
}

export interface BigScreenSummary {
  title: string;
  generatedAt: number;
  devices: { total: number; online: number; onlineRate: number | null };
  /** AC and heating units (a power/run field): how many are on and online now */
  units: { total: number; running: number };
  electricity: BigScreenEnergy;
  heat: BigScreenEnergy;
  activeAlarms: number;
  /** the newest active alarms (at most 30) */
  alarms: BigScreenAlarm[];
  /** the top 10 devices by today's electricity */
  top: BigScreenTopDevice[];
  /** the last 24 UTC hours (start of each hour, ms): electricity and heat per hour, null = no readings */
  trend: { hour: number; electricity: number | null; heat: number | null }[];
  /** the comprehensive screen: every project with its figures (the project screen: its one project) */
  projects: BigScreenProject[];
}

/* ---------- share links (/dataviews) ---------- */

export const DATAVIEW_EXPIRY_DAYS = [1, 7, 30] as const;
/** A custom expiry is at most a year away. */
export const DATAVIEW_MAX_DAYS = 366;

export const dataviewCreate = z.object({
  projectId: positiveIdOf('项目编号'),
  /** 1, 7 or 30 days; or a custom instant (epoch ms) in `expiresAt` */
  days: decimal(z.number({ error: '有效期必须是天数' }).int('有效期必须是整数天').min(1, '有效期至少 1 天').max(DATAVIEW_MAX_DAYS, `有效期最多 ${DATAVIEW_MAX_DAYS} 天`)).optional(),
  expiresAt: decimal(z.number({ error: '到期时间必须是时间' }).int('到期时间必须是时间').positive('到期时间必须是时间')).optional(),
  note: z.string({ error: '备注必须是文字' }).trim().max(60, '备注最多 60 个字').optional(),
}).refine((b) => (b.days === undefined) !== (b.expiresAt === undefined), { message: '请选择有效期（1 天、7 天、30 天或自定义到期时间）', path: ['days'] });
export type DataviewCreate = z.infer<typeof dataviewCreate>;

export const dataviewListQuery = z.object({ projectId: positiveIdOf('项目编号') });

export const dataviewTokenQuery = z.object({
  token: z.string({ error: '链接无效' }).trim().min(1, '链接无效').max(128, '链接无效').regex(/^[A-Za-z0-9_-]+$/, '链接无效'),
});

export type DataviewStatus = 'active' | 'expired' | 'revoked';
export const DATAVIEW_STATUS_LABELS: Record<DataviewStatus, string> = { active: '有效', expired: '已过期', revoked: '已撤销' };

export interface DataviewLinkDto {
  id: number;
  projectId: number;
  /** the first characters of the token, to tell links apart (the token itself is stored only as its hash) */
  hint: string;
  note: string | null;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  status: DataviewStatus;
}

/** The answer to a new link: the only time the token is seen. */
export interface DataviewCreated extends DataviewLinkDto {
  token: string;
  /** the path to open: /dataviews?token=… */
  path: string;
}

/** What a public link answers: the project screen's summary, aggregate figures only. */
export interface DataviewSummary extends BigScreenSummary {
  expiresAt: number;
}
