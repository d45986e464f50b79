import type { FastifyReply } from 'fastify';
import {
  SMS_KINDS, SMS_STATUSES, renderSmsTemplate, unknownTemplateVars,
  type SmsKind, type SmsRecordDto, type SmsRecordFilter, type SmsRecordQuery, type SmsSettings, type SmsSettingsUpdate, type SmsStatus,
  type SmsTemplateCreate, type SmsTemplateDto, type SmsTemplateUpdate,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { SmsRecordTable, SmsTemplateTable } from '../../db/schema.ts';
import { cstTime, queryByIdDescending, streamXlsx } from '../../lib/excel.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { assertVisible, flag, listTenant, uniqueOr } from '../admin/index.ts';
import type { Actor } from '../../lib/scope.ts';
import type { SmsProvider } from './sms-provider.ts';

type TemplateRow = Omit<SmsTemplateTable, 'id'> & { id: number };
type RecordRow = Omit<SmsRecordTable, 'id'> & { id: number };

const DAY = 24 * 3600_000;
const CST = 8 * 3600_000;
/** Start of today in China Standard Time, for the daily limit. */
const startOfDayCst = (now: number) => Math.floor((now + CST) / DAY) * DAY - CST;

const kindName = (kind: string) => SMS_KINDS.find((k) => k.code === kind)?.name ?? kind;
const statusName = (s: string) => SMS_STATUSES.find((x) => x.code === s)?.name ?? s;

function templateDto(t: TemplateRow): SmsTemplateDto {
  return { id: t.id, tenantId: t.tenant_id, kind: t.kind as SmsKind, name: t.name, content: t.content, externalCode: t.external_code, enabled: t.enabled === 1, updatedAt: t.updated_at };
}

function recordDto(r: RecordRow): SmsRecordDto {
  return {
    id: r.id, tenantId: r.tenant_id, projectId: r.project_id, kind: r.kind as SmsKind, phone: r.phone, signName: r.sign_name, content: r.content,
    provider: r.provider, status: r.status as SmsStatus, error: r.error, providerMsgId: r.provider_msg_id, createdAt: r.created_at, sentAt: r.sent_at,
  };
}

export interface SendRequest {
  kind: SmsKind;
  phone: string;
  params: Record<string, string | number>;
  projectId?: number | null;
}

/**
 * SMS of a tenant (smsManager, smsRecordList, defaultSmsSetting). Other domains call `send` for the warnings the
 * platform sends (billing: low balance and cut-off; monitoring: alarms); every message lands in sms_record.
 */
export function createSmsService(db: Db, provider: SmsProvider) {
  async function settings(tenantId: number): Promise<SmsSettings> {
    const row = await db.selectFrom('sms_setting').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
    if (!row) {
      const tenant = await db.selectFrom('tenant').select('brand').where('id', '=', tenantId).executeTakeFirst();
      return { signName: (tenant?.brand ?? '').slice(0, 20), enabled: true, lowBalance: true, alarm: true, cutOff: true, alarmPhones: [], dailyLimit: 1000, provider: provider.name };
    }
    return {
      signName: row.sign_name, enabled: row.enabled === 1, lowBalance: row.low_balance === 1, alarm: row.alarm === 1, cutOff: row.cut_off === 1,
      alarmPhones: row.alarm_phones ? row.alarm_phones.split(',') : [], dailyLimit: row.daily_limit, provider: provider.name,
    };
  }

  async function loadTemplate(actor: Actor, id: number): Promise<TemplateRow> {
    const row = await db.selectFrom('sms_template').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('短信模板');
    assertVisible(actor, row.tenant_id, '短信模板');
    return row;
  }

  async function getTemplate(actor: Actor, id: number) {
    return templateDto(await loadTemplate(actor, id));
  }

  function recordsOf(actor: Actor, f: SmsRecordFilter) {
    const tenantId = listTenant(actor, undefined);
    let q = db.selectFrom('sms_record').selectAll();
    if (tenantId !== null) q = q.where('tenant_id', '=', tenantId);
    if (f.phone) q = q.where('phone', 'like', `%${f.phone}%`);
    if (f.kind) q = q.where('kind', '=', f.kind);
    if (f.status) q = q.where('status', '=', f.status);
    if (f.timeFrom !== undefined) q = q.where('created_at', '>=', f.timeFrom);
    if (f.timeTo !== undefined) q = q.where('created_at', '<=', f.timeTo);
    return q;
  }

  /** Why a message must not go out (switches, disabled template, daily limit), or null. */
  async function refusal(tenantId: number, kind: SmsKind, s: SmsSettings, template: TemplateRow | undefined): Promise<string | null> {
    if (!s.enabled) return '本租户已关闭短信发送';
    // kinds without a switch of their own (registration codes and results) follow the tenant's master switch only
    const kindOn = ({ low_balance: s.lowBalance, alarm: s.alarm, cut_off: s.cutOff } as Partial<Record<SmsKind, boolean>>)[kind] ?? true;
    if (!kindOn) return `已关闭“${kindName(kind)}”短信`;
    if (template && !template.enabled) return '该类短信模板已停用';
    if (s.dailyLimit > 0) {
      const sent = await db.selectFrom('sms_record').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenantId).where('created_at', '>=', startOfDayCst(Date.now())).where('status', '!=', 'failed').executeTakeFirst();
      if (Number(sent?.n ?? 0) >= s.dailyLimit) return `已达到每日发送上限 ${s.dailyLimit} 条`;
    }
    return null;
  }

  async function send(tenantId: number, req: SendRequest): Promise<SmsRecordDto> {
    const s = await settings(tenantId);
    const template = await db.selectFrom('sms_template').selectAll().where('tenant_id', '=', tenantId).where('kind', '=', req.kind).executeTakeFirst();
    const content = renderSmsTemplate(template?.content ?? SMS_KINDS.find((k) => k.code === req.kind)!.content, req.params);
    const refused = await refusal(tenantId, req.kind, s, template);
    const now = Date.now();
    const record = await db.insertInto('sms_record').values({
      tenant_id: tenantId, project_id: req.projectId ?? null, kind: req.kind, phone: req.phone, sign_name: s.signName || null, content,
      provider: provider.name, status: refused ? 'failed' : 'pending', error: refused, provider_msg_id: null, created_at: now, sent_at: null,
    }).returning('id').executeTakeFirstOrThrow();
    if (!refused) {
      const params = Object.fromEntries(Object.entries(req.params).map(([k, v]) => [k, String(v)]));
      const result = await provider.send({ phone: req.phone, signName: s.signName, content, templateCode: template?.external_code ?? null, params });
      await db.updateTable('sms_record').set({
        status: result.status, error: result.error ?? null, provider_msg_id: result.providerMsgId ?? null, sent_at: Date.now(),
      }).where('id', '=', record.id).execute();
    }
    return recordDto(await db.selectFrom('sms_record').selectAll().where('id', '=', record.id).executeTakeFirstOrThrow());
  }

  return {
    settings,
    send,

    // ---- templates (smsManager)
    templates: {
      get: getTemplate,
      async page(actor: Actor, q: { pageNo: number; pageSize: number; kind?: string }) {
        let query = db.selectFrom('sms_template').selectAll().where('tenant_id', '=', actor.user.tenantId);
        if (q.kind) query = query.where('kind', '=', q.kind);
        const page = await paginate(query, q, (b) => b.orderBy('id'));
        return { total: page.total, rows: page.rows.map(templateDto) };
      },
      async create(actor: Actor, body: SmsTemplateCreate) {
        const tenantId = actor.user.tenantId;
        const exists = await db.selectFrom('sms_template').select('id').where('tenant_id', '=', tenantId).where('kind', '=', body.kind).executeTakeFirst();
        const msg = `“${kindName(body.kind)}”模板已存在，请直接修改`;
        if (exists) throw conflict(msg);
        const row = await uniqueOr(msg, () => db.insertInto('sms_template').values({
          tenant_id: tenantId, kind: body.kind, name: body.name, content: body.content, external_code: body.externalCode || null,
          enabled: flag(body.enabled ?? true), updated_at: Date.now(),
        }).returning('id').executeTakeFirstOrThrow());
        return getTemplate(actor, row.id);
      },
      async update(actor: Actor, id: number, body: SmsTemplateUpdate) {
        const row = await loadTemplate(actor, id);
        if (body.content !== undefined) {
          const bad = unknownTemplateVars(row.kind as SmsKind, body.content);
          if (bad.length) throw invalid(`模板变量 {${bad[0]}} 不适用于该类型`, ['content']);
        }
        const patch: Partial<TemplateRow> = { updated_at: Date.now() };
        if (body.name !== undefined) patch.name = body.name;
        if (body.content !== undefined) patch.content = body.content;
        if (body.externalCode !== undefined) patch.external_code = body.externalCode || null;
        if (body.enabled !== undefined) patch.enabled = flag(body.enabled);
        await db.updateTable('sms_template').set(patch).where('id', '=', id).execute();
        return getTemplate(actor, id);
      },
      async remove(actor: Actor, id: number) {
        await loadTemplate(actor, id);
        await db.deleteFrom('sms_template').where('id', '=', id).execute();
      },
    },

    /**
     * Every kind with the tenant's template, or the built-in text used while there is none; the platform's own
     * messages (registration codes and results, sent before a tenant exists) only to the platform.
     */
    async kinds(actor: Actor) {
      const rows = await db.selectFrom('sms_template').selectAll().where('tenant_id', '=', actor.user.tenantId).execute();
      return SMS_KINDS.filter((k) => !('platform' in k) || actor.user.isPlatform).map((k) => {
        const t = rows.find((r) => r.kind === k.code);
        return { kind: k.code, name: k.name, vars: [...k.vars], defaultContent: k.content, template: t ? templateDto(t) : null };
      });
    },

    testSend(actor: Actor, body: { phone: string; kind: SmsKind; params?: Record<string, string | number> }) {
      const sample: Record<string, string> = { name: '张三', project: '示例项目', room: '1号楼101室', balance: '8.50', device: '温控器 A01', alarm: '室温过高', time: '08:00' };
      return send(actor.user.tenantId, { kind: body.kind, phone: body.phone, params: { ...sample, ...body.params } });
    },

    // ---- per-tenant defaults (defaultSmsSetting)
    getSettings: (actor: Actor) => settings(actor.user.tenantId),
    async updateSettings(actor: Actor, patch: SmsSettingsUpdate) {
      const tenantId = actor.user.tenantId;
      const next = { ...(await settings(tenantId)), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as SmsSettings;
      const values = {
        sign_name: next.signName, enabled: flag(next.enabled), low_balance: flag(next.lowBalance), alarm: flag(next.alarm), cut_off: flag(next.cutOff),
        alarm_phones: [...new Set(next.alarmPhones)].join(','), daily_limit: next.dailyLimit, updated_at: Date.now(),
      };
      await db.insertInto('sms_setting').values({ tenant_id: tenantId, ...values })
        .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values)).execute();
      return settings(tenantId);
    },

    // ---- records (smsRecordList)
    async recordPage(actor: Actor, q: SmsRecordQuery) {
      const page = await paginate(recordsOf(actor, q), q, (b) => b.orderBy('id', 'desc'));
      return { total: page.total, rows: page.rows.map(recordDto) };
    },
    async exportRecords(actor: Actor, f: SmsRecordFilter, reply: FastifyReply) {
      const rows = queryByIdDescending(recordsOf(actor, f));
      return streamXlsx(reply, `短信记录_${cstTime(Date.now()).slice(0, 10)}.xlsx`, '短信记录', [
        { header: '时间', width: 20, value: (r) => cstTime(r.created_at) },
        { header: '手机号', width: 14, value: (r) => r.phone },
        { header: '类型', width: 16, value: (r) => kindName(r.kind) },
        { header: '签名', width: 12, value: (r) => r.sign_name },
        { header: '内容', width: 60, value: (r) => r.content },
        { header: '状态', width: 16, value: (r) => statusName(r.status) },
        { header: '说明', width: 30, value: (r) => r.error },
        { header: '服务商', width: 10, value: (r) => r.provider },
      ], rows);
    },
  };
}

export type SmsService = ReturnType<typeof createSmsService>;
