import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_PARAM_DEFAULTS } from '@kelvin/contracts';
import { createArea, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { download, twoAdminTenants, userWith, xlsxText, type Api, type TenantFixture } from '../admin/fixtures.ts';
import { createSmsService } from './sms.ts';
import { aliyunProvider, aliyunSignature, recordProvider, smsProviderFromConfig, type SmsProvider } from './sms-provider.ts';

let k: TestClient;
let A: TenantFixture, B: TenantFixture, data: Api['data'], refused: Api['refused'];

beforeAll(async () => {
  k = await startTestKelvin();
  ({ A, B, data, refused } = await twoAdminTenants(k, 'sys'));
});
afterAll(() => k?.close());

describe('系统参数 getSystemParam / editSystemParam', () => {
  it('answers the defaults, saves a partial edit per tenant, and refuses bad values', async () => {
    expect(await data('GET', '/api/v1/system/getSystemParam', A.token)).toEqual(SYSTEM_PARAM_DEFAULTS);
    const saved = await data('POST', '/api/v1/system/editSystemParam', A.token, { systemName: '阳光能源平台', balanceWarn1: 80.5, autoReconnect: false });
    expect(saved).toEqual({ ...SYSTEM_PARAM_DEFAULTS, systemName: '阳光能源平台', balanceWarn1: 80.5, autoReconnect: false });
    expect(await data('GET', '/api/v1/system/getSystemParam', A.token)).toEqual(saved);
    expect(await data('GET', '/api/v1/system/getSystemParam', B.token)).toEqual(SYSTEM_PARAM_DEFAULTS);

    const url = '/api/v1/system/editSystemParam';
    await refused('POST', url, A.token, { balanceWarn1: -1 }, 40000, /一级余额预警不能小于 0元/);
    await refused('POST', url, A.token, { balanceWarn1: 1.005 }, 40000, /最多两位小数/);
    await refused('POST', url, A.token, { offlineMinutes: 2.5 }, 40000, /必须是整数/);
    await refused('POST', url, A.token, { nosuch: 1 }, 40000, /未知的系统参数：nosuch/);
    await refused('POST', url, A.token, { balanceWarn2: 100 }, 40000, /二级余额预警不能高于一级/);
    await refused('POST', url, A.token, { systemName: '名'.repeat(51) }, 40000, /系统名称最多 50 个字符/);
  });
});

describe('节假日 /api/v1/holiday', () => {
  it('keeps tenant-wide and per-project days; a project\'s own entry wins in getHolidays', async () => {
    const otherProject = await createArea(k.db, { tenantId: A.tenantId, parentId: null, level: 'project', name: '第二项目', projectType: 'PT1011' });
    const newYear = await data('POST', '/api/v1/holiday/update', A.token, { date: '2027-01-01', type: 'holiday', name: '元旦' });
    expect(newYear).toMatchObject({ projectId: null, date: '2027-01-01', type: 'holiday', name: '元旦' });
    await data('POST', '/api/v1/holiday/update', A.token, { date: '2027-01-01', type: 'workday', projectId: A.projectId, name: '项目值班' });
    await data('POST', '/api/v1/holiday/update', A.token, { date: '2027-02-06', type: 'workday', name: '调休' });
    await data('POST', '/api/v1/holiday/update', A.token, { date: '2028-05-01', type: 'holiday', name: '劳动节' });

    const own = await data('GET', `/api/v1/holiday/getHolidays?projectId=${A.projectId}&start=2027-01-01&end=2027-12-31`, A.token);
    expect(own).toEqual([
      { date: '2027-01-01', type: 'workday', name: '项目值班', projectId: A.projectId },
      { date: '2027-02-06', type: 'workday', name: '调休', projectId: null },
    ]);
    const second = await data('GET', `/api/v1/holiday/getHolidays?projectId=${otherProject}&start=2027-01-01&end=2027-12-31`, A.token);
    expect(second.map((d: { date: string; type: string }) => `${d.date} ${d.type}`)).toEqual(['2027-01-01 holiday', '2027-02-06 workday']);

    const year = await data('GET', '/api/v1/holiday/getAll?year=2027', A.token);
    expect(year.total).toBe(3);
    expect(year.rows.find((r: { projectId: number | null }) => r.projectId === A.projectId).projectName).toBe('sysa项目');

    // without an id the same date and project is replaced, not duplicated
    await data('POST', '/api/v1/holiday/update', A.token, { date: '2027-02-06', type: 'holiday', name: '春节' });
    expect((await data('GET', '/api/v1/holiday/getAll?year=2027&type=holiday', A.token)).rows.map((r: { name: string }) => r.name)).toEqual(['元旦', '春节']);
    // with an id, moving onto a date that is taken is refused
    await refused('POST', '/api/v1/holiday/update', A.token, { id: newYear.id, date: '2027-02-06', type: 'holiday' }, 40900, /已设置/);
    await refused('POST', '/api/v1/holiday/update', A.token, { date: '2027-02-30', type: 'holiday' }, 40000, /日期不存在/);
    await refused('POST', '/api/v1/holiday/update', A.token, { date: '2027-03-01', type: 'sometimes' }, 40000, /节假日类型/);
    // another tenant's project does not exist for A
    await refused('POST', '/api/v1/holiday/update', A.token, { date: '2027-03-01', type: 'holiday', projectId: B.projectId }, 40400, /不存在/);

    const del = await data('POST', '/api/v1/holiday/delete', A.token, { ids: [newYear.id] });
    expect(del.deleted).toBe(1);
    expect((await data('GET', '/api/v1/holiday/getAll?year=2027', A.token)).total).toBe(2);
    expect((await data('GET', '/api/v1/holiday/getAll?year=2027', B.token)).total).toBe(0);
  });

  it('a user limited to some projects cannot set tenant-wide days nor see other projects\' days', async () => {
    const hidden = await createArea(k.db, { tenantId: A.tenantId, parentId: null, level: 'project', name: '隐藏项目', projectType: 'PT1011' });
    await data('POST', '/api/v1/holiday/update', A.token, { date: '2029-10-01', type: 'holiday', projectId: hidden, name: '隐藏' });
    const u = await userWith(k, A.tenantId, 'sysa_limited', ['holidayManagement_n', 'holidayManagement_n:view', 'holidayManagement_n:btn_edit'], { allProjects: false, projectIds: [A.projectId] });
    await refused('POST', '/api/v1/holiday/update', u.token, { date: '2029-10-02', type: 'holiday' }, 40301, /全部项目/);
    const list = await data('GET', '/api/v1/holiday/getAll?year=2029', u.token);
    expect(list.total).toBe(0);
    expect((await k.call('GET', `/api/v1/holiday/getHolidays?projectId=${hidden}&start=2029-01-01&end=2029-12-31`, { token: u.token })).body.code).toBe(40400);
  });
});

describe('短信', () => {
  it('templates check their variables; the kinds list shows the template in effect', async () => {
    await refused('POST', '/api/v1/sms/template', A.token, { kind: 'low_balance', name: '余额', content: '余额{balance}，设备{device}' }, 40000, /模板变量 \{device\} 不适用/);
    const t = await data('POST', '/api/v1/sms/template', A.token, { kind: 'low_balance', name: '余额提醒', content: '{name}您好，{project}{room}余额{balance}元', externalCode: 'SMS_100' });
    await refused('POST', '/api/v1/sms/template', A.token, { kind: 'low_balance', name: '再来', content: '{name}' }, 40900, /已存在/);
    await refused('PUT', `/api/v1/sms/template/${t.id}`, A.token, { content: '{alarm}' }, 40000, /不适用/);
    const kinds = await data('GET', '/api/v1/sms/kinds', A.token);
    expect(kinds.map((x: { kind: string }) => x.kind)).toEqual(['low_balance', 'alarm', 'cut_off']);
    expect(kinds[0].template).toMatchObject({ id: t.id, externalCode: 'SMS_100' });
    expect(kinds[1].template).toBeNull();
    expect(kinds[1].defaultContent).toContain('{alarm}');
  });

  it('a test message goes through the record provider and lands in the record list with its status', async () => {
    const rec = await data('POST', '/api/v1/sms/test', A.token, { phone: '13912345678', kind: 'low_balance', params: { name: '李四', balance: 3.2 } });
    expect(rec).toMatchObject({ status: 'recorded', provider: 'record', phone: '13912345678', kind: 'low_balance', error: null });
    expect(rec.content).toBe('李四您好，示例项目1号楼101室余额3.2元');
    await refused('POST', '/api/v1/sms/test', A.token, { phone: '12345', kind: 'alarm' }, 40000, /手机号格式不正确/);
    const page = await data('GET', '/api/v1/sms/record/page?phone=139123', A.token);
    expect(page.rows.map((r: { id: number }) => r.id)).toEqual([rec.id]);
    expect((await data('GET', '/api/v1/sms/record/page', B.token)).total).toBe(0);

    const file = await download(k, '/api/v1/sms/record/export?kind=low_balance', A.token);
    expect(file.headers['content-disposition']).toMatch(/filename\*=UTF-8''%E7%9F%AD%E4%BF%A1%E8%AE%B0%E5%BD%95_/);
    const lines = await xlsxText(file.raw);
    expect(lines[0]).toBe('时间|手机号|类型|签名|内容|状态|说明|服务商');
    expect(lines[1]).toContain('13912345678|余额不足提醒|sysa 物业品牌|李四您好');
    expect(lines[1]).toContain('已记录（未外发）');
  });

  it('per-tenant defaults: switches and the daily limit stop sending, and the reason is recorded', async () => {
    const settings = await data('GET', '/api/v1/sms/setting', B.token);
    expect(settings).toMatchObject({ signName: 'sysb 物业品牌', enabled: true, lowBalance: true, provider: 'record', dailyLimit: 1000 });
    await refused('PUT', '/api/v1/sms/setting', B.token, { alarmPhones: ['110'] }, 40000, /手机号格式不正确/);
    await data('PUT', '/api/v1/sms/setting', B.token, { alarm: false, dailyLimit: 2, alarmPhones: ['13800000002', '13800000002'] });
    expect((await data('GET', '/api/v1/sms/setting', B.token)).alarmPhones).toEqual(['13800000002']);

    const alarm = await data('POST', '/api/v1/sms/test', B.token, { phone: '13800000002', kind: 'alarm' });
    expect(alarm).toMatchObject({ status: 'failed', error: '已关闭“设备告警通知”短信' });
    expect((await data('POST', '/api/v1/sms/test', B.token, { phone: '13800000002', kind: 'low_balance' })).status).toBe('recorded');
    expect((await data('POST', '/api/v1/sms/test', B.token, { phone: '13800000002', kind: 'cut_off' })).status).toBe('recorded');
    expect(await data('POST', '/api/v1/sms/test', B.token, { phone: '13800000002', kind: 'cut_off' })).toMatchObject({ status: 'failed', error: '已达到每日发送上限 2 条' });
    await data('PUT', '/api/v1/sms/setting', B.token, { enabled: false, dailyLimit: 0 });
    expect((await data('POST', '/api/v1/sms/test', B.token, { phone: '13800000002', kind: 'low_balance' })).error).toBe('本租户已关闭短信发送');
  });

  it('other domains send through the service; a real provider gets the template code and its answer is stored', async () => {
    const sent: unknown[] = [];
    const fake: SmsProvider = { name: 'fake', send: async (m) => (sent.push(m), { status: 'sent', providerMsgId: 'biz-1' }) };
    const sms = createSmsService(k.db, fake);
    const rec = await sms.send(A.tenantId, { kind: 'low_balance', phone: '13700000009', params: { name: '王五', project: '阳光', room: '2-301', balance: '1.00' }, projectId: A.projectId });
    expect(rec).toMatchObject({ status: 'sent', provider: 'fake', providerMsgId: 'biz-1', projectId: A.projectId });
    expect(sent).toEqual([{ phone: '13700000009', signName: 'sysa 物业品牌', content: '王五您好，阳光2-301余额1.00元', templateCode: 'SMS_100', params: { name: '王五', project: '阳光', room: '2-301', balance: '1.00' } }]);
    const failing = createSmsService(k.db, { name: 'down', send: async () => ({ status: 'failed', error: '服务商超时' }) });
    expect(await failing.send(A.tenantId, { kind: 'alarm', phone: '13700000009', params: {} })).toMatchObject({ status: 'failed', error: '服务商超时' });
  });
});

describe('阿里云短信服务商', () => {
  it('signs exactly as Aliyun\'s documented example', () => {
    const params = {
      AccessKeyId: 'testId', Action: 'SendSms', Format: 'XML', OutId: '123', PhoneNumbers: '15300000001', RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用', SignatureMethod: 'HMAC-SHA1', SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466', SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007', TemplateParam: '{"customer":"test"}', Timestamp: '2017-07-12T02:42:19Z', Version: '2017-05-25',
    };
    expect(aliyunSignature(params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it('sends a signed SendSms request and maps the answer (no network: fetch is injected)', async () => {
    const urls: string[] = [];
    let answer: { Code: string; Message: string; BizId?: string } = { Code: 'OK', Message: 'OK', BizId: '9006' };
    const fetchFn = (async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
    const p = aliyunProvider({ accessKeyId: 'kid', accessKeySecret: 'sec', endpoint: 'https://sms.example.test', regionId: 'cn-hangzhou' }, fetchFn, () => new Date('2026-01-02T03:04:05.678Z'));
    const msg = { phone: '13800000000', signName: '暖云能源', content: 'x', templateCode: 'SMS_1', params: { name: '张三' } };
    expect(await p.send(msg)).toEqual({ status: 'sent', providerMsgId: '9006' });
    const url = new URL(urls[0]);
    expect(url.origin).toBe('https://sms.example.test');
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({ Action: 'SendSms', PhoneNumbers: '13800000000', SignName: '暖云能源', TemplateCode: 'SMS_1', TemplateParam: '{"name":"张三"}', Timestamp: '2026-01-02T03:04:05Z' });
    const { Signature, ...signed } = q;
    expect(Signature).toBe(aliyunSignature(signed, 'sec'));

    answer = { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发分钟级流控' };
    expect(await p.send(msg)).toEqual({ status: 'failed', error: '阿里云返回 isv.BUSINESS_LIMIT_CONTROL：触发分钟级流控' });
    expect(await p.send({ ...msg, templateCode: null })).toMatchObject({ status: 'failed', error: expect.stringMatching(/服务商模板编号/) });
    expect(urls).toHaveLength(2);
  });

  it('is chosen by configuration, and refuses to start without credentials', () => {
    expect(smsProviderFromConfig(undefined)).toBe(recordProvider);
    expect(smsProviderFromConfig({ provider: 'aliyun', aliyun: { accessKeyId: 'a', accessKeySecret: 'b', endpoint: 'https://x', regionId: 'cn-hangzhou' } }).name).toBe('aliyun');
    expect(() => smsProviderFromConfig({ provider: 'aliyun' })).toThrow(/SMS_ALIYUN_ACCESS_KEY_ID/);
  });
});
