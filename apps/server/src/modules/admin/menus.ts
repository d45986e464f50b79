import {
  MENUS, PLATFORM_ONLY_MENUS, elementCodes,
  type ElementCreate, type ElementDto, type ElementQuery, type ElementUpdate, type MenuCreate, type MenuDto, type MenuQuery, type MenuTreeNode, type MenuUpdate,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { MenuElementTable, MenuTable } from '../../db/schema.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { assertPlatform, flag, uniqueOr, type Actor } from './actor.ts';

type MenuRow = Omit<MenuTable, 'id'> & { id: number };
type ElementRow = Omit<MenuElementTable, 'id'> & { id: number };

/** Element codes the code base defines (contracts/menus.ts): routes check them, so they cannot be deleted. */
const BUILTIN_ELEMENTS: ReadonlySet<string> = new Set(MENUS.flatMap((m) => elementCodes(m)));

function menuDto(m: MenuRow): MenuDto {
  return {
    id: m.id, code: m.code, title: m.title, icon: m.icon, parentCode: m.parent_code, type: m.type === 'dirt' ? 'dirt' : 'menu',
    path: m.path, href: m.href, orderNo: m.order_no, hidden: m.hidden === 1, builtin: m.builtin === 1, platformOnly: PLATFORM_ONLY_MENUS.has(m.code),
  };
}

function elementDto(e: ElementRow): ElementDto {
  return { id: e.id, menuCode: e.menu_code, code: e.code, kind: e.kind, name: e.name, uri: e.uri, method: e.method, builtin: BUILTIN_ELEMENTS.has(e.code) };
}

/** Menus and their elements (menuManager): global, platform administrators only. */
export function createMenuService(db: Db) {
  async function load(actor: Actor, id: number): Promise<MenuRow> {
    assertPlatform(actor, '管理菜单');
    const row = await db.selectFrom('menu').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('菜单');
    return row;
  }

  /** A parent must be an existing directory, and not the menu itself or one below it. */
  async function checkParent(parentCode: string | null, selfCode?: string): Promise<MenuRow | null> {
    if (!parentCode) return null;
    const all = await db.selectFrom('menu').selectAll().execute();
    const byCode = new Map(all.map((m) => [m.code, m]));
    const parent = byCode.get(parentCode);
    if (!parent || parent.type !== 'dirt') throw invalid('上级菜单不存在或不是目录', ['parentCode']);
    for (let cur: MenuRow | undefined = parent; cur; cur = cur.parent_code ? byCode.get(cur.parent_code) : undefined) {
      if (cur.code === selfCode) throw invalid('上级菜单不能是自己或自己的下级', ['parentCode']);
    }
    return parent;
  }

  /** Route path of a new menu: `/{group}/{code}` under its top-level directory (as contracts/menus.ts builds it). */
  async function pathOf(code: string, parent: MenuRow | null): Promise<string> {
    if (!parent) return `/${code}`;
    let root = parent;
    while (root.parent_code) {
      const up = await db.selectFrom('menu').selectAll().where('code', '=', root.parent_code).executeTakeFirst();
      if (!up) break;
      root = up;
    }
    return `/${root.code}/${code}`;
  }

  async function get(actor: Actor, id: number) {
    return menuDto(await load(actor, id));
  }

  return {
    get,

    async page(actor: Actor, q: MenuQuery) {
      assertPlatform(actor, '管理菜单');
      let query = db.selectFrom('menu');
      if (q.keyword) {
        const like = `%${q.keyword}%`;
        query = query.where((eb) => eb.or([eb('title', 'like', like), eb('code', 'like', like)]));
      }
      if (q.parentCode) query = query.where('parent_code', '=', q.parentCode);
      if (q.type) query = query.where('type', '=', q.type);
      const page = await paginate(query.selectAll(), q, (b) => b.orderBy('order_no').orderBy('id'));
      return { total: page.total, rows: page.rows.map(menuDto) };
    },

    async tree(actor: Actor): Promise<MenuTreeNode[]> {
      assertPlatform(actor, '管理菜单');
      const rows = await db.selectFrom('menu').selectAll().orderBy('order_no').orderBy('id').execute();
      const nodes = new Map<string, MenuTreeNode>(rows.map((m) => [m.code, { ...menuDto(m), children: [] }]));
      const roots: MenuTreeNode[] = [];
      for (const m of rows) {
        const parent = m.parent_code ? nodes.get(m.parent_code) : undefined;
        (parent ? parent.children : roots).push(nodes.get(m.code)!);
      }
      return roots;
    },

    async create(actor: Actor, body: MenuCreate) {
      assertPlatform(actor, '管理菜单');
      if (await db.selectFrom('menu').select('id').where('code', '=', body.code).executeTakeFirst()) throw conflict(`菜单编码 ${body.code} 已存在`);
      if (!body.parentCode && body.type !== 'dirt') throw invalid('顶层只能是目录，请选择上级目录', ['parentCode']);
      const parent = await checkParent(body.parentCode ?? null);
      const max = await db.selectFrom('menu').select((eb) => eb.fn.max('order_no').as('m')).executeTakeFirst();
      const row = await uniqueOr(`菜单编码 ${body.code} 已存在`, async () => db.insertInto('menu').values({
        code: body.code, title: body.title, icon: body.icon ?? null, parent_code: body.parentCode ?? null, type: body.type,
        path: await pathOf(body.code, parent), href: body.href ?? null, order_no: body.orderNo ?? Number(max?.m ?? 0) + 1,
        hidden: flag(body.hidden ?? false), builtin: 0,
      }).returning('id').executeTakeFirstOrThrow());
      return get(actor, row.id);
    },

    async update(actor: Actor, id: number, body: MenuUpdate) {
      const row = await load(actor, id);
      const patch: Partial<MenuRow> = {};
      if (body.parentCode !== undefined && body.parentCode !== row.parent_code) {
        // the web route table places built-in screens by their contracts entry; moving them would break their paths
        if (row.builtin) throw forbidden('内置菜单不能移动到其他目录');
        if (!body.parentCode && (body.type ?? row.type) !== 'dirt') throw invalid('顶层只能是目录，请选择上级目录', ['parentCode']);
        const parent = await checkParent(body.parentCode ?? null, row.code);
        patch.parent_code = body.parentCode ?? null;
        patch.path = await pathOf(row.code, parent);
      }
      if (body.type !== undefined && body.type !== row.type) {
        const child = await db.selectFrom('menu').select('id').where('parent_code', '=', row.code).executeTakeFirst();
        if (child && body.type === 'menu') throw invalid('该菜单下还有下级菜单，不能改为菜单类型', ['type']);
        patch.type = body.type;
      }
      if (body.title !== undefined) patch.title = body.title;
      if (body.icon !== undefined) patch.icon = body.icon;
      if (body.href !== undefined) patch.href = body.href;
      if (body.orderNo !== undefined) patch.order_no = body.orderNo;
      if (body.hidden !== undefined) patch.hidden = flag(body.hidden);
      if (Object.keys(patch).length) await db.updateTable('menu').set(patch).where('id', '=', id).execute();
      return get(actor, id);
    },

    /** Custom menus only: a built-in code is used by routes and screens, so deleting it is refused. */
    async remove(actor: Actor, id: number) {
      const row = await load(actor, id);
      if (row.builtin) throw forbidden(`「${row.title}」（${row.code}）是系统内置菜单，程序依赖该编码，不能删除；可以将其隐藏`);
      const child = await db.selectFrom('menu').select('id').where('parent_code', '=', row.code).executeTakeFirst();
      if (child) throw conflict('该菜单下还有下级菜单，请先删除下级菜单');
      await db.transaction().execute(async (trx) => {
        const elements = (await trx.selectFrom('menu_element').select('code').where('menu_code', '=', row.code).execute()).map((e) => e.code);
        await trx.deleteFrom('role_grant').where('code', 'in', [row.code, ...elements]).execute();
        await trx.deleteFrom('menu_element').where('menu_code', '=', row.code).execute();
        await trx.deleteFrom('menu').where('id', '=', id).execute();
      });
    },
  };
}

/** Elements (button / API permissions) of menus: platform administrators only. */
export function createElementService(db: Db) {
  async function load(actor: Actor, id: number): Promise<ElementRow> {
    assertPlatform(actor, '管理菜单');
    const row = await db.selectFrom('menu_element').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('按钮权限');
    return row;
  }

  async function get(actor: Actor, id: number) {
    return elementDto(await load(actor, id));
  }

  return {
    get,

    async page(actor: Actor, q: ElementQuery) {
      assertPlatform(actor, '管理菜单');
      let query = db.selectFrom('menu_element');
      if (q.menuCode) query = query.where('menu_code', '=', q.menuCode);
      if (q.keyword) {
        const like = `%${q.keyword}%`;
        query = query.where((eb) => eb.or([eb('name', 'like', like), eb('code', 'like', like)]));
      }
      const page = await paginate(query.selectAll(), q, (b) => b.orderBy('id'));
      return { total: page.total, rows: page.rows.map(elementDto) };
    },

    async create(actor: Actor, body: ElementCreate) {
      assertPlatform(actor, '管理菜单');
      const menu = await db.selectFrom('menu').select('code').where('code', '=', body.menuCode).executeTakeFirst();
      if (!menu) throw invalid('所属菜单不存在', ['menuCode']);
      if (!body.code.startsWith(`${body.menuCode}:`)) throw invalid(`权限码须以所属菜单编码开头：${body.menuCode}:…`, ['code']);
      if (await db.selectFrom('menu_element').select('id').where('code', '=', body.code).executeTakeFirst()) throw conflict(`权限码 ${body.code} 已存在`);
      const row = await uniqueOr(`权限码 ${body.code} 已存在`, () => db.insertInto('menu_element').values({
        menu_code: body.menuCode, code: body.code, kind: body.kind, name: body.name, uri: body.uri ?? null, method: body.method ?? null,
      }).returning('id').executeTakeFirstOrThrow());
      return get(actor, row.id);
    },

    async update(actor: Actor, id: number, body: ElementUpdate) {
      await load(actor, id);
      const patch: Partial<ElementRow> = {};
      if (body.kind !== undefined) patch.kind = body.kind;
      if (body.name !== undefined) patch.name = body.name;
      if (body.uri !== undefined) patch.uri = body.uri;
      if (body.method !== undefined) patch.method = body.method;
      if (Object.keys(patch).length) await db.updateTable('menu_element').set(patch).where('id', '=', id).execute();
      return get(actor, id);
    },

    async remove(actor: Actor, id: number) {
      const row = await load(actor, id);
      if (BUILTIN_ELEMENTS.has(row.code)) throw forbidden(`「${row.name}」（${row.code}）是系统内置按钮权限，接口依赖该编码，不能删除`);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('role_grant').where('code', '=', row.code).execute();
        await trx.deleteFrom('menu_element').where('id', '=', id).execute();
      });
    },
  };
}

export type MenuService = ReturnType<typeof createMenuService>;
export type ElementService = ReturnType<typeof createElementService>;
