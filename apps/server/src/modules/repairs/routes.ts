import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  REPAIR_PRIORITY, REPAIR_STATUS, positiveIdOf, repairAssign, repairClose, repairCreate, repairDelete, repairDeviceQuery,
  repairFinish, repairQuery, repairUpdate, type RepairDto,
} from '@kelvin/contracts';
import { invalid, ok } from '../../lib/errors.ts';
import { asDownload } from '../../lib/download.ts';
import { cstTime, streamXlsx } from '../../lib/excel.ts';
import { actorOf } from '../../plugins/access.ts';
import type { RepairService } from './service.ts';

const tags = ['维修记录'];
const idParam = z.object({ id: positiveIdOf('维修记录编号') });
const photoParam = z.object({ photoId: positiveIdOf('照片编号') });
const projectQuery = z.object({ projectId: positiveIdOf('项目编号') });

/** 维修记录 (repairRecord): work orders, their state moves, photos, timeline and export. */
export async function repairRoutes(app: FastifyInstance, opts: { repairs: RepairService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { repairs } = opts;

  r.get('/api/v1/repair', {
    schema: { tags, summary: '维修记录（项目、状态、优先级、维修人员、报修时间、关键字）', querystring: repairQuery },
    config: { access: 'repairRecord' },
  }, async (req) => ok(await repairs.list(actorOf(req), req.query)));

  r.get('/api/v1/repair/export', {
    schema: { tags, summary: '导出维修记录（Excel，查询条件选中的全部记录）', querystring: repairQuery },
    config: { access: 'repairRecord:export' },
  }, async (req, reply) => streamXlsx<RepairDto>(reply, '维修记录.xlsx', '维修记录', [
    { header: '维修单号', width: 18, value: (x) => x.repairNo },
    { header: '项目', width: 20, value: (x) => x.projectName },
    { header: '设备', width: 24, value: (x) => (x.deviceName ? `${x.deviceName}（${x.deviceCode ?? ''}）` : '') },
    { header: '位置', width: 24, value: (x) => x.location ?? '' },
    { header: '故障描述', width: 40, value: (x) => x.fault },
    { header: '报修人', value: (x) => x.reporter },
    { header: '联系电话', value: (x) => x.phone ?? '' },
    { header: '优先级', width: 8, value: (x) => REPAIR_PRIORITY[x.priority] },
    { header: '状态', width: 8, value: (x) => REPAIR_STATUS[x.status] },
    { header: '维修人员', value: (x) => x.assigneeName ?? '' },
    { header: '处理结果', width: 40, value: (x) => x.result ?? '' },
    { header: '照片', width: 6, value: (x) => x.photoCount },
    { header: '登记人', value: (x) => x.createdBy ?? '' },
    { header: '报修时间', width: 20, value: (x) => cstTime(x.createdAt) },
    { header: '完成/关闭时间', width: 20, value: (x) => (x.finishedAt ? cstTime(x.finishedAt) : '') },
  ], repairs.exportRows(actorOf(req), req.query)));

  r.get('/api/v1/repair/assignees', {
    schema: { tags, summary: '可派单的维修人员（本租户中能看到该项目的用户）', querystring: projectQuery },
    config: { access: 'repairRecord' },
  }, async (req) => ok(await repairs.assignees(actorOf(req), req.query.projectId)));

  r.get('/api/v1/repair/devices', {
    schema: { tags, summary: '报修可选的项目设备（名称或编号，最多 50 台）', querystring: repairDeviceQuery },
    config: { access: 'repairRecord' },
  }, async (req) => ok(await repairs.devices(actorOf(req), req.query.projectId, req.query.keyword)));

  r.post('/api/v1/repair', {
    schema: { tags, summary: '登记维修（项目的设备或位置、故障描述、报修人、电话、优先级）', body: repairCreate },
    config: { access: 'repairRecord:btn_add', operation: '登记维修' },
  }, async (req) => ok(await repairs.create(actorOf(req), req.body), '登记成功'));

  r.post('/api/v1/repair/delete', {
    schema: { tags, summary: '删除维修记录（连同照片与处理过程）', body: repairDelete },
    config: { access: 'repairRecord:btn_del', operation: '删除维修记录' },
  }, async (req) => ok(await repairs.remove(actorOf(req), req.body.ids), '删除成功'));

  r.get('/api/v1/repair/:id', {
    schema: { tags, summary: '一条维修记录（照片与处理过程）', params: idParam },
    config: { access: 'repairRecord' },
  }, async (req) => ok(await repairs.get(actorOf(req), req.params.id)));

  r.put('/api/v1/repair/:id', {
    schema: { tags, summary: '修改报修内容（未完成、未关闭时）', params: idParam, body: repairUpdate },
    config: { access: 'repairRecord:btn_edit', operation: '修改维修记录' },
  }, async (req) => ok(await repairs.update(actorOf(req), req.params.id, req.body), '修改成功'));

  r.post('/api/v1/repair/:id/assign', {
    schema: { tags, summary: '派单 / 改派（待派单 → 处理中）', params: idParam, body: repairAssign },
    config: { access: 'repairRecord:btn_edit', operation: '维修派单' },
  }, async (req) => ok(await repairs.assign(actorOf(req), req.params.id, req.body), '已派单'));

  r.post('/api/v1/repair/:id/finish', {
    schema: { tags, summary: '维修完成（处理中 → 已完成）', params: idParam, body: repairFinish },
    config: { access: 'repairRecord:btn_edit', operation: '维修完成' },
  }, async (req) => ok(await repairs.finish(actorOf(req), req.params.id, req.body.result), '已完成'));

  r.post('/api/v1/repair/:id/close', {
    schema: { tags, summary: '关闭维修记录（待派单或处理中 → 已关闭，须填写原因）', params: idParam, body: repairClose },
    config: { access: 'repairRecord:btn_edit', operation: '关闭维修记录' },
  }, async (req) => ok(await repairs.close(actorOf(req), req.params.id, req.body.result), '已关闭'));

  r.post('/api/v1/repair/:id/photo', {
    schema: { tags, summary: '上传维修照片（multipart，字段 file；JPG/PNG，每张 ≤ 5 MB，每条 ≤ 9 张）', params: idParam },
    config: { access: 'repairRecord:btn_edit', operation: '上传维修照片' },
  }, async (req) => {
    if (!req.isMultipart()) throw invalid('请以 multipart/form-data 上传照片', ['file']);
    const a = actorOf(req);
    await repairs.get(a, req.params.id); // before reading a byte of another tenant's upload
    const part = await req.file();
    if (!part) throw invalid('请选择要上传的照片', ['file']);
    const saved = await repairs.addPhoto(a, req.params.id, { filename: part.filename, mimetype: part.mimetype, file: part.file, truncated: () => part.file.truncated });
    return ok(saved, '上传成功');
  });

  r.get('/api/v1/repair/photo/:photoId', {
    schema: { tags, summary: '维修照片（图片内容）', params: photoParam },
    config: { access: 'repairRecord' },
  }, async (req, reply) => {
    const p = await repairs.openPhoto(actorOf(req), req.params.photoId);
    return asDownload(reply, p.name, p.mime).header('content-length', p.size).header('cache-control', 'private, max-age=3600').send(p.stream);
  });

  r.delete('/api/v1/repair/photo/:photoId', {
    schema: { tags, summary: '删除维修照片', params: photoParam },
    config: { access: 'repairRecord:btn_edit', operation: '删除维修照片' },
  }, async (req) => ok(await repairs.removePhoto(actorOf(req), req.params.photoId), '删除成功'));
}

