import {
  ADDRESS_CHANGE_STATUS_LABELS, DEVICE_TYPE_BY_CODE, type AddressChangeRow, type AddressChangeStatus,
} from '@kelvin/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DeviceAddressChangeTable } from '../../db/schema.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { Scope } from '../../lib/scope.ts';
import type { ProjectService } from '../projects/index.ts';
import type { Actor } from '../../lib/scope.ts';
import { codeOrNameLike, type DeviceService } from '../devices/index.ts';

type ChangeRow = Selectable<DeviceAddressChangeTable>;

/**
 * dodifyDeviceIP_n: the server address a device should report to. No device type's registry entry has a
 * server-address field, so nothing can be sent to the device: each request is recorded per device with its status
 * (requested → confirmed by the person who rewrote it on site, or cancelled). Nothing here pretends the device
 * acknowledged anything. A new request for a device supersedes its open one.
 */
export function createAddressChangeService(deps: { db: Db; projects: ProjectService; devices: DeviceService }) {
  const { db } = deps;

  async function toRows(scope: Scope, rows: ChangeRow[]): Promise<AddressChangeRow[]> {
    const ids = rows.map((r) => r.device_id).filter((v): v is number => v !== null);
    const live = ids.length ? await deps.devices.scopedDevices(scope).select(['id', 'online_until', 'last_report_at']).where('id', 'in', ids).execute() : [];
    const byId = new Map(live.map((d) => [d.id, d]));
    const now = Date.now();
    return rows.map((r) => {
      const d = r.device_id === null ? undefined : byId.get(r.device_id);
      const status = r.status as AddressChangeStatus;
      return {
        id: r.id, deviceId: r.device_id, deviceCode: r.device_code, deviceName: r.device_name, deviceType: r.device_type,
        typeName: DEVICE_TYPE_BY_CODE.get(r.device_type)?.name ?? r.device_type, host: r.host, port: r.port, status,
        statusLabel: ADDRESS_CHANGE_STATUS_LABELS[status] ?? r.status, remark: r.remark, requestedBy: r.requested_by, requestedAt: r.requested_at,
        closedBy: r.closed_by, closedAt: r.closed_at, online: d ? (d.online_until ?? 0) > now : null, lastReportAt: d ? d.last_report_at : null,
      };
    });
  }

  return {
    async request(a: Actor, body: { projectId: number; deviceIds: number[]; host: string; port: number; remark?: string }) {
      const p = await deps.projects.project(a.scope, body.projectId);
      const ids = [...new Set(body.deviceIds)];
      const devices = await deps.devices.scopedDevices(a.scope).selectAll().where('id', 'in', ids).where('project_id', '=', p.id).execute();
      const found = new Set(devices.map((d) => d.id));
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) throw invalid(`设备 ${missing} 不存在或不属于该项目`, ['deviceIds']);
      const now = Date.now();
      const created = await db.transaction().execute(async (trx) => {
        await trx.updateTable('device_address_change')
          .set({ status: 'cancelled', closed_by: a.user.username, closed_at: now, remark: '被新的登记取代' })
          .where('project_id', '=', p.id).where('device_id', 'in', ids).where('status', '=', 'requested').execute();
        return trx.insertInto('device_address_change').values(devices.map((d) => ({
          tenant_id: d.tenant_id, project_id: d.project_id, device_id: d.id, device_code: d.device_code, device_name: d.device_name,
          device_type: d.device_type, host: body.host, port: body.port, status: 'requested', remark: body.remark || null,
          requested_by: a.user.username, requested_at: now, closed_by: null, closed_at: null,
        }))).returningAll().execute();
      });
      return { created: created.length, rows: await toRows(a.scope, created) };
    },

    async list(scope: Scope, q: { projectId: number; status?: AddressChangeStatus; keyword?: string; pageNo: number; pageSize: number }) {
      const p = await deps.projects.project(scope, q.projectId);
      let query = db.selectFrom('device_address_change').selectAll().where('project_id', '=', p.id);
      if (q.status) query = query.where('status', '=', q.status);
      if (q.keyword) query = query.where(codeOrNameLike(q.keyword));
      const page = await paginate(query, q, (b) => b.orderBy('requested_at', 'desc').orderBy('id', 'desc'));
      return { total: page.total, rows: await toRows(scope, page.rows) };
    },

    /** Confirmed (rewritten on site) or cancelled; only an open request can be closed. */
    async close(a: Actor, id: number, body: { status: 'confirmed' | 'cancelled'; remark?: string }) {
      const row = await db.selectFrom('device_address_change').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('登记');
      await deps.projects.project(a.scope, row.project_id).catch(() => {
        throw notFound('登记');
      });
      if (row.status !== 'requested') throw conflict(`该登记${ADDRESS_CHANGE_STATUS_LABELS[row.status as AddressChangeStatus] ?? '已处理'}，不能再修改`);
      const updated = await db.updateTable('device_address_change')
        .set({ status: body.status, closed_by: a.user.username, closed_at: Date.now(), ...(body.remark ? { remark: body.remark } : {}) })
        .where('id', '=', row.id).where('status', '=', 'requested').returningAll().executeTakeFirst();
      if (!updated) throw conflict('该登记已被他人处理');
      return (await toRows(a.scope, [updated]))[0];
    },
  };
}

export type AddressChangeService = ReturnType<typeof createAddressChangeService>;
