import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaptchas, loadSigningKey } from '../modules/auth/index.ts';
import { SHOWROOM_RATE } from '../modules/showroom/index.ts';
import { createTestDevice } from '../modules/devices/test-fixtures.ts';
import { createArea, createTenant, createUser, startTestKelvin, type TestClient } from './harness.ts';

/**
 * The public endpoints (no token: the /demo tour, registration, brand, captcha, health) never carry personal data.
 * Known personal values are seeded in the showroom tenant itself — users, residents' accounts, the tenant's contact,
 * an application — and every public answer's JSON is searched for them.
 */

const DAY = 24 * 3600_000;
const CST = 8 * 3600_000;
const PERSONAL = {
  userName: '隐私测试甲', username: 'privacy_user', userPhone: '13911112222',
  resident: '隐私住户乙', residentPhone: '13733334444', idNumber: '110101199001011234',
  contact: '隐私联系人丙', tenantPhone: '13655556666',
  applicant: '隐私申请人丁', applicantPhone: '13577778888',
};

let k: TestClient;
let tenantId: number;
let projectId: number;
const today = Math.floor((Date.now() + CST) / DAY) * DAY - CST;

beforeAll(async () => {
  k = await startTestKelvin();
  const { db } = k;
  tenantId = await createTenant(db, 'demo', '示范物业有限公司');
  await db.updateTable('tenant').set({ contact: PERSONAL.contact, phone: PERSONAL.tenantPhone }).where('id', '=', tenantId).execute();
  const region = await createArea(db, { tenantId, parentId: null, level: 'region', name: '华东区域' });
  await createArea(db, { tenantId, parentId: region, level: 'project', name: '另一个项目', projectType: 'PT1011' });
  projectId = await createArea(db, { tenantId, parentId: region, level: 'project', name: '张江综合能源园区', projectType: 'PT5030' });
  const room = await createArea(db, { tenantId, parentId: projectId, level: 'building', name: '1号楼' });
  const u = await createUser(db, { tenantId, username: PERSONAL.username, password: 'Privacy#Pass-2026', codes: ['dict'] });
  await db.updateTable('app_user').set({ name: PERSONAL.userName, phone: PERSONAL.userPhone }).where('id', '=', u.id).execute();
  const now = Date.now();
  await db.insertInto('account').values({
    tenant_id: tenantId, project_id: projectId, kind: 'resident', name: PERSONAL.resident, phone: PERSONAL.residentPhone, id_number: PERSONAL.idNumber,
    move_in_date: null, status: 'active', balance_fen: 0, deposit_fen: 0, group_id: null, remark: null, created_at: now, closed_at: null,
  }).execute();
  await db.insertInto('registration_application').values({
    company: '隐私公司', contact: PERSONAL.applicant, phone: PERSONAL.applicantPhone, notes: null, status: 'pending', ip: '10.1.1.1', reviewer_id: null,
    reviewer_name: null, reviewed_at: null, reason: null, tenant_id: null, tenant_code: null, username: null, created_at: now, updated_at: now,
  }).execute();
  // devices of the showroom project: a meter with a week of daily roll-ups and a thermostat that reported
  const meter = await createTestDevice(k, { tenantId, projectId, areaId: room, type: 'device20070', name: '1号楼总电表' });
  const stat = await createTestDevice(k, { tenantId, projectId, areaId: room, type: 'device20000', name: '101 温控器' });
  await db.updateTable('device').set({ last_report_at: now, online_until: now + 600_000 }).where('id', '=', stat.id).execute();
  await db.insertInto('device_state').values([{ device_id: stat.id, field_code: 'f00', num: 1, txt: null, ts: now }, { device_id: stat.id, field_code: 'f04', num: 22, txt: null, ts: now }]).execute();
  await db.insertInto('device_rollup_day').values(Array.from({ length: 7 }, (_, i) => {
    const bucket = today - (6 - i) * DAY;
    const first = 1000 + i * 10;
    return { device_id: meter.id, field_code: 'f70', bucket, n: 2, sum: first * 2 + 10, min: first, max: first + 10, first_ts: bucket + 1000, first_num: first, last_ts: bucket + 2000, last_num: first + 10, delta: 10 };
  })).execute();
});
afterAll(() => k?.close());

describe('公开接口：演示与隐私', () => {
  it('the tour shows the showroom project: types with counts, device cards with their state, 7 days of energy from the roll-ups', async () => {
    const res = await k.call('GET', '/api/v1/showroom');
    expect(res.body.code).toBe(200);
    const d = res.body.data;
    expect(d.project).toMatchObject({ name: '张江综合能源园区', projectTypeName: '综合能源' });
    expect(d.totals).toEqual({ devices: 2, online: 1, types: 2 });
    expect(d.devices[0]).toMatchObject({ name: '101 温控器', online: true });
    expect(d.devices[0].fields.length).toBeGreaterThan(0);
    expect(d.energy.days).toHaveLength(7);
    // each day: the growth inside it (10) plus the step from the day before (0 on the first day, 0 after)
    expect(d.energy.days.slice(1).every((x: { value: number }) => x.value === 10)).toBe(true);
  });

  it('public answers carry no personal data (users, residents, contacts, applicants, phones, ID numbers)', async () => {
    const captcha = createCaptchas(await loadSigningKey(k.db)).issue();
    const answers = [
      await k.call('GET', '/api/v1/showroom'),
      await k.call('GET', `/api/v1/tenant/brand?tenantId=${tenantId}`),
      await k.call('GET', '/api/auth/captcha'),
      await k.call('GET', '/api/health'),
      await k.call('GET', '/api/ready'),
      await k.call('POST', '/api/v1/register/sms-code', { body: { phone: PERSONAL.applicantPhone, captchaId: captcha.captchaId, captchaCode: captcha.answer } }),
      await k.call('POST', '/api/v1/register', { body: { company: '隐私公司', contact: PERSONAL.applicant, phone: PERSONAL.applicantPhone, smsCode: '000000' } }),
      await k.call('GET', '/api/v1/register/applications'),
    ];
    const json = answers.map((a) => JSON.stringify(a.body)).join('\n');
    expect(answers[0].body.code).toBe(200);
    expect(answers[1].body.code).toBe(200);
    for (const [what, value] of Object.entries(PERSONAL)) expect(json.includes(value), `${what} in a public answer`).toBe(false);
    // nothing shaped like a mobile number or an ID number either
    expect(json).not.toMatch(/(?<!\d)1[3-9]\d{9}(?!\d)/);
    expect(json).not.toMatch(/(?<!\d)\d{17}[\dX](?!\d)/);
  });

  it('the tour is limited per address (60 a minute), other addresses unaffected', async () => {
    const call = (ip: string) => k.kelvin.app.inject({ method: 'GET', url: '/api/v1/showroom', remoteAddress: ip }).then((r) => r.json().code);
    const codes = [];
    for (let i = 0; i < SHOWROOM_RATE + 1; i++) codes.push(await call('10.5.5.5'));
    expect(codes.slice(0, SHOWROOM_RATE).every((c) => c === 200)).toBe(true);
    expect(codes[SHOWROOM_RATE]).toBe(42900);
    expect(await call('10.5.5.6')).toBe(200);
  });
});
