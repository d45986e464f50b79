import { uniq, w, type Row } from './endpoint-rules.ts';

/** Administration and system settings: users, roles, role types, gate log, tenants, menus, parameters, holidays, SMS. */

const newUser = async () => (await w.ok('POST', '/api/admin/user', w.A.token, { username: uniq('rule_u'), password: 'Rule#Pass-2026', name: 'A标记用户' })).id;
const newRole = async () => (await w.ok('POST', '/api/admin/group', w.A.token, { code: uniq('r'), name: 'A标记角色', groupType: 'role' })).id;
const newType = async () => (await w.ok('POST', '/api/admin/groupType', w.A.token, { code: uniq('t'), name: 'A标记类型' })).id;
let holidays = 0;
const nextDate = () => {
  const n = holidays++;
  return `2030-${String(1 + Math.floor(n / 28)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;
};
const newHoliday = async () => (await w.ok('POST', '/api/v1/holiday/update', w.A.token, { date: nextDate(), type: 'holiday', projectId: w.A.projectId, name: 'A标记假日' })).id;
let templateId = 0;
const alarmTemplate = async () => (await w.ok('POST', '/api/v1/sms/template', w.A.token, { kind: 'alarm', name: 'A标记告警', content: '{project}{device}告警' })).id;
const newMenu = async () => (await w.ok('POST', '/api/admin/menu', w.platform, { code: uniq('ruleMenu'), title: '规则菜单', type: 'menu', parentCode: 'baseManager' })).id;
const newElement = async () => {
  const code = uniq('ruleEl');
  return (await w.ok('POST', '/api/admin/element', w.platform, { menuCode: 'baseManager', code: `baseManager:${code}`, kind: 'button', name: '规则按钮' })).id;
};
const newTenant = async () => (await w.ok('POST', '/api/admin/tenant', w.platform, { code: uniq('rt'), name: '规则租户' })).id;

export const ADMIN_ROWS: Row[] = [
  // ---- the signed-in user's own account
  { method: 'GET', path: '/api/admin/user/front/info', code: 'login', kind: 'self', marker: 'rulea_pw' },
  { method: 'GET', path: '/api/admin/user/front/menus', code: 'login', kind: 'self', marker: 'changepassword', absent: 'userManager' },
  { method: 'GET', path: '/api/admin/user/front/menu/all', code: 'login', kind: 'self' },
  // ---- users
  { method: 'GET', path: '/api/admin/user/page', code: 'userManager:view', kind: 'list', marker: 'rulea_user' },
  { method: 'GET', path: '/api/admin/user/roles', code: 'userManager:view', kind: 'list', marker: 'A标记角色' },
  { method: 'POST', path: '/api/admin/user', code: 'userManager:btn_add', kind: 'create', body: () => ({ username: uniq('rule_c'), password: 'Rule#Pass-2026', name: '新用户' }) },
  { method: 'GET', path: '/api/admin/user/{id}', code: 'userManager:view', kind: 'object', setup: newUser },
  { method: 'PUT', path: '/api/admin/user/{id}', code: 'userManager:btn_edit', kind: 'object', setup: newUser, body: () => ({ name: '改名' }) },
  { method: 'DELETE', path: '/api/admin/user/{id}', code: 'userManager:btn_del', kind: 'object', setup: newUser },
  { method: 'PUT', path: '/api/admin/user/{id}/password', code: 'userManager:btn_edit', kind: 'object', setup: newUser, body: () => ({ password: 'Reset#Pass-2026' }) },
  { method: 'PUT', path: '/api/admin/user/front/password', code: 'changepassword:btn_edit', kind: 'self', body: () => ({ oldPassword: w.self.password, newPassword: 'Changed#Pass-2026' }) },
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
  { method: 'PUT', path: '/api/admin/group/{id}/user', code: 'groupManager:btn_edit', kind: 'object', setup: newRole, body: () => ({ members: [w.A.adminId], leaders: [] }) },
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
  { method: 'POST', path: '/api/v1/holiday/update', code: 'holidayManagement_n:btn_edit', kind: 'object', setup: newHoliday, url: () => '/api/v1/holiday/update', body: (id) => ({ id, date: '2030-06-01', type: 'workday', projectId: w.A.projectId }) },
  { method: 'POST', path: '/api/v1/holiday/delete', code: 'holidayManagement_n:btn_del', kind: 'object', setup: newHoliday, url: () => '/api/v1/holiday/delete', body: (id) => ({ ids: [id] }) },
  { method: 'GET', path: '/api/v1/holiday/getHolidays', code: 'holidayManagement_n:view', kind: 'object', url: () => `/api/v1/holiday/getHolidays?projectId=${w.A.projectId}&start=2030-01-01&end=2030-12-31` },
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

/** A's marked data that B must never see. */
export async function prepareAdmin() {
  await newRole();
  await newType();
  await newHoliday();
  await w.ok('POST', '/api/v1/system/editSystemParam', w.A.token, { systemName: 'A标记系统' });
  await w.ok('PUT', '/api/v1/sms/setting', w.A.token, { signName: 'A标记签名' });
  templateId = (await w.ok('POST', '/api/v1/sms/template', w.A.token, { kind: 'low_balance', name: '余额', content: 'A标记模板{name}余额{balance}' })).id;
  await w.ok('POST', '/api/v1/sms/test', w.A.token, { phone: '13900000001', kind: 'low_balance' });
}
