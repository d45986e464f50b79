import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ONLY_MENUS, MENUS, elementCodes } from '@kelvin/contracts';
import { startTestKelvin, type TestClient } from '../../test/harness.ts';
import { apiOf, download, snapshot, tenantWithAdmin, userWith, xlsxText, type TenantFixture } from './fixtures.ts';

/**
 * The administration rules, table-driven over every admin and system endpoint: a user without the element code gets 40301,
 * a user of another tenant gets 40400 for the other tenant's objects and never sees its rows in lists, trees or
 * exports, platform-only endpoints refuse every tenant user, and a refused call changes nothing. Each row also
 * runs as the owning administrator, so a row cannot pass because the endpoint is broken.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Kind =
  | 'object' // an object of tenant A: B gets 404
  | 'create' // B naming tenant A in the body gets 40301
  | 'list' // B gets 200 without A's rows (marker absent), A sees the marker
  | 'own' // acts on the caller's own tenant only: B's call leaves A's view unchanged
  | 'self' // acts on the caller's own account only
  | 'platform'; // platform administrators only: every tenant user gets 40301

interface Row {
  method: Method;
  /** OpenAPI path, for the coverage check */
  path: string;
  code: string;
  kind: Kind;
  url?: (id: number) => string;
  setup?: () => Promise<number>;
  body?: (id: number) => unknown;
  marker?: string;
  /** for 'list' rows: text B's answer must not contain */
  absent?: string;
  /** for 'own' rows: A's read that B's call must not change */
  aView?: string;
}

let k: TestClient;
let platform: string;
let A: TenantFixture;
let B: TenantFixture;
let noperm: string;
let forged: string;
let pwUser: { token: string; password: string };
let ok: ReturnType<typeof apiOf>['data'];
let seq = 0;
const uniq = (p: string) => `${p}${++seq}`;

const PLATFORM_CODES = MENUS.filter((m) => PLATFORM_ONLY_MENUS.has(m.code)).flatMap((m) => [m.code, ...elementCodes(m)]);

const newUser = async () => (await ok('POST', '/api/admin/user', A.token, { username: uniq('rule_u'), password: 'Rule#Pass-2026', name: 'A标记用户' })).id;
const newRole = async () => (await ok('POST', '/api/admin/group', A.token, { code: uniq('r'), name: 'A标记角色', groupType: 'role' })).id;
const newType = async () => (await ok('POST', '/api/admin/groupType', A.token, { code: uniq('t'), name: 'A标记类型' })).id;
let holidays = 0;
const nextDate = () => {
  const n = holidays++;
  return `2030-${String(1 + Math.floor(n / 28)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;
};
const newHoliday = async () => (await ok('POST', '/api/v1/holiday/update', A.token, { date: nextDate(), type: 'holiday', projectId: A.projectId, name: 'A标记假日' })).id;
let templateId = 0;
const alarmTemplate = async () => (await ok('POST', '/api/v1/sms/template', A.token, { kind: 'alarm', name: 'A标记告警', content: '{project}{device}告警' })).id;
const newMenu = async () => (await ok('POST', '/api/admin/menu', platform, { code: uniq('ruleMenu'), title: '规则菜单', type: 'menu', parentCode: 'baseManager' })).id;
const newElement = async () => {
  const code = uniq('ruleEl');
  return (await ok('POST', '/api/admin/element', platform, { menuCode: 'baseManager', code: `baseManager:${code}`, kind: 'button', name: '规则按钮' })).id;
};
const newTenant = async () => (await ok('POST', '/api/admin/tenant', platform, { code: uniq('rt'), name: '规则租户' })).id;

const ROWS: Row[] = [
  // ---- users
  { method: 'GET', path: '/api/admin/user/page', code: 'userManager:view', kind: 'list', marker: 'rulea_user' },
  { method: 'GET', path: '/api/admin/user/roles', code: 'userManager:view', kind: 'list', marker: 'A标记角色' },
  { method: 'POST', path: '/api/admin/user', code: 'userManager:btn_add', kind: 'create', body: () => ({ username: uniq('rule_c'), password: 'Rule#Pass-2026', name: '新用户' }) },
  { method: 'GET', path: '/api/admin/user/{id}', code: 'userManager:view', kind: 'object', setup: newUser },
  { method: 'PUT', path: '/api/admin/user/{id}', code: 'userManager:btn_edit', kind: 'object', setup: newUser, body: () => ({ name: '改名' }) },
  { method: 'DELETE', path: '/api/admin/user/{id}', code: 'userManager:btn_del', kind: 'object', setup: newUser },
  { method: 'PUT', path: '/api/admin/user/{id}/password', code: 'userManager:btn_edit', kind: 'object', setup: newUser, body: () => ({ password: 'Reset#Pass-2026' }) },
  { method: 'PUT', path: '/api/admin/user/front/password', code: 'changepassword:btn_edit', kind: 'self', body: () => ({ oldPassword: pwUser.password, newPassword: 'Changed#Pass-2026' }) },
  // ---- groups (roles)
  { method: 'GET', path: '/api/admin/group/page', code: 'groupManager:view', kind: 'list', marker: 'A标记角色' },
  { method: 'GET', path: '/api/admin/group/tree', code: 'groupManager:view', kind: 'list', marker: 'A标记角色' },
  { method: 'GET', path: '/api/admin/group/types', code: 'groupManager:view', kind: 'list', marker: 'A标记类型' },
  { method: 'GET', path: '/api/admin/group/authority/tree', code: 'groupManager:view', kind: 'list', absent: 'tenantManager' },
  { method: 'POST', path: '/api/admin/group', code: 'groupManager:btn_add', kind: 'create', body: () => ({ code: uniq('rc'), name: '新角色', groupType: 'role' }) },
  { method: 'GET', path: '/api/admin/group/{id}', code: 'groupManager:view', kind: 'object', setup: newRole },
  { method: 'PUT', path: '/api/admin/group/{id}', code: 'groupManager:btn_edit', kind: 'object', setup: newRole, body: () => ({ name: '改名角色' }) },
  { method: 'DELETE', path: '/api/admin/group/{id}', code: 'groupManager:btn_del', kind: 'object', setup: newRole },
  { method: 'GET', path: '/api/admin/group/{id}/authority', code: 'groupManager:view', kind: 'object', setup: newRole },
  { method: 'PUT', path: '/api/admin/group/{id}/authority', code: 'groupManager:btn_edit', kind: 'object', setup: newRole, body: () => ({ menus: ['projectlist'], elements: ['projectlist:view'] }) },
  { method: 'GET', path: '/api/admin/group/{id}/user', code: 'groupManager:view', kind: 'object', setup: newRole },
  { method: 'PUT', path: '/api/admin/group/{id}/user', code: 'groupManager:btn_edit', kind: 'object', setup: newRole, body: () => ({ members: [A.adminId], leaders: [] }) },
  // ---- group types
  { method: 'GET', path: '/api/admin/groupType/page', code: 'groupTypeManager:view', kind: 'list', marker: 'A标记类型' },
  { method: 'POST', path: '/api/admin/groupType', code: 'groupTypeManager:btn_add', kind: 'create', body: () => ({ code: uniq('tc'), name: '新类型' }) },
  { method: 'GET', path: '/api/admin/groupType/{id}', code: 'groupTypeManager:view', kind: 'object', setup: newType },
  { method: 'PUT', path: '/api/admin/groupType/{id}', code: 'groupTypeManager:btn_edit', kind: 'object', setup: newType, body: () => ({ name: '改名类型' }) },
  { method: 'DELETE', path: '/api/admin/groupType/{id}', code: 'groupTypeManager:btn_del', kind: 'object', setup: newType },
  // ---- gate log
  { method: 'GET', path: '/api/admin/gateLog/page', code: 'gateLogManager:view', kind: 'list', marker: 'rulea_user' },
  { method: 'GET', path: '/api/admin/gateLog/export', code: 'gateLogManager:export', kind: 'list', marker: 'rulea_user' },
  // ---- tenants, menus, elements: platform only
  { method: 'GET', path: '/api/admin/tenant/page', code: 'tenantManager:view', kind: 'platform' },
  { method: 'POST', path: '/api/admin/tenant', code: 'tenantManager:btn_add', kind: 'platform', body: () => ({ code: uniq('rtc'), name: '新租户' }) },
  { method: 'GET', path: '/api/admin/tenant/{id}', code: 'tenantManager:view', kind: 'platform', setup: newTenant },
  { method: 'PUT', path: '/api/admin/tenant/{id}', code: 'tenantManager:btn_edit', kind: 'platform', setup: newTenant, body: () => ({ brand: '新品牌' }) },
  { method: 'DELETE', path: '/api/admin/tenant/{id}', code: 'tenantManager:btn_del', kind: 'platform', setup: newTenant },
  { method: 'GET', path: '/api/admin/menu/page', code: 'menuManager:view', kind: 'platform' },
  { method: 'GET', path: '/api/admin/menu/tree', code: 'menuManager:view', kind: 'platform' },
  { method: 'POST', path: '/api/admin/menu', code: 'menuManager:btn_add', kind: 'platform', body: () => ({ code: uniq('ruleNew'), title: '新菜单', type: 'menu', parentCode: 'baseManager' }) },
  { method: 'GET', path: '/api/admin/menu/{id}', code: 'menuManager:view', kind: 'platform', setup: newMenu },
  { method: 'PUT', path: '/api/admin/menu/{id}', code: 'menuManager:btn_edit', kind: 'platform', setup: newMenu, body: () => ({ title: '改名菜单' }) },
  { method: 'DELETE', path: '/api/admin/menu/{id}', code: 'menuManager:btn_del', kind: 'platform', setup: newMenu },
  { method: 'GET', path: '/api/admin/element/page', code: 'menuManager:view', kind: 'platform' },
  { method: 'POST', path: '/api/admin/element', code: 'menuManager:btn_add', kind: 'platform', body: () => ({ menuCode: 'baseManager', code: `baseManager:${uniq('n')}`, kind: 'button', name: '新按钮' }) },
  { method: 'GET', path: '/api/admin/element/{id}', code: 'menuManager:view', kind: 'platform', setup: newElement },
  { method: 'PUT', path: '/api/admin/element/{id}', code: 'menuManager:btn_edit', kind: 'platform', setup: newElement, body: () => ({ name: '改名按钮' }) },
  { method: 'DELETE', path: '/api/admin/element/{id}', code: 'menuManager:btn_del', kind: 'platform', setup: newElement },
  // ---- system parameters
  { method: 'GET', path: '/api/v1/system/getSystemParam', code: 'setting_n:view', kind: 'list', marker: 'A标记系统' },
  { method: 'POST', path: '/api/v1/system/editSystemParam', code: 'setting_n:btn_edit', kind: 'own', body: () => ({ systemName: '改过的系统' }), aView: '/api/v1/system/getSystemParam' },
  // ---- holidays
  { method: 'GET', path: '/api/v1/holiday/getAll', code: 'holidayManagement_n:view', kind: 'list', marker: 'A标记假日' },
  { method: 'POST', path: '/api/v1/holiday/update', code: 'holidayManagement_n:btn_edit', kind: 'object', setup: newHoliday, url: () => '/api/v1/holiday/update', body: (id) => ({ id, date: '2030-06-01', type: 'workday', projectId: A.projectId }) },
  { method: 'POST', path: '/api/v1/holiday/delete', code: 'holidayManagement_n:btn_del', kind: 'object', setup: newHoliday, url: () => '/api/v1/holiday/delete', body: (id) => ({ ids: [id] }) },
  { method: 'GET', path: '/api/v1/holiday/getHolidays', code: 'holidayManagement_n:view', kind: 'object', url: () => `/api/v1/holiday/getHolidays?projectId=${A.projectId}&start=2030-01-01&end=2030-12-31` },
  // ---- SMS
  { method: 'GET', path: '/api/v1/sms/template/page', code: 'smsManager:view', kind: 'list', marker: 'A标记模板' },
  { method: 'GET', path: '/api/v1/sms/kinds', code: 'smsManager:view', kind: 'list', marker: 'A标记模板' },
  { method: 'POST', path: '/api/v1/sms/template', code: 'smsManager:btn_add', kind: 'own', body: () => ({ kind: 'cut_off', name: '停供', content: '{name}已停供' }), aView: '/api/v1/sms/kinds' },
  { method: 'GET', path: '/api/v1/sms/template/{id}', code: 'smsManager:view', kind: 'object', setup: async () => templateId },
  { method: 'PUT', path: '/api/v1/sms/template/{id}', code: 'smsManager:btn_edit', kind: 'object', setup: async () => templateId, body: () => ({ name: 'A标记模板名' }) },
  { method: 'DELETE', path: '/api/v1/sms/template/{id}', code: 'smsManager:btn_del', kind: 'object', setup: alarmTemplate },
  { method: 'POST', path: '/api/v1/sms/test', code: 'smsManager:btn_add', kind: 'own', body: () => ({ phone: '13700000000', kind: 'alarm' }), aView: '/api/v1/sms/record/page' },
  { method: 'GET', path: '/api/v1/sms/setting', code: 'defaultSmsSetting:view', kind: 'list', marker: 'A标记签名' },
  { method: 'PUT', path: '/api/v1/sms/setting', code: 'defaultSmsSetting:btn_edit', kind: 'own', body: () => ({ signName: '别家签名' }), aView: '/api/v1/sms/setting' },
  { method: 'GET', path: '/api/v1/sms/record/page', code: 'smsRecordList:view', kind: 'list', marker: '13900000001' },
  { method: 'GET', path: '/api/v1/sms/record/export', code: 'smsRecordList:export', kind: 'list', marker: '13900000001' },
];

/** The endpoints of the admin and system modules, read from the OpenAPI document (auth's own /front calls excluded). */
const AUTH_PATHS = new Set(['/api/admin/user/front/info', '/api/admin/user/front/menus', '/api/admin/user/front/menu/all']);
const isAdminPath = (p: string) => (p.startsWith('/api/admin/') && !AUTH_PATHS.has(p)) || /^\/api\/v1\/(system|holiday|sms)\//.test(p);

beforeAll(async () => {
  k = await startTestKelvin();
  platform = await k.loginAdmin();
  ok = apiOf(k).data;
  A = await tenantWithAdmin(k, 'rulea');
  B = await tenantWithAdmin(k, 'ruleb');
  // a menu without any element code: the screen is visible, no call is allowed
  noperm = (await userWith(k, A.tenantId, 'rulea_noperm', ['baseManager', 'userManager', 'groupManager', 'system_n'])).token;
  // a tenant user holding platform-only codes (a misconfigured role): the endpoints must still refuse
  forged = (await userWith(k, B.tenantId, 'ruleb_forged', PLATFORM_CODES)).token;
  pwUser = await userWith(k, A.tenantId, 'rulea_pw', ['changepassword', 'changepassword:btn_edit']);
  // A's marked data that B must never see
  await newRole();
  await newType();
  await newHoliday();
  await ok('POST', '/api/v1/system/editSystemParam', A.token, { systemName: 'A标记系统' });
  await ok('PUT', '/api/v1/sms/setting', A.token, { signName: 'A标记签名' });
  templateId = (await ok('POST', '/api/v1/sms/template', A.token, { kind: 'low_balance', name: '余额', content: 'A标记模板{name}余额{balance}' })).id;
  await ok('POST', '/api/v1/sms/test', A.token, { phone: '13900000001', kind: 'low_balance' });
});
afterAll(() => k?.close());

function urlOf(row: Row, id: number) {
  if (row.url) return row.url(id);
  return row.path.replace('{id}', String(id));
}

async function callAs(row: Row, token: string, id: number, extraBody: Record<string, unknown> = {}) {
  if (row.path.endsWith('/export')) {
    const res = await download(k, urlOf(row, id), token);
    return { status: res.status, code: res.json?.code ?? (res.status === 200 ? 200 : -1), text: res.status === 200 && !res.json ? (await xlsxText(res.raw)).join('\n') : JSON.stringify(res.json) };
  }
  const body = row.body ? { ...(row.body(id) as object), ...extraBody } : row.method === 'GET' || row.method === 'DELETE' ? undefined : extraBody;
  const res = await k.call(row.method, urlOf(row, id), { token, body });
  return { status: res.status, code: res.body?.code as number, text: JSON.stringify(res.body) };
}

describe('每个管理接口的权限与租户隔离（表驱动）', () => {
  it('the table covers every admin and system endpoint', async () => {
    const doc = (await k.call('GET', '/api/docs/json')).body as { paths: Record<string, Record<string, unknown>> };
    const registered = Object.entries(doc.paths).filter(([p]) => isAdminPath(p))
      .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`)).sort();
    const covered = ROWS.map((r) => `${r.method} ${r.path}`).sort();
    expect(covered).toEqual(registered);
  });

  for (const row of ROWS) {
    it(`${row.method} ${row.path} (${row.code}, ${row.kind})`, async () => {
      const id = row.setup ? await row.setup() : 0;

      // 1. without the element code: 40301 and nothing changed
      const before = await snapshot(k.db);
      const denied = await callAs(row, noperm, id);
      expect(denied.status, denied.text).toBe(403);
      expect(denied.code).toBe(40301);
      expect(await snapshot(k.db)).toBe(before);

      // 2. another tenant's administrator (holding the code)
      if (row.kind === 'object') {
        const other = await callAs(row, B.token, id);
        expect(other.status, other.text).toBe(404);
        expect(other.code).toBe(40400);
        expect(await snapshot(k.db)).toBe(before);
      } else if (row.kind === 'create') {
        const other = await callAs(row, B.token, id, { tenantId: A.tenantId });
        expect(other.status, other.text).toBe(403);
        expect(other.code).toBe(40301);
        expect(await snapshot(k.db)).toBe(before);
      } else if (row.kind === 'list') {
        const other = await callAs(row, B.token, id);
        expect(other.status, other.text).toBe(200);
        if (row.marker) expect(other.text).not.toContain(row.marker);
        if (row.absent) expect(other.text).not.toContain(row.absent);
      } else if (row.kind === 'own') {
        const viewBefore = (await k.call('GET', row.aView!, { token: A.token })).body;
        const other = await callAs(row, B.token, id);
        expect(other.code, other.text).toBe(200);
        expect((await k.call('GET', row.aView!, { token: A.token })).body).toEqual(viewBefore);
      } else if (row.kind === 'platform') {
        for (const token of [B.token, forged, A.token]) {
          const other = await callAs(row, token, id);
          expect(other.status, other.text).toBe(403);
          expect(other.code).toBe(40301);
        }
        expect(await snapshot(k.db)).toBe(before);
      }

      // 3. the owner (or the platform) succeeds, so the refusals above came from the rules
      const owner = row.kind === 'platform' ? platform : row.kind === 'self' ? pwUser.token : A.token;
      const res = await callAs(row, owner, id);
      expect(res.code, res.text).toBe(200);
      if (row.kind === 'list' && row.marker) expect(res.text).toContain(row.marker);
    });
  }
});
