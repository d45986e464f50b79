import type { FastifyReply, FastifyRequest } from 'fastify';
import { accountPhone, idNumber, type AccountImportResult, type ImportModel } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { XLSX_MIME, asDownload } from '../../lib/download.ts';
import type { Actor } from '../../lib/scope.ts';
import { RowErrors, buildTemplate, importColumn, readRows, uploadedFile } from '../imports/index.ts';
import type { ProjectService } from '../projects/index.ts';
import * as repo from './repository.ts';

/** The account import template (userRegister_n): one row per account, rooms as 楼栋/楼层/房间 paths joined by 、. */
export const ACCOUNT_IMPORT_MODEL = {
  modelType: 'account',
  name: '账户导入模板',
  importPath: '/api/v1/account/import',
  columns: [
    importColumn('name', '户名', true, '住户姓名或企业名称，最多 60 个字符', '张三'),
    importColumn('phone', '手机号', true, '11 位手机号', '13800138000'),
    importColumn('kind', '类型', false, '住户或企业，默认住户', '住户'),
    importColumn('idNumber', '证件号码', false, '18 位身份证号或统一社会信用代码', ''),
    importColumn('rooms', '房间', false, '楼栋/楼层/房间，多个用、分隔；一个房间只能属于一个在用账户', '1号楼/1层/101'),
    importColumn('moveInDate', '入住日期', false, 'YYYY-MM-DD', '2026-09-01'),
    importColumn('remark', '备注', false, '最多 200 个字符', ''),
  ],
} as unknown as ImportModel;

export function createAccountImports(deps: { db: Db; projects: ProjectService }) {
  const { db, projects } = deps;
  return {
    async template(reply: FastifyReply) {
      const buffer = await buildTemplate(ACCOUNT_IMPORT_MODEL, { kind: ['住户', '企业'] });
      return asDownload(reply, '账户导入模板.xlsx', XLSX_MIME).send(buffer);
    },

    /** All or nothing: every row is checked (and every room) before one transaction writes them all. */
    async run(actor: Actor, projectId: number, req: FastifyRequest): Promise<AccountImportResult> {
      const p = await projects.project(actor.scope, projectId);
      const rows = await readRows(await uploadedFile(req), ACCOUNT_IMPORT_MODEL);
      const areas = (await projects.visibleAreaRows(actor.scope)).filter((a) => a.tenant_id === p.tenant_id);
      const byId = new Map(areas.map((a) => [a.id, a]));
      const pathOf = (id: number): string[] => {
        const out: string[] = [];
        for (let a = byId.get(id); a && a.level !== 'project'; a = a.parent_id ? byId.get(a.parent_id) : undefined) out.unshift(a.name);
        return out;
      };
      const inProject = (id: number) => {
        for (let a = byId.get(id); a; a = a.parent_id ? byId.get(a.parent_id) : undefined) if (a.id === p.id) return true;
        return false;
      };
      const rooms = new Map(areas.filter((a) => a.level === 'room' && inProject(a.id)).map((a) => [pathOf(a.id).join('/'), a.id]));
      const errors = new RowErrors();
      const claimed = new Map<number, number>();
      const planned: { name: string; phone: string; kind: string; idNumber: string | null; roomIds: number[]; moveInDate: string | null; remark: string | null }[] = [];
      for (const { row, values: v } of rows) {
        const name = v.name.trim();
        if (!name || name.length > 60) errors.add(row, '户名', '请填写户名（最多 60 个字符）');
        const phone = accountPhone.safeParse(v.phone);
        if (!phone.success) errors.add(row, '手机号', '手机号格式不正确（11 位手机号）');
        const kind = !v.kind || v.kind === '住户' ? 'resident' : v.kind === '企业' ? 'company' : null;
        if (!kind) errors.add(row, '类型', '类型只能是住户或企业');
        const id = idNumber.safeParse(v.idNumber);
        if (!id.success) errors.add(row, '证件号码', '证件号码须为 18 位');
        if (v.moveInDate && !/^\d{4}-\d{2}-\d{2}$/.test(v.moveInDate)) errors.add(row, '入住日期', '日期格式为 YYYY-MM-DD');
        if (v.remark.length > 200) errors.add(row, '备注', '备注最多 200 个字符');
        const roomIds: number[] = [];
        for (const path of v.rooms.split(/[、,，]/).map((s) => s.trim()).filter(Boolean)) {
          const roomId = rooms.get(path.split('/').map((s) => s.trim()).join('/'));
          if (!roomId) {
            errors.add(row, '房间', `项目中没有房间「${path}」`);
            continue;
          }
          const other = claimed.get(roomId);
          if (other) errors.add(row, '房间', `房间「${path}」与第 ${other} 行重复`);
          claimed.set(roomId, row);
          roomIds.push(roomId);
        }
        planned.push({ name, phone: phone.data ?? '', kind: kind ?? 'resident', idNumber: id.data || null, roomIds, moveInDate: v.moveInDate || null, remark: v.remark || null });
      }
      const taken = await repo.takenRooms(db, [...claimed.keys()]);
      for (const t of taken) errors.add(claimed.get(t.room_id)!, '房间', `房间「${pathOf(t.room_id).join('/')}」已被在用账户 ${t.account_id} 登记`);
      if (errors.any) errors.fail(rows.length);
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        for (const a of planned) {
          const acc = await trx.insertInto('account').values({
            tenant_id: p.tenant_id, project_id: p.id, kind: a.kind, name: a.name, phone: a.phone, id_number: a.idNumber, move_in_date: a.moveInDate, status: 'active',
            balance_fen: 0, deposit_fen: 0, group_id: null, remark: a.remark, created_at: now, closed_at: null,
          }).returning('id').executeTakeFirstOrThrow();
          if (a.roomIds.length) {
            await trx.insertInto('account_room').values(a.roomIds.map((room_id) => ({ tenant_id: p.tenant_id, account_id: acc.id, room_id, active: 1, created_at: now, released_at: null }))).execute();
          }
        }
      });
      return { rows: rows.length, created: planned.length };
    },
  };
}

export type AccountImports = ReturnType<typeof createAccountImports>;
