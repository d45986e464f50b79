import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authorityUpdate, changePasswordRequest, elementCreate, elementQuery, elementUpdate, gateLogExportQuery, gateLogQuery, groupCreate, groupQuery,
  groupTreeQuery, groupTypeCreate, groupTypeQuery, groupTypeUpdate, groupUpdate, idParam, membersUpdate, menuCreate, menuQuery, menuUpdate,
  resetPasswordRequest, tenantCreate, tenantFilter, tenantQuery, tenantUpdate, userCreate, userQuery, userUpdate, decimal,
} from '@kelvin/contracts';
import { notFound, ok } from '../../lib/errors.ts';
import { actorOf } from '../../plugins/access.ts';
import { registerCrud } from './crud.ts';
import type { GateLogService } from './gate-log.ts';
import type { GroupService, GroupTypeService } from './groups.ts';
import type { ElementService, MenuService } from './menus.ts';
import type { TenantService } from './tenants.ts';
import type { UserService } from './users.ts';

export interface AdminServices {
  tenants: TenantService;
  users: UserService;
  groups: GroupService;
  groupTypes: GroupTypeService;
  menus: MenuService;
  elements: ElementService;
  gateLog: GateLogService;
}

const tenantQueryParam = z.object({ tenantId: tenantFilter });

/**
 * The AG-Admin shape the console expects: `/api/admin/{entity}` with POST create, GET/PUT/DELETE `/{id}`
 * and GET `/page` → `{ total, rows }`, each guarded by the screen's element code; plus the tree, authority, member,
 * password and gate-log endpoints the screens need.
 */
export async function adminRoutes(app: FastifyInstance, opts: AdminServices) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  registerCrud(app, { base: '/api/admin/tenant', menu: 'tenantManager', label: '租户', tag: '管理：租户', schemas: { create: tenantCreate, update: tenantUpdate, query: tenantQuery }, service: opts.tenants });
  registerCrud(app, { base: '/api/admin/user', menu: 'userManager', label: '用户', tag: '管理：用户', schemas: { create: userCreate, update: userUpdate, query: userQuery }, service: opts.users });
  registerCrud(app, { base: '/api/admin/group', menu: 'groupManager', label: '角色', tag: '管理：角色', schemas: { create: groupCreate, update: groupUpdate, query: groupQuery }, service: opts.groups });
  registerCrud(app, { base: '/api/admin/groupType', menu: 'groupTypeManager', label: '角色类型', tag: '管理：角色类型', schemas: { create: groupTypeCreate, update: groupTypeUpdate, query: groupTypeQuery }, service: opts.groupTypes });
  registerCrud(app, { base: '/api/admin/menu', menu: 'menuManager', label: '菜单', tag: '管理：菜单', schemas: { create: menuCreate, update: menuUpdate, query: menuQuery }, service: opts.menus });
  registerCrud(app, { base: '/api/admin/element', menu: 'menuManager', label: '按钮权限', tag: '管理：按钮权限', schemas: { create: elementCreate, update: elementUpdate, query: elementQuery }, service: opts.elements });

  // ---- tenants: the logo is public like the brand name (login page, footer)
  r.get('/api/v1/tenant/logo', {
    schema: { tags: ['管理：租户'], summary: '租户标志图片', querystring: z.object({ tenantId: decimal(z.number().int().min(0)) }) },
    config: { access: 'public' },
  }, async (req, reply) => {
    const logo = await opts.tenants.logo(req.query.tenantId);
    if (!logo) throw notFound('标志');
    return reply.header('content-type', logo.mime).header('x-content-type-options', 'nosniff').header('cache-control', 'no-cache').send(logo.bytes);
  });

  // ---- users
  r.get('/api/admin/user/roles', {
    schema: { tags: ['管理：用户'], summary: '可分配的角色（grantable = 当前用户可授予）', querystring: tenantQueryParam },
    config: { access: 'userManager:view' },
  }, async (req) => ok(await opts.users.roleOptions(actorOf(req), req.query.tenantId)));

  r.put('/api/admin/user/:id/password', {
    schema: { tags: ['管理：用户'], summary: '重置用户密码（该用户的全部会话失效）', params: idParam, body: resetPasswordRequest },
    config: { access: 'userManager:btn_edit', operation: '重置密码' },
  }, async (req) => {
    await opts.users.resetPassword(actorOf(req), req.params.id, req.body.password);
    return ok(null, '密码已重置');
  });

  r.put('/api/admin/user/front/password', {
    schema: { tags: ['管理：用户'], summary: '修改自己的密码（其他会话失效）', body: changePasswordRequest },
    config: { access: 'changepassword:btn_edit', operation: '修改密码' },
  }, async (req) => {
    await opts.users.changeOwnPassword(actorOf(req), req.body.oldPassword, req.body.newPassword);
    return ok(null, '密码已修改，其他设备上的登录已退出');
  });

  // ---- groups (roles)
  const groupTags = ['管理：角色'];
  r.get('/api/admin/group/tree', {
    schema: { tags: groupTags, summary: '角色树', querystring: groupTreeQuery },
    config: { access: 'groupManager:view' },
  }, async (req) => ok(await opts.groups.tree(actorOf(req), req.query)));

  r.get('/api/admin/group/types', {
    schema: { tags: groupTags, summary: '可用的角色类型', querystring: tenantQueryParam },
    config: { access: 'groupManager:view' },
  }, async (req) => ok(await opts.groups.types(actorOf(req), req.query.tenantId)));

  r.get('/api/admin/group/authority/tree', {
    schema: { tags: groupTags, summary: '权限编辑用的菜单与按钮树', querystring: tenantQueryParam },
    config: { access: 'groupManager:view' },
  }, async (req) => ok(await opts.groups.authorityTree(actorOf(req), req.query.tenantId)));

  r.get('/api/admin/group/:id/authority', {
    schema: { tags: groupTags, summary: '角色的菜单与按钮权限', params: idParam },
    config: { access: 'groupManager:view' },
  }, async (req) => ok(await opts.groups.authority(actorOf(req), req.params.id)));

  r.put('/api/admin/group/:id/authority', {
    schema: { tags: groupTags, summary: '替换角色的菜单与按钮权限（下一次请求生效）', params: idParam, body: authorityUpdate },
    config: { access: 'groupManager:btn_edit', operation: '修改角色权限' },
  }, async (req) => ok(await opts.groups.setAuthority(actorOf(req), req.params.id, req.body), '权限已保存'));

  r.get('/api/admin/group/:id/user', {
    schema: { tags: groupTags, summary: '角色的成员与负责人', params: idParam },
    config: { access: 'groupManager:view' },
  }, async (req) => ok(await opts.groups.members(actorOf(req), req.params.id)));

  r.put('/api/admin/group/:id/user', {
    schema: { tags: groupTags, summary: '替换角色的成员与负责人', params: idParam, body: membersUpdate },
    config: { access: 'groupManager:btn_edit', operation: '修改角色成员' },
  }, async (req) => ok(await opts.groups.setMembers(actorOf(req), req.params.id, req.body), '成员已保存'));

  // ---- menus
  r.get('/api/admin/menu/tree', {
    schema: { tags: ['管理：菜单'], summary: '菜单树' },
    config: { access: 'menuManager:view' },
  }, async (req) => ok(await opts.menus.tree(actorOf(req))));

  // ---- gate log (read-only)
  r.get('/api/admin/gateLog/page', {
    schema: { tags: ['管理：操作日志'], summary: '操作日志（分页）', querystring: gateLogQuery },
    config: { access: 'gateLogManager:view' },
  }, async (req) => ok(await opts.gateLog.page(actorOf(req), req.query)));

  r.get('/api/admin/gateLog/export', {
    schema: { tags: ['管理：操作日志'], summary: '导出操作日志（Excel）', querystring: gateLogExportQuery },
    config: { access: 'gateLogManager:export' },
  }, async (req, reply) => opts.gateLog.export(actorOf(req), req.query, reply));
}
