import {
  PLATFORM_ONLY_MENUS, isPlatformOnlyCode,
  type Authority, type AuthorityNode, type AuthorityUpdate, type GroupCreate, type GroupDto, type GroupMembers, type GroupQuery,
  type GroupTreeNode, type GroupTypeCreate, type GroupTypeDto, type GroupTypeQuery, type GroupTypeUpdate, type GroupUpdate, type MembersUpdate,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { GroupTypeTable, RoleTable } from '../../db/schema.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import {
  assertDominatesRole, assertGrantable, assertSameTenant, assertVisible, listTenant, targetTenant, uniqueOr, type Actor,
} from './actor.ts';

type RoleRow = Omit<RoleTable, 'id'> & { id: number };
type GroupTypeRow = Omit<GroupTypeTable, 'id'> & { id: number };

const BUILTIN_TENANT = 0;

/** Group types a tenant may use: the shared built-in ones plus its own. */
function typesOf(db: Db, tenantId: number) {
  return db.selectFrom('group_type').selectAll()
    .where((eb) => eb.or([eb('tenant_id', '=', tenantId), eb.and([eb('tenant_id', '=', BUILTIN_TENANT), eb('builtin', '=', 1)])]));
}

function typeDto(t: GroupTypeRow): GroupTypeDto {
  return { id: t.id, tenantId: t.tenant_id, code: t.code, name: t.name, description: t.description, builtin: t.builtin === 1 };
}

/** Role groups (groupManager): tree, authority (menu and element codes), members and leaders. */
export function createGroupService(db: Db) {
  async function memberCounts(ids: number[]) {
    if (!ids.length) return new Map<number, number>();
    const rows = await db.selectFrom('user_role').select(['role_id', (eb) => eb.fn.countAll<number>().as('n')]).where('role_id', 'in', ids).groupBy('role_id').execute();
    return new Map(rows.map((r) => [r.role_id, Number(r.n)]));
  }

  async function toDtos(rows: RoleRow[]): Promise<GroupDto[]> {
    const counts = await memberCounts(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id, tenantId: r.tenant_id, parentId: r.parent_id, code: r.code, name: r.name, groupType: r.group_type,
      description: r.description, memberCount: counts.get(r.id) ?? 0, createdAt: r.created_at,
    }));
  }

  async function load(actor: Actor, id: number): Promise<RoleRow> {
    const row = await db.selectFrom('role').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('角色');
    assertVisible(actor, row.tenant_id, '角色');
    return row;
  }

  async function get(actor: Actor, id: number) {
    return (await toDtos([await load(actor, id)]))[0];
  }

  async function checkType(tenantId: number, code: string) {
    const t = await typesOf(db, tenantId).where('code', '=', code).executeTakeFirst();
    if (!t) throw invalid(`角色类型不存在：${code}`, ['groupType']);
  }

  /** The parent must be a role of the same tenant and not the role itself or one below it. */
  async function checkParent(tenantId: number, parentId: number | null | undefined, selfId?: number) {
    if (parentId === null || parentId === undefined) return;
    const all = await db.selectFrom('role').select(['id', 'parent_id']).where('tenant_id', '=', tenantId).execute();
    const byId = new Map(all.map((r) => [r.id, r]));
    if (!byId.has(parentId)) throw invalid('上级角色不存在', ['parentId']);
    for (let cur = byId.get(parentId); cur; cur = cur.parent_id === null ? undefined : byId.get(cur.parent_id)) {
      if (cur.id === selfId) throw invalid('上级角色不能是自己或自己的下级', ['parentId']);
    }
  }

  async function knownCodes(): Promise<{ menus: Map<string, string | null>; elements: Map<string, string> }> {
    const [menus, elements] = await Promise.all([
      db.selectFrom('menu').select(['code', 'parent_code']).execute(),
      db.selectFrom('menu_element').select(['code', 'menu_code']).execute(),
    ]);
    return { menus: new Map(menus.map((m) => [m.code, m.parent_code])), elements: new Map(elements.map((e) => [e.code, e.menu_code])) };
  }

  async function authority(actor: Actor, id: number): Promise<Authority> {
    await load(actor, id);
    const rows = await db.selectFrom('role_grant').select('code').where('role_id', '=', id).orderBy('code').execute();
    const codes = rows.map((r) => r.code);
    return { menus: codes.filter((c) => !c.includes(':')), elements: codes.filter((c) => c.includes(':')) };
  }

  async function members(actor: Actor, id: number): Promise<GroupMembers> {
    const role = await load(actor, id);
    const rows = await db.selectFrom('user_role').innerJoin('app_user', 'app_user.id', 'user_role.user_id')
      .select(['app_user.id', 'app_user.username', 'app_user.name', 'user_role.leader']).where('user_role.role_id', '=', id).orderBy('app_user.id').execute();
    const candidates = await db.selectFrom('app_user').select(['id', 'username', 'name']).where('tenant_id', '=', role.tenant_id).orderBy('id').limit(5000).execute();
    const brief = (r: { id: number; username: string; name: string }) => ({ id: r.id, username: r.username, name: r.name });
    return { members: rows.filter((r) => !r.leader).map(brief), leaders: rows.filter((r) => r.leader).map(brief), candidates };
  }

  return {
    get,

    async page(actor: Actor, q: GroupQuery) {
      const tenantId = listTenant(actor, q.tenantId);
      let query = db.selectFrom('role');
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId);
      if (q.keyword) {
        const like = `%${q.keyword}%`;
        query = query.where((eb) => eb.or([eb('name', 'like', like), eb('code', 'like', like)]));
      }
      if (q.groupType) query = query.where('group_type', '=', q.groupType);
      const page = await paginate(query.selectAll(), q, (b) => b.orderBy('id'));
      return { total: page.total, rows: await toDtos(page.rows) };
    },

    async tree(actor: Actor, q: { groupType?: string; tenantId?: number }): Promise<GroupTreeNode[]> {
      const tenantId = listTenant(actor, q.tenantId) ?? actor.user.tenantId;
      let query = db.selectFrom('role').selectAll().where('tenant_id', '=', tenantId);
      if (q.groupType) query = query.where('group_type', '=', q.groupType);
      const dtos = await toDtos(await query.orderBy('id').execute());
      const nodes = new Map<number, GroupTreeNode>(dtos.map((d) => [d.id, { ...d, children: [] }]));
      const roots: GroupTreeNode[] = [];
      for (const n of nodes.values()) {
        const parent = n.parentId === null ? undefined : nodes.get(n.parentId);
        (parent ? parent.children : roots).push(n);
      }
      return roots;
    },

    async create(actor: Actor, body: GroupCreate) {
      const tenantId = await targetTenant(db, actor, body.tenantId);
      await checkType(tenantId, body.groupType);
      await checkParent(tenantId, body.parentId);
      const exists = await db.selectFrom('role').select('id').where('tenant_id', '=', tenantId).where('code', '=', body.code).executeTakeFirst();
      if (exists) throw conflict(`角色编码 ${body.code} 已存在`);
      const row = await uniqueOr(`角色编码 ${body.code} 已存在`, () => db.insertInto('role').values({
        tenant_id: tenantId, parent_id: body.parentId ?? null, code: body.code, name: body.name, group_type: body.groupType,
        description: body.description ?? null, created_at: Date.now(),
      }).returning('id').executeTakeFirstOrThrow());
      return get(actor, row.id);
    },

    async update(actor: Actor, id: number, body: GroupUpdate) {
      const row = await load(actor, id);
      assertSameTenant(body.tenantId, row.tenant_id);
      await assertDominatesRole(db, actor, id);
      if (body.groupType !== undefined) await checkType(row.tenant_id, body.groupType);
      if (body.parentId !== undefined) await checkParent(row.tenant_id, body.parentId, id);
      if (body.code !== undefined && body.code !== row.code) {
        const exists = await db.selectFrom('role').select('id').where('tenant_id', '=', row.tenant_id).where('code', '=', body.code).executeTakeFirst();
        if (exists) throw conflict(`角色编码 ${body.code} 已存在`);
      }
      const patch: Partial<RoleRow> = {};
      if (body.code !== undefined) patch.code = body.code;
      if (body.name !== undefined) patch.name = body.name;
      if (body.groupType !== undefined) patch.group_type = body.groupType;
      if (body.parentId !== undefined) patch.parent_id = body.parentId;
      if (body.description !== undefined) patch.description = body.description;
      if (Object.keys(patch).length) {
        await uniqueOr(`角色编码 ${body.code} 已存在`, () => db.updateTable('role').set(patch).where('id', '=', id).execute());
      }
      return get(actor, id);
    },

    async remove(actor: Actor, id: number) {
      await load(actor, id);
      await assertDominatesRole(db, actor, id);
      const child = await db.selectFrom('role').select('id').where('parent_id', '=', id).executeTakeFirst();
      if (child) throw conflict('该角色下还有下级角色，请先删除或移走下级角色');
      const members = (await memberCounts([id])).get(id) ?? 0;
      if (members) throw conflict(`该角色还有 ${members} 个成员，请先移除成员`);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('role_grant').where('role_id', '=', id).execute();
        await trx.deleteFrom('role').where('id', '=', id).execute();
      });
    },

    authority,

    /**
     * Replaces a role's menu and element codes. Every code must exist and be held by the caller; directories above a
     * granted menu are added so the menu shows in the sidebar. Users of the role see the change on their next request.
     */
    async setAuthority(actor: Actor, id: number, body: AuthorityUpdate): Promise<Authority> {
      const row = await load(actor, id);
      await assertDominatesRole(db, actor, id);
      const known = await knownCodes();
      const unknownMenu = body.menus.find((c) => !known.menus.has(c));
      if (unknownMenu) throw invalid(`菜单不存在：${unknownMenu}`, ['menus']);
      const unknownElement = body.elements.find((c) => !known.elements.has(c));
      if (unknownElement) throw invalid(`按钮权限不存在：${unknownElement}`, ['elements']);
      const codes = new Set([...body.menus, ...body.elements]);
      assertGrantable(actor, codes, row.tenant_id);
      for (const menu of body.menus) {
        for (let p = known.menus.get(menu); p; p = known.menus.get(p) ?? null) {
          if (actor.user.isPlatform || actor.user.codes.has(p)) codes.add(p);
        }
      }
      const list = [...codes];
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('role_grant').where('role_id', '=', id).execute();
        for (let i = 0; i < list.length; i += 200) {
          await trx.insertInto('role_grant').values(list.slice(i, i + 200).map((code) => ({ role_id: id, code }))).execute();
        }
      });
      return authority(actor, id);
    },

    /** The menu tree with elements for the authority editor; platform-only menus only for the platform tenant. */
    async authorityTree(actor: Actor, tenantIdQuery: number | undefined): Promise<AuthorityNode[]> {
      const tenantId = listTenant(actor, tenantIdQuery) ?? actor.user.tenantId;
      const [menus, elements] = await Promise.all([
        db.selectFrom('menu').select(['code', 'title', 'type', 'parent_code']).orderBy('order_no').orderBy('id').execute(),
        db.selectFrom('menu_element').select(['code', 'name', 'menu_code']).orderBy('id').execute(),
      ]);
      const can = (code: string) => actor.user.isPlatform || actor.user.codes.has(code);
      const nodes = new Map<string, AuthorityNode>();
      for (const m of menus) {
        if (tenantId !== 0 && PLATFORM_ONLY_MENUS.has(m.code)) continue;
        nodes.set(m.code, { code: m.code, title: m.title, type: m.type === 'dirt' ? 'dirt' : 'menu', grantable: can(m.code), elements: [], children: [] });
      }
      for (const e of elements) {
        if (tenantId !== 0 && isPlatformOnlyCode(e.code)) continue;
        nodes.get(e.menu_code)?.elements.push({ code: e.code, name: e.name, grantable: can(e.code) });
      }
      const roots: AuthorityNode[] = [];
      for (const m of menus) {
        const node = nodes.get(m.code);
        if (!node) continue;
        const parent = m.parent_code ? nodes.get(m.parent_code) : undefined;
        (parent ? parent.children : roots).push(node);
      }
      return roots;
    },

    members,

    /** Replaces members and leaders (leaders are members too: they get the role's codes). */
    async setMembers(actor: Actor, id: number, body: MembersUpdate): Promise<GroupMembers> {
      const role = await load(actor, id);
      await assertDominatesRole(db, actor, id);
      const leaders = new Set(body.leaders);
      const all = [...new Set([...body.members, ...body.leaders])];
      if (all.length) {
        const found = new Set((await db.selectFrom('app_user').select('id').where('id', 'in', all).where('tenant_id', '=', role.tenant_id).execute()).map((u) => u.id));
        const missing = all.find((u) => !found.has(u));
        if (missing !== undefined) throw invalid(`用户不存在：${missing}`, ['members']);
      }
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('user_role').where('role_id', '=', id).execute();
        if (all.length) await trx.insertInto('user_role').values(all.map((user_id) => ({ user_id, role_id: id, leader: leaders.has(user_id) ? 1 : 0 }))).execute();
      });
      return members(actor, id);
    },

    async types(actor: Actor, tenantIdQuery: number | undefined): Promise<GroupTypeDto[]> {
      const tenantId = listTenant(actor, tenantIdQuery) ?? actor.user.tenantId;
      return (await typesOf(db, tenantId).orderBy('builtin', 'desc').orderBy('id').execute()).map(typeDto);
    },
  };
}

/** Group types (groupTypeManager): the built-in role / department / free types are shared and protected. */
export function createGroupTypeService(db: Db) {
  async function load(actor: Actor, id: number): Promise<GroupTypeRow> {
    const row = await db.selectFrom('group_type').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('角色类型');
    if (!(row.builtin === 1 && row.tenant_id === BUILTIN_TENANT)) assertVisible(actor, row.tenant_id, '角色类型');
    return row;
  }

  async function get(actor: Actor, id: number) {
    return typeDto(await load(actor, id));
  }

  return {
    get,

    async page(actor: Actor, q: GroupTypeQuery) {
      const tenantId = listTenant(actor, q.tenantId);
      let query = tenantId === null ? db.selectFrom('group_type').selectAll() : typesOf(db, tenantId);
      if (q.keyword) {
        const like = `%${q.keyword}%`;
        query = query.where((eb) => eb.or([eb('name', 'like', like), eb('code', 'like', like)]));
      }
      const page = await paginate(query, q, (b) => b.orderBy('builtin', 'desc').orderBy('id'));
      return { total: page.total, rows: page.rows.map(typeDto) };
    },

    async create(actor: Actor, body: GroupTypeCreate) {
      const tenantId = await targetTenant(db, actor, body.tenantId);
      if (await typesOf(db, tenantId).where('code', '=', body.code).executeTakeFirst()) throw conflict(`类型编码 ${body.code} 已存在`);
      const row = await uniqueOr(`类型编码 ${body.code} 已存在`, () => db.insertInto('group_type').values({
        tenant_id: tenantId, code: body.code, name: body.name, description: body.description ?? null, builtin: 0, created_at: Date.now(),
      }).returning('id').executeTakeFirstOrThrow());
      return get(actor, row.id);
    },

    async update(actor: Actor, id: number, body: GroupTypeUpdate) {
      const row = await load(actor, id);
      assertSameTenant(body.tenantId, row.tenant_id);
      if (row.builtin === 1 && !actor.user.isPlatform) throw forbidden('内置角色类型只能由平台管理员修改');
      const patch: Partial<GroupTypeRow> = {};
      if (body.name !== undefined) patch.name = body.name;
      if (body.description !== undefined) patch.description = body.description;
      if (Object.keys(patch).length) await db.updateTable('group_type').set(patch).where('id', '=', id).execute();
      return get(actor, id);
    },

    async remove(actor: Actor, id: number) {
      const row = await load(actor, id);
      if (row.builtin === 1) throw forbidden('内置角色类型不能删除');
      const used = await db.selectFrom('role').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', row.tenant_id).where('group_type', '=', row.code).executeTakeFirst();
      if (Number(used?.n ?? 0) > 0) throw conflict(`有 ${Number(used?.n)} 个角色属于该类型，不能删除`);
      await db.deleteFrom('group_type').where('id', '=', id).execute();
    },
  };
}

export type GroupService = ReturnType<typeof createGroupService>;
export type GroupTypeService = ReturnType<typeof createGroupTypeService>;
