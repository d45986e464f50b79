import { z } from 'zod';
import { decimal, pageQuery } from './common.ts';
import { positiveIdOf } from './device-admin.ts';

/**
 * 维修记录 (repairRecord, /datacenter): a repair work order of a project — logged against one of the project's devices
 * or a free-text location, assigned to a user of the tenant, carried through 待派单 → 处理中 → 已完成 / 已关闭 (the
 * server enforces the moves; closing needs a result note), with photos and a timeline of who did what.
 */

export const REPAIR_STATUS = { pending: '待派单', processing: '处理中', done: '已完成', closed: '已关闭' } as const;
export type RepairStatus = keyof typeof REPAIR_STATUS;
export const REPAIR_STATUSES = Object.keys(REPAIR_STATUS) as [RepairStatus, ...RepairStatus[]];

export const REPAIR_PRIORITY = { low: '低', normal: '普通', high: '紧急', urgent: '特急' } as const;
export type RepairPriority = keyof typeof REPAIR_PRIORITY;
export const REPAIR_PRIORITIES = Object.keys(REPAIR_PRIORITY) as [RepairPriority, ...RepairPriority[]];

/** What each move does: from which states it may start, where it leads. */
export const REPAIR_ACTIONS = { create: '登记', edit: '修改', assign: '派单', reassign: '改派', finish: '完成', close: '关闭', photo: '上传照片', photo_remove: '删除照片' } as const;
export type RepairAction = keyof typeof REPAIR_ACTIONS;

/** The state machine: which moves each state allows (done and closed are final). */
export const REPAIR_MOVES: Record<RepairStatus, readonly ('assign' | 'finish' | 'close')[]> = {
  pending: ['assign', 'close'],
  processing: ['assign', 'finish', 'close'],
  done: [],
  closed: [],
};

/** photos: jpg/png, at most 5 MB each, at most 9 per record */
export const REPAIR_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const REPAIR_PHOTO_MAX_COUNT = 9;
export const REPAIR_PHOTO_TYPES = ['image/jpeg', 'image/png'] as const;

const text = (label: string, max: number) => z.string({ error: `请填写${label}` }).trim().min(1, `请填写${label}`).max(max, `${label}最多 ${max} 个字符`);
const optText = (label: string, max: number) => z.string().trim().max(max, `${label}最多 ${max} 个字符`).optional();
const phone = z.string().trim().regex(/^[0-9+\-() ]{0,20}$/, '联系电话格式不正确').optional();

/** The report itself, as registered and as edited: where (a device of the project or a location in words), what, who. */
const reportFields = {
  deviceId: positiveIdOf('设备编号').nullish(),
  location: optText('位置', 200),
  fault: text('故障描述', 500),
  reporter: text('报修人', 60),
  phone,
};
const priority = z.enum(REPAIR_PRIORITIES, { error: '优先级只能是低、普通、紧急或特急' });
/** one of the two places: a device, or a location in words */
const hasPlace = (b: { deviceId?: number | null; location?: string }) => !!b.deviceId || !!b.location;
const NO_PLACE = { message: '请选择设备或填写位置', path: ['location'] };

/** POST /api/v1/repair: a device of the project, or a location in words (one of them). */
export const repairCreate = z.object({ projectId: positiveIdOf('项目编号'), ...reportFields, priority: priority.default('normal') }).refine(hasPlace, NO_PLACE);
export type RepairCreate = z.infer<typeof repairCreate>;

/** PUT /api/v1/repair/:id: the report itself (not its state), while the record is open. */
export const repairUpdate = z.object({ ...reportFields, priority }).refine(hasPlace, NO_PLACE);
export type RepairUpdate = z.infer<typeof repairUpdate>;

export const repairAssign = z.object({ assigneeId: positiveIdOf('维修人员'), note: optText('备注', 500) });
export type RepairAssign = z.infer<typeof repairAssign>;
export const repairFinish = z.object({ result: optText('处理结果', 500) });
export const repairClose = z.object({ result: text('关闭原因', 500) });
export const repairDelete = z.object({ ids: z.array(positiveIdOf('维修记录编号')).min(1, '请选择维修记录').max(200) });

export const repairQuery = pageQuery.extend({
  projectId: decimal(z.number().int().positive()).optional(),
  status: z.enum(REPAIR_STATUSES, { error: '状态不存在' }).optional(),
  priority: z.enum(REPAIR_PRIORITIES, { error: '优先级不存在' }).optional(),
  assigneeId: decimal(z.number().int().positive()).optional(),
  keyword: z.string().trim().max(64).optional(),
  /** report time range, ms epoch: [startTime, endTime) */
  startTime: decimal(z.number().int().nonnegative()).optional(),
  endTime: decimal(z.number().int().nonnegative()).optional(),
});
export type RepairQuery = z.infer<typeof repairQuery>;

export const repairDeviceQuery = z.object({ projectId: positiveIdOf('项目编号'), keyword: z.string().trim().max(64).optional() });

export interface RepairPhotoDto { id: number; name: string; size: number; mime: string; uploadedBy: string | null; createdAt: number }
export interface RepairEventDto {
  id: number; action: RepairAction; actionLabel: string; fromStatus: RepairStatus | null; toStatus: RepairStatus | null;
  note: string | null; actorName: string | null; at: number;
}
export interface RepairDto {
  id: number;
  /** 维修单号: WX + report date + id */
  repairNo: string;
  projectId: number;
  projectName: string;
  deviceId: number | null;
  deviceName: string | null;
  deviceCode: string | null;
  location: string | null;
  fault: string;
  reporter: string;
  phone: string | null;
  priority: RepairPriority;
  status: RepairStatus;
  assigneeId: number | null;
  assigneeName: string | null;
  result: string | null;
  createdBy: string | null;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
  photoCount: number;
}
export interface RepairDetailDto extends RepairDto { photos: RepairPhotoDto[]; events: RepairEventDto[] }
export interface RepairAssigneeDto { id: number; name: string; username: string }
export interface RepairDeviceDto { id: number; name: string; code: string; deviceType: string; areaPath: string | null }
