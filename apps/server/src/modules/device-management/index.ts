import type { FastifyInstance } from 'fastify';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { Scope } from '../../lib/scope.ts';
import type { MqttHub } from '../../plugins/mqtt.ts';
import { GATEWAY_TYPES, type DeviceCore } from '../devices/index.ts';
import { IMPORT_MODELS } from '../imports/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { createAddressChangeService } from './address.ts';
import { createDeviceCardService } from './cards.ts';
import { createDeviceGroupService } from './groups.ts';
import { managementRoutes } from './management-routes.ts';
import { createMqttSettingService } from './mqtt-setting.ts';
import { createOnlineStats } from './online.ts';
import { deviceManagementRoutes } from './routes.ts';
import { createDeviceManagementService } from './service.ts';

/**
 * Device management, a consumer of the device core: placing devices in rooms, moving, storage, replacement, 4G
 * devices and SIM cards, groups, batch parameters, bind records, imports, address changes, MQTT settings, online
 * statistics and QR labels. It owns its own tables; device rows change only through the core.
 */
export function createDeviceManagement(deps: { db: Db; projects: ProjectService; core: DeviceCore; mqtt: MqttHub | null; mqttUrl?: string }) {
  const { db, projects, core } = deps;
  const devices = core.devices;
  const admin = createDeviceManagementService({ db, projects, devices });
  const groups = createDeviceGroupService({ db, projects, devices });
  const cards = createDeviceCardService({ db, projects, admin, devices });

  return {
    admin,
    groups,
    cards,

    /** Devices of device groups (the scheduler's targets; a group's project is checked by the caller's device query). */
    async groupMembers(groupIds: number[]): Promise<number[]> {
      if (!groupIds.length) return [];
      const rows = await db.selectFrom('device_group_member').select('device_id').where('group_id', 'in', groupIds).execute();
      return [...new Set(rows.map((r) => r.device_id))];
    },

    /** The export's second sheet is the areaDevice template: edit it and import it into another project. */
    async exportSheet(scope: Scope, areaIds: number[]) {
      if (!areaIds.length) return null;
      const rows = await devices.scopedDevices(scope).selectAll().where('area_id', 'in', areaIds).orderBy('device_code').execute();
      if (!rows.length) return null;
      const named = await devices.toRows(scope, rows);
      const gatewayCodes = new Map(rows.filter((r) => GATEWAY_TYPES.has(r.device_type)).map((r) => [r.id, r.device_code]));
      const model = IMPORT_MODELS.areaDevice;
      return {
        name: '设备',
        columns: model.columns.map((c) => (c.required ? `${c.title}*` : c.title)),
        rows: named.map((d, i) => {
          const [building = null, floor = null, room = null] = d.areaPath ? d.areaPath.split(' / ') : [];
          return [building, floor, room, DEVICE_TYPE_BY_CODE.get(d.deviceType)?.code ?? d.deviceType, d.deviceCode, d.deviceName,
            rows[i].gateway_id ? gatewayCodes.get(rows[i].gateway_id!) ?? null : null, null];
        }),
      };
    },

    async routes(app: FastifyInstance) {
      await app.register(deviceManagementRoutes, { admin, groups, cards, core, projects });
      await app.register(managementRoutes, {
        admin,
        devices,
        online: createOnlineStats({ projects, core }),
        addresses: createAddressChangeService({ db, projects, devices }),
        mqttSettings: createMqttSettingService({ db, projects, mqtt: deps.mqtt, mqttUrl: deps.mqttUrl }),
        projects,
      });
    },
  };
}

export type DeviceManagement = ReturnType<typeof createDeviceManagement>;
