import { DEVICE_TYPES, deviceCodeSchema, type DeviceImportResult, type DeviceTypeDef } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { Actor } from '../../lib/scope.ts';
import { GATEWAY_TYPES, hashSecret, newSecret, type DeviceService } from '../devices/index.ts';
import type { ProjectService } from '../projects/index.ts';
import { RowErrors, type SheetRow } from '../imports/index.ts';
import { IMPORT_MODELS } from '../imports/index.ts';

const SEP = '\u0001';

function typeOf(v: string, gateways: boolean): DeviceTypeDef | undefined {
  const t = DEVICE_TYPES.find((d) => d.code.toLowerCase() === v.toLowerCase() || d.name === v);
  return t && GATEWAY_TYPES.has(t.code) === gateways ? t : undefined;
}

/**
 * deviceimport / gatewayimport: devices of one project from the areaDevice or gateway template. A row names the
 * building / floor / room it goes to (which must exist; none = the project itself), the type, a unique code and a
 * name, and for wired devices optionally the gateway they hang on. Every row is checked first; then all devices are
 * written in one transaction with fresh secrets, returned this once.
 */
export async function importDevices(deps: { db: Db; projects: ProjectService; devices: DeviceService }, { user, scope }: Actor, projectId: number,
  kind: 'areaDevice' | 'gateway', rows: SheetRow[]): Promise<DeviceImportResult> {
  const { db, projects } = deps;
  const project = await projects.project(scope, projectId);
  const model = IMPORT_MODELS[kind];
  const title = (key: string) => model.columns.find((c) => c.key === key)!.title;

  // building␁floor␁room → area id, for the project's subtree
  const [tree] = await projects.tree(scope, project.id);
  const areas = new Map<string, number>();
  const walk = (n: typeof tree, path: string | null) => {
    for (const c of n.children) {
      const key = path === null ? c.label : `${path}${SEP}${c.label}`;
      if (!areas.has(key)) areas.set(key, c.id);
      walk(c, key);
    }
  };
  walk(tree, null);
  const gateways = new Map((await deps.devices.scopedDevices(scope).select(['id', 'device_code']).where('project_id', '=', project.id)
    .where('device_type', 'in', [...GATEWAY_TYPES]).execute()).map((g) => [g.device_code, g.id]));

  const errors = new RowErrors();
  const seen = new Map<string, number>();
  const planned: { row: number; areaId: number; gatewayId: number | null; type: string; code: string; name: string }[] = [];
  for (const { row, values: v } of rows) {
    const before = errors.list.length;
    const err = (key: string, msg: string) => errors.add(row, title(key), msg);
    const type = typeOf(v.deviceType || (kind === 'gateway' ? 'gateway' : ''), kind === 'gateway');
    if (!v.deviceType && kind === 'areaDevice') err('deviceType', '请填写设备类型');
    else if (!type) err('deviceType', kind === 'gateway' ? `「${v.deviceType}」不是网关或管理器类型` : `设备类型「${v.deviceType}」不存在`);
    const code = deviceCodeSchema.safeParse(v.deviceCode);
    if (!v.deviceCode) err('deviceCode', `请填写${title('deviceCode')}`);
    else if (!code.success) err('deviceCode', code.error.issues[0].message);
    else if (seen.has(code.data)) err('deviceCode', `与第 ${seen.get(code.data)} 行重复`);
    if (code.success) seen.set(code.data, seen.get(code.data) ?? row);
    if (!v.deviceName) err('deviceName', `请填写${title('deviceName')}`);
    else if (v.deviceName.length > 64) err('deviceName', '名称最多 64 个字符');
    const path = kind === 'gateway' ? [v.building] : [v.building, v.floor, v.room];
    const filled = path.findLastIndex((p) => !!p);
    if (path.slice(0, filled + 1).some((p) => !p)) err('building', '楼栋、楼层、房间需从上到下连续填写');
    let areaId = project.id;
    if (filled >= 0 && errors.list.length === before) {
      const key = path.slice(0, filled + 1).join(SEP);
      const found = areas.get(key);
      if (!found) err(['building', 'floor', 'room'][filled], `区域「${path.slice(0, filled + 1).join(' / ')}」在项目中不存在`);
      else areaId = found;
    }
    let gatewayId: number | null = null;
    if (kind === 'areaDevice' && v.gatewayCode) {
      gatewayId = gateways.get(v.gatewayCode) ?? null;
      if (gatewayId === null) err('gatewayCode', `网关「${v.gatewayCode}」不在本项目中`);
      if (type?.sleeps) err('gatewayCode', '4G 设备直接联网，不挂网关');
    }
    if (errors.list.length === before) planned.push({ row, areaId, gatewayId, type: type!.code, code: code.data!, name: v.deviceName });
  }
  // Codes are unique across the platform: a code in use anywhere is refused (without saying where).
  const codes = planned.map((p) => p.code);
  for (let i = 0; i < codes.length; i += 1000) {
    const taken = await deps.devices.codesTaken(codes.slice(i, i + 1000));
    const takenSet = new Set(taken.map((t) => t.device_code));
    for (const p of planned) if (takenSet.has(p.code)) errors.add(p.row, title('deviceCode'), `设备编号 ${p.code} 已存在`);
  }
  if (errors.any) errors.fail(rows.length);

  const now = Date.now();
  const credentials: DeviceImportResult['credentials'] = [];
  const values = planned.map((p) => {
    const secret = newSecret();
    credentials.push({ deviceCode: p.code, password: secret });
    return {
      tenant_id: project.tenant_id, project_id: project.id, area_id: p.areaId, gateway_id: p.gatewayId, device_type: p.type,
      device_code: p.code, device_name: p.name, secret_hash: hashSecret(secret), enabled: 1, created_at: now, updated_at: now,
      last_report_at: null, online_until: null, last_connect_at: null, command_pending_at: null,
    };
  });
  await db.transaction().execute(async (trx) => {
    await deps.devices.insertDevices(trx, values);
    const ids = new Map<string, number>();
    for (let i = 0; i < codes.length; i += 1000) {
      for (const r of await deps.devices.idsOfCodes(trx, codes.slice(i, i + 1000))) ids.set(r.device_code, r.id);
    }
    const records = planned.map((p) => ({
      tenant_id: project.tenant_id, project_id: project.id, device_id: ids.get(p.code)!, device_type: p.type, action: 'import',
      old_device_code: null, new_device_code: p.code, from_area_id: null, to_area_id: p.areaId, area_path: null,
      detail: `Excel 导入（第 ${p.row} 行）`, user_id: user.id, username: user.username, at: now,
    }));
    for (let i = 0; i < records.length; i += 300) await trx.insertInto('device_bind_record').values(records.slice(i, i + 300)).execute();
  });
  deps.devices.issued(credentials.map((c) => ({ code: c.deviceCode, secret: c.password })));
  return { rows: rows.length, created: planned.length, credentials };
}
