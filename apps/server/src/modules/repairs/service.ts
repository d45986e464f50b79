import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  REPAIR_ACTIONS, REPAIR_MOVES, REPAIR_PHOTO_MAX_COUNT, REPAIR_PHOTO_TYPES, REPAIR_STATUS,
  type RepairAction, type RepairAssign, type RepairAssigneeDto, type RepairCreate, type RepairDetailDto, type RepairDeviceDto, type RepairDto,
  type RepairPhotoDto, type RepairPriority, type RepairQuery, type RepairStatus, type RepairUpdate,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { byIdDescending } from '../../lib/excel.ts';
import { paginate } from '../../lib/pagination.ts';
import type { Actor, Scope } from '../../lib/scope.ts';
import type { DeviceService } from '../devices/index.ts';
import { cleanFileName, storeUpload, type ProjectService } from '../projects/index.ts';
import * as repo from './repository.ts';
import type { PhotoRow, RepairRow, Trx } from './repository.ts';

const CST = 8 * 3_600_000;
const ymd = (ms: number) => new Date(ms + CST).toISOString().slice(0, 10).replace(/-/g, '');
export const repairNo = (r: Pick<RepairRow, 'id' | 'created_at'>) => `WX${ymd(r.created_at)}${String(r.id).padStart(5, '0')}`;
const actorName = (a: Actor) => a.user.name || a.user.username;

/** The first bytes of the image kinds a repair photo may be (the declared type alone proves nothing). */
function sniffImage(head: Buffer): 'image/jpeg' | 'image/png' | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  return null;
}

export interface PhotoUpload { filename: string; mimetype: string; file: Readable; truncated(): boolean }

/**
 * 维修记录: repair work orders. The state machine (contracts REPAIR_MOVES) is enforced here with a compare-and-set on
 * the status, every move writes a timeline event in the same transaction, photos are stored under the data dir by a
 * random name (as project files are).
 */
export function createRepairService(deps: { db: Db; projects: ProjectService; devices: DeviceService; dataDir: string }) {
  const { db, projects, devices } = deps;
  const root = path.join(deps.dataDir, 'uploads', 'repair-photos');
  const storedPath = (r: Pick<PhotoRow, 'tenant_id' | 'stored_name'>) => path.join(root, String(r.tenant_id), r.stored_name);

  async function record(scope: Scope, id: number, db_: Trx = db): Promise<RepairRow> {
    const row = await repo.recordsOf(db_, scope).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('维修记录');
    return row;
  }

  async function toDtos(rows: RepairRow[]): Promise<RepairDto[]> {
    const counts = await repo.photoCounts(db, rows.map((r) => r.id));
    const names = new Map<number, string>();
    for (const p of new Set(rows.map((r) => r.project_id))) names.set(p, await projects.projectName(p));
    return rows.map((r) => ({
      id: r.id, repairNo: repairNo(r), projectId: r.project_id, projectName: names.get(r.project_id) ?? '', deviceId: r.device_id, deviceName: r.device_name,
      deviceCode: r.device_code, location: r.location, fault: r.fault, reporter: r.reporter, phone: r.phone, priority: r.priority as RepairPriority,
      status: r.status as RepairStatus, assigneeId: r.assignee_id, assigneeName: r.assignee_name, result: r.result, createdBy: r.created_by,
      createdAt: r.created_at, updatedAt: r.updated_at, finishedAt: r.finished_at, photoCount: counts.get(r.id) ?? 0,
    }));
  }

  const photoDto = (p: PhotoRow): RepairPhotoDto => ({ id: p.id, name: p.name, size: p.size, mime: p.mime, uploadedBy: p.uploaded_by, createdAt: p.created_at });

  async function event(trx: Trx, r: Pick<RepairRow, 'id' | 'tenant_id'>, a: Actor | null, action: RepairAction, e: { from?: string | null; to?: string | null; note?: string | null; at?: number } = {}) {
    await trx.insertInto('repair_event').values({
      tenant_id: r.tenant_id, repair_id: r.id, action, from_status: e.from ?? null, to_status: e.to ?? null, note: e.note?.slice(0, 500) || null,
      actor_id: a?.user.id ?? null, actor_name: a ? actorName(a).slice(0, 64) : null, at: e.at ?? Date.now(),
    }).execute();
  }

  /** The device of a report: one of the project's devices (its name and code kept as they were then). */
  async function deviceOf(scope: Scope, projectId: number, deviceId: number | null | undefined) {
    if (!deviceId) return { device_id: null, device_name: null, device_code: null };
    const d = await devices.deviceById(scope, deviceId);
    if (!d || d.project_id !== projectId) throw invalid('设备不存在或不属于该项目', ['deviceId']);
    return { device_id: d.id, device_name: d.device_name, device_code: d.device_code };
  }

  /** A state move: allowed from the current state (REPAIR_MOVES), decided by a compare-and-set on the status. */
  async function move(a: Actor, id: number, action: 'assign' | 'finish' | 'close', patch: (r: RepairRow) => Partial<RepairRow> & { status: RepairStatus }, note: string | null) {
    const r = await record(a.scope, id);
    const from = r.status as RepairStatus;
    if (!REPAIR_MOVES[from].includes(action)) {
      throw conflict(`维修记录${REPAIR_STATUS[from]}，不能${REPAIR_ACTIONS[action]}${REPAIR_MOVES[from].length ? '' : '（已是最终状态）'}`);
    }
    const now = Date.now();
    const next = patch(r);
    await db.transaction().execute(async (trx) => {
      const won = await trx.updateTable('repair_record').set({ ...next, updated_at: now }).where('id', '=', r.id).where('status', '=', from).returning('id').executeTakeFirst();
      if (!won) throw conflict('维修记录刚被他人处理，请刷新后重试');
      const kind: RepairAction = action === 'assign' && from === 'processing' ? 'reassign' : action;
      await event(trx, r, a, kind, { from, to: next.status, note, at: now });
    });
    return service.get(a, r.id);
  }

  function filtered(scope: Scope, q: RepairQuery) {
    let query = repo.recordsOf(db, scope);
    if (q.projectId) query = query.where('project_id', '=', q.projectId);
    if (q.status) query = query.where('status', '=', q.status);
    if (q.priority) query = query.where('priority', '=', q.priority);
    if (q.assigneeId) query = query.where('assignee_id', '=', q.assigneeId);
    if (q.startTime !== undefined) query = query.where('created_at', '>=', q.startTime);
    if (q.endTime !== undefined) query = query.where('created_at', '<', q.endTime);
    if (q.keyword) {
      const like = repo.likeText(q.keyword);
      query = query.where((eb) => eb.or([
        eb('fault', 'like', like), eb('location', 'like', like), eb('reporter', 'like', like), eb('phone', 'like', like),
        eb('device_name', 'like', like), eb('device_code', 'like', like), eb('assignee_name', 'like', like),
      ]));
    }
    return query;
  }

  const service = {
    async list(a: Actor, q: RepairQuery) {
      const page = await paginate(filtered(a.scope, q).selectAll(), q, (b) => b.orderBy('created_at', 'desc').orderBy('id', 'desc'));
      return { total: page.total, rows: await toDtos(page.rows) };
    },

    /** Every record the filter selects, newest first, in batches (the export). */
    exportRows: (a: Actor, q: RepairQuery): AsyncGenerator<RepairDto> => byIdDescending(async (before, limit) => {
      let query = filtered(a.scope, q).selectAll().orderBy('id', 'desc').limit(limit);
      if (before !== null) query = query.where('id', '<', before);
      return toDtos(await query.execute());
    }, 500),

    async get(a: Actor, id: number): Promise<RepairDetailDto> {
      const r = await record(a.scope, id);
      const [[dto], photos, events] = await Promise.all([toDtos([r]), repo.photosOf(db, r.id), repo.eventsOf(db, r.id)]);
      return {
        ...dto,
        photos: photos.map(photoDto),
        events: events.map((e) => ({
          id: e.id, action: e.action as RepairAction, actionLabel: REPAIR_ACTIONS[e.action as RepairAction] ?? e.action, fromStatus: e.from_status as RepairStatus | null,
          toStatus: e.to_status as RepairStatus | null, note: e.note, actorName: e.actor_name, at: e.at,
        })),
      };
    },

    async create(a: Actor, b: RepairCreate, at = Date.now()): Promise<RepairDetailDto> {
      const p = await projects.project(a.scope, b.projectId);
      const dev = await deviceOf(a.scope, p.id, b.deviceId);
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('repair_record').values({
          tenant_id: p.tenant_id, project_id: p.id, ...dev, location: b.location || null, fault: b.fault, reporter: b.reporter, phone: b.phone || null,
          priority: b.priority, status: 'pending', assignee_id: null, assignee_name: null, result: null, created_by: actorName(a).slice(0, 64),
          created_at: at, updated_at: at, finished_at: null,
        }).returning(['id', 'tenant_id']).executeTakeFirstOrThrow();
        await event(trx, row, a, 'create', { to: 'pending', note: b.fault, at });
        return row.id;
      });
      return service.get(a, id);
    },

    /** The report itself (device or location, fault, reporter, priority), while the record is open. */
    async update(a: Actor, id: number, b: RepairUpdate): Promise<RepairDetailDto> {
      const r = await record(a.scope, id);
      if (r.status === 'done' || r.status === 'closed') throw conflict(`维修记录${REPAIR_STATUS[r.status as RepairStatus]}，不能再修改`);
      const dev = b.deviceId === r.device_id ? { device_id: r.device_id, device_name: r.device_name, device_code: r.device_code } : await deviceOf(a.scope, r.project_id, b.deviceId);
      await db.transaction().execute(async (trx) => {
        const won = await trx.updateTable('repair_record').set({
          ...dev, location: b.location || null, fault: b.fault, reporter: b.reporter, phone: b.phone || null, priority: b.priority, updated_at: Date.now(),
        }).where('id', '=', r.id).where('status', '=', r.status).returning('id').executeTakeFirst();
        if (!won) throw conflict('维修记录刚被他人处理，请刷新后重试');
        await event(trx, r, a, 'edit');
      });
      return service.get(a, r.id);
    },

    /** 派单 (待派单 → 处理中) or 改派 (处理中, another person): to a user of the tenant who sees the project. */
    async assign(a: Actor, id: number, b: RepairAssign) {
      const r = await record(a.scope, id);
      const who = await repo.assignees(db, r.tenant_id, r.project_id).where('id', '=', b.assigneeId).executeTakeFirst();
      if (!who) throw invalid('维修人员不存在，或看不到该项目', ['assigneeId']);
      if (r.status === 'processing' && r.assignee_id === who.id) throw conflict(`已派给${who.name || who.username}`);
      const name = (who.name || who.username).slice(0, 64);
      return move(a, id, 'assign', () => ({ status: 'processing', assignee_id: who.id, assignee_name: name }), `派给 ${name}${b.note ? `：${b.note}` : ''}`);
    },

    /** 完成 (处理中 → 已完成), with the result if given. */
    finish(a: Actor, id: number, result: string | undefined) {
      return move(a, id, 'finish', () => ({ status: 'done', result: result || null, finished_at: Date.now() }), result || null);
    },

    /** 关闭 (待派单 or 处理中 → 已关闭): needs the reason (a duplicate, not a fault, …). */
    close(a: Actor, id: number, result: string) {
      if (!result.trim()) throw invalid('请填写关闭原因', ['result']);
      return move(a, id, 'close', () => ({ status: 'closed', result, finished_at: Date.now() }), result);
    },

    /** Deletes records with their photos and timeline. */
    async remove(a: Actor, ids: number[]) {
      const rows = await Promise.all([...new Set(ids)].map((id) => record(a.scope, id)));
      const photos = rows.length ? await db.selectFrom('repair_photo').selectAll().where('repair_id', 'in', rows.map((r) => r.id)).execute() : [];
      await db.transaction().execute(async (trx) => {
        const list = rows.map((r) => r.id);
        await trx.deleteFrom('repair_event').where('repair_id', 'in', list).execute();
        await trx.deleteFrom('repair_photo').where('repair_id', 'in', list).execute();
        await trx.deleteFrom('repair_record').where('id', 'in', list).execute();
      });
      for (const p of photos) fs.rmSync(storedPath(p), { force: true });
      return { deleted: rows.length };
    },

    /** Streams one photo to disk: jpg or png by its bytes, ≤ 5 MB (the multipart limit), ≤ 9 per record. */
    async addPhoto(a: Actor, id: number, upload: PhotoUpload): Promise<RepairPhotoDto> {
      const r = await record(a.scope, id);
      const count = (await repo.photoCounts(db, [r.id])).get(r.id) ?? 0;
      const refuse = (msg: string) => {
        upload.file.resume();
        return invalid(msg, ['file']);
      };
      if (count >= REPAIR_PHOTO_MAX_COUNT) throw refuse(`每条维修记录最多 ${REPAIR_PHOTO_MAX_COUNT} 张照片`);
      if (!(REPAIR_PHOTO_TYPES as readonly string[]).includes(upload.mimetype)) throw refuse('照片只能是 JPG 或 PNG 图片');
      const name = cleanFileName(upload.filename) || 'photo';
      const { storedName, target, size, discard } = await storeUpload(root, r.tenant_id, upload, '照片超过 5 MB，未保存');
      const fd = fs.openSync(target, 'r');
      const head = Buffer.alloc(8);
      const read = fs.readSync(fd, head, 0, 8, 0);
      fs.closeSync(fd);
      const kind = sniffImage(head.subarray(0, read));
      if (!kind) {
        discard();
        throw invalid('文件内容不是 JPG 或 PNG 图片', ['file']);
      }
      try {
        return await db.transaction().execute(async (trx) => {
          // the count again inside the write: two uploads racing for the ninth place
          const n = await trx.selectFrom('repair_photo').select((eb) => eb.fn.countAll<number>().as('n')).where('repair_id', '=', r.id).executeTakeFirst();
          if (Number(n?.n ?? 0) >= REPAIR_PHOTO_MAX_COUNT) throw invalid(`每条维修记录最多 ${REPAIR_PHOTO_MAX_COUNT} 张照片`, ['file']);
          const row = await trx.insertInto('repair_photo').values({
            tenant_id: r.tenant_id, repair_id: r.id, name, stored_name: storedName, size, mime: kind, uploaded_by: actorName(a).slice(0, 64), created_at: Date.now(),
          }).returningAll().executeTakeFirstOrThrow();
          await event(trx, r, a, 'photo', { note: name });
          return photoDto(row);
        });
      } catch (err) {
        discard();
        throw err;
      }
    },

    async openPhoto(a: Actor, photoId: number) {
      const p = await db.selectFrom('repair_photo').selectAll().where('id', '=', photoId).executeTakeFirst();
      if (!p) throw notFound('照片');
      await record(a.scope, p.repair_id).catch(() => {
        throw notFound('照片');
      });
      const file = storedPath(p);
      if (!fs.existsSync(file)) throw notFound('照片内容');
      return { name: p.name, size: p.size, mime: p.mime, stream: fs.createReadStream(file) };
    },

    async removePhoto(a: Actor, photoId: number) {
      const p = await db.selectFrom('repair_photo').selectAll().where('id', '=', photoId).executeTakeFirst();
      if (!p) throw notFound('照片');
      const r = await record(a.scope, p.repair_id).catch(() => {
        throw notFound('照片');
      });
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('repair_photo').where('id', '=', p.id).execute();
        await event(trx, r, a, 'photo_remove', { note: p.name });
      });
      fs.rmSync(storedPath(p), { force: true });
      return null;
    },

    /** Who may take a repair of the project. */
    async assignees(a: Actor, projectId: number): Promise<RepairAssigneeDto[]> {
      const p = await projects.project(a.scope, projectId);
      return (await repo.assignees(db, p.tenant_id, p.id).execute()).map((u) => ({ id: u.id, name: u.name || u.username, username: u.username }));
    },

    /** The project's devices to report a fault on (by name or code, at most 50). */
    async devices(a: Actor, projectId: number, keyword?: string): Promise<RepairDeviceDto[]> {
      const p = await projects.project(a.scope, projectId);
      let q = devices.scopedDevices(a.scope).selectAll().where('project_id', '=', p.id);
      if (keyword) q = q.where((eb) => eb.or([eb('device_name', 'like', repo.likeText(keyword)), eb('device_code', 'like', repo.likeText(keyword))]));
      const rows = await q.orderBy('device_name').orderBy('id').limit(50).execute();
      const full = await devices.toRows(a.scope, rows);
      return full.map((d) => ({ id: d.id, name: d.deviceName, code: d.deviceCode, deviceType: d.deviceType, areaPath: d.areaPath || null }));
    },
  };
  return service;
}

export type RepairService = ReturnType<typeof createRepairService>;
