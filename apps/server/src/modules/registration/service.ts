import crypto from 'node:crypto';
import {
  REG_CODE_MAX_TRIES, REG_CODE_TTL_MS, REG_SEND_INTERVAL_MS, REG_SENDS_PER_DAY, ResultCode,
  type RegApplicationDto, type RegApplyBody, type RegApproveAnswer, type RegApproveBody, type RegQuery, type RegSmsCodeBody, type RegistrationStatus,
} from '@kelvin/contracts';
import type { Db } from '../../db/index.ts';
import type { RegistrationApplicationTable } from '../../db/schema.ts';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { Actor } from '../../lib/scope.ts';
import type { AdminServices } from '../admin/index.ts';
import { randomPassword } from '../auth/index.ts';
import type { SystemServices } from '../system/index.ts';

type AppRow = Omit<RegistrationApplicationTable, 'id'> & { id: number };

const DAY = 24 * 3600_000;
const CST = 8 * 3600_000;
const startOfDayCst = (now: number) => Math.floor((now + CST) / DAY) * DAY - CST;
/** an approval whose claimant died (process killed between the claim and the tenant) is taken over after this */
const APPROVING_LEASE_MS = 60_000;
const PLATFORM = 0;

const hashCode = (phone: string, code: string) => crypto.createHash('sha256').update(`reg:${phone}:${code}`).digest('hex');
const tooMany = (msg: string) => new AppError(ResultCode.TOO_MANY_REQUESTS, msg);
const platformOnly = (actor: Actor) => {
  if (!actor.user.isPlatform) throw new AppError(ResultCode.NO_PERMISSION, '只有平台管理员可以审核入驻申请');
};
const WRONG_CODE = '短信验证码错误或已过期，请重新获取';

function toDto(r: AppRow): RegApplicationDto {
  return {
    id: r.id, company: r.company, contact: r.contact, phone: r.phone, notes: r.notes,
    // an approval under way is still 待审核 to the reader
    status: (r.status === 'approving' ? 'pending' : r.status) as RegistrationStatus,
    reviewerName: r.reviewer_name, reviewedAt: r.reviewed_at, reason: r.reason, tenantId: r.tenant_id, tenantCode: r.tenant_code, username: r.username, createdAt: r.created_at,
  };
}

/**
 * 入驻申请: SMS codes (image captcha first; one per 60 s and 10 a day per phone and per address), applications, and
 * their review by the platform administrator. No answer tells whether a phone is known: every send and every
 * application is answered alike.
 */
export function createRegistrationService(deps: {
  db: Db;
  checkCaptcha: (id: string, answer: string) => boolean;
  sms: SystemServices['sms'];
  tenants: AdminServices['tenants'];
}) {
  const { db } = deps;

  async function load(id: number): Promise<AppRow> {
    const row = await db.selectFrom('registration_application').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('入驻申请');
    return row;
  }

  async function sendsSince(column: 'phone' | 'ip', value: string, since: number) {
    const row = await db.selectFrom('registration_code').select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('created_at').as('last')])
      .where(column, '=', value).where('created_at', '>=', since).executeTakeFirst();
    return { n: Number(row?.n ?? 0), last: row?.last == null ? null : Number(row.last) };
  }

  async function approvedAnswer(row: AppRow): Promise<RegApproveAnswer> {
    return { application: toDto(row), tenantId: row.tenant_id!, username: row.username!, password: null };
  }

  return {
    async sendCode(body: RegSmsCodeBody, ip: string) {
      if (!deps.checkCaptcha(body.captchaId, body.captchaCode)) throw invalid('图形验证码错误或已过期，请刷新后重新输入', ['captchaCode']);
      const now = Date.now();
      const today = startOfDayCst(now);
      for (const [column, value] of [['phone', body.phone], ['ip', ip]] as const) {
        const sends = await sendsSince(column, value, today);
        if (sends.last !== null && now - sends.last < REG_SEND_INTERVAL_MS) {
          throw tooMany(`获取验证码过于频繁，请 ${Math.ceil((REG_SEND_INTERVAL_MS - (now - sends.last)) / 1000)} 秒后再试`);
        }
        if (sends.n >= REG_SENDS_PER_DAY) throw tooMany('今日获取验证码次数已达上限，请明天再试');
      }
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      await db.insertInto('registration_code').values({ phone: body.phone, ip, code_hash: hashCode(body.phone, code), tries: 0, created_at: now, expires_at: now + REG_CODE_TTL_MS, used_at: null }).execute();
      // sent as the platform (tenant 0): the record provider keeps it in the platform's SMS records
      const sent = await deps.sms.send(PLATFORM, { kind: 'verify_code', phone: body.phone, params: { code, minutes: REG_CODE_TTL_MS / 60_000 } });
      if (sent.status === 'failed') throw new AppError(ResultCode.SERVER_ERROR, '短信发送失败，请稍后再试');
      return { sent: true, resendAfterSeconds: REG_SEND_INTERVAL_MS / 1000 };
    },

    async apply(body: RegApplyBody, ip: string) {
      const now = Date.now();
      const code = await db.selectFrom('registration_code').selectAll().where('phone', '=', body.phone).where('used_at', 'is', null)
        .orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (!code || code.expires_at <= now || code.tries >= REG_CODE_MAX_TRIES) throw invalid(WRONG_CODE, ['smsCode']);
      if (code.code_hash !== hashCode(body.phone, body.smsCode)) {
        await db.updateTable('registration_code').set((eb) => ({ tries: eb('tries', '+', 1) })).where('id', '=', code.id).execute();
        throw invalid(code.tries + 1 >= REG_CODE_MAX_TRIES ? '短信验证码错误次数过多，请重新获取' : WRONG_CODE, ['smsCode']);
      }
      // the code is spent once, whoever races for it
      const used = await db.updateTable('registration_code').set({ used_at: now }).where('id', '=', code.id).where('used_at', 'is', null).executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) throw invalid(WRONG_CODE, ['smsCode']);
      const fields = { company: body.company, contact: body.contact, notes: body.notes || null, ip, updated_at: now };
      // the same phone applying again while its application waits updates that one (no duplicates for the reviewer)
      const waiting = await db.updateTable('registration_application').set(fields).where('phone', '=', body.phone).where('status', '=', 'pending').executeTakeFirst();
      if (Number(waiting.numUpdatedRows) === 0) {
        await db.insertInto('registration_application').values({
          ...fields, phone: body.phone, status: 'pending', reviewer_id: null, reviewer_name: null, reviewed_at: null, reason: null,
          tenant_id: null, tenant_code: null, username: null, created_at: now,
        }).execute();
      }
      return { submitted: true };
    },

    async page(actor: Actor, q: RegQuery) {
      platformOnly(actor);
      let query = db.selectFrom('registration_application').selectAll();
      if (q.status === 'pending') query = query.where('status', 'in', ['pending', 'approving']);
      else if (q.status) query = query.where('status', '=', q.status);
      if (q.keyword) {
        const like = `%${q.keyword}%`;
        query = query.where((eb) => eb.or([eb('company', 'like', like), eb('contact', 'like', like), eb('phone', 'like', like)]));
      }
      const page = await paginate(query, q, (b) => b.orderBy('id', 'desc'));
      return { total: page.total, rows: page.rows.map(toDto) };
    },

    async pendingCount(actor: Actor) {
      platformOnly(actor);
      const row = await db.selectFrom('registration_application').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['pending', 'approving']).executeTakeFirst();
      return { pending: Number(row?.n ?? 0) };
    },

    /**
     * Approves once: the claim (pending → approving) lets one call create the tenant and its first administrator
     * through the admin module; a repeat answers the tenant already made, without the password.
     */
    async approve(actor: Actor, id: number, body: RegApproveBody): Promise<RegApproveAnswer> {
      platformOnly(actor);
      let row = await load(id);
      const now = Date.now();
      if (row.status === 'approved') return approvedAnswer(row);
      if (row.status === 'rejected') throw conflict('该申请已拒绝，不能再通过');
      if (row.status === 'approving') {
        if (now - row.updated_at < APPROVING_LEASE_MS) throw conflict('该申请正在审核，请稍后刷新');
        // the claimant died: its tenant may exist already
        const made = row.tenant_code ? await db.selectFrom('tenant').select('id').where('code', '=', row.tenant_code).executeTakeFirst() : undefined;
        if (made) {
          await db.updateTable('registration_application').set({ status: 'approved', tenant_id: made.id, reviewed_at: now, updated_at: now }).where('id', '=', id).execute();
          return approvedAnswer(await load(id));
        }
      }
      const claim = await db.updateTable('registration_application')
        .set({ status: 'approving', tenant_code: body.tenantCode, username: body.username, reviewer_id: actor.user.id, reviewer_name: actor.user.name || actor.user.username, updated_at: now })
        .where('id', '=', id).where('status', '=', row.status).where('updated_at', '=', row.updated_at).executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) {
        row = await load(id);
        if (row.status === 'approved') return approvedAnswer(row);
        throw conflict('该申请正在审核，请稍后刷新');
      }
      const password = randomPassword(12);
      let tenantId: number;
      try {
        const tenant = await deps.tenants.create(actor, {
          code: body.tenantCode, name: row.company, contact: row.contact, phone: row.phone, brand: row.company.slice(0, 100), filingNo: null, logo: null, enabled: true,
          admin: { username: body.username, name: row.contact, password },
        });
        tenantId = tenant.id;
      } catch (err) {
        await db.updateTable('registration_application').set({ status: 'pending', tenant_code: null, username: null, reviewer_id: null, reviewer_name: null, updated_at: Date.now() })
          .where('id', '=', id).where('status', '=', 'approving').execute();
        throw err;
      }
      await db.updateTable('registration_application').set({ status: 'approved', tenant_id: tenantId, reviewed_at: Date.now(), updated_at: Date.now() }).where('id', '=', id).execute();
      await deps.sms.send(PLATFORM, { kind: 'onboard_approved', phone: row.phone, params: { company: row.company, username: body.username, password } });
      return { application: toDto(await load(id)), tenantId, username: body.username, password };
    },

    async reject(actor: Actor, id: number, reason: string): Promise<RegApplicationDto> {
      platformOnly(actor);
      const row = await load(id);
      if (row.status === 'rejected') return toDto(row);
      if (row.status !== 'pending') throw conflict(row.status === 'approved' ? '该申请已通过，不能再拒绝' : '该申请正在审核，请稍后刷新');
      const now = Date.now();
      const done = await db.updateTable('registration_application')
        .set({ status: 'rejected', reason, reviewer_id: actor.user.id, reviewer_name: actor.user.name || actor.user.username, reviewed_at: now, updated_at: now })
        .where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) return toDto(await load(id));
      await deps.sms.send(PLATFORM, { kind: 'onboard_rejected', phone: row.phone, params: { company: row.company, reason } });
      return toDto(await load(id));
    },
  };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
