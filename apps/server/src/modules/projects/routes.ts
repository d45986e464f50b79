import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROJECT_TYPES, areaCreateBody, areaIdParam, areaSearchQuery, areaTreeQuery, areaMoveBody, areaPatchBody, projectIdParam, decimal } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { sendPreparedJson } from '../../lib/cached-json.ts';
import { actorOf } from '../../plugins/access.ts';
import type { ProjectService } from './service.ts';
import { toAreaDetail, toProjectInfo } from './service.ts';
import type { ProjectFileService } from './files.ts';
import { projectPageRoutes } from './project-routes.ts';

export async function projectRoutes(app: FastifyInstance, opts: { projects: ProjectService; files: ProjectFileService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { projects } = opts;
  const tags = ['区域与项目'];

  r.get('/api/v1/area/tree/:id', {
    schema: { tags, summary: '区域树（-1 为全部可见根节点；depth 为往下的层数，省略的下级以 childCount 给出个数）', params: areaIdParam, querystring: areaTreeQuery },
    config: { access: 'login' },
  }, async (req, reply) => sendPreparedJson(req, reply, await projects.treeAnswer(actorOf(req).scope, req.params.id, false, req.query.depth)));

  r.get('/api/v1/area/treeonlyproject/:id', {
    schema: { tags, summary: '只含区域与项目的树', params: areaIdParam, querystring: areaTreeQuery },
    config: { access: 'login' },
  }, async (req, reply) => sendPreparedJson(req, reply, await projects.treeAnswer(actorOf(req).scope, req.params.id, true, req.query.depth)));

  r.get('/api/v1/area/search', {
    schema: { tags, summary: '在某节点下按名称路径查找区域（多个词都须出现，如「3号楼 304」），或按编号取回已选的区域', querystring: areaSearchQuery },
    config: { access: 'login' },
  }, async (req) => ok(await projects.search(actorOf(req).scope, req.query)));

  r.get('/api/v1/area/projecttypelist', {
    schema: { tags, summary: '项目类型（带 projectId 时为该项目的类型）', querystring: z.object({ projectId: decimal(z.number().int().positive()).optional() }) },
    config: { access: 'login' },
  }, async (req) => {
    if (req.query.projectId) {
      const p = await projects.project(actorOf(req).scope, req.query.projectId);
      return ok([{ projectType: p.project_type, projectType2: p.project_type2, name: projects.projectTypeName(p.project_type) }]);
    }
    return ok(PROJECT_TYPES.map((t) => ({ projectType: t.code, projectType2: null, name: t.name })));
  });

  r.get('/api/v1/area/devicetypebyproject/:projectId', {
    schema: { tags, summary: '项目的设备类型', params: projectIdParam },
    config: { access: 'login' },
  }, async (req) => ok(await projects.deviceTypesOf(await projects.project(actorOf(req).scope, req.params.projectId))));

  r.get('/api/v1/area/getproject/:id', {
    schema: { tags, summary: '项目信息', params: areaIdParam },
    config: { access: 'login' },
  }, async (req) => ok(toProjectInfo(await projects.project(actorOf(req).scope, req.params.id))));

  r.get('/api/v1/area/:id', {
    schema: { tags, summary: '区域详情', params: areaIdParam },
    config: { access: 'area' },
  }, async (req) => ok(toAreaDetail(await projects.area(actorOf(req).scope, req.params.id))));

  r.post('/api/v1/area/create/:createqty', {
    schema: {
      tags,
      summary: '新建区域（一次可建多个同级，名称末尾的数字依次递增）',
      params: z.object({ createqty: decimal(z.number({ error: '数量必须是数字' }).int('数量必须是整数').min(1, '数量至少 1').max(500, '一次最多新建 500 个')) }),
      body: areaCreateBody,
    },
    config: { access: 'area:btn_add', operation: '新建区域' },
  }, async (req) => {
    const { tenantId: _ignored, ...body } = req.body;
    return ok(await projects.createChildren(actorOf(req).scope, { ...body, qty: req.params.createqty }), '新建成功');
  });

  r.put('/api/v1/area/:id', {
    schema: { tags, summary: '修改区域', params: areaIdParam, body: areaPatchBody },
    config: { access: 'area:btn_edit', operation: '修改区域' },
  }, async (req) => {
    const { tenantId: _ignored, ...patch } = req.body;
    return ok(await projects.update(actorOf(req).scope, req.params.id, patch), '修改成功');
  });

  r.post('/api/v1/area/move/:id', {
    schema: { tags, summary: '移动区域（换到同一租户内上一层级的另一个节点下）', params: areaIdParam, body: areaMoveBody },
    config: { access: 'area:btn_edit', operation: '移动区域' },
  }, async (req) => ok(await projects.move(actorOf(req).scope, req.params.id, req.body.parentId), '移动成功'));

  r.post('/api/v1/area/deletebyid/:id', {
    schema: { tags, summary: '删除区域（有下级、设备、账户或文件时拒绝）', params: areaIdParam },
    config: { access: 'area:btn_del', operation: '删除区域' },
  }, async (req) => {
    await projects.remove(actorOf(req).scope, req.params.id);
    return ok(null, '删除成功');
  });

  await app.register(projectPageRoutes, opts);
}
