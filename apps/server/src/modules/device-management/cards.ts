import type { DeviceCardBody } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { conflict } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { Scope } from '../../lib/scope.ts';
import { codeOrNameLike, type DeviceService } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { CELLULAR_TYPES, type DeviceManagementService } from './service.ts';

/** deviceCardInfoList: the SIM card of each 4G device (ICCID, carrier, package end, data used). */
export function createDeviceCardService(deps: { db: Db; projects: ProjectService; admin: DeviceManagementService; devices: DeviceService }) {
  const { db } = deps;

  /** One ICCID belongs to one device of the tenant. */
  async function check(tenantId: number, deviceCode: string, iccid: string) {
    const other = await db.selectFrom('device_card').select('device_code').where('tenant_id', '=', tenantId).where('iccid', '=', iccid)
      .where('device_code', '!=', deviceCode).executeTakeFirst();
    if (other) throw conflict(`ICCID ${iccid} 已绑定设备「${other.device_code}」`);
  }

  return {
    check,

    async list(scope: Scope, q: { projectId: number; keyword?: string; packageLimitDays?: number; hasCard?: '0' | '1'; pageNo: number; pageSize: number }) {
      const p = await deps.projects.project(scope, q.projectId);
      let query = deps.devices.scopedDevices(scope).selectAll().where('project_id', '=', p.id).where('device_type', 'in', CELLULAR_TYPES);
      const cardsOfTenant = db.selectFrom('device_card').select('device_code').where('tenant_id', '=', p.tenant_id);
      if (q.hasCard) query = query.where('device_code', q.hasCard === '1' ? 'in' : 'not in', cardsOfTenant);
      if (q.packageLimitDays !== undefined) {
        const until = Date.now() + (q.packageLimitDays + 1) * 86_400_000;
        query = query.where('device_code', 'in', cardsOfTenant.where('package_end', 'is not', null).where('package_end', '<', until));
      }
      if (q.keyword) {
        query = query.where((eb) => eb.or([
          codeOrNameLike(q.keyword!),
          eb('device_code', 'in', eb.selectFrom('device_card').select('device_code').where('tenant_id', '=', p.tenant_id).where('iccid', 'like', `%${q.keyword}%`)),
        ]));
      }
      const page = await paginate(query, q, (b) => b.orderBy('device_code'));
      return { total: page.total, rows: await deps.admin.rowsOf(scope, page.rows) };
    },

    /** Registers or changes the card of a device the caller can see. */
    async save(scope: Scope, card: DeviceCardBody) {
      const device = await deps.admin.deviceByCode(scope, card.deviceCode);
      await check(device.tenant_id, device.device_code, card.iccid);
      const values = {
        iccid: card.iccid, carrier: card.carrier, activated_at: card.activatedAt ?? null, package_end: card.packageEnd ?? null,
        data_limit_mb: card.dataLimitMb ?? null, data_used_mb: card.dataUsedMb ?? null, updated_at: Date.now(),
      };
      const existing = await db.selectFrom('device_card').select('id').where('tenant_id', '=', device.tenant_id).where('device_code', '=', device.device_code).executeTakeFirst();
      if (existing) await db.updateTable('device_card').set(values).where('id', '=', existing.id).execute();
      else await db.insertInto('device_card').values({ tenant_id: device.tenant_id, device_code: device.device_code, ...values }).execute();
      return (await deps.admin.rowsOf(scope, [device]))[0];
    },

    async remove(scope: Scope, deviceCode: string) {
      const device = await deps.admin.deviceByCode(scope, deviceCode);
      await db.deleteFrom('device_card').where('tenant_id', '=', device.tenant_id).where('device_code', '=', device.device_code).execute();
    },
  };
}

export type DeviceCardService = ReturnType<typeof createDeviceCardService>;
