import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  holidayDelete, holidayQuery, holidayUpdate, holidaysOfProjectQuery, smsRecordExportQuery, smsRecordQuery, smsSettingsUpdate, smsTemplateCreate,
  smsTemplateQuery, smsTemplateUpdate, smsTestSend, systemParamsPatch,
} from '@kelvin/contracts';
import { ok } from '../../lib/errors.ts';
import { registerCrud } from '../admin/index.ts';
import { actorOf } from '../../plugins/access.ts';
import type { HolidayService } from './holidays.ts';
import type { SystemParamService } from './params.ts';
import type { SmsService } from './sms.ts';

export interface SystemServices {
  params: SystemParamService;
  holidays: HolidayService;
  sms: SmsService;
}

/** /system_n and SMS: system parameters, holidays (paths of spec §7.5), SMS templates, defaults and records. */
export async function systemRoutes(app: FastifyInstance, opts: SystemServices) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // ---- system parameters (setting_n)
  r.get('/api/v1/system/getSystemParam', {
    schema: { tags: ['系统参数'], summary: '系统参数（本租户）' },
    config: { access: 'setting_n:view' },
  }, async (req) => ok(await opts.params.params(actorOf(req).user.tenantId)));

  r.post('/api/v1/system/editSystemParam', {
    schema: { tags: ['系统参数'], summary: '修改系统参数（只需提交要改的项）', body: systemParamsPatch },
    config: { access: 'setting_n:btn_edit', operation: '修改系统参数' },
  }, async (req) => ok(await opts.params.edit(actorOf(req).user.tenantId, req.body), '保存成功'));

  // ---- holidays (holidayManagement_n)
  const holidayTags = ['节假日'];
  r.get('/api/v1/holiday/getAll', {
    schema: { tags: holidayTags, summary: '节假日列表（分页）', querystring: holidayQuery },
    config: { access: 'holidayManagement_n:view' },
  }, async (req) => ok(await opts.holidays.page(actorOf(req), req.query)));

  r.post('/api/v1/holiday/update', {
    schema: { tags: holidayTags, summary: '新增或修改节假日', body: holidayUpdate },
    config: { access: 'holidayManagement_n:btn_edit', operation: '保存节假日' },
  }, async (req) => ok(await opts.holidays.update(actorOf(req), req.body), '保存成功'));

  r.post('/api/v1/holiday/delete', {
    schema: { tags: holidayTags, summary: '删除节假日', body: holidayDelete },
    config: { access: 'holidayManagement_n:btn_del', operation: '删除节假日' },
  }, async (req) => ok({ deleted: await opts.holidays.remove(actorOf(req), req.body.ids) }, '删除成功'));

  r.get('/api/v1/holiday/getHolidays', {
    schema: { tags: holidayTags, summary: '项目在日期范围内的节假日与调休工作日', querystring: holidaysOfProjectQuery },
    config: { access: 'holidayManagement_n:view' },
  }, async (req) => ok(await opts.holidays.holidaysOf(actorOf(req), req.query)));

  // ---- SMS templates (smsManager)
  registerCrud(app, {
    base: '/api/v1/sms/template', menu: 'smsManager', label: '短信模板', tag: '短信',
    schemas: { create: smsTemplateCreate, update: smsTemplateUpdate, query: smsTemplateQuery }, service: opts.sms.templates,
  });

  r.get('/api/v1/sms/kinds', {
    schema: { tags: ['短信'], summary: '短信类型、可用变量与生效的模板' },
    config: { access: 'smsManager:view' },
  }, async (req) => ok(await opts.sms.kinds(actorOf(req))));

  r.post('/api/v1/sms/test', {
    schema: { tags: ['短信'], summary: '发送测试短信（经当前服务商，记入短信记录）', body: smsTestSend },
    config: { access: 'smsManager:btn_add', operation: '发送测试短信' },
  }, async (req) => ok(await opts.sms.testSend(actorOf(req), req.body), '已提交发送'));

  // ---- per-tenant defaults (defaultSmsSetting)
  r.get('/api/v1/sms/setting', {
    schema: { tags: ['短信'], summary: '默认短信设置' },
    config: { access: 'defaultSmsSetting:view' },
  }, async (req) => ok(await opts.sms.getSettings(actorOf(req))));

  r.put('/api/v1/sms/setting', {
    schema: { tags: ['短信'], summary: '修改默认短信设置', body: smsSettingsUpdate },
    config: { access: 'defaultSmsSetting:btn_edit', operation: '修改默认短信设置' },
  }, async (req) => ok(await opts.sms.updateSettings(actorOf(req), req.body), '保存成功'));

  // ---- records (smsRecordList)
  r.get('/api/v1/sms/record/page', {
    schema: { tags: ['短信'], summary: '短信记录（分页）', querystring: smsRecordQuery },
    config: { access: 'smsRecordList:view' },
  }, async (req) => ok(await opts.sms.recordPage(actorOf(req), req.query)));

  r.get('/api/v1/sms/record/export', {
    schema: { tags: ['短信'], summary: '导出短信记录（Excel）', querystring: smsRecordExportQuery },
    config: { access: 'smsRecordList:export' },
  }, async (req, reply) => opts.sms.exportRecords(actorOf(req), req.query, reply));
}
