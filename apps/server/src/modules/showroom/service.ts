import { DEVICE_CATEGORY_LABELS, DEVICE_TYPE_BY_CODE, PROJECT_TYPES, fieldDisplay, type ShowroomAnswer } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../lib/errors.ts';
import { systemScope } from '../../lib/scope.ts';
import type { DeviceCore } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';

/** The demo tenant (seeded by db/seed/demo.ts) and the project the tour shows: the integrated-energy park, which has the most kinds of device. */
export const SHOWROOM_TENANT = 'demo';
export const SHOWROOM_PROJECT_TYPE = 'PT5030';
const DAY = 24 * 3600_000;
const CST = 8 * 3600_000;
/** cumulative electricity counters of the registry (kWh) */
const ENERGY_FIELDS = ['f70', 'f48'];
const CARDS = 6;

/**
 * /demo: aggregates of the demo tenant's showroom project for visitors without an account. Built only from device
 * types, counts, the latest readings of a few devices (their names are equipment names) and daily roll-ups: no
 * account, user, resident, phone or address leaves here.
 */
export function createShowroomService(deps: { db: Db; projects: ProjectService; core: DeviceCore }) {
  const { db, projects, core } = deps;

  async function showroomProject() {
    // the demo tenant is found by its seeded code (read only; tenants belong to the admin module)
    const tenant = await db.selectFrom('tenant').select('id').where('code', '=', SHOWROOM_TENANT).where('enabled', '=', 1).executeTakeFirst();
    if (!tenant) throw notFound('演示项目');
    const scope = systemScope(tenant.id);
    const all = await projects.visibleProjects(scope);
    const project = all.find((p) => p.project_type === SHOWROOM_PROJECT_TYPE) ?? all[0];
    if (!project) throw notFound('演示项目');
    return { scope, project };
  }

  return {
    async tour(now = Date.now()): Promise<ShowroomAnswer> {
      const { scope, project } = await showroomProject();
      const rows = await core.devices.scopedDevices(scope).selectAll().where('project_id', '=', project.id).orderBy('device_code').execute();
      const devices = await core.devices.toRows(scope, rows, now);
      const byType = new Map<string, { total: number; online: number }>();
      for (const d of devices) {
        const c = byType.get(d.deviceType) ?? { total: 0, online: 0 };
        c.total += 1;
        if (d.online) c.online += 1;
        byType.set(d.deviceType, c);
      }
      const types = [...byType].map(([code, c]) => {
        const def = DEVICE_TYPE_BY_CODE.get(code);
        return { code, name: def?.name ?? code, categoryName: def ? DEVICE_CATEGORY_LABELS[def.category] : '', ...c };
      });
      // one device of each type first (a varied tour), the ones that reported most recently
      const recent = [...devices].sort((a, b) => (b.lastReportAt ?? 0) - (a.lastReportAt ?? 0));
      const seen = new Set<string>();
      const picked = [...recent.filter((d) => !seen.has(d.deviceType) && seen.add(d.deviceType)), ...recent].filter((d, i, arr) => arr.indexOf(d) === i).slice(0, CARDS);
      const cards = picked.map((d) => {
        const def = DEVICE_TYPE_BY_CODE.get(d.deviceType);
        const shown = (def?.listFields ?? []).filter((f) => d.fields[f] !== undefined && d.fields[f] !== null).slice(0, 4);
        return {
          name: d.deviceName, typeName: d.typeName, online: d.online, lastReportAt: d.lastReportAt,
          fields: shown.map((f) => ({ label: def?.fields.find((x) => x.code === f)?.label ?? f, value: fieldDisplay(d.deviceType, f, d.fields[f]) })),
        };
      });

      // the last 7 Asia/Shanghai days of electricity use, summed over the project's meters, from the daily roll-ups
      const today = Math.floor((now + CST) / DAY) * DAY - CST;
      const from = today - 6 * DAY;
      let energy: ShowroomAnswer['energy'] = null;
      for (const field of ENERGY_FIELDS) {
        const ids = rows.filter((r) => DEVICE_TYPE_BY_CODE.get(r.device_type)?.fields.some((f) => f.code === field)).map((r) => r.id);
        if (!ids.length) continue;
        const usage = await core.usage({ deviceIds: ids, field, grain: 'day', from, to: today + DAY });
        const sums = new Map<number, number>();
        for (const u of usage) sums.set(u.bucket, (sums.get(u.bucket) ?? 0) + u.usage);
        const prev: { day: string; value: number }[] = energy?.days ?? [];
        const days = Array.from({ length: 7 }, (_, i): { day: string; value: number } => {
          const bucket = from + i * DAY;
          const day = new Date(bucket + CST).toISOString().slice(0, 10);
          return { day, value: Math.round(((prev[i]?.value ?? 0) + (sums.get(bucket) ?? 0)) * 100) / 100 };
        });
        energy = { field: ENERGY_FIELDS.join('+'), unit: 'kWh', label: '用电量', days };
      }
      return {
        project: { name: project.name, projectTypeName: PROJECT_TYPES.find((t) => t.code === project.project_type)?.name ?? null },
        totals: { devices: devices.length, online: devices.filter((d) => d.online).length, types: types.length },
        types,
        devices: cards,
        energy,
      };
    },
  };
}

export type ShowroomService = ReturnType<typeof createShowroomService>;
