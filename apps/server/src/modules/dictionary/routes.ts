import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dictCodeParam, dictOverrideBody, dictQuery, dictResetBody, type DictDto, type DictItemDto } from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { streamXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { DictionaryService } from './service.ts';

const tags = ['数据字典'];

/** 数据字典 (/businessSys/dict): the registries as dictionaries, the tenant's display names, export. */
export async function dictionaryRoutes(app: FastifyInstance, opts: { dictionary: DictionaryService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { dictionary } = opts;

  r.get('/api/v1/dict', {
    schema: { tags, summary: '字典列表（编码、名称或字典项关键字）', querystring: dictQuery },
    config: { access: 'dict' },
  }, async (req) => ok(await dictionary.list(actorOf(req), req.query.keyword)));

  r.get('/api/v1/dict/labels', {
    schema: { tags, summary: '本租户自定义的显示名称（字典 → 值 → 名称），供各页面显示' },
    config: { access: 'login' },
  }, async (req) => ok(await dictionary.labels(actorOf(req).user.tenantId)));

  r.get('/api/v1/dict/export', {
    schema: { tags, summary: '导出全部字典（Excel，含本租户的显示名称）' },
    config: { access: 'dict:export' },
  }, async (req, reply) => {
    const all = await dictionary.all(actorOf(req));
    async function* rows() {
      for (const d of all) for (const i of d.items) yield { d, i };
    }
    return streamXlsx<{ d: DictDto; i: DictItemDto }>(reply, '数据字典.xlsx', '数据字典', [
      { header: '字典编码', width: 26, value: (x) => x.d.code },
      { header: '字典名称', width: 22, value: (x) => x.d.name },
      { header: '值', width: 14, value: (x) => x.i.value },
      { header: '显示名称', width: 24, value: (x) => x.i.label },
      { header: '默认名称', width: 24, value: (x) => x.i.defaultLabel },
      { header: '说明', width: 60, value: (x) => x.i.description ?? '' },
      { header: '排序', width: 6, value: (x) => x.i.sort },
    ], rows());
  });

  r.get('/api/v1/dict/:code', {
    schema: { tags, summary: '一个字典及其字典项（本租户的显示名称）', params: dictCodeParam },
    config: { access: 'dict' },
  }, async (req) => ok(await dictionary.get(actorOf(req), req.params.code)));

  r.put('/api/v1/dict/:code/override', {
    schema: { tags, summary: '编辑显示名称（只影响本租户）', params: dictCodeParam, body: dictOverrideBody },
    config: { access: 'dict:btn_edit', operation: '编辑字典显示名称' },
  }, async (req) => ok(await dictionary.setOverride(actorOf(req), req.params.code, req.body), '已保存'));

  r.post('/api/v1/dict/:code/reset', {
    schema: { tags, summary: '恢复默认名称（只影响本租户）', params: dictCodeParam, body: dictResetBody },
    config: { access: 'dict:btn_edit', operation: '恢复字典默认名称' },
  }, async (req) => ok(await dictionary.reset(actorOf(req), req.params.code, req.body.value), '已恢复默认'));
}
