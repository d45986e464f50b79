import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REG_SENDS_PER_DAY } from '@kelvin/contracts';
import { createCaptchas, loadSigningKey } from '../auth/index.ts';
import { ADMIN_PASSWORD, startTestKelvin, type TestClient } from '../../test/harness.ts';

let k: TestClient;
let platform: string;
let captchas: ReturnType<typeof createCaptchas>;
let ipSeq = 0;
/** each test its own address, so the per-address limit is tested only where meant */
const nextIp = () => `10.9.0.${++ipSeq}`;

async function post(url: string, body: unknown, ip: string) {
  const res = await k.kelvin.app.inject({ method: 'POST', url, payload: body as object, remoteAddress: ip });
  return res.json();
}
function captcha() {
  const c = captchas.issue();
  return { captchaId: c.captchaId, captchaCode: c.answer };
}
const sendCode = (phone: string, ip: string, c = captcha()) => post('/api/v1/register/sms-code', { phone, ...c }, ip);
/** the code as the record provider keeps it (the platform's SMS records) */
async function lastCode(phone: string): Promise<string> {
  const row = await k.db.selectFrom('sms_record').select('content').where('phone', '=', phone).where('kind', '=', 'verify_code').orderBy('id', 'desc').executeTakeFirstOrThrow();
  return row.content.match(/\d{6}/)![0];
}
const apply = (phone: string, smsCode: string, ip: string, extra: Record<string, unknown> = {}) =>
  post('/api/v1/register', { company: '星河物业有限公司', contact: '周立', phone, smsCode, notes: '三个项目', ...extra }, ip);
async function applied(phone: string, company = '星河物业有限公司') {
  const ip = nextIp();
  expect((await sendCode(phone, ip)).code).toBe(200);
  expect((await apply(phone, await lastCode(phone), ip, { company })).code).toBe(200);
  const list = await k.call('GET', `/api/v1/register/applications?keyword=${phone}`, { token: platform });
  return list.body.data.rows[0] as { id: number; status: string };
}

beforeAll(async () => {
  k = await startTestKelvin();
  platform = await k.loginAdmin();
  captchas = createCaptchas(await loadSigningKey(k.db));
});
afterAll(() => k?.close());

describe('入驻申请：短信验证码', () => {
  it('needs the image captcha; a used captcha is refused', async () => {
    const ip = nextIp();
    const wrong = await sendCode('13800000001', ip, { captchaId: captchas.issue().captchaId, captchaCode: 'ZZZZ' });
    expect(wrong).toMatchObject({ code: 40000, msg: expect.stringContaining('图形验证码') });
    const c = captcha();
    expect((await sendCode('13800000001', ip, c)).code).toBe(200);
    expect((await sendCode('13800000002', nextIp(), c)).code).toBe(40000);
    // the message went through the SMS provider into the platform's records
    const sms = await k.db.selectFrom('sms_record').selectAll().where('phone', '=', '13800000001').execute();
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatchObject({ tenant_id: 0, kind: 'verify_code', status: 'recorded' });
  });

  it('one send per 60 s per phone and per address, 10 a day', async () => {
    const ip = nextIp();
    expect((await sendCode('13800000011', ip)).code).toBe(200);
    const again = await sendCode('13800000011', nextIp());
    expect(again).toMatchObject({ code: 42900, msg: expect.stringMatching(/\d+ 秒后再试/) });
    // another phone from the same address within the minute
    expect((await sendCode('13800000012', ip)).code).toBe(42900);
    // ten earlier sends today for one phone: the eleventh is refused (even after the minute)
    const now = Date.now();
    await k.db.insertInto('registration_code').values(Array.from({ length: REG_SENDS_PER_DAY }, (_, i) => ({
      phone: '13800000013', ip: `10.8.0.${i}`, code_hash: 'x', tries: 0, created_at: now - 3600_000 + i, expires_at: now, used_at: null,
    }))).execute();
    expect(await sendCode('13800000013', nextIp())).toMatchObject({ code: 42900, msg: expect.stringContaining('上限') });
  });

  it('a wrong, expired or over-tried code is refused in Chinese and stores nothing', async () => {
    const ip = nextIp();
    await sendCode('13800000021', ip);
    const code = await lastCode('13800000021');
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await apply('13800000021', wrong, ip)).toMatchObject({ code: 40000, msg: expect.stringContaining('短信验证码错误') });
    expect(await apply('13800000021', '12ab', ip)).toMatchObject({ code: 40000, msg: expect.stringContaining('6 位数字') });
    // five wrong tries spend the code: even the right one is refused afterwards
    for (let i = 0; i < 4; i++) await apply('13800000021', wrong, ip);
    expect((await apply('13800000021', code, ip)).code).toBe(40000);
    // expired
    const ip2 = nextIp();
    await sendCode('13800000022', ip2);
    await k.db.updateTable('registration_code').set({ expires_at: Date.now() - 1 }).where('phone', '=', '13800000022').execute();
    expect((await apply('13800000022', await lastCode('13800000022'), ip2)).code).toBe(40000);
    const stored = await k.db.selectFrom('registration_application').select('id').where('phone', 'in', ['13800000021', '13800000022']).execute();
    expect(stored).toEqual([]);
  });

  it('answers alike whether or not a phone is known (no account or application is revealed)', async () => {
    // a phone with an application and an account already
    const now = Date.now();
    await k.db.insertInto('registration_application').values({
      company: '已申请物业', contact: '老周', phone: '13800000031', notes: null, status: 'pending', ip: '10.7.0.1', reviewer_id: null, reviewer_name: null,
      reviewed_at: null, reason: null, tenant_id: null, tenant_code: null, username: null, created_at: now, updated_at: now,
    }).execute();
    await k.db.updateTable('app_user').set({ phone: '13800000031' }).where('username', '=', 'admin').execute();
    const ip = nextIp();
    const known = await sendCode('13800000031', ip);
    const fresh = await sendCode('13800000032', nextIp());
    expect(known).toEqual(fresh);
    const a = await apply('13800000031', await lastCode('13800000031'), ip);
    const ip2 = nextIp();
    await new Promise((r) => setTimeout(r, 5));
    const b = await apply('13800000032', await lastCode('13800000032'), ip2);
    expect(a).toEqual(b);
    // the second application of a waiting phone updated the first
    expect((await k.db.selectFrom('registration_application').select('id').where('phone', '=', '13800000031').execute())).toHaveLength(1);
  });
});

describe('入驻申请：审核', () => {
  it('approve creates the tenant and its first administrator once; the password is shown once and sent by SMS', async () => {
    const app = await applied('13800000041', '云杉能源物业');
    const body = { tenantCode: 'yunshan', username: 'yunshan_admin' };
    const first = await k.call('POST', `/api/v1/register/applications/${app.id}/approve`, { token: platform, body });
    expect(first.body.code).toBe(200);
    expect(first.body.data.password).toMatch(/^\w{12}$/);
    expect(first.body.data.application).toMatchObject({ status: 'approved', tenantCode: 'yunshan', username: 'yunshan_admin', reviewerName: expect.any(String) });
    // twice: the same tenant, no password, nothing new
    const again = await k.call('POST', `/api/v1/register/applications/${app.id}/approve`, { token: platform, body: { tenantCode: 'other', username: 'other_admin' } });
    expect(again.body.data).toMatchObject({ tenantId: first.body.data.tenantId, password: null });
    expect(await k.db.selectFrom('tenant').select('id').where('code', 'in', ['yunshan', 'other']).execute()).toHaveLength(1);
    // the new administrator signs in with the password
    const token = await k.login('yunshan_admin', first.body.data.password);
    const info = await k.call('GET', '/api/admin/user/front/info', { token });
    expect(info.body.data.menus.length).toBeGreaterThan(20);
    const tenant = await k.db.selectFrom('tenant').selectAll().where('code', '=', 'yunshan').executeTakeFirstOrThrow();
    expect(tenant).toMatchObject({ name: '云杉能源物业', brand: '云杉能源物业', contact: '周立', phone: '13800000041' });
    const sms = await k.db.selectFrom('sms_record').select('content').where('phone', '=', '13800000041').where('kind', '=', 'onboard_approved').execute();
    expect(sms).toHaveLength(1);
    expect(sms[0].content).toContain(first.body.data.password);
    // audited
    const log = await k.db.selectFrom('gate_log').select('operation').where('operation', 'like', '通过入驻申请%').execute();
    expect(log.length).toBeGreaterThanOrEqual(2);
  });

  it('two approvals at once create one tenant', async () => {
    const app = await applied('13800000051', '并发物业');
    const body = { tenantCode: 'bingfa', username: 'bingfa_admin' };
    const [x, y] = await Promise.all([0, 1].map(() => k.call('POST', `/api/v1/register/applications/${app.id}/approve`, { token: platform, body })));
    const codes = [x.body.code, y.body.code].sort();
    expect(codes[0]).toBe(200);
    expect([200, 40900]).toContain(codes[1]);
    expect([x.body.data?.password, y.body.data?.password].filter(Boolean)).toHaveLength(1);
    expect(await k.db.selectFrom('tenant').select('id').where('code', '=', 'bingfa').execute()).toHaveLength(1);
  });

  it('a taken tenant code leaves the application waiting; reject needs a reason and is final', async () => {
    const app = await applied('13800000061', '重名物业');
    const taken = await k.call('POST', `/api/v1/register/applications/${app.id}/approve`, { token: platform, body: { tenantCode: 'yunshan', username: 'chongming_admin' } });
    expect(taken.body).toMatchObject({ code: 40900, msg: expect.stringContaining('yunshan') });
    expect((await k.db.selectFrom('registration_application').select('status').where('id', '=', app.id).executeTakeFirstOrThrow()).status).toBe('pending');
    expect((await k.call('POST', `/api/v1/register/applications/${app.id}/reject`, { token: platform, body: { reason: ' ' } })).body.code).toBe(40000);
    const rejected = await k.call('POST', `/api/v1/register/applications/${app.id}/reject`, { token: platform, body: { reason: '资料不全' } });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', reason: '资料不全' });
    expect((await k.call('POST', `/api/v1/register/applications/${app.id}/approve`, { token: platform, body: { tenantCode: 'chongming', username: 'chongming_admin' } })).body.code).toBe(40900);
    const sms = await k.db.selectFrom('sms_record').select('content').where('phone', '=', '13800000061').where('kind', '=', 'onboard_rejected').execute();
    expect(sms[0].content).toContain('资料不全');
    const pending = await k.call('GET', '/api/v1/register/applications?status=rejected', { token: platform });
    expect(pending.body.data.rows.map((r: { id: number }) => r.id)).toContain(app.id);
  });

  it('only platform administrators review', async () => {
    const app = await applied('13800000071', '越权物业');
    const token = await k.login('yunshan_admin', (await k.db.selectFrom('app_user').select('id').where('username', '=', 'yunshan_admin').executeTakeFirst()) ? await resetPassword('yunshan_admin') : ADMIN_PASSWORD);
    for (const [method, url, body] of [
      ['GET', '/api/v1/register/applications', undefined],
      ['POST', `/api/v1/register/applications/${app.id}/approve`, { tenantCode: 'yuequan', username: 'yuequan_admin' }],
      ['POST', `/api/v1/register/applications/${app.id}/reject`, { reason: '不行' }],
    ] as const) {
      expect((await k.call(method, url, { token, body })).body.code).toBe(40301);
    }
    expect((await k.db.selectFrom('registration_application').select('status').where('id', '=', app.id).executeTakeFirstOrThrow()).status).toBe('pending');
  });
});

/** a known password for a user (test set-up) */
async function resetPassword(username: string) {
  const { hashPassword } = await import('../auth/index.ts');
  const password = 'Reset#Pass-2026';
  await k.db.updateTable('app_user').set({ password_hash: await hashPassword(password) }).where('username', '=', username).execute();
  return password;
}
