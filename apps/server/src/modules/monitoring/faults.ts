import { ALARM_SEVERITIES, DEVICE_TYPE_BY_CODE, type AlarmSeverity, type FaultDeviceQuery, type FaultDeviceRow, type MonitorOverview } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { Scope } from '../../lib/scope.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import * as repo from './repository.ts';

const SEVERITY_ORDER = Object.keys(ALARM_SEVERITIES) as AlarmSeverity[]; // critical first

/**
 * projectFaultDeviceList and 运行监控: a project's devices with an open fault — an active alarm, exception data not
 * handled, or offline (enabled and not reporting within its heartbeat) — and the project's running figures.
 */
export function createFaultService(deps: { db: Db; core: DeviceCore; projects: ProjectService }) {
  const { db, core, projects } = deps;

  async function collect(scope: Scope, projectId: number, now: number) {
    const p = await projects.project(scope, projectId);
    const [alarms, exceptions, devices] = await Promise.all([
      repo.activeAlarmsByDevice(db, p.id),
      repo.openExceptionsByDevice(db, p.id),
      core.devices.scopedDevices(scope).select(['id', 'device_code', 'device_name', 'device_type', 'area_id', 'online_until', 'last_report_at'])
        .where('project_id', '=', p.id).where('enabled', '=', 1).execute(),
    ]);
    const openExceptions = new Map(exceptions.map((e) => [e.device_id, e.open]));
    return { p, alarms, openExceptions, devices: devices.map((d) => ({ ...d, online: (d.online_until ?? 0) > now })) };
  }

  return {
    async list(scope: Scope, q: FaultDeviceQuery, now = Date.now()): Promise<{ total: number; rows: FaultDeviceRow[] }> {
      const { alarms, openExceptions, devices } = await collect(scope, q.projectId, now);
      const paths = await projects.areaPaths(scope, devices.map((d) => d.area_id));
      const keyword = q.keyword?.toLowerCase();
      const rows = devices.flatMap((d): FaultDeviceRow[] => {
        const severities = alarms.get(d.id) ?? [];
        const open = openExceptions.get(d.id) ?? 0;
        const faults = [severities.length ? '告警' : '', open ? '异常数据' : '', d.online ? '' : '离线'].filter(Boolean);
        if (!faults.length) return [];
        if (q.fault === 'alarm' && !severities.length) return [];
        if (q.fault === 'exception' && !open) return [];
        if (q.fault === 'offline' && d.online) return [];
        if (keyword && !d.device_name.toLowerCase().includes(keyword) && !d.device_code.toLowerCase().includes(keyword)) return [];
        return [{
          deviceId: d.id, deviceCode: d.device_code, deviceName: d.device_name, deviceType: d.device_type,
          typeName: DEVICE_TYPE_BY_CODE.get(d.device_type)?.name ?? d.device_type, areaPath: paths.get(d.area_id) ?? '', online: d.online,
          lastReportAt: d.last_report_at, activeAlarms: severities.length,
          worstSeverity: SEVERITY_ORDER.find((s) => severities.includes(s)) ?? null, openExceptions: open, faults,
        }];
      });
      // the worst first: by alarm severity, then exception data, then offline; then by name
      const rank = (r: FaultDeviceRow) => (r.worstSeverity ? SEVERITY_ORDER.indexOf(r.worstSeverity) : r.openExceptions ? 10 : 20);
      rows.sort((a, b) => rank(a) - rank(b) || a.deviceName.localeCompare(b.deviceName, 'zh-CN'));
      const start = (q.pageNo - 1) * q.pageSize;
      return { total: rows.length, rows: rows.slice(start, start + q.pageSize) };
    },

    async overview(scope: Scope, projectId: number, now = Date.now()): Promise<MonitorOverview> {
      const { p, alarms, openExceptions, devices } = await collect(scope, projectId, now);
      const activeAlarms = Object.fromEntries(SEVERITY_ORDER.map((s) => [s, 0])) as Record<AlarmSeverity, number>;
      for (const list of alarms.values()) for (const s of list) if (s in activeAlarms) activeAlarms[s as AlarmSeverity]++;
      const online = devices.filter((d) => d.online).length;
      const faulty = devices.filter((d) => !d.online || alarms.has(d.id) || openExceptions.has(d.id)).length;
      return {
        projectId: p.id, devices: devices.length, online, offline: devices.length - online, activeAlarms,
        unreadAlarms: await repo.unreadCount(db, p.id),
        openExceptions: [...openExceptions.values()].reduce((a, b) => a + b, 0), faultDevices: faulty,
      };
    },
  };
}

export type FaultService = ReturnType<typeof createFaultService>;
