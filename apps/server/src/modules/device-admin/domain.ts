import type { FastifyInstance } from 'fastify';
import { DEVICE_TYPE_BY_CODE } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { MqttHub } from '../../plugins/mqtt.ts';
import type { DeviceDomain } from '../devices/domain.ts';
import type { ImportService } from '../imports/service.ts';
import { IMPORT_MODELS } from '../imports/models.ts';
import type { ProjectService } from '../projects/service.ts';
import { createFactoryTestService } from '../factory-test/service.ts';
import { factoryTestRoutes } from '../factory-test/routes.ts';
import { createAddressChangeService } from './address.ts';
import { createDeviceCardService } from './cards.ts';
import { createDeviceGroupService } from './groups.ts';
import { managementRoutes } from './management-routes.ts';
import { createMqttSettingService } from './mqtt-setting.ts';
import { createOnlineStats } from './online.ts';
import * as repo from './repository.ts';
import { deviceAdminRoutes } from './routes.ts';
import { GATEWAY_TYPES, createDeviceAdminService } from './service.ts';

/**
 * Device management (issue 5) wired to the devices domain, and made known to the projects domain: areas holding
 * devices cannot be deleted, project figures count devices and online devices, the area export lists devices.
 */
export function createDeviceAdmin(deps: { db: Db; projects: ProjectService; deviceDomain: DeviceDomain; imports: ImportService; mqtt: MqttHub | null }) {
  const { db, projects } = deps;
  const { devices, directory, commands } = deps.deviceDomain;
  const admin = createDeviceAdminService({ db, projects, devices, directory, mqtt: deps.mqtt });
  const groups = createDeviceGroupService({ db, projects, devices });
  const cards = createDeviceCardService({ db, projects, admin });

  projects.registerHolding({ what: '台设备', count: (areaId) => repo.devicesOnArea(db, areaId) });
  projects.registerStats(async (projectIds) => {
    const counts = await repo.projectDeviceCounts(db, projectIds, Date.now());
    return new Map(projectIds.map((id) => [id, counts.get(id) ?? { devices: 0, online: 0 }]));
  });
  // The export's second sheet is the areaDevice template: edit it and import it into another project.
  deps.imports.registerExportSheet(async (scope, areaIds) => {
    if (!areaIds.length) return null;
    const rows = await repo.scopedDevices(db, scope).selectAll().where('area_id', 'in', areaIds).orderBy('device_code').execute();
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
  });

  return {
    admin,
    groups,
    cards,
    async routes(app: FastifyInstance) {
      await app.register(deviceAdminRoutes, { admin, groups, cards, devices, commands, projects });
      await app.register(managementRoutes, {
        admin,
        online: createOnlineStats({ db, projects }),
        addresses: createAddressChangeService({ db, projects }),
        mqttSettings: createMqttSettingService({ db, projects, mqtt: deps.mqtt, mqttUrl: app.config.mqttUrl }),
        projects,
      });
      const factory = createFactoryTestService({ db, projects, devices, commands, onError: (err) => app.log.error({ err }, 'factory test') });
      await app.register(factoryTestRoutes, { factory });
    },
  };
}
