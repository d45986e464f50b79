import { MENU_BY_CODE, REPORTS, reportMenuCode, type ReportDef } from '@kelvin/contracts';
import { createTestDevice } from '../modules/devices/test-fixtures.ts';
import { w, type Row } from './endpoint-rules.ts';

/** The data center: every report of the registry, its page and its export, on tenant A's project. */

const pid = () => w.A.projectId;

/**
 * Tenant A's project is given the project type, second type and billing scheme the report's screen needs (spec §6),
 * so the owner's call succeeds; a group exists for the reports that need one. Returns the project id.
 */
async function fitProject(def: ReportDef): Promise<number> {
  const menu = MENU_BY_CODE.get(reportMenuCode(def))!;
  const scheme = menu.reportGroups?.includes('report2') ? 7 : menu.reportGroups?.includes('report3') ? 9 : 1;
  await w.k.db.updateTable('area').set({
    project_type: menu.projectTypes?.[0] ?? 'PT1011', project_type2: menu.projectType2?.[0] ?? 101, billing_scheme: scheme,
  }).where('id', '=', pid()).execute();
  return pid();
}

async function groupOf(): Promise<number> {
  const row = await w.k.db.selectFrom('device_group').select('id').where('project_id', '=', pid()).executeTakeFirst();
  if (row) return row.id;
  const made = await w.k.db.insertInto('device_group').values({ tenant_id: w.A.tenantId, project_id: pid(), name: '报表分组', remark: null, created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
  return made.id;
}

const query = async (def: ReportDef) => `projectId=${await fitProject(def)}${def.filters.some((f) => f.kind === 'group') ? `&groupId=${await groupOf()}` : ''}`;

export const REPORT_ROWS: Row[] = REPORTS.flatMap((def): Row[] => {
  const code = reportMenuCode(def);
  let q = '';
  const setup = async () => {
    q = await query(def);
    return pid();
  };
  return [
    { method: 'GET', path: `/api/v1/datacenter/${def.code}`, code, kind: 'object', setup, url: () => `/api/v1/datacenter/${def.code}?${q}` },
    ...(def.legacyPath ? [{ method: 'GET' as const, path: def.legacyPath, code, kind: 'object' as const, setup, url: () => `${def.legacyPath}?${q}` }] : []),
    { method: 'GET', path: `/api/v1/datacenter/${def.code}/export`, code: `${code}:export`, kind: 'object', setup, url: () => `/api/v1/datacenter/${def.code}/export?${q}` },
  ];
});

/** 数据示例: the devices of A's project, and one device field's readings. */
let demoDevice = 0;
const demoSetup = async () => {
  demoDevice ||= (await createTestDevice(w.k, { tenantId: w.A.tenantId, projectId: pid(), areaId: w.A.buildingId, type: 'device20020', name: 'A数据示例设备' })).id;
  return demoDevice;
};
const demoRange = () => `from=${Date.now() - 86_400_000}&to=${Date.now()}`;

export const DATADEMO_ROWS: Row[] = [
  { method: 'GET', path: '/api/v1/datacenter/datademo/devices', code: 'datademo', kind: 'object', setup: demoSetup, url: () => `/api/v1/datacenter/datademo/devices?projectId=${pid()}` },
  { method: 'GET', path: '/api/v1/datacenter/datademo/series', code: 'datademo', kind: 'object', setup: demoSetup, url: (id) => `/api/v1/datacenter/datademo/series?deviceId=${id}&field=f03&${demoRange()}` },
  { method: 'GET', path: '/api/v1/datacenter/datademo/readings', code: 'datademo', kind: 'object', setup: demoSetup, url: (id) => `/api/v1/datacenter/datademo/readings?deviceId=${id}&field=f03&${demoRange()}` },
];
