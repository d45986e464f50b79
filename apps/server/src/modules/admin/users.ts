import { passwordProblem, type UserCreate, type UserDto, type UserQuery, type UserUpdate } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { AppUserTable } from '../../db/schema.ts';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { ProjectService } from '../projects/index.ts';
import { hashPassword, verifyPassword, deleteUserSessions, revokeUserSessions } from '../auth/index.ts';
import {
  assertDominatesUser, assertGrantable, assertSameTenant, assertVisible, codesOfRoles, denied, flag, listTenant, targetTenant, uniqueOr, type Actor,
} from './actor.ts';

type UserRow = Omit<AppUserTable, 'id'> & { id: number };

function checkPassword(password: string, username: string, path: string) {
  const problem = passwordProblem(password, username);
  if (problem) throw invalid(problem, [path]);
}

/** Users of a tenant: roles, granted projects, enable/disable and passwords (userManager, changepassword). */
export function createUserService(db: Db, projects: ProjectService) {
  async function toDtos(rows: UserRow[]): Promise<UserDto[]> {
    const ids = rows.map((r) => r.id);
    const [roles, grants] = ids.length
      ? await Promise.all([
        db.selectFrom('user_role').innerJoin('role', 'role.id', 'user_role.role_id')
          .select(['user_role.user_id', 'role.id', 'role.name']).where('user_role.user_id', 'in', ids).orderBy('role.id').execute(),
        db.selectFrom('user_project').select(['user_id', 'project_id']).where('user_id', 'in', ids).orderBy('project_id').execute(),
      ])
      : [[], []];
    return rows.map((u) => ({
      id: u.id,
      tenantId: u.tenant_id,
      username: u.username,
      name: u.name,
      phone: u.phone,
      description: u.description,
      enabled: u.enabled === 1,
      allProjects: u.all_projects === 1,
      isPlatform: u.is_platform === 1,
      roles: roles.filter((r) => r.user_id === u.id).map((r) => ({ id: r.id, name: r.name })),
      projectIds: grants.filter((g) => g.user_id === u.id).map((g) => g.project_id),
      createdAt: u.created_at,
    }));
  }

  async function load(actor: Actor, id: number): Promise<UserRow> {
    const row = await db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('用户');
    assertVisible(actor, row.tenant_id, '用户');
    return row;
  }

  async function get(actor: Actor, id: number): Promise<UserDto> {
    return (await toDtos([await load(actor, id)]))[0];
  }

  /** Roles must exist in the user's tenant, and the caller must hold every code a newly given role grants. */
  async function checkRoles(actor: Actor, tenantId: number, roleIds: number[], current: number[] = []) {
    const wanted = [...new Set(roleIds)];
    if (!wanted.length) return wanted;
    const found = new Set((await db.selectFrom('role').select('id').where('id', 'in', wanted).where('tenant_id', '=', tenantId).execute()).map((r) => r.id));
    const missing = wanted.find((id) => !found.has(id));
    if (missing !== undefined) throw invalid(`角色不存在：${missing}`, ['roleIds']);
    const added = wanted.filter((id) => !current.includes(id));
    assertGrantable(actor, await codesOfRoles(db, added), tenantId);
    return wanted;
  }

  /** Projects must be ones the caller sees, of the user's tenant. */
  async function checkProjects(actor: Actor, tenantId: number, projectIds: number[]) {
    const wanted = [...new Set(projectIds)];
    for (const id of wanted) {
      const p = await projects.project(actor.scope, id).catch((err: unknown) => {
        if (err instanceof AppError && err.httpStatus === 404) return null;
        throw err;
      });
      if (!p || p.tenant_id !== tenantId) throw invalid(`项目不存在：${id}`, ['projectIds']);
    }
    return wanted;
  }

  function checkAllProjects(actor: Actor, allProjects: boolean | undefined) {
    if (allProjects && !actor.user.allProjects) throw denied('不能授予全部项目权限：您自己只能访问部分项目');
  }

  const revokeSessions = (userId: number, exceptSessionId?: string) => revokeUserSessions(db, userId, exceptSessionId);

  return {
    get,

    async page(actor: Actor, q: UserQuery) {
      const tenantId = listTenant(actor, q.tenantId);
      let query = db.selectFrom('app_user');
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId);
      if (q.keyword) {
        const like = `%${q.keyword}%`;
        query = query.where((eb) => eb.or([eb('username', 'like', like), eb('name', 'like', like), eb('phone', 'like', like)]));
      }
      if (q.enabled) query = query.where('enabled', '=', Number(q.enabled));
      if (q.roleId) {
        const roleId = q.roleId;
        query = query.where('id', 'in', (eb) => eb.selectFrom('user_role').select('user_id').where('role_id', '=', roleId));
      }
      const page = await paginate(query.selectAll(), q, (b) => b.orderBy('id'));
      return { total: page.total, rows: await toDtos(page.rows) };
    },

    async create(actor: Actor, body: UserCreate) {
      const tenantId = await targetTenant(db, actor, body.tenantId);
      checkPassword(body.password, body.username, 'password');
      if (await db.selectFrom('app_user').select('id').where('username', '=', body.username).executeTakeFirst()) throw conflict(`账号 ${body.username} 已存在`);
      const roleIds = await checkRoles(actor, tenantId, body.roleIds ?? []);
      const projectIds = await checkProjects(actor, tenantId, body.projectIds ?? []);
      checkAllProjects(actor, body.allProjects);
      const hash = await hashPassword(body.password);
      const id = await uniqueOr(`账号 ${body.username} 已存在`, () => db.transaction().execute(async (trx) => {
        const u = await trx.insertInto('app_user').values({
          tenant_id: tenantId, username: body.username, password_hash: hash, name: body.name, phone: body.phone ?? null,
          description: body.description ?? null, enabled: flag(body.enabled ?? true), all_projects: flag(body.allProjects ?? false),
          is_platform: 0, created_at: Date.now(),
        }).returning('id').executeTakeFirstOrThrow();
        if (roleIds.length) await trx.insertInto('user_role').values(roleIds.map((role_id) => ({ user_id: u.id, role_id }))).execute();
        if (projectIds.length) await trx.insertInto('user_project').values(projectIds.map((project_id) => ({ user_id: u.id, project_id }))).execute();
        return u.id;
      }));
      return get(actor, id);
    },

    async update(actor: Actor, id: number, body: UserUpdate) {
      const row = await load(actor, id);
      assertSameTenant(body.tenantId, row.tenant_id);
      await assertDominatesUser(db, actor, row);
      if (id === actor.user.id && body.enabled === false) throw invalid('不能停用当前登录的账号', ['enabled']);
      const currentRoles = (await db.selectFrom('user_role').select('role_id').where('user_id', '=', id).execute()).map((r) => r.role_id);
      const roleIds = body.roleIds && (await checkRoles(actor, row.tenant_id, body.roleIds, currentRoles));
      const projectIds = body.projectIds && (await checkProjects(actor, row.tenant_id, body.projectIds));
      checkAllProjects(actor, body.allProjects);
      const patch: Partial<UserRow> = {};
      if (body.name !== undefined) patch.name = body.name;
      if (body.phone !== undefined) patch.phone = body.phone;
      if (body.description !== undefined) patch.description = body.description;
      if (body.enabled !== undefined) patch.enabled = flag(body.enabled);
      if (body.allProjects !== undefined) patch.all_projects = flag(body.allProjects);
      await db.transaction().execute(async (trx) => {
        if (Object.keys(patch).length) await trx.updateTable('app_user').set(patch).where('id', '=', id).execute();
        if (roleIds) {
          // leaders keep their flag when they stay in the role
          const gone = currentRoles.filter((r) => !roleIds.includes(r));
          if (gone.length) await trx.deleteFrom('user_role').where('user_id', '=', id).where('role_id', 'in', gone).execute();
          const added = roleIds.filter((r) => !currentRoles.includes(r));
          if (added.length) await trx.insertInto('user_role').values(added.map((role_id) => ({ user_id: id, role_id }))).execute();
        }
        if (projectIds) {
          await trx.deleteFrom('user_project').where('user_id', '=', id).execute();
          if (projectIds.length) await trx.insertInto('user_project').values(projectIds.map((project_id) => ({ user_id: id, project_id }))).execute();
        }
      });
      return get(actor, id);
    },

    async remove(actor: Actor, id: number) {
      const row = await load(actor, id);
      if (id === actor.user.id) throw invalid('不能删除当前登录的账号');
      await assertDominatesUser(db, actor, row);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_role').where('user_id', '=', id).execute();
        await trx.deleteFrom('user_project').where('user_id', '=', id).execute();
        await deleteUserSessions(trx, id);
        await trx.deleteFrom('app_user').where('id', '=', id).execute();
      });
    },

    /** An administrator sets a new password; every session of that user ends. */
    async resetPassword(actor: Actor, id: number, password: string) {
      const row = await load(actor, id);
      if (id === actor.user.id) throw invalid('请通过“修改密码”修改自己的密码（需要当前密码）');
      await assertDominatesUser(db, actor, row);
      checkPassword(password, row.username, 'password');
      await db.updateTable('app_user').set({ password_hash: await hashPassword(password) }).where('id', '=', id).execute();
      await revokeSessions(id);
    },

    /** The user changes their own password; their other sessions end, this one stays. */
    async changeOwnPassword(actor: Actor, oldPassword: string, newPassword: string) {
      const row = await load(actor, actor.user.id);
      if (!(await verifyPassword(row.password_hash, oldPassword))) throw invalid('当前密码不正确', ['oldPassword']);
      if (oldPassword === newPassword) throw invalid('新密码不能与当前密码相同', ['newPassword']);
      checkPassword(newPassword, row.username, 'newPassword');
      await db.updateTable('app_user').set({ password_hash: await hashPassword(newPassword) }).where('id', '=', row.id).execute();
      await revokeSessions(row.id, actor.user.sessionId);
    },

    /** Roles the user form may offer, with whether the caller may give each one. */
    async roleOptions(actor: Actor, tenantIdQuery: number | undefined) {
      const tenantId = listTenant(actor, tenantIdQuery) ?? actor.user.tenantId;
      const roles = await db.selectFrom('role').select(['id', 'name', 'code', 'group_type']).where('tenant_id', '=', tenantId).orderBy('id').execute();
      const grants = roles.length ? await db.selectFrom('role_grant').select(['role_id', 'code']).where('role_id', 'in', roles.map((r) => r.id)).execute() : [];
      return roles.map((r) => ({
        id: r.id,
        name: r.name,
        code: r.code,
        groupType: r.group_type,
        grantable: actor.user.isPlatform || grants.filter((g) => g.role_id === r.id).every((g) => actor.user.codes.has(g.code)),
      }));
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
