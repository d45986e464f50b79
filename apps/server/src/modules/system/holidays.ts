import type { HolidayDto, HolidayQuery, HolidayType, HolidayUpdate } from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { HolidayTable } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { ProjectService } from '../projects/index.ts';
import { denied, listTenant, uniqueOr } from '../admin/index.ts';
import type { Actor } from '../../lib/scope.ts';

type HolidayRow = Omit<HolidayTable, 'id'> & { id: number };

/** Tenant-wide holidays have project 0 in the table and null in the API. */
const ALL_PROJECTS = 0;

export interface CalendarDay {
  date: string;
  type: HolidayType;
  name: string | null;
  /** null: a tenant-wide day */
  projectId: number | null;
}

/**
 * Holidays (holidayManagement_n; spec §7.5 getAll / update / delete / getHolidays): per tenant, for every project or
 * one project. The schedulers ask `calendar()` which days of a project are holidays or working days.
 */
export function createHolidayService(db: Db, projects: ProjectService) {
  async function projectNames(ids: number[], actor: Actor): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const id of new Set(ids.filter((i) => i !== ALL_PROJECTS))) {
      const p = await projects.project(actor.scope, id).catch(() => null);
      if (p) out.set(id, p.name);
    }
    return out;
  }

  function dto(r: HolidayRow, names: Map<number, string>): HolidayDto {
    return {
      id: r.id, tenantId: r.tenant_id, projectId: r.project_id === ALL_PROJECTS ? null : r.project_id,
      projectName: r.project_id === ALL_PROJECTS ? null : names.get(r.project_id) ?? null, date: r.date, type: r.type as HolidayType, name: r.name,
    };
  }

  /** Which tenant a holiday of this project belongs to; a project the caller cannot see answers 40400. */
  async function tenantFor(actor: Actor, projectId: number): Promise<number> {
    if (projectId === ALL_PROJECTS) {
      if (actor.scope.projectIds) throw denied('只有可访问全部项目的用户才能设置全部项目的节假日');
      return actor.user.tenantId;
    }
    return (await projects.project(actor.scope, projectId)).tenant_id;
  }

  async function load(actor: Actor, id: number): Promise<HolidayRow> {
    const row = await db.selectFrom('holiday').selectAll().where('id', '=', id).executeTakeFirst();
    const visible = row && (actor.user.isPlatform || row.tenant_id === actor.user.tenantId)
      && (row.project_id === ALL_PROJECTS || !actor.scope.projectIds || actor.scope.projectIds.has(row.project_id));
    if (!visible) throw notFound('节假日');
    return row;
  }

  /** Holidays and working days of a project between two dates; a project's own entry wins over a tenant-wide one. */
  async function calendar(tenantId: number, projectId: number, start: string, end: string): Promise<CalendarDay[]> {
    const rows = await db.selectFrom('holiday').selectAll().where('tenant_id', '=', tenantId)
      .where('project_id', 'in', [ALL_PROJECTS, projectId]).where('date', '>=', start).where('date', '<=', end).orderBy('date').execute();
    const byDate = new Map<string, HolidayRow>();
    for (const r of rows) if (!byDate.has(r.date) || r.project_id !== ALL_PROJECTS) byDate.set(r.date, r);
    return [...byDate.values()].map((r) => ({ date: r.date, type: r.type as HolidayType, name: r.name, projectId: r.project_id === ALL_PROJECTS ? null : r.project_id }));
  }

  return {
    calendar,

    async page(actor: Actor, q: HolidayQuery) {
      const tenantId = listTenant(actor, undefined);
      let query = db.selectFrom('holiday').selectAll();
      if (tenantId !== null) query = query.where('tenant_id', '=', tenantId);
      if (actor.scope.projectIds) query = query.where('project_id', 'in', [ALL_PROJECTS, ...actor.scope.projectIds]);
      if (q.projectId !== undefined) query = query.where('project_id', '=', q.projectId);
      if (q.year) query = query.where('date', '>=', `${q.year}-01-01`).where('date', '<=', `${q.year}-12-31`);
      if (q.type) query = query.where('type', '=', q.type);
      const page = await paginate(query, q, (b) => b.orderBy('date').orderBy('id'));
      const names = await projectNames(page.rows.map((r) => r.project_id), actor);
      return { total: page.total, rows: page.rows.map((r) => dto(r, names)) };
    },

    /** With an id: edit that day. Without: create, or replace the entry of the same date and project. */
    async update(actor: Actor, body: HolidayUpdate): Promise<HolidayDto> {
      const projectId = body.projectId ?? ALL_PROJECTS;
      const tenantId = await tenantFor(actor, projectId);
      const values = { tenant_id: tenantId, project_id: projectId, date: body.date, type: body.type, name: body.name || null };
      const clash = `${body.date} 已设置${projectId === ALL_PROJECTS ? '（全部项目）' : ''}，请直接修改该日期`;
      let id: number;
      if (body.id !== undefined) {
        await load(actor, body.id);
        id = body.id;
        const other = await db.selectFrom('holiday').select('id').where('tenant_id', '=', tenantId).where('project_id', '=', projectId)
          .where('date', '=', body.date).where('id', '!=', id).executeTakeFirst();
        if (other) throw conflict(clash);
        await uniqueOr(clash, () => db.updateTable('holiday').set(values).where('id', '=', id).execute());
      } else {
        const row = await uniqueOr(clash, () => db.insertInto('holiday').values({ ...values, created_at: Date.now() })
          .onConflict((oc) => oc.columns(['tenant_id', 'project_id', 'date']).doUpdateSet({ type: values.type, name: values.name }))
          .returning('id').executeTakeFirstOrThrow());
        id = row.id;
      }
      const row = await load(actor, id);
      return dto(row, await projectNames([row.project_id], actor));
    },

    /** All or nothing: one id the caller cannot see refuses the whole request. */
    async remove(actor: Actor, ids: number[]) {
      for (const id of ids) await load(actor, id);
      await db.deleteFrom('holiday').where('id', 'in', ids).execute();
      return ids.length;
    },

    async holidaysOf(actor: Actor, q: { projectId: number; start: string; end: string }) {
      const p = await projects.project(actor.scope, q.projectId);
      return calendar(p.tenant_id, p.id, q.start, q.end);
    },
  };
}

export type HolidayService = ReturnType<typeof createHolidayService>;
