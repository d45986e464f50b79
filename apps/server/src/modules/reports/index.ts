import type { FastifyInstance } from 'fastify';
import { createDatademo } from './datademo.ts';
import { REPORT_QUERIES } from './queries/index.ts';
import { reportRoutes } from './routes.ts';
import { createReportService, type ReportDeps } from './service.ts';

/** a project's areas as names, paths and subtrees (read once per change of the areas) */
export { loadPlaces, type ProjectPlaces } from './places.ts';

/**
 * The data center: every report of the registry (contracts reports.ts) from its query (queries/), served
 * as pages with totals and a chart, and as streamed .xlsx. Reports read other modules' tables and the device
 * roll-ups; they never write.
 */
export function createReports(deps: ReportDeps) {
  const service = createReportService({ ...deps, queries: REPORT_QUERIES });
  const datademo = createDatademo(deps);
  return {
    service,
    datademo,
    routes: (app: FastifyInstance) => app.register(reportRoutes, { service, datademo }),
  };
}

export type Reports = ReturnType<typeof createReports>;
