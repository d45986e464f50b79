import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { IMPORT_MAX_BYTES, PROJECT_TYPE2, areaIdQuery, importModelQuery } from '@kelvin/contracts';
import { invalid, ok } from '../../lib/errors.ts';
import { XLSX_MIME, asDownload } from '../../lib/download.ts';
import { streamXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { ProjectService } from '../projects/index.ts';
import { IMPORT_MODEL_LISTS } from './models.ts';
import type { ImportService } from './service.ts';
import { allPages } from './excel-io.ts';

/** The uploaded .xlsx of a multipart request (field name free), at most IMPORT_MAX_BYTES. */
export async function uploadedFile(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw invalid('请以 multipart/form-data 上传 Excel 文件', ['file']);
  const part = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES } });
  if (!part) throw invalid('请选择要导入的 Excel 文件', ['file']);
  try {
    return await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw invalid(`文件超过 ${IMPORT_MAX_BYTES / 1024 / 1024} MB`, ['file']);
    throw err;
  }
}

export async function importRoutes(app: FastifyInstance, opts: { imports: ImportService; projects: ProjectService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { imports, projects } = opts;
  const tags = ['导入导出'];
  await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  r.get('/api/v1/area/downloadImportModel', {
    schema: { tags, summary: '下载导入模板（Excel）', querystring: importModelQuery },
    config: { access: 'login' },
  }, async (req, reply) => {
    const t = await imports.template(req.query.modelType);
    return asDownload(reply, t.fileName, XLSX_MIME).send(t.buffer);
  });

  for (const list of Object.keys(IMPORT_MODEL_LISTS)) {
    r.get(`/api/v1/area/${list}`, {
      schema: { tags, summary: '导入模板说明（列、必填、示例、导入接口）' },
      config: { access: 'login' },
    }, async () => ok(imports.models(list)));
  }

  r.post('/api/v1/area/projectimport', {
    schema: { tags, summary: '导入项目楼宇（Excel；逐行校验，有错则整份不导入）' },
    config: { access: 'area:btn_add', operation: '导入项目楼宇' },
  }, async (req) => {
    const result = await imports.importProjects(actorOf(req).scope, await uploadedFile(req));
    return ok(result, `导入成功：${result.rows} 行`);
  });

  r.get('/api/v1/area/exportArea', {
    schema: { tags, summary: '导出区域树（导入模板格式，含设备）', querystring: areaIdQuery },
    config: { access: 'area:export' },
  }, async (req, reply) => {
    const out = await imports.exportArea(actorOf(req).scope, req.query.areaId);
    return asDownload(reply, out.fileName, XLSX_MIME).send(out.buffer);
  });

  r.get('/api/v1/area/project/export', {
    schema: { tags, summary: '导出项目列表', querystring: z.object({ name: z.string().max(50).optional(), projectType: z.string().max(16).optional() }) },
    config: { access: 'projectlist:export' },
  }, async (req, reply) => {
    const s = actorOf(req).scope;
    const rows = allPages((pageNo, pageSize) => projects.projectPage(s, { ...req.query, pageNo, pageSize }));
    return streamXlsx(reply, '项目列表.xlsx', '项目列表', [
      { header: '项目', width: 24, value: (p) => p.name },
      { header: '别名', value: (p) => p.alias },
      { header: '项目类型', width: 24, value: (p) => (p.projectType ? `${p.projectType} ${p.projectTypeName ?? ''}` : null) },
      { header: '二级类型', value: (p) => PROJECT_TYPE2.find((t) => t.code === p.projectType2)?.name ?? null },
      { header: '计费方案', value: (p) => p.billingScheme },
      { header: '地址', width: 32, value: (p) => p.address },
      { header: '经度', value: (p) => p.lng },
      { header: '纬度', value: (p) => p.lat },
      { header: '联系人', value: (p) => p.contact },
      { header: '联系电话', value: (p) => p.phone },
      { header: '楼栋数', value: (p) => p.counts.buildings },
      { header: '房间数', value: (p) => p.counts.rooms },
      { header: '面积(m²)', value: (p) => p.counts.floorArea },
      { header: '设备数', value: (p) => p.counts.devices },
      { header: '在线率(%)', value: (p) => p.counts.onlineRate },
    ], rows);
  });
}
