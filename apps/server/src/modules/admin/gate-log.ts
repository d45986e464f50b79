import type { FastifyReply } from 'fastify';
import type { GateLogDto, GateLogFilter, GateLogQuery } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { GateLogTable } from '../../db/schema.ts';
import { cstTime, queryByIdDescending, streamXlsx } from '../../lib/excel.ts';
import { cachedTotals, paginate } from '../../lib/pagination.ts';
import { listTenant, type Actor } from './actor.ts';

type GateLogRow = Omit<GateLogTable, 'id'> & { id: number };

/** The audit log (gateLogManager): read-only, filtered by user, menu and time, exported to Excel. */
export function createGateLogService(db: Db) {
  // a month of a busy tenant's log is ~100,000 rows to count; other processes' entries show within 5 s
  const totals = cachedTotals(db, ['gate_log'], { ttlMs: 5_000 });
  async function titles(): Promise<Map<string, string>> {
    return new Map((await db.selectFrom('menu').select(['code', 'title']).execute()).map((m) => [m.code, m.title]));
  }

  function filtered(actor: Actor, f: GateLogFilter) {
    const tenantId = listTenant(actor, f.tenantId);
    let q = db.selectFrom('gate_log').selectAll();
    if (tenantId !== null) q = q.where('tenant_id', '=', tenantId);
    if (f.username) q = q.where('username', 'like', `%${f.username}%`);
    if (f.menuCode) q = q.where('menu_code', '=', f.menuCode);
    if (f.timeFrom !== undefined) q = q.where('at', '>=', f.timeFrom);
    if (f.timeTo !== undefined) q = q.where('at', '<=', f.timeTo);
    return q;
  }

  const toDto = (r: GateLogRow, t: Map<string, string>): GateLogDto => ({
    id: r.id, tenantId: r.tenant_id, userId: r.user_id, username: r.username, menuCode: r.menu_code,
    menuTitle: r.menu_code ? t.get(r.menu_code) ?? null : null, operation: r.operation, method: r.method, uri: r.uri,
    host: r.host, status: r.status, at: r.at,
  });

  return {
    async page(actor: Actor, q: GateLogQuery) {
      const [page, t] = await Promise.all([paginate(filtered(actor, q), q, (b) => b.orderBy('at', 'desc').orderBy('id', 'desc'), totals([actor.user.tenantId, actor.user.isPlatform, { ...q, pageNo: 0, pageSize: 0 }])), titles()]);
      return { total: page.total, rows: page.rows.map((r) => toDto(r, t)) };
    },

    async export(actor: Actor, f: GateLogFilter, reply: FastifyReply) {
      const t = await titles();
      const rows = queryByIdDescending(filtered(actor, f));
      return streamXlsx(reply, `操作日志_${cstTime(Date.now()).slice(0, 10)}.xlsx`, '操作日志', [
        { header: '时间', width: 20, value: (r) => cstTime(r.at) },
        { header: '账号', width: 16, value: (r) => r.username },
        { header: '菜单', width: 16, value: (r) => (r.menu_code ? t.get(r.menu_code) ?? r.menu_code : '') },
        { header: '操作', width: 24, value: (r) => r.operation },
        { header: '请求方法', width: 10, value: (r) => r.method },
        { header: '请求地址', width: 40, value: (r) => r.uri },
        { header: '来源地址', width: 16, value: (r) => r.host },
        { header: '结果', width: 8, value: (r) => r.status },
      ], rows);
    },
  };
}

export type GateLogService = ReturnType<typeof createGateLogService>;
