import type { DeviceGroup } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { Scope } from '../../lib/scope.ts';
import type { DeviceService } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';

/** devicegroup: named sets of devices of one project (used by batch writes, tasks and reports). */
export function createDeviceGroupService(deps: { db: Db; projects: ProjectService; devices: DeviceService }) {
  const { db, projects } = deps;

  async function group(scope: Scope, id: number) {
    const row = await db.selectFrom('device_group').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('分组');
    await projects.project(scope, row.project_id).catch(() => {
      throw notFound('分组');
    });
    return row;
  }

  async function uniqueName(projectId: number, name: string, exceptId?: number) {
    let q = db.selectFrom('device_group').select('id').where('project_id', '=', projectId).where('name', '=', name);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw conflict(`分组「${name}」已存在`);
  }

  return {
    group,

    async list(scope: Scope, projectId: number): Promise<DeviceGroup[]> {
      const p = await projects.project(scope, projectId);
      const rows = await db.selectFrom('device_group as g')
        .leftJoin('device_group_member as m', 'm.group_id', 'g.id')
        .select((eb) => ['g.id', 'g.project_id', 'g.name', 'g.remark', 'g.created_at', eb.fn.count<number>('m.device_id').as('n')])
        .where('g.project_id', '=', p.id)
        .groupBy(['g.id', 'g.project_id', 'g.name', 'g.remark', 'g.created_at'])
        .orderBy('g.id')
        .execute();
      return rows.map((r) => ({ id: r.id, projectId: r.project_id, name: r.name, remark: r.remark, deviceCount: Number(r.n), createdAt: r.created_at }));
    },

    async create(scope: Scope, body: { projectId: number; name: string; remark?: string | null }) {
      const p = await projects.project(scope, body.projectId);
      await uniqueName(p.id, body.name);
      const row = await db.insertInto('device_group').values({ tenant_id: p.tenant_id, project_id: p.id, name: body.name, remark: body.remark || null, created_at: Date.now() })
        .returning('id').executeTakeFirstOrThrow();
      return { id: row.id };
    },

    async update(scope: Scope, id: number, patch: { name?: string; remark?: string | null }) {
      const g = await group(scope, id);
      if (patch.name !== undefined && patch.name !== g.name) await uniqueName(g.project_id, patch.name, g.id);
      await db.updateTable('device_group').set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.remark !== undefined && { remark: patch.remark || null }),
      }).where('id', '=', g.id).execute();
      return { id: g.id };
    },

    async remove(scope: Scope, id: number) {
      const g = await group(scope, id);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('device_group_member').where('group_id', '=', g.id).execute();
        await trx.deleteFrom('device_group').where('id', '=', g.id).execute();
      });
    },

    /** Adds and removes members; every added device must be one of the group's project. */
    async members(scope: Scope, id: number, change: { add: number[]; remove: number[] }) {
      const g = await group(scope, id);
      const add = [...new Set(change.add)];
      if (add.length) {
        const found = await deps.devices.scopedDevices(scope).select(['id']).where('id', 'in', add).where('project_id', '=', g.project_id).execute();
        const ok = new Set(found.map((f) => f.id));
        const bad = add.find((d) => !ok.has(d));
        if (bad !== undefined) throw invalid(`设备 ${bad} 不存在或不属于该分组的项目`, ['add']);
      }
      await db.transaction().execute(async (trx) => {
        if (change.remove.length) await trx.deleteFrom('device_group_member').where('group_id', '=', g.id).where('device_id', 'in', change.remove).execute();
        if (add.length) {
          const have = new Set((await trx.selectFrom('device_group_member').select('device_id').where('group_id', '=', g.id).where('device_id', 'in', add).execute()).map((r) => r.device_id));
          const rows = add.filter((d) => !have.has(d)).map((d) => ({ group_id: g.id, device_id: d }));
          for (let i = 0; i < rows.length; i += 500) await trx.insertInto('device_group_member').values(rows.slice(i, i + 500)).execute();
        }
      });
      const n = await db.selectFrom('device_group_member').select((eb) => eb.fn.countAll<number>().as('n')).where('group_id', '=', g.id).executeTakeFirstOrThrow();
      return { id: g.id, deviceCount: Number(n.n) };
    },

    /** group/groupDeviceListByType/{id}?type=: the group's devices, optionally of one type, by page. */
    async devicesOf(scope: Scope, id: number, q: { type?: string; pageNo: number; pageSize: number }) {
      const g = await group(scope, id);
      let query = deps.devices.scopedDevices(scope).selectAll()
        .where('id', 'in', (eb) => eb.selectFrom('device_group_member').select('device_id').where('group_id', '=', g.id));
      if (q.type) query = query.where('device_type', '=', q.type);
      const page = await paginate(query, q, (b) => b.orderBy('device_code'));
      return { total: page.total, rows: await deps.devices.toRows(scope, page.rows) };
    },
  };
}

export type DeviceGroupService = ReturnType<typeof createDeviceGroupService>;
