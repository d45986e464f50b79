import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { REPORTS, reportExportQuery, reportMenuCode, reportQuery } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { streamReportXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { ReportService } from './service.ts';

const tags = ['数据中心'];

/**
 * One pair of routes per registry entry: GET /api/v1/datacenter/{code} (a page, totals, chart) and …/export (.xlsx of
 * everything the filters select). The permission is the report's menu code (its screen's, for a tab) and its
 * export element; a §7.3 call served by an entry answers the same at its own path.
 */
export async function reportRoutes(app: FastifyInstance, opts: { service: ReportService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;
  for (const def of REPORTS) {
    const code = reportMenuCode(def);
    const read = {
      schema: { tags, summary: `${def.title}：${def.description}`, querystring: reportQuery },
      config: { access: code },
    };
    for (const path of [`/api/v1/datacenter/${def.code}`, ...(def.legacyPath ? [def.legacyPath] : [])]) {
      r.get(path, read, async (req) => ok(await service.page(actorOf(req), def, req.query)));
    }
    r.get(`/api/v1/datacenter/${def.code}/export`, {
      schema: { tags, summary: `导出${def.title}（与列表相同的筛选，全部行）`, querystring: reportExportQuery },
      config: { access: `${code}:export` },
    }, async (req, reply) => {
      const prepared = await service.prepare(actorOf(req), def, req.query);
      return streamReportXlsx(reply, {
        fileName: `${def.title}.xlsx`,
        title: `${prepared.ctx.project.name} · ${def.title}`,
        applied: prepared.applied,
        columns: def.columns,
        rows: service.rows(prepared),
        totals: () => prepared.source.totals(),
        notes: prepared.source.notes,
        generatedAt: prepared.ctx.now,
        rowCount: await prepared.source.count(),
      });
    });
  }
}
