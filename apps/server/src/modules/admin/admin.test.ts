import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordProblem } from '@kelvin/contracts';
import { startTestKelvin, type TestClient } from '../../test/harness.ts';
import { download, twoAdminTenants, userWith, xlsxText, type Api, type TenantFixture } from './fixtures.ts';

let k: TestClient;
let platform: string;
let A: TenantFixture, B: TenantFixture, data: Api['data'], refused: Api['refused'];

beforeAll(async () => {
  k = await startTestKelvin();
  platform = await k.loginAdmin();
  ({ A, B, data, refused } = await twoAdminTenants(k, 'adm'));
});
afterAll(() => k?.close());

describe('权限不能越级授予', () => {
  let limited: Awaited<ReturnType<typeof userWith>>;
  let bigRoleId: number;

  beforeAll(async () => {
    // a user manager who holds the user and role screens but no device screens, and only one project
    limited = await userWith(k, A.tenantId, 'adma_limited', [
      'baseManager', 'userManager', 'userManager:view', 'userManager:btn_add', 'userManager:btn_edit', 'userManager:btn_del',
      'groupManager', 'groupManager:view', 'groupManager:btn_add', 'groupManager:btn_edit', 'groupManager:btn_del', 'projectlist',
    ], { allProjects: false, projectIds: [A.projectId] });
    bigRoleId = (await data('POST', '/api/admin/group', A.token, { code: 'big', name: '设备管理员', groupType: 'role' })).id;
    await data('PUT', `/api/admin/group/${bigRoleId}/authority`, A.token, { menus: ['area'], elements: ['area:btn_add'] });
  });

  it('cannot give a user (or themselves) a role holding codes they lack', async () => {
    await refused('POST', '/api/admin/user', limited.token, { username: 'adma_new1', password: 'Strong#Pass-2026', name: '新人', roleIds: [bigRoleId] }, 40301, /不能授予自己没有的权限/);
    await refused('PUT', `/api/admin/user/${limited.id}`, limited.token, { roleIds: [limited.roleId, bigRoleId] }, 40301);
    await refused('PUT', `/api/admin/group/${bigRoleId}/user`, limited.token, { members: [limited.id], leaders: [] }, 40301, /权限高于自己/);
  });

  it('cannot add codes they lack to a role, even their own', async () => {
    await refused('PUT', `/api/admin/group/${limited.roleId}/authority`, limited.token, { menus: ['userManager', 'area'], elements: [] }, 40301, /楼宇与设备/);
    await refused('PUT', `/api/admin/group/${bigRoleId}/authority`, limited.token, { menus: [], elements: [] }, 40301);
    // what they hold they may grant
    const role = await data('POST', '/api/admin/group', limited.token, { code: 'viewer', name: '查看员', groupType: 'role' });
    const auth = await data('PUT', `/api/admin/group/${role.id}/authority`, limited.token, { menus: ['userManager'], elements: ['userManager:view'] });
    expect(auth.menus).toEqual(['baseManager', 'userManager']); // the directory came along
  });

  it('cannot manage a more privileged user, nor widen project access', async () => {
    await refused('PUT', `/api/admin/user/${A.adminId}/password`, limited.token, { password: 'Hijack#Pass-2026' }, 40301, /权限高于自己/);
    await refused('PUT', `/api/admin/user/${A.adminId}`, limited.token, { enabled: false }, 40301);
    await refused('DELETE', `/api/admin/user/${A.adminId}`, limited.token, undefined, 40301);
    await refused('POST', '/api/admin/user', limited.token, { username: 'adma_new2', password: 'Strong#Pass-2026', name: '新人', allProjects: true }, 40301, /全部项目/);
    const otherProject = (await k.db.selectFrom('area').select('id').where('tenant_id', '=', B.tenantId).where('level', '=', 'project').executeTakeFirstOrThrow()).id;
    await refused('POST', '/api/admin/user', limited.token, { username: 'adma_new3', password: 'Strong#Pass-2026', name: '新人', projectIds: [otherProject] }, 40000, /项目不存在/);
  });

  it('ignores or refuses fields the caller may not write (isPlatform, tenantId)', async () => {
    const u = await data('POST', '/api/admin/user', A.token, { username: 'adma_plain', password: 'Strong#Pass-2026', name: '普通', isPlatform: true, is_platform: 1 });
    expect(u.isPlatform).toBe(false);
    const edited = await data('PUT', `/api/admin/user/${u.id}`, A.token, { name: '普通2', isPlatform: true, allProjects: true });
    expect(edited.isPlatform).toBe(false);
    expect((await k.db.selectFrom('app_user').select('is_platform').where('id', '=', u.id).executeTakeFirstOrThrow()).is_platform).toBe(0);
    await refused('PUT', `/api/admin/user/${u.id}`, A.token, { tenantId: B.tenantId }, 40301, /所属租户/);
    await refused('POST', '/api/admin/user', A.token, { username: 'adma_x', password: 'Strong#Pass-2026', name: 'x', tenantId: B.tenantId }, 40301);
    await refused('POST', '/api/admin/group', A.token, { code: 'x', name: 'x', groupType: 'role', tenantId: 0 }, 40301);
  });

  it('platform-only menus cannot be granted to a tenant role, not even by the platform administrator', async () => {
    await refused('PUT', `/api/admin/group/${A.adminRoleId}/authority`, A.token, { menus: ['tenantManager'], elements: ['tenantManager:view'] }, 40301, /平台专属/);
    await refused('PUT', `/api/admin/group/${bigRoleId}/authority`, platform, { menus: ['menuManager'], elements: [] }, 40301, /平台专属/);
    const tree = await data('GET', '/api/admin/group/authority/tree', A.token);
    const codes = JSON.stringify(tree);
    expect(codes).not.toContain('"tenantManager"');
    expect(codes).toContain('"userManager:btn_add"');
  });

  it('the platform administrator manages roles and users of any tenant', async () => {
    const role = await data('POST', '/api/admin/group', platform, { code: 'ops', name: '运维', groupType: 'role', tenantId: B.tenantId });
    expect(role.tenantId).toBe(B.tenantId);
    const user = await data('POST', '/api/admin/user', platform, { username: 'admb_ops', password: 'Strong#Pass-2026', name: '运维员', tenantId: B.tenantId, roleIds: [role.id] });
    expect(user).toMatchObject({ tenantId: B.tenantId, roles: [{ id: role.id, name: '运维' }] });
    // B's administrator sees them; A's does not
    expect((await k.call('GET', `/api/admin/user/${user.id}`, { token: B.token })).body.code).toBe(200);
    expect((await k.call('GET', `/api/admin/user/${user.id}`, { token: A.token })).body.code).toBe(40400);
    await refused('POST', '/api/admin/user', platform, { username: 'admb_bad', password: 'Strong#Pass-2026', name: 'x', tenantId: B.tenantId, roleIds: [A.adminRoleId] }, 40000, /角色不存在/);
  });
});

describe('错误输入：清楚的中文提示，且不改变任何数据', () => {
  it('duplicate username, empty name, over-long fields, unknown role id', async () => {
    await refused('POST', '/api/admin/user', A.token, { username: A.username, password: 'Strong#Pass-2026', name: '重复' }, 40900, /账号 adma_user 已存在/);
    await refused('POST', '/api/admin/user', A.token, { username: 'adma_e', password: 'Strong#Pass-2026', name: '   ' }, 40000, /请输入姓名/);
    await refused('POST', '/api/admin/user', A.token, { username: 'adma_l', password: 'Strong#Pass-2026', name: '长'.repeat(51) }, 40000, /姓名最多 50 个字符/);
    await refused('POST', '/api/admin/user', A.token, { username: 'x'.repeat(65), password: 'Strong#Pass-2026', name: '长' }, 40000, /账号最多 64 个字符/);
    await refused('POST', '/api/admin/user', A.token, { username: 'adma_r', password: 'Strong#Pass-2026', name: '角色', roleIds: [999999] }, 40000, /角色不存在：999999/);
    await refused('POST', '/api/admin/user', A.token, { username: 'adma_p', password: 'password', name: '弱' }, 40000, /密码/);
    await refused('PUT', `/api/admin/user/${A.adminId}`, A.token, { name: '' }, 40000, /请输入姓名/);
    await refused('POST', '/api/admin/group', A.token, { code: 'g1', name: '', groupType: 'role' }, 40000, /请输入角色名称/);
    await refused('POST', '/api/admin/group', A.token, { code: 'g1', name: '角色', groupType: 'nosuch' }, 40000, /角色类型不存在/);
    await refused('POST', '/api/admin/group', A.token, { code: `role_${A.username}`, name: '重复', groupType: 'role' }, 40900, /已存在/);
    await refused('POST', '/api/admin/groupType', A.token, { code: 'role', name: '重复内置' }, 40900, /已存在/);
    await refused('POST', '/api/admin/tenant', platform, { code: 'adma', name: '重复租户' }, 40900, /租户编码 adma 已存在/);
    await refused('POST', '/api/admin/tenant', platform, { code: 'Bad Code', name: '租户' }, 40000, /租户编码只能/);
    await refused('PUT', `/api/admin/group/${A.adminRoleId}/authority`, A.token, { menus: ['nosuchmenu'], elements: [] }, 40000, /菜单不存在/);
  });

  it('a user cannot delete or disable their own account', async () => {
    await refused('DELETE', `/api/admin/user/${A.adminId}`, A.token, undefined, 40000, /当前登录/);
    await refused('PUT', `/api/admin/user/${A.adminId}`, A.token, { enabled: false }, 40000, /当前登录/);
  });
});

describe('租户管理', () => {
  it('creates a tenant with its first administrator, brand, filing number and logo; disabling stops its users at once', async () => {
    const logo = `data:image/png;base64,${Buffer.from('\x89PNG fake-bytes').toString('base64')}`;
    const t = await data('POST', '/api/admin/tenant', platform, {
      code: 'newco', name: '新公司', brand: '新能源', filingNo: '沪ICP备1号', logo, admin: { username: 'newco_admin', name: '新管理员', password: 'Newco#Admin-2026' },
    });
    expect(t).toMatchObject({ code: 'newco', brand: '新能源', filingNo: '沪ICP备1号', hasLogo: true, enabled: true, userCount: 1 });
    expect((await k.call('GET', `/api/v1/tenant/brand?tenantId=${t.id}`)).body.data).toMatchObject({ brand: '新能源', hasLogo: true, filingNo: '沪ICP备1号' });
    const img = await k.kelvin.app.inject({ method: 'GET', url: `/api/v1/tenant/logo?tenantId=${t.id}` });
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.toString()).toBe('\x89PNG fake-bytes');

    const token = await k.login('newco_admin', 'Newco#Admin-2026');
    const info = (await k.call('GET', '/api/admin/user/front/info', { token })).body.data;
    const menus = info.menus.map((m: { code: string }) => m.code);
    expect(menus).toContain('userManager');
    expect(menus).not.toContain('tenantManager');
    expect((await k.call('GET', '/api/admin/user/page', { token })).body.data.total).toBe(1);

    await data('PUT', `/api/admin/tenant/${t.id}`, platform, { enabled: false });
    expect((await k.call('GET', '/api/admin/user/front/info', { token })).body.code).toBe(40101);
    expect((await k.call('POST', '/api/auth/jwt/token', { body: { username: 'newco_admin', password: 'Newco#Admin-2026' } })).body.code).toBe(40300);
    await data('PUT', `/api/admin/tenant/${t.id}`, platform, { enabled: true });
    expect((await k.call('POST', '/api/auth/jwt/token', { body: { username: 'newco_admin', password: 'Newco#Admin-2026' } })).body.code).toBe(200);

    await refused('DELETE', `/api/admin/tenant/${t.id}`, platform, undefined, 40900, /还有 1 个用户/);
    await refused('PUT', '/api/admin/tenant/0', platform, { enabled: false }, 40300, /平台租户不能停用/);
    const page = await data('GET', '/api/admin/tenant/page?keyword=新公司', platform);
    expect(page.rows.map((r: { code: string }) => r.code)).toEqual(['newco']);
  });

  it('deletes an empty tenant with its roles and settings', async () => {
    const t = await data('POST', '/api/admin/tenant', platform, { code: 'empty', name: '空租户' });
    await data('POST', '/api/admin/group', platform, { code: 'r', name: '角色', groupType: 'role', tenantId: t.id });
    await data('DELETE', `/api/admin/tenant/${t.id}`, platform);
    expect(await k.db.selectFrom('role').select('id').where('tenant_id', '=', t.id).execute()).toEqual([]);
    expect((await k.call('GET', `/api/admin/tenant/${t.id}`, { token: platform })).body.code).toBe(40400);
  });
});

describe('用户管理', () => {
  it('creates, filters, edits roles and projects, and resets the password (ending the user\'s sessions)', async () => {
    const u = await data('POST', '/api/admin/user', A.token, {
      username: 'adma_staff', password: 'Staff#Pass-2026', name: '值班员', phone: '13800000001', roleIds: [A.adminRoleId], projectIds: [A.projectId],
    });
    expect(u).toMatchObject({ username: 'adma_staff', enabled: true, allProjects: false, projectIds: [A.projectId], roles: [{ id: A.adminRoleId }] });
    const page = await data('GET', '/api/admin/user/page?keyword=值班&pageSize=10', A.token);
    expect(page.total).toBe(1);
    const byRole = await data('GET', `/api/admin/user/page?roleId=${A.adminRoleId}`, A.token);
    expect(byRole.rows.map((r: { username: string }) => r.username).sort()).toEqual(['adma_staff', 'adma_user']);

    const token = await k.login('adma_staff', 'Staff#Pass-2026');
    await data('PUT', `/api/admin/user/${u.id}/password`, A.token, { password: 'Fresh#Pass-2026' });
    expect((await k.call('GET', '/api/admin/user/front/info', { token })).body.code).toBe(40101);
    await k.login('adma_staff', 'Fresh#Pass-2026');

    const edited = await data('PUT', `/api/admin/user/${u.id}`, A.token, { roleIds: [], projectIds: [], enabled: false, description: '已离职' });
    expect(edited).toMatchObject({ roles: [], projectIds: [], enabled: false, description: '已离职' });
    expect((await k.call('POST', '/api/auth/jwt/token', { body: { username: 'adma_staff', password: 'Fresh#Pass-2026' } })).body.code).toBe(40300);
    await data('DELETE', `/api/admin/user/${u.id}`, A.token);
    expect((await k.call('GET', `/api/admin/user/${u.id}`, { token: A.token })).body.code).toBe(40400);
  });
});

describe('角色权限', () => {
  it('a role change acts on the next request, without a new login', async () => {
    const role = await data('POST', '/api/admin/group', A.token, { code: 'lister', name: '项目查看', groupType: 'role' });
    await data('PUT', `/api/admin/group/${role.id}/authority`, A.token, { menus: ['projectlist'], elements: ['projectlist:view'] });
    const u = await data('POST', '/api/admin/user', A.token, { username: 'adma_lister', password: 'Lister#Pass-2026', name: '查看员', roleIds: [role.id], allProjects: true });
    const token = await k.login('adma_lister', 'Lister#Pass-2026');
    expect((await k.call('GET', '/api/v1/area/project/list', { token })).body.code).toBe(200);
    await data('PUT', `/api/admin/group/${role.id}/authority`, A.token, { menus: [], elements: [] });
    expect((await k.call('GET', '/api/v1/area/project/list', { token })).body.code).toBe(40301);
    await data('PUT', `/api/admin/group/${role.id}/user`, A.token, { members: [], leaders: [] });
    await data('PUT', `/api/admin/group/${role.id}/authority`, A.token, { menus: ['projectlist'], elements: [] });
    expect((await k.call('GET', '/api/v1/area/project/list', { token })).body.code).toBe(40301);
    await data('PUT', `/api/admin/group/${role.id}/user`, A.token, { members: [], leaders: [u.id] });
    expect((await k.call('GET', '/api/v1/area/project/list', { token })).body.code).toBe(200);
    const members = await data('GET', `/api/admin/group/${role.id}/user`, A.token);
    expect(members.leaders.map((m: { id: number }) => m.id)).toEqual([u.id]);
    expect(members.members).toEqual([]);
    expect(members.candidates.map((c: { username: string }) => c.username)).toContain('adma_lister');
  });

  it('builds the role tree, refuses cycles, and deletes only leaf roles without members', async () => {
    const parent = await data('POST', '/api/admin/group', A.token, { code: 'dept', name: '工程部', groupType: 'department' });
    const child = await data('POST', '/api/admin/group', A.token, { code: 'dept_a', name: '工程一组', groupType: 'department', parentId: parent.id });
    const tree = await data('GET', '/api/admin/group/tree?groupType=department', A.token);
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ name: '工程部', children: [{ name: '工程一组' }] });
    await refused('PUT', `/api/admin/group/${parent.id}`, A.token, { parentId: child.id }, 40000, /自己的下级/);
    await refused('DELETE', `/api/admin/group/${parent.id}`, A.token, undefined, 40900, /下级角色/);
    await refused('DELETE', `/api/admin/group/${A.adminRoleId}`, A.token, undefined, 40900, /成员/);
    await data('DELETE', `/api/admin/group/${child.id}`, A.token);
    await data('DELETE', `/api/admin/group/${parent.id}`, A.token);
  });

  it('group types: built-in ones are shared and protected, used ones cannot be deleted', async () => {
    const types = await data('GET', '/api/admin/group/types', A.token);
    expect(types.filter((t: { builtin: boolean }) => t.builtin).map((t: { code: string }) => t.code)).toEqual(['role', 'department', 'free']);
    const builtin = types.find((t: { code: string }) => t.code === 'role');
    await refused('DELETE', `/api/admin/groupType/${builtin.id}`, A.token, undefined, 40300, /内置/);
    await refused('PUT', `/api/admin/groupType/${builtin.id}`, A.token, { name: '改' }, 40300, /平台管理员/);
    const t = await data('POST', '/api/admin/groupType', A.token, { code: 'project_team', name: '项目组' });
    const g = await data('POST', '/api/admin/group', A.token, { code: 'team1', name: '一组', groupType: 'project_team' });
    await refused('DELETE', `/api/admin/groupType/${t.id}`, A.token, undefined, 40900, /1 个角色/);
    await data('DELETE', `/api/admin/group/${g.id}`, A.token);
    await data('DELETE', `/api/admin/groupType/${t.id}`, A.token);
    // B does not see A's custom type
    const bTypes = await data('GET', '/api/admin/groupType/page', B.token);
    expect(bTypes.total).toBe(3);
  });
});

describe('菜单管理', () => {
  it('edits title, icon, order, href and type; the menu list follows', async () => {
    const page = await data('GET', '/api/admin/menu/page?keyword=datademo', platform);
    const menu = page.rows[0];
    const edited = await data('PUT', `/api/admin/menu/${menu.id}`, platform, { title: '示例数据页', icon: 'StarOutlined', orderNo: 9999, href: 'https://example.com/demo', hidden: true });
    expect(edited).toMatchObject({ title: '示例数据页', icon: 'StarOutlined', orderNo: 9999, href: 'https://example.com/demo', hidden: true, builtin: true });
    const all = (await k.call('GET', '/api/admin/user/front/menu/all', { token: A.token })).body.data;
    expect(all.find((m: { code: string }) => m.code === 'datademo')).toMatchObject({ title: '示例数据页', icon: 'StarOutlined', href: 'https://example.com/demo' });
    await refused('PUT', `/api/admin/menu/${menu.id}`, platform, { parentCode: 'project' }, 40300, /不能移动/);
    await refused('PUT', `/api/admin/menu/${menu.id}`, platform, { href: 'javascript:alert(1)' }, 40000, /链接/);
  });

  it('refuses to delete built-in codes and deletes custom menus with their elements and grants', async () => {
    const builtin = (await data('GET', '/api/admin/menu/page?keyword=userManager', platform)).rows.find((m: { code: string }) => m.code === 'userManager');
    await refused('DELETE', `/api/admin/menu/${builtin.id}`, platform, undefined, 40300, /系统内置菜单.*不能删除/);
    const el = (await data('GET', '/api/admin/element/page?menuCode=userManager', platform)).rows.find((e: { code: string }) => e.code === 'userManager:btn_add');
    expect(el.builtin).toBe(true);
    await refused('DELETE', `/api/admin/element/${el.id}`, platform, undefined, 40300, /内置按钮/);

    const dir = await data('POST', '/api/admin/menu', platform, { code: 'reportsLink', title: '外部报表', type: 'dirt', parentCode: 'datacenter' });
    const link = await data('POST', '/api/admin/menu', platform, { code: 'bi', title: 'BI 看板', type: 'menu', parentCode: 'reportsLink', href: 'https://bi.example.com' });
    expect(link.path).toBe('/datacenter/bi');
    const custom = await data('POST', '/api/admin/element', platform, { menuCode: 'bi', code: 'bi:export', kind: 'export', name: '导出' });
    await refused('POST', '/api/admin/element', platform, { menuCode: 'bi', code: 'other:export', kind: 'export', name: '导出' }, 40000, /所属菜单编码开头/);
    await data('PUT', `/api/admin/group/${A.adminRoleId}/authority`, platform, {
      ...(await data('GET', `/api/admin/group/${A.adminRoleId}/authority`, platform)),
      menus: [...(await data('GET', `/api/admin/group/${A.adminRoleId}/authority`, platform)).menus, 'bi', 'reportsLink'],
    });
    await refused('DELETE', `/api/admin/menu/${dir.id}`, platform, undefined, 40900, /下级菜单/);
    await data('DELETE', `/api/admin/menu/${link.id}`, platform);
    expect(await k.db.selectFrom('menu_element').select('id').where('id', '=', custom.id).execute()).toEqual([]);
    expect(await k.db.selectFrom('role_grant').select('code').where('code', 'in', ['bi', 'bi:export']).execute()).toEqual([]);
    await data('DELETE', `/api/admin/menu/${dir.id}`, platform);
    const tree = await data('GET', '/api/admin/menu/tree', platform);
    expect(tree.map((m: { code: string }) => m.code)).toContain('baseManager');
    expect(tree.find((m: { code: string }) => m.code === 'baseManager').children.map((m: { code: string }) => m.code)).toContain('userManager');
  });
});

describe('操作日志', () => {
  it('filters by user, menu and time, and exports to Excel with a UTF-8 file name', async () => {
    const start = Date.now();
    const u = await userWith(k, A.tenantId, 'adma_logger', ['holidayManagement_n', 'holidayManagement_n:btn_edit']);
    await data('POST', '/api/v1/holiday/update', u.token, { date: '2031-01-01', type: 'holiday', name: '元旦' });
    await k.call('POST', '/api/v1/holiday/delete', { token: u.token, body: { ids: [1] } }); // denied: no btn_del
    const page = await data('GET', `/api/admin/gateLog/page?username=adma_logger&timeFrom=${start}`, A.token);
    expect(page.rows.map((r: { operation: string; status: number }) => [r.operation, r.status])).toEqual([
      ['拒绝访问：删除节假日', 403],
      ['保存节假日「元旦」', 200],
      ['登录', 200],
    ]);
    expect(page.rows[1]).toMatchObject({ menuCode: 'holidayManagement_n', menuTitle: '节假日管理', method: 'POST', uri: '/api/v1/holiday/update' });
    const byMenu = await data('GET', `/api/admin/gateLog/page?menuCode=holidayManagement_n&timeFrom=${start}`, A.token);
    expect(byMenu.total).toBe(2);
    const none = await data('GET', `/api/admin/gateLog/page?username=adma_logger&timeTo=${start - 1}`, A.token);
    expect(none.total).toBe(0);

    const file = await download(k, `/api/admin/gateLog/export?username=adma_logger&timeFrom=${start}`, A.token);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toMatch(/filename\*=UTF-8''%E6%93%8D%E4%BD%9C%E6%97%A5%E5%BF%97_/);
    const lines = await xlsxText(file.raw);
    expect(lines[0]).toBe('时间|账号|菜单|操作|请求方法|请求地址|来源地址|结果');
    expect(lines.slice(1).map((l) => l.split('|')[3])).toEqual(['拒绝访问：删除节假日', '保存节假日「元旦」', '登录']);
    expect(lines[2]).toContain('节假日管理');
  });
});

describe('修改密码', () => {
  it('needs the current password, applies the rules, and ends the other sessions', async () => {
    const u = await userWith(k, A.tenantId, 'adma_pwuser', ['changepassword', 'changepassword:btn_edit']);
    const other = await k.login(u.username, u.password);
    const url = '/api/admin/user/front/password';
    await refused('PUT', url, u.token, { oldPassword: 'wrong-password', newPassword: 'Brand#New-2026' }, 40000, /当前密码不正确/);
    await refused('PUT', url, u.token, { oldPassword: u.password, newPassword: 'short' }, 40000, /至少 8 个字符/);
    await refused('PUT', url, u.token, { oldPassword: u.password, newPassword: 'x'.repeat(129) }, 40000, /最多 128 个字符/);
    await refused('PUT', url, u.token, { oldPassword: u.password, newPassword: 'Password123' }, 40000, /过于常见/);
    await refused('PUT', url, u.token, { oldPassword: u.password, newPassword: 'ADMA_PWUSER' }, 40000, /不能与账号相同/);
    await refused('PUT', url, u.token, { oldPassword: u.password, newPassword: u.password }, 40000, /不能与当前密码相同/);
    const long = 'L0ng#'.repeat(13); // 65 characters: the rule allows at least 64
    expect((await k.call('PUT', url, { token: u.token, body: { oldPassword: u.password, newPassword: long } })).body.code).toBe(200);
    expect((await k.call('GET', '/api/admin/user/front/info', { token: other })).body.code).toBe(40101);
    expect((await k.call('GET', '/api/admin/user/front/info', { token: u.token })).body.code).toBe(200);
    await k.login(u.username, long);
  });

  it('the shared rule refuses the username and common passwords', () => {
    expect(passwordProblem('zhangsan_01', 'zhangsan_01')).toBe('密码不能与账号相同');
    expect(passwordProblem('10_nasgnahz', 'zhangsan_01')).toBe('密码不能与账号相同');
    expect(passwordProblem('qwerty123', 'u')).toMatch(/过于常见/);
    expect(passwordProblem('Correct-Horse-7', 'u')).toBeNull();
  });
});
