import {
  DEVICE_CATEGORY_LABELS, DEVICE_TYPES, DEVICE_TYPE_BY_CODE, ONLINE_BUCKET_MS, deviceTypesForProjectType, type OnlineHistory, type OnlineNowRow,
} from '@kelvin/contracts';
import type { Scope } from '../../lib/scope.ts';
import type { ProjectService } from '../projects/index.ts';
import type { DeviceCore } from '../devices/index.ts';

const CHUNK = 500;

/**
 * deviceOnline_n: online devices of a project now (per type) and over time. A device counts as online in an hour
 * when it reported within that hour (every heartbeat window is shorter than an hour). Reports are read from the
 * history of the type's list fields — the main readings every report carries — so the query stays on the history
 * primary key (device, field, time) instead of scanning every field of every device.
 */
export function createOnlineStats(deps: { projects: ProjectService; core: DeviceCore }) {

  return {
    /** Every type the project uses or holds, whatever the caller may control: statistics are this screen's own view. */
    async now(scope: Scope, projectId: number): Promise<OnlineNowRow[]> {
      const p = await deps.projects.project(scope, projectId);
      const now = Date.now();
      const rows = await deps.core.devices.scopedDevices(scope)
        .select((eb) => ['device_type', eb.fn.countAll<number>().as('total'), eb.fn.sum<number>(eb.case().when('online_until', '>', now).then(1).else(0).end()).as('online')])
        .where('project_id', '=', p.id).groupBy('device_type').execute();
      const counts = new Map(rows.map((r) => [r.device_type, { total: Number(r.total), online: Number(r.online ?? 0) }]));
      const codes = new Set([...deviceTypesForProjectType(p.project_type).map((t) => t.code), ...counts.keys()]);
      return DEVICE_TYPES.filter((t) => codes.has(t.code)).map((t) => {
        const c = counts.get(t.code) ?? { total: 0, online: 0 };
        return { code: t.code, name: t.name, categoryName: DEVICE_CATEGORY_LABELS[t.category], total: c.total, online: c.online, offline: c.total - c.online };
      });
    },

    async history(scope: Scope, projectId: number, q: { from: number; to: number; deviceType?: string }): Promise<OnlineHistory> {
      const p = await deps.projects.project(scope, projectId);
      let devices = deps.core.devices.scopedDevices(scope).select(['id', 'device_type', 'created_at']).where('project_id', '=', p.id);
      if (q.deviceType) devices = devices.where('device_type', '=', q.deviceType);
      const rows = await devices.execute();

      const start = Math.floor(q.from / ONLINE_BUCKET_MS) * ONLINE_BUCKET_MS;
      const hours: number[] = [];
      for (let t = start; t < q.to; t += ONLINE_BUCKET_MS) hours.push(t);
      const index = new Map(hours.map((t, i) => [t / ONLINE_BUCKET_MS, i]));
      const online = hours.map(() => 0);
      const byType = hours.map(() => ({}) as Record<string, number>);

      const byTypeIds = new Map<string, number[]>();
      for (const r of rows) {
        if (!byTypeIds.has(r.device_type)) byTypeIds.set(r.device_type, []);
        byTypeIds.get(r.device_type)!.push(r.id);
      }
      for (const [type, ids] of byTypeIds) {
        const def = DEVICE_TYPE_BY_CODE.get(type);
        const probe = def?.listFields.length ? def.listFields : def?.fields.map((f) => f.code) ?? [];
        if (!probe.length) continue;
        for (let i = 0; i < ids.length; i += CHUNK) {
          const seen = await deps.core.telemetry.reportHours(ids.slice(i, i + CHUNK), probe, start, q.to, ONLINE_BUCKET_MS);
          for (const s of seen) {
            const at = index.get(s.bucket);
            if (at === undefined) continue;
            online[at]++;
            byType[at][type] = (byType[at][type] ?? 0) + 1;
          }
        }
      }
      const created = rows.map((r) => r.created_at).sort((a, b) => a - b);
      let n = 0;
      const points = hours.map((t, i) => {
        while (n < created.length && created[n] < t + ONLINE_BUCKET_MS) n++;
        return { t, devices: n, online: online[i], byType: byType[i] };
      });
      return {
        from: q.from,
        to: q.to,
        bucketMs: ONLINE_BUCKET_MS,
        types: [...byTypeIds.keys()].sort().map((code) => ({ code, name: DEVICE_TYPE_BY_CODE.get(code)?.name ?? code })),
        points,
      };
    },
  };
}

export type OnlineStats = ReturnType<typeof createOnlineStats>;
