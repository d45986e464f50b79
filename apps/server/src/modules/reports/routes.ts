import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { REPORTS, datademoDeviceQuery, datademoReadingsQuery, datademoSeriesQuery, reportExportQuery, reportMenuCode, reportQuery } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { streamReportXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { Datademo } from './datademo.ts';
import type { ReportService } from './service.ts';

const tags = ['数据中心'];

/**
 * One pair of routes per registry entry: GET /api/v1/datacenter/{code} (a page, totals, chart) and …/export (.xlsx of
 * everything the filters select). The permission is the report's menu code (its screen's, for a tab) and its
 * export element; a §7.3 call served by an entry answers the same at its own path.
 */
export async function reportRoutes(app: FastifyInstance, opts: { service: ReportService; datademo: Datademo }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service, datademo } = opts;

  // 数据示例: one device field's raw readings (at most 7 days)
  r.get('/api/v1/datacenter/datademo/devices', {
    schema: { tags, summary: '数据示例：项目的设备（按编号 / 名称搜索，前 50 台）及其数值字段', querystring: datademoDeviceQuery },
    config: { access: 'datademo' },
  }, async (req) => ok(await datademo.devices(actorOf(req), req.query)));
  r.get('/api/v1/datacenter/datademo/series', {
    schema: { tags, summary: '数据示例：一台设备一个字段在时间范围内（最多 7 天）的全部原始读数，供曲线图', querystring: datademoSeriesQuery },
    config: { access: 'datademo' },
  }, async (req) => ok(await datademo.series(actorOf(req), req.query)));
  r.get('/api/v1/datacenter/datademo/readings', {
    schema: { tags, summary: '数据示例：同一读数的分页列表（最新在前）', querystring: datademoReadingsQuery },
    config: { access: 'datademo' },
  }, async (req) => ok(await datademo.page(actorOf(req), req.query)));

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
