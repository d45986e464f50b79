import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTenantWithProject, startTestKelvin, type TestClient } from '../../test/harness.ts';
import { createCaptchas } from './captcha.ts';
import { CAPTCHA_AFTER_FAILURES } from './service.ts';
import { loadSigningKey } from './tokens.ts';

let k: TestClient;
beforeAll(async () => {
  k = await startTestKelvin();
});
afterAll(() => k?.close());

describe('登录接口 POST /api/auth/jwt/token', () => {
  it('returns the token in data, the tenant in data2 and the user id in attr1', async () => {
    const res = await k.call('POST', '/api/auth/jwt/token', { body: { username: '  admin  ', password: ADMIN_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect(typeof res.body.data).toBe('string');
    expect(res.body.data.split('.')).toHaveLength(3);
    expect(res.body.data2).toBe(0);
    expect(Number(res.body.attr1)).toBeGreaterThan(0);
  });

  it('answers 40001 for a wrong password and for an unknown user, with the same message', async () => {
    const wrong = await k.call('POST', '/api/auth/jwt/token', { body: { username: 'admin', password: 'nope-nope' } });
    const unknown = await k.call('POST', '/api/auth/jwt/token', { body: { username: 'nobody', password: 'nope-nope' } });
    expect(wrong.body.code).toBe(40001);
    expect(unknown.body.code).toBe(40001);
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe(unknown.body.msg);
  });

  it('rejects an empty body with a Chinese validation message', async () => {
    const res = await k.call('POST', '/api/auth/jwt/token', { body: { username: '', password: '' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40000);
    expect(res.body.msg).toMatch(/请输入/);
  });

  it('answers malformed JSON with 40000 instead of crashing', async () => {
    const res = await k.kelvin.app.inject({ method: 'POST', url: '/api/auth/jwt/token', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(40000);
  });

  it('never locks an account: after a few failures it asks for the image captcha, then the right password still works', async () => {
    const t = await createTenantWithProject(k.db, 'throttle', ['projectlist']);
    const attempt = (body: Record<string, string>) => k.call('POST', '/api/auth/jwt/token', { body: { username: t.username, ...body } });
    for (let i = 1; i <= CAPTCHA_AFTER_FAILURES; i++) {
      const res = await attempt({ password: 'wrong-password' });
      expect(res.body.code).toBe(40001);
      expect(res.body.data?.captchaRequired ?? false).toBe(i >= CAPTCHA_AFTER_FAILURES);
    }
    // without a captcha even the right password is not checked: the answer asks for one, in Chinese
    const ask = await attempt({ password: t.password });
    expect(ask.body).toMatchObject({ code: 40002, msg: '请输入图形验证码', data: { captchaRequired: true } });
    const challenge = await k.call('GET', '/api/auth/captcha');
    expect(challenge.body.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(challenge.body.data.image.split(',')[1], 'base64').toString();
    expect(svg).toContain('<path');
    expect(svg).not.toContain('<text'); // the answer is drawn, not written into the image's source
    const wrongCode = await attempt({ password: t.password, captchaId: challenge.body.data.captchaId, captchaCode: 'ZZZZ' });
    expect(wrongCode.body.code).toBe(40002);
    expect(wrongCode.body.msg).toBe('验证码错误或已过期，请重新输入');

    const captchas = createCaptchas(await loadSigningKey(k.db));
    // a wrong password with a right captcha is answered more slowly
    const slow = captchas.issue();
    const started = Date.now();
    const wrong = await attempt({ password: 'wrong-again', captchaId: slow.captchaId, captchaCode: slow.answer.toLowerCase() });
    expect(wrong.body.code).toBe(40001);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    // a used captcha is not accepted twice
    const reused = await attempt({ password: t.password, captchaId: slow.captchaId, captchaCode: slow.answer });
    expect(reused.body.code).toBe(40002);
    const good = captchas.issue();
    const ok = await attempt({ password: t.password, captchaId: good.captchaId, captchaCode: good.answer });
    expect(ok.body.code).toBe(200);
    // a success clears the account's failures: no captcha next time
    expect((await attempt({ password: t.password })).body.code).toBe(200);
  });

  it('throttles one IP trying many accounts', async () => {
    let last = 0;
    for (let i = 0; i < 32; i++) {
      const res = await k.kelvin.app.inject({ method: 'POST', url: '/api/auth/jwt/token', remoteAddress: '10.9.8.7', payload: { username: `guess${i}`, password: 'x-password' } });
      last = res.json().code;
    }
    expect(last).toBe(42900);
    // another address is not affected
    const other = await k.kelvin.app.inject({ method: 'POST', url: '/api/auth/jwt/token', remoteAddress: '10.9.8.8', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(other.json().code).toBe(200);
  });
});

describe('令牌与会话', () => {
  it('401 + 40101 without a token, with a forged token, and Bearer prefix accepted', async () => {
    const none = await k.call('GET', '/api/admin/user/front/info');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(40101);
    const forged = await k.call('GET', '/api/admin/user/front/info', { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc' });
    expect(forged.body.code).toBe(40101);
    const token = await k.loginAdmin();
    const bearer = await k.call('GET', '/api/admin/user/front/info', { token: `Bearer ${token}` });
    expect(bearer.body.code).toBe(200);
    const viaQuery = await k.call('GET', `/api/admin/user/front/info?token=${encodeURIComponent(token)}`);
    expect(viaQuery.body.data.username).toBe('admin');
  });

  it('user info lists menus and elements; the platform admin holds every menu', async () => {
    const token = await k.loginAdmin();
    const info = await k.call('GET', '/api/admin/user/front/info', { token });
    const codes = info.body.data.menus.map((m: { code: string }) => m.code);
    expect(codes).toContain('projectlist');
    expect(codes).toContain('tenantManager');
    expect(info.body.data.elements.map((e: { code: string }) => e.code)).toContain('area:btn_add');
    expect(info.body.data.isPlatform).toBe(true);
  });

  it('the menu list carries code, title and icon in Chinese', async () => {
    const token = await k.loginAdmin();
    const res = await k.call('GET', '/api/admin/user/front/menu/all', { token });
    const device = res.body.data.find((m: { code: string }) => m.code === 'device');
    expect(device.type).toBe('dirt');
    expect(device.title).toMatch(/[\u4e00-\u9fa5]/);
    expect(res.body.data.length).toBeGreaterThan(150);
  });

  it('GET /api/auth/jwt/invalid revokes the token at once', async () => {
    const token = await k.loginAdmin();
    expect((await k.call('GET', '/api/admin/user/front/info', { token })).body.code).toBe(200);
    const out = await k.call('GET', `/api/auth/jwt/invalid?token=${encodeURIComponent(token)}`);
    expect(out.body.code).toBe(200);
    const after = await k.call('GET', '/api/admin/user/front/info', { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(40101);
  });

  it('an expired session stops working', async () => {
    const t = await createTenantWithProject(k.db, 'expiry', ['projectlist']);
    const token = await k.login(t.username, t.password);
    await k.db.updateTable('session').set({ expires_at: Date.now() - 1 }).where('user_id', '=', t.userId).execute();
    expect((await k.call('GET', '/api/admin/user/front/info', { token })).body.code).toBe(40101);
  });

  it('disabling a user or their tenant ends their tokens at once and blocks login', async () => {
    const t = await createTenantWithProject(k.db, 'disable', ['projectlist']);
    const token = await k.login(t.username, t.password);
    await k.db.updateTable('app_user').set({ enabled: 0 }).where('id', '=', t.userId).execute();
    expect((await k.call('GET', '/api/admin/user/front/info', { token })).body.code).toBe(40101);
    const login = await k.call('POST', '/api/auth/jwt/token', { body: { username: t.username, password: t.password } });
    expect(login.body.code).toBe(40300);
    await k.db.updateTable('app_user').set({ enabled: 1 }).where('id', '=', t.userId).execute();
    const token2 = await k.login(t.username, t.password);
    await k.db.updateTable('tenant').set({ enabled: 0 }).where('id', '=', t.tenantId).execute();
    expect((await k.call('GET', '/api/admin/user/front/info', { token: token2 })).body.code).toBe(40101);
  });

  it('a role change acts on the next request without a new login', async () => {
    const t = await createTenantWithProject(k.db, 'rolechg', ['projectlist']);
    const token = await k.login(t.username, t.password);
    expect((await k.call('GET', '/api/v1/area/project/list', { token })).body.code).toBe(200);
    await k.db.deleteFrom('role_grant').where('role_id', '=', t.roleId).execute();
    const denied = await k.call('GET', '/api/v1/area/project/list', { token });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(40301);
  });

  it('the brand endpoint is public and answers the tenant brand', async () => {
    const t = await createTenantWithProject(k.db, 'brand', []);
    const res = await k.call('GET', `/api/v1/tenant/brand?tenantId=${t.tenantId}`);
    expect(res.body.data.brand).toBe('brand 物业品牌');
  });
});

describe('审计 gate log', () => {
  it('records logins, logouts, changes and denials with user, menu, URI and the object acted on; reads are not logged', async () => {
    const t = await createTenantWithProject(k.db, 'audit', ['area', 'area:btn_edit', 'projectview']);
    const token = await k.login(t.username, t.password);
    // a POST that only reads (the project's file list) is not an operation
    const files = await k.call('POST', '/api/v1/static/getProjectFile', { token, body: { projectId: t.projectId } });
    expect(files.body.code).toBe(200);
    await k.call('PUT', `/api/v1/area/${t.buildingId}`, { token, body: { name: '审计楼' } });
    await k.call('POST', `/api/v1/area/deletebyid/${t.buildingId}`, { token });
    const rows = await k.db.selectFrom('gate_log').selectAll().where('tenant_id', '=', t.tenantId).orderBy('id').execute();
    expect(rows.map((r) => [r.operation, r.status])).toEqual([
      ['登录', 200],
      ['修改区域「审计楼」', 200],
      [`拒绝访问：删除区域（编号 ${t.buildingId}）`, 403],
    ]);
    expect(rows[1]).toMatchObject({ username: t.username, menu_code: 'area', method: 'PUT', uri: `/api/v1/area/${t.buildingId}` });
  });
});

describe('系统', () => {
  it('GET /api/health reports the database', async () => {
    const res = await k.call('GET', '/api/health');
    expect(res.body).toMatchObject({ code: 200, data: { status: 'ok', db: 'up', mqtt: 'off' } });
  });
  it('unknown API paths answer 40400 in the envelope', async () => {
    const res = await k.call('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(40400);
  });
  it('serves the OpenAPI document', async () => {
    const res = await k.call('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toContain('/api/auth/jwt/token');
  });
});
