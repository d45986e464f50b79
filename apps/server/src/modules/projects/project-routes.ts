import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import {
  PROJECT_FILE_MAX_BYTES, areaIdParam, pageQuery, projectAliasBody, projectBody, projectFileIdBody, projectFileListBody, projectIdQuery,
} from '@kelvin/contracts';
import { invalid, ok } from '../../lib/errors.ts';
import { asDownload } from '../../lib/download.ts';
import { actorOf } from '../../plugins/access.ts';
import type { ProjectService } from './service.ts';
import type { ProjectFileService } from './files.ts';

/** projectlist, projectedit, projectview, projectindex: projects as operators manage them, with alias and files. */
export async function projectPageRoutes(app: FastifyInstance, opts: { projects: ProjectService; files: ProjectFileService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { projects, files } = opts;
  const tags = ['区域与项目'];
  await app.register(multipart, { limits: { fileSize: PROJECT_FILE_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  r.get('/api/v1/area/project/list', {
    schema: { tags, summary: '项目列表（分页，含楼栋、房间、设备数）', querystring: pageQuery.extend({ name: z.string().max(50).optional(), projectType: z.string().max(16).optional() }) },
    config: { access: 'projectlist' },
  }, async (req) => ok(await projects.projectPage(actorOf(req).scope, req.query)));

  r.post('/api/v1/area/project', {
    schema: { tags, summary: '新建项目', body: projectBody },
    config: { access: 'projectlist:btn_add', operation: '新建项目' },
  }, async (req) => {
    const { regionId, ...fields } = req.body;
    const [id] = await projects.createChildren(actorOf(req).scope, { ...fields, parentId: regionId, level: 'project', qty: 1 });
    return ok({ id }, '新建成功');
  });

  r.put('/api/v1/area/project/:id', {
    schema: { tags, summary: '修改项目（含更换所属区域）', params: areaIdParam, body: projectBody },
    config: { access: 'projectedit:btn_edit', operation: '修改项目' },
  }, async (req) => ok(await projects.updateProject(actorOf(req).scope, req.params.id, req.body), '修改成功'));

  r.post('/api/v1/area/project/delete/:id', {
    schema: { tags, summary: '删除项目（有楼栋、设备、账户或文件时拒绝）', params: areaIdParam },
    config: { access: 'projectlist:btn_del', operation: '删除项目' },
  }, async (req) => {
    const s = actorOf(req).scope;
    await projects.project(s, req.params.id);
    await projects.remove(s, req.params.id);
    return ok(null, '删除成功');
  });

  r.get('/api/v1/area/index/getProjectIndexMessage', {
    schema: { tags, summary: '项目详情：类型、地址、位置、楼栋/房间/设备数、在线率、今日告警', querystring: projectIdQuery },
    config: { access: 'login' },
  }, async (req) => ok(await projects.projectDetail(actorOf(req).scope, req.query.projectId)));

  r.get('/api/v1/area/projectmap', {
    schema: { tags, summary: '地图总览：可见项目的坐标与状态' },
    config: { access: 'projectindex' },
  }, async (req) => ok(await projects.projectMap(actorOf(req).scope)));

  r.get('/api/v1/project/getProjectAlias', {
    schema: { tags, summary: '项目别名', querystring: projectIdQuery },
    config: { access: 'login' },
  }, async (req) => {
    const p = await projects.project(actorOf(req).scope, req.query.projectId);
    return ok({ projectId: p.id, alias: p.alias });
  });

  r.post('/api/v1/project/setProjectAlias', {
    schema: { tags, summary: '设置项目别名（空字符串清除）', querystring: projectIdQuery, body: projectAliasBody },
    config: { access: 'projectedit:btn_edit', operation: '设置项目别名' },
  }, async (req) => ok(await projects.setAlias(actorOf(req).scope, req.query.projectId, req.body.alias), '保存成功'));

  const fileTags = ['项目文件'];
  r.post('/api/v1/static/getProjectFile', {
    schema: { tags: fileTags, summary: '项目文件列表', body: projectFileListBody },
    config: { access: 'projectview', operation: false },
  }, async (req) => ok(await files.list(actorOf(req).scope, req.body.projectId)));

  r.post('/api/v1/static/uploadProjectFile', {
    schema: { tags: fileTags, summary: '上传项目文件（multipart，字段 file，最大 20 MB）', querystring: projectIdQuery },
    config: { access: 'projectview:btn_edit', operation: '上传项目文件' },
  }, async (req) => {
    if (!req.isMultipart()) throw invalid('请以 multipart/form-data 上传文件', ['file']);
    const s = actorOf(req).scope;
    await projects.project(s, req.query.projectId); // before reading a byte of another tenant's upload
    const part = await req.file();
    if (!part) throw invalid('请选择要上传的文件', ['file']);
    const saved = await files.save(s, req.query.projectId, {
      filename: part.filename, mimetype: part.mimetype, file: part.file, truncated: () => part.file.truncated,
    }, req.user!.username);
    return ok(saved, '上传成功');
  });

  r.post('/api/v1/static/removeProjectFile', {
    schema: { tags: fileTags, summary: '删除项目文件', body: projectFileIdBody },
    config: { access: 'projectview:btn_edit', operation: '删除项目文件' },
  }, async (req) => {
    await files.remove(actorOf(req).scope, req.body.fileId);
    return ok(null, '删除成功');
  });

  r.get('/api/v1/static/downloadProjectFile/:fileId', {
    schema: { tags: fileTags, summary: '下载项目文件', params: projectFileIdBody },
    config: { access: 'projectview' },
  }, async (req, reply) => {
    const f = await files.open(actorOf(req).scope, req.params.fileId);
    return asDownload(reply, f.name).header('content-length', f.size).send(f.stream);
  });
}
