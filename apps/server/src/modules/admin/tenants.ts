import { PLATFORM_ONLY_MENUS, passwordProblem, type TenantCreate, type TenantDto, type TenantQuery, type TenantUpdate } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { TenantTable } from '../../db/schema.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { ProjectService } from '../projects/index.ts';
import { hashPassword } from '../auth/index.ts';
import { assertPlatform, flag, uniqueOr, type Actor } from './actor.ts';

type TenantRow = Omit<TenantTable, 'id'> & { id: number };

const PLATFORM = 0;

function toDto(t: TenantRow, userCount: number): TenantDto {
  return {
    id: t.id,
    code: t.code,
    name: t.name,
    contact: t.contact,
    phone: t.phone,
    brand: t.brand,
    filingNo: t.filing_no,
    hasLogo: !!t.logo,
    enabled: t.enabled === 1,
    userCount,
    createdAt: t.created_at,
  };
}

/** Tenants (operator companies): platform administrators only. */
/** What another module keeps per tenant and removes with it, inside the deleting transaction. */
export type TenantCleanup = (trx: Db, tenantId: number) => Promise<void>;

export function createTenantService(db: Db, projects: ProjectService) {
  const cleanups: TenantCleanup[] = [];
  async function userCounts(ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await db.selectFrom('app_user').select(['tenant_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tenant_id', 'in', ids).groupBy('tenant_id').execute();
    return new Map(rows.map((r) => [r.tenant_id, Number(r.n)]));
  }

  async function load(actor: Actor, id: number): Promise<TenantRow> {
    assertPlatform(actor, '管理租户');
    const row = await db.selectFrom('tenant').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('租户');
    return row;
  }

  async function get(actor: Actor, id: number): Promise<TenantDto> {
    const row = await load(actor, id);
    return toDto(row, (await userCounts([id])).get(id) ?? 0);
  }

  return {
    registerCleanup(cleanup: TenantCleanup) {
      cleanups.push(cleanup);
    },

    get,

    async page(actor: Actor, q: TenantQuery) {
      assertPlatform(actor, '管理租户');
      let query = db.selectFrom('tenant');
      if (q.keyword) {
        const like = `%${q.keyword}%`;
        query = query.where((eb) => eb.or([eb('name', 'like', like), eb('code', 'like', like), eb('brand', 'like', like)]));
      }
      if (q.enabled) query = query.where('enabled', '=', Number(q.enabled));
      const page = await paginate(query.selectAll(), q, (b) => b.orderBy('id'));
      const counts = await userCounts(page.rows.map((r) => r.id));
      return {
    registerCleanup(cleanup: TenantCleanup) {
      cleanups.push(cleanup);
    },
 total: page.total, rows: page.rows.map((r) => toDto(r, counts.get(r.id) ?? 0)) };
    },

    async create(actor: Actor, body: TenantCreate) {
      assertPlatform(actor, '管理租户');
      if (await db.selectFrom('tenant').select('id').where('code', '=', body.code).executeTakeFirst()) throw conflict(`租户编码 ${body.code} 已存在`);
      if (body.admin) {
        const problem = passwordProblem(body.admin.password, body.admin.username);
        if (problem) throw invalid(problem, ['admin', 'password']);
        if (await db.selectFrom('app_user').select('id').where('username', '=', body.admin.username).executeTakeFirst()) {
          throw conflict(`账号 ${body.admin.username} 已存在`);
        }
      }
      const now = Date.now();
      const adminHash = body.admin ? await hashPassword(body.admin.password) : null;
      const id = await uniqueOr('租户编码或管理员账号已存在', () => db.transaction().execute(async (trx) => {
        const t = await trx.insertInto('tenant').values({
          code: body.code, name: body.name, contact: body.contact ?? null, phone: body.phone ?? null, brand: body.brand ?? null,
          filing_no: body.filingNo ?? null, logo: body.logo ?? null, enabled: flag(body.enabled ?? true), created_at: now,
        }).returning('id').executeTakeFirstOrThrow();
        if (body.admin && adminHash) {
          // The first administrator: every screen and button except the platform's own.
          const role = await trx.insertInto('role').values({
            tenant_id: t.id, parent_id: null, code: 'tenant_admin', name: '租户管理员', group_type: 'role', description: '本租户全部功能', created_at: now,
          }).returning('id').executeTakeFirstOrThrow();
          const [menus, elements] = await Promise.all([
            trx.selectFrom('menu').select('code').execute(),
            trx.selectFrom('menu_element').select(['code', 'menu_code']).execute(),
          ]);
          const codes = [
            ...menus.filter((m) => !PLATFORM_ONLY_MENUS.has(m.code)).map((m) => m.code),
            ...elements.filter((e) => !PLATFORM_ONLY_MENUS.has(e.menu_code)).map((e) => e.code),
          ];
          for (let i = 0; i < codes.length; i += 200) {
            await trx.insertInto('role_grant').values(codes.slice(i, i + 200).map((code) => ({ role_id: role.id, code }))).execute();
          }
          const user = await trx.insertInto('app_user').values({
            tenant_id: t.id, username: body.admin.username, password_hash: adminHash, name: body.admin.name, phone: null,
            description: '租户管理员', enabled: 1, all_projects: 1, is_platform: 0, created_at: now,
          }).returning('id').executeTakeFirstOrThrow();
          await trx.insertInto('user_role').values({ user_id: user.id, role_id: role.id }).execute();
        }
        return t.id;
      }));
      return get(actor, id);
    },

    async update(actor: Actor, id: number, body: TenantUpdate) {
      await load(actor, id);
      if (id === PLATFORM && body.enabled === false) throw forbidden('平台租户不能停用');
      const patch: Partial<TenantRow> = {};
      if (body.name !== undefined) patch.name = body.name;
      if (body.contact !== undefined) patch.contact = body.contact;
      if (body.phone !== undefined) patch.phone = body.phone;
      if (body.brand !== undefined) patch.brand = body.brand;
      if (body.filingNo !== undefined) patch.filing_no = body.filingNo;
      if (body.logo !== undefined) patch.logo = body.logo;
      if (body.enabled !== undefined) patch.enabled = flag(body.enabled);
      if (Object.keys(patch).length) await db.updateTable('tenant').set(patch).where('id', '=', id).execute();
      return get(actor, id);
    },

    /** Only an empty tenant can be deleted; one with users or projects is disabled instead. */
    async remove(actor: Actor, id: number) {
      await load(actor, id);
      if (id === PLATFORM) throw forbidden('平台租户不能删除');
      const users = (await userCounts([id])).get(id) ?? 0;
      if (users > 0) throw conflict(`租户下还有 ${users} 个用户，不能删除；可以先停用该租户`);
      const areas = await projects.tree({ userId: actor.user.id, tenantId: id, isPlatform: false, projectIds: null }, -1);
      if (areas.length) throw conflict('租户下还有区域和项目，不能删除；可以先停用该租户');
      await db.transaction().execute(async (trx) => {
        const roleIds = (await trx.selectFrom('role').select('id').where('tenant_id', '=', id).execute()).map((r) => r.id);
        if (roleIds.length) {
          await trx.deleteFrom('role_grant').where('role_id', 'in', roleIds).execute();
          await trx.deleteFrom('user_role').where('role_id', 'in', roleIds).execute();
        }
        await trx.deleteFrom('role').where('tenant_id', '=', id).execute();
        await trx.deleteFrom('group_type').where('tenant_id', '=', id).execute();
        for (const cleanup of cleanups) await cleanup(trx, id);
        await trx.deleteFrom('tenant').where('id', '=', id).execute();
      });
    },

    /** The tenant's logo as bytes (public, like the brand name). */
    async logo(id: number): Promise<{ mime: string; bytes: Buffer } | null> {
      const row = await db.selectFrom('tenant').select('logo').where('id', '=', id).executeTakeFirst();
      const m = row?.logo?.match(/^data:(image\/[a-z]+);base64,(.*)$/);
      return m ? { mime: m[1], bytes: Buffer.from(m[2], 'base64') } : null;
    },
  };
}

export type TenantService = ReturnType<typeof createTenantService>;
