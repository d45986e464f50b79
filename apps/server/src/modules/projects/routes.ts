import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AREA_LEVELS, PROJECT_TYPE2, PROJECT_TYPES, areaIdParam, pageQuery, projectIdParam } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { scopeOf } from '../../lib/scope.ts';
import type { ProjectService } from './service.ts';
import { toProjectInfo } from './service.ts';

const projectTypeCode = z.enum(PROJECT_TYPES.map((t) => t.code) as [string, ...string[]], { error: '项目类型不存在' });
const projectType2Code = z.union(PROJECT_TYPE2.map((t) => z.literal(t.code)) as unknown as [z.ZodLiteral<number>, z.ZodLiteral<number>], { error: '项目二级类型不存在' });
const billingScheme = z.number({ error: '计费方案必须是数字' }).int().min(1, '计费方案取值 1～21').max(21, '计费方案取值 1～21');

const areaBody = z.object({
  parentId: z.number().int().nullable().default(null),
  level: z.enum(AREA_LEVELS, { error: '区域层级不正确' }),
  name: z.string({ error: '请输入名称' }).trim().min(1, '请输入名称').max(50, '名称最多 50 个字符'),
  floorArea: z.number().positive('面积必须大于 0').max(1e6, '面积过大').nullable().optional(),
  projectType: projectTypeCode.optional(),
  projectType2: projectType2Code.optional(),
  billingScheme: billingScheme.optional(),
  address: z.string().max(200, '地址最多 200 个字符').optional(),
  lng: z.number().min(-180).max(180).optional(),
  lat: z.number().min(-90).max(90).optional(),
  // The spec's area body carries tenantId; the server ignores it and uses the caller's tenant.
  tenantId: z.unknown().optional(),
});

const areaPatch = z.object({
  name: z.string().trim().min(1, '请输入名称').max(50, '名称最多 50 个字符').optional(),
  floorArea: z.number().positive('面积必须大于 0').max(1e6, '面积过大').nullable().optional(),
  projectType: projectTypeCode.nullable().optional(),
  projectType2: projectType2Code.nullable().optional(),
  billingScheme: billingScheme.nullable().optional(),
  address: z.string().max(200).nullable().optional(),
  lng: z.number().min(-180).max(180).nullable().optional(),
  lat: z.number().min(-90).max(90).nullable().optional(),
  tenantId: z.unknown().optional(),
});

export async function projectRoutes(app: FastifyInstance, opts: { projects: ProjectService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { projects } = opts;
  const tags = ['区域与项目'];
  const scope = (req: { user: Parameters<typeof scopeOf>[1] | null }) => scopeOf(app.db, req.user!);

  r.get('/api/v1/area/tree/:id', {
    schema: { tags, summary: '区域树（-1 为全部可见根节点）', params: areaIdParam },
    config: { access: 'login' },
  }, async (req) => ok(await projects.tree(await scope(req), req.params.id)));

  r.get('/api/v1/area/treeonlyproject/:id', {
    schema: { tags, summary: '只含区域与项目的树', params: areaIdParam },
    config: { access: 'login' },
  }, async (req) => ok(await projects.tree(await scope(req), req.params.id, ['region', 'project'])));

  r.get('/api/v1/area/projecttypelist', {
    schema: { tags, summary: '项目类型（带 projectId 时为该项目的类型）', querystring: z.object({ projectId: z.coerce.number().int().positive().optional() }) },
    config: { access: 'login' },
  }, async (req) => {
    if (req.query.projectId) {
      const p = await projects.project(await scope(req), req.query.projectId);
      return ok([{ projectType: p.project_type, projectType2: p.project_type2, name: projects.projectTypeName(p.project_type) }]);
    }
    return ok(PROJECT_TYPES.map((t) => ({ projectType: t.code, projectType2: null, name: t.name })));
  });

  r.get('/api/v1/area/devicetypebyproject/:projectId', {
    schema: { tags, summary: '项目的设备类型', params: projectIdParam },
    config: { access: 'login' },
  }, async (req) => ok(projects.deviceTypesOf(await projects.project(await scope(req), req.params.projectId))));

  r.get('/api/v1/area/project/list', {
    schema: { tags, summary: '项目列表（分页）', querystring: pageQuery.extend({ name: z.string().max(50).optional(), projectType: z.string().max(16).optional() }) },
    config: { access: 'projectlist' },
  }, async (req) => ok(await projects.projectPage(await scope(req), req.query)));

  r.get('/api/v1/area/getproject/:id', {
    schema: { tags, summary: '项目信息', params: areaIdParam },
    config: { access: 'login' },
  }, async (req) => ok(toProjectInfo(await projects.project(await scope(req), req.params.id))));

  r.get('/api/v1/area/projectpara/getpara/:projectId/projectBillingScheme', {
    schema: { tags, summary: '项目计费方案', params: projectIdParam },
    config: { access: 'login' },
  }, async (req) => {
    const p = await projects.project(await scope(req), req.params.projectId);
    return ok({ paraValue: p.billing_scheme });
  });

  r.get('/api/v1/device/monitormessageqty/:projectId', {
    schema: { tags: ['监控'], summary: '项目未读监控消息数', params: projectIdParam },
    config: { access: 'monitorrules' },
  }, async (req) => {
    await projects.project(await scope(req), req.params.projectId);
    return ok(0); // no alarm source exists yet; the monitoring issue fills this from open alarms
  });

  r.get('/api/v1/area/:id', {
    schema: { tags, summary: '区域详情', params: areaIdParam },
    config: { access: 'area' },
  }, async (req) => {
    const a = await projects.area(await scope(req), req.params.id);
    return ok({ ...toProjectInfo(a), parentId: a.parent_id, level: a.level, floorArea: a.floor_area });
  });

  r.post('/api/v1/area/create/:createqty', {
    schema: { tags, summary: '新建区域（一次可建多个同级）', params: z.object({ createqty: z.coerce.number().int().min(1, '数量至少 1').max(500, '一次最多新建 500 个') }), body: areaBody },
    config: { access: 'area:btn_add', operation: '新建区域' },
  }, async (req) => {
    const { tenantId: _ignored, ...body } = req.body;
    return ok(await projects.createChildren(await scope(req), { ...body, qty: req.params.createqty }), '新建成功');
  });

  r.put('/api/v1/area/:id', {
    schema: { tags, summary: '修改区域', params: areaIdParam, body: areaPatch },
    config: { access: 'area:btn_edit', operation: '修改区域' },
  }, async (req) => {
    const { tenantId: _ignored, ...patch } = req.body;
    return ok(await projects.update(await scope(req), req.params.id, patch), '修改成功');
  });

  r.post('/api/v1/area/deletebyid/:id', {
    schema: { tags, summary: '删除区域', params: areaIdParam },
    config: { access: 'area:btn_del', operation: '删除区域' },
  }, async (req) => {
    await projects.remove(await scope(req), req.params.id);
    return ok(null, '删除成功');
  });
}
