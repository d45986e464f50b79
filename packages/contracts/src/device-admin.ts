import { z } from 'zod';
import { pageQuery, decimal } from './common.ts';
import { deviceCodeSchema, deviceTypeCode, type DeviceCredentials, type DeviceRow, type FieldValue } from './device.ts';

/** Device management (deviceList_n, 4G devices, storage, groups, batchpara, SIM cards, replacement). */

const id = (what: string) => decimal(z.number({ error: `${what}必须是数字` }).int(`${what}必须是整数`).positive(`${what}必须大于 0`));
const deviceName = z.string({ error: '请输入设备名称' }).trim().min(1, '请输入设备名称').max(64, '设备名称最多 64 个字符');
const idList = (what: string) => z.array(id(what), { error: `请选择${what.replace(/编号$/, '')}` }).min(1, `请至少选择一台设备`).max(1000, '一次最多 1000 台设备');

/** create/{projectId}/{areaId}/{deviceType}: the rest of the device form (device.ts deviceCreateBody without the path parts). */
export const deviceCreateParams = z.object({ projectId: id('项目编号'), areaId: id('区域编号'), deviceType: deviceTypeCode });
export const deviceMoveParams = z.object({ deviceId: id('设备编号'), areaId: id('区域编号') });
export const deviceMoveBody = z.object({ deviceIds: idList('设备编号'), areaId: id('区域编号'), tenantId: z.unknown().optional() });
export const deviceDeleteBody = z.object({
  id: id('设备编号').optional(),
  ids: idList('设备编号').optional(),
  deviceCode: deviceCodeSchema.optional(),
}).refine((b) => b.id !== undefined || b.ids !== undefined || b.deviceCode !== undefined, { message: '请选择要删除的设备', path: ['ids'] });
export const deviceActiveBody = z.object({ ids: idList('设备编号'), enabled: z.boolean({ error: '请选择启用或停用' }), tenantId: z.unknown().optional() });

/* ---------- SIM cards of 4G devices (deviceCardInfoList) ---------- */

export const CARRIERS = ['中国移动', '中国联通', '中国电信', '中国广电', '其他'] as const;
const iccid = z.string({ error: '请输入 ICCID' }).trim().regex(/^[0-9A-Fa-f]{19,20}$/, 'ICCID 为 19～20 位数字或字母 A～F');
const epochMs = z.number({ error: '时间格式不正确' }).int().nonnegative();
export const deviceCardBody = z.object({
  deviceCode: deviceCodeSchema,
  iccid,
  carrier: z.enum(CARRIERS, { error: '请选择运营商' }),
  activatedAt: epochMs.nullable().optional(),
  packageEnd: epochMs.nullable().optional(),
  dataLimitMb: z.number({ error: '套餐流量必须是数字' }).nonnegative('套餐流量不能为负').max(1e7, '套餐流量过大').nullable().optional(),
  dataUsedMb: z.number({ error: '已用流量必须是数字' }).nonnegative('已用流量不能为负').max(1e7, '已用流量过大').nullable().optional(),
});
export type DeviceCardBody = z.infer<typeof deviceCardBody>;
export interface DeviceCard {
  deviceCode: string;
  iccid: string;
  carrier: string;
  activatedAt: number | null;
  packageEnd: number | null;
  /** whole days until packageEnd (negative: expired), null without an end */
  packageDaysLeft: number | null;
  dataLimitMb: number | null;
  dataUsedMb: number | null;
  updatedAt: number;
}
export const cardListQuery = pageQuery.extend({
  projectId: id('项目编号'),
  keyword: z.string().trim().max(64, '关键字最多 64 个字符').optional(),
  /** only cards whose package ends within this many days (or has ended) */
  packageLimitDays: decimal(z.number({ error: '套餐剩余天数必须是数字' }).int('套餐剩余天数必须是整数').min(0, '套餐剩余天数不能为负').max(3650, '套餐剩余天数最多 3650')).optional(),
  /** 1: devices with a card, 0: devices without one */
  hasCard: z.enum(['0', '1'], { error: '是否有卡只能是 0 或 1' }).optional(),
});

/* ---------- 4G devices (spec §7.3) ---------- */

export const list4gQuery = pageQuery.extend({
  areaId: id('区域编号'),
  deviceType: deviceTypeCode.optional(),
  deviceName: z.string().trim().max(64, '设备名称最多 64 个字符').optional(),
});
const cardFields = deviceCardBody.omit({ deviceCode: true }).partial();
export const create4gBody = z.object({
  areaId: id('区域编号'),
  deviceType: deviceTypeCode,
  deviceCode: deviceCodeSchema,
  deviceName: deviceName.optional(),
  card: cardFields.extend({ iccid, carrier: z.enum(CARRIERS, { error: '请选择运营商' }) }).nullable().optional(),
  tenantId: z.unknown().optional(),
});
export const update4gBody = z.object({
  id: id('设备编号'),
  deviceName: deviceName.optional(),
  areaId: id('区域编号').optional(),
  card: cardFields.extend({ iccid, carrier: z.enum(CARRIERS, { error: '请选择运营商' }) }).nullable().optional(),
  tenantId: z.unknown().optional(),
});
export const backUpBody = z.object({ id: id('设备编号'), tenantId: z.unknown().optional() });
export const replaceQuery = z.object({ oldDeviceCode: deviceCodeSchema, newDeviceCode: deviceCodeSchema })
  .refine((q) => q.oldDeviceCode !== q.newDeviceCode, { message: '新旧设备编号不能相同', path: ['newDeviceCode'] });

export interface Device4gRow extends DeviceRow {
  card: DeviceCard | null;
}
export interface ReplaceResult {
  device: DeviceRow;
  /** the old hardware, now a spare in the project's storage (when the new one came from storage) */
  spare: DeviceRow | null;
  /** fresh credentials for the new hardware when it was not registered before (shown once) */
  credentials: DeviceCredentials | null;
}

/* ---------- Device storage (spec §7.4) ---------- */

export const storageQuery = pageQuery.extend({
  projectId: id('项目编号'),
  deviceName: z.string().trim().max(64, '设备名称最多 64 个字符').optional(),
});
export const storageAllQuery = storageQuery.extend({
  /** only devices whose data package ends within this many days (or has ended) */
  packageLimitDays: decimal(z.number({ error: '套餐剩余天数必须是数字' }).int('套餐剩余天数必须是整数').min(0, '套餐剩余天数不能为负').max(3650, '套餐剩余天数最多 3650')).optional(),
});
export const storageRenameBody = z.object({ id: id('设备编号'), deviceName });
export const storageAddBody = z.object({
  projectId: id('项目编号'),
  deviceType: deviceTypeCode,
  deviceCode: deviceCodeSchema.optional(),
  deviceName: deviceName.optional(),
});
export interface StorageRow extends Device4gRow {
  /** true while in storage (not installed in an area) */
  inStorage: boolean;
}

/* ---------- Device groups (devicegroup) ---------- */

export const groupListQuery = z.object({ projectId: id('项目编号') });
export const groupBody = z.object({
  projectId: id('项目编号'),
  name: z.string({ error: '请输入分组名称' }).trim().min(1, '请输入分组名称').max(50, '分组名称最多 50 个字符'),
  remark: z.string().trim().max(200, '备注最多 200 个字符').nullable().optional(),
});
export const groupPatchBody = groupBody.omit({ projectId: true }).partial();
export const groupMembersBody = z.object({
  add: z.array(id('设备编号')).max(5000, '一次最多 5000 台设备').default([]),
  remove: z.array(id('设备编号')).max(5000, '一次最多 5000 台设备').default([]),
});
export const groupIdParam = z.object({ id: id('分组编号') });
export const groupDevicesQuery = pageQuery.extend({ type: deviceTypeCode.optional() });
export interface DeviceGroup {
  id: number;
  projectId: number;
  name: string;
  remark: string | null;
  deviceCount: number;
  createdAt: number;
}

/* ---------- batchpara: one field to many devices ---------- */

export const batchParaBody = z.object({
  deviceIds: idList('设备编号'),
  fieldCode: z.string({ error: '请选择参数' }).regex(/^f\d{2}$/, '参数代码格式不正确'),
  value: z.union([z.number(), z.string().max(32)], { error: '请输入参数值' }),
  /** seconds a command waits for an offline or sleeping device */
  ttl: z.number().int().min(1).max(7 * 86_400).optional(),
});
export type BatchResultStatus = 'sent' | 'queued' | 'failed';
export const BATCH_RESULT_LABELS: Record<BatchResultStatus, string> = {
  sent: '已下发',
  queued: '设备离线，等待上线后下发',
  failed: '失败',
};
export interface BatchParaResult {
  deviceId: number;
  deviceCode: string | null;
  deviceName: string | null;
  status: BatchResultStatus;
  commandId: number | null;
  message: string;
}
export interface BatchParaAnswer {
  total: number;
  sent: number;
  queued: number;
  failed: number;
  results: BatchParaResult[];
}

/* ---------- deviceBindRecord ---------- */

export const BIND_ACTIONS = ['install', 'move', 'spare', 'replace', 'delete', 'import'] as const;
export type BindAction = (typeof BIND_ACTIONS)[number];
export const BIND_ACTION_LABELS: Record<BindAction, string> = {
  install: '安装',
  move: '移动',
  spare: '转入库存',
  replace: '更换设备',
  delete: '删除',
  import: '导入',
};
export const bindRecordQuery = pageQuery.extend({
  projectId: id('项目编号'),
  deviceCode: z.string().trim().max(64).optional(),
  action: z.enum(BIND_ACTIONS, { error: '操作类型不存在' }).optional(),
  /** one device's history (设备绑定管理's drawer) */
  deviceId: id('设备编号').optional(),
});
export interface BindRecord {
  id: number;
  at: number;
  action: BindAction;
  actionLabel: string;
  deviceId: number | null;
  deviceType: string;
  oldDeviceCode: string | null;
  newDeviceCode: string | null;
  areaPath: string | null;
  detail: string;
  username: string | null;
}

/* ---------- 设备绑定管理 (deviceBindManager): devices and the room each sits in ---------- */

export const deviceBindQuery = pageQuery.extend({
  projectId: id('项目编号'),
  /** bound: in an area of the project; unbound: in the project's storage */
  bound: z.enum(['bound', 'unbound'], { error: '绑定状态只能是已绑定或未绑定' }).optional(),
  keyword: z.string().trim().max(64).optional(),
  deviceType: z.string().trim().max(40).optional(),
});
export type DeviceBindQuery = z.infer<typeof deviceBindQuery>;
export const deviceBindParams = z.object({ deviceId: id('设备编号') });
export const deviceBindBody = z.object({ areaId: id('房间编号') });
export interface DeviceBindRow {
  id: number;
  deviceCode: string;
  deviceName: string;
  deviceType: string;
  typeName: string;
  online: boolean;
  areaId: number | null;
  /** building / floor / room, or null while in storage */
  areaPath: string | null;
  /** the latest bind record of the device */
  lastAt: number | null;
  lastBy: string | null;
  lastAction: string | null;
}

export const deviceImportQuery = z.object({ projectId: id('项目编号') });
export interface DeviceImportResult {
  rows: number;
  created: number;
  /** secrets of the new devices, shown this once (an installer loads them into the hardware) */
  credentials: { deviceCode: string; password: string }[];
}

export type { FieldValue };

/** The id rules above, for the other device-management contracts (device-management.ts). */
export { id as positiveIdOf, idList as deviceIdListOf };
