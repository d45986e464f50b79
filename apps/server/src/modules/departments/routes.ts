import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEPARTMENT_SCREENS, assignmentBody, assignmentMove, assignmentQuery, assignmentUpdate, departmentBody, departmentCompareQuery, departmentEnergyQuery,
  departmentOverviewQuery, departmentProjectQuery, departmentUpdate, positiveIdOf, type DepartmentCompareItem, type DepartmentEnergyRow,
} from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { streamXlsx, type ExcelColumn } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { DepartmentService } from './service.ts';

const tags = ['部门能耗'];
const idParam = z.object({ id: positiveIdOf('部门编号') });
const assignmentParam = z.object({ id: positiveIdOf('分配记录编号') });

async function* each<T>(rows: T[]): AsyncGenerator<T> {
  yield* rows;
}

/** 部门能耗: the department tree, meter and room assignments with effective days, energy, comparison, budgets. */
export async function departmentRoutes(app: FastifyInstance, opts: { departments: DepartmentService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { departments } = opts;

  r.get('/api/v1/department/tree', {
    schema: { tags, summary: '项目的部门树（人数、面积、月度预算、今日在用的表计与房间数）', querystring: departmentProjectQuery },
    config: { access: [...DEPARTMENT_SCREENS] },
  }, async (req) => ok(await departments.tree(actorOf(req), req.query.projectId)));

  r.post('/api/v1/department', {
    schema: { tags, summary: '新增部门', body: departmentBody },
    config: { access: 'departmentMain:btn_add', operation: '新增部门' },
  }, async (req) => ok(await departments.create(actorOf(req), req.body), '新增成功'));

  r.put('/api/v1/department/:id', {
    schema: { tags, summary: '修改部门', params: idParam, body: departmentUpdate },
    config: { access: 'departmentMain:btn_edit', operation: '修改部门' },
  }, async (req) => ok(await departments.update(actorOf(req), req.params.id, req.body), '修改成功'));

  r.delete('/api/v1/department/:id', {
    schema: { tags, summary: '删除部门（有下级部门或分配记录时不能删除）', params: idParam },
    config: { access: 'departmentMain:btn_del', operation: '删除部门' },
  }, async (req) => ok(await departments.remove(actorOf(req), req.params.id), '删除成功'));

  r.get('/api/v1/department/assignment', {
    schema: { tags, summary: '表计与房间的分配记录（含历史；按部门、某日在用筛选）', querystring: assignmentQuery },
    config: { access: 'departmentMain' },
  }, async (req) => ok(await departments.assignments(actorOf(req), req.query)));

  r.get('/api/v1/department/candidates', {
    schema: { tags, summary: '可分配的表计（电表、热量表）与房间，及今日所属部门', querystring: departmentProjectQuery },
    config: { access: 'departmentMain' },
  }, async (req) => ok(await departments.candidates(actorOf(req), req.query.projectId)));

  r.post('/api/v1/department/assignment', {
    schema: { tags, summary: '分配表计或房间给部门（生效日期起；同一表计的分配时间不能重叠）', body: assignmentBody },
    config: { access: 'departmentMain:btn_edit', operation: '分配表计/房间' },
  }, async (req) => ok(await departments.assign(actorOf(req), req.body), '分配成功'));

  r.put('/api/v1/department/assignment/:id', {
    schema: { tags, summary: '修改分配的生效与截止日期', params: assignmentParam, body: assignmentUpdate },
    config: { access: 'departmentMain:btn_edit', operation: '修改分配日期' },
  }, async (req) => ok(await departments.updateAssignment(actorOf(req), req.params.id, req.body), '修改成功'));

  r.post('/api/v1/department/assignment/:id/move', {
    schema: { tags, summary: '转移到另一部门（原部门计至前一日，新部门自该日起）', params: assignmentParam, body: assignmentMove },
    config: { access: 'departmentMain:btn_edit', operation: '转移表计/房间' },
  }, async (req) => ok(await departments.move(actorOf(req), req.params.id, req.body), '转移成功'));

  r.delete('/api/v1/department/assignment/:id', {
    schema: { tags, summary: '删除分配记录（其期间的用量不再计入该部门）', params: assignmentParam },
    config: { access: 'departmentMain:btn_edit', operation: '删除分配记录' },
  }, async (req) => ok(await departments.unassign(actorOf(req), req.params.id), '删除成功'));

  r.get('/api/v1/department/overview', {
    schema: { tags, summary: '部门能耗总览：本月、上月、同比、各部门本月用量、预算预警', querystring: departmentOverviewQuery },
    config: { access: 'departmentMain' },
  }, async (req) => ok(await departments.overview(actorOf(req), req.query)));

  r.get('/api/v1/department/energy', {
    schema: { tags, summary: '部门能耗统计：每个部门按日（一个月）或按月（一年）的用量、合计、人均、单位面积', querystring: departmentEnergyQuery },
    config: { access: 'departmentStaticEnergy' },
  }, async (req) => ok(await departments.energyPage(actorOf(req), req.query)));

  r.get('/api/v1/department/energy/export', {
    schema: { tags, summary: '导出部门能耗统计（Excel）', querystring: departmentEnergyQuery },
    config: { access: 'departmentStaticEnergy:export' },
  }, async (req, reply) => {
    const s = await departments.statistic(actorOf(req), req.query);
    const unit = s.unit;
    const columns: ExcelColumn<DepartmentEnergyRow>[] = [
      { header: '部门', width: 28, value: (x) => x.path },
      { header: '人数', width: 8, value: (x) => x.headcount },
      { header: '面积（m²）', width: 12, value: (x) => x.area },
      ...s.buckets.map((b, i): ExcelColumn<DepartmentEnergyRow> => ({ header: `${b}（${unit}）`, width: 12, value: (x) => x.values[i] })),
      { header: `合计（${unit}）`, width: 14, value: (x) => x.total },
      { header: `人均（${unit}/人）`, width: 14, value: (x) => x.perPerson },
      { header: `单位面积（${unit}/m²）`, width: 16, value: (x) => x.perArea },
    ];
    const totalRow: DepartmentEnergyRow = { departmentId: 0, name: '合计', path: '合计（一级部门之和）', depth: 0, headcount: null, area: null, values: s.totals.values, total: s.totals.total, perPerson: null, perArea: null };
    return streamXlsx(reply, '部门能耗统计.xlsx', '部门能耗统计', columns, each([...s.rows, totalRow]));
  });

  r.get('/api/v1/department/compare', {
    schema: { tags, summary: '部门能耗对比：2～6 个部门的逐日/逐月用量、环比、同比', querystring: departmentCompareQuery },
    config: { access: 'departmentEnergyCompare' },
  }, async (req) => ok(await departments.compare(actorOf(req), req.query)));

  r.get('/api/v1/department/compare/export', {
    schema: { tags, summary: '导出部门能耗对比（Excel）', querystring: departmentCompareQuery },
    config: { access: 'departmentEnergyCompare:export' },
  }, async (req, reply) => {
    const c = await departments.compare(actorOf(req), req.query);
    const unit = c.unit;
    const pct = (v: number | null) => (v === null ? null : `${(v * 100).toFixed(1)}%`);
    const columns: ExcelColumn<DepartmentCompareItem>[] = [
      { header: '部门', width: 20, value: (x) => x.name },
      ...c.buckets.map((b, i): ExcelColumn<DepartmentCompareItem> => ({ header: `${b}（${unit}）`, width: 12, value: (x) => x.values[i] })),
      { header: `合计（${unit}）`, width: 14, value: (x) => x.total },
      { header: `上期（${unit}）`, width: 14, value: (x) => x.previous },
      { header: '环比', width: 10, value: (x) => pct(x.mom) },
      { header: `去年同期（${unit}）`, width: 16, value: (x) => x.lastYear },
      { header: '同比', width: 10, value: (x) => pct(x.yoy) },
      { header: `人均（${unit}/人）`, width: 14, value: (x) => x.perPerson },
      { header: `单位面积（${unit}/m²）`, width: 16, value: (x) => x.perArea },
    ];
    return streamXlsx(reply, '部门能耗对比.xlsx', '部门能耗对比', columns, each(c.items));
  });
}
