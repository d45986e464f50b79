import crypto from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { expect, test, type Page } from '@playwright/test';
import { adminUser, api, baseUrl, btn, findNode, login, shot, watchConsole, type TreeNode } from './helpers';

/**
 * The visitor pages: an operator company applies on /reg (image captcha, SMS code from the record provider's outbox),
 * the platform administrator approves it in the tenant manager, and the new administrator signs in; an installer binds
 * a device on /addDevice at 390×844 and sees its credentials once; /demo, /introduction/index; the data dictionary
 * with a tenant's display name, seen on 设备页面. Screenshots under e2e/screenshots/public-*.
 */

/**
 * The image captcha is drawn, not readable: the test mints one with the server's own key (the data dir's database)
 * and answers it, exactly as the server checks it (auth/captcha.ts).
 */
function mintCaptcha() {
  const db = new SQLite(path.join(process.env.KELVIN_E2E_DATA_DIR!, 'kelvin.db'), { readonly: true });
  const { value } = db.prepare("select value from secret where key = 'jwt'").get() as { value: string };
  db.close();
  const answer = 'K7PX';
  const expires = Date.now() + 120_000;
  const nonce = crypto.randomBytes(9).toString('base64url');
  const mac = crypto.createHmac('sha256', Buffer.from(value, 'base64')).update(`captcha:${answer}:${expires}:${nonce}`).digest('base64url');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><text x="10" y="28" font-size="22">${answer}</text></svg>`;
  return { captchaId: `${expires}.${nonce}.${mac}`, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, answer };
}

async function dismissNoProjects(page: Page) {
  const alert = page.getByRole('dialog').filter({ hasText: '没有获取到项目列表' });
  await alert.getByRole('button', { name: '知道了' }).click();
}

test('入驻申请 → 平台审核通过 → 新管理员首次登录', async ({ browser, page }) => {
  test.setTimeout(60_000);
  const stamp = Date.now() % 1_000_000;
  const company = `青松物业${stamp}`;
  const phone = `139${String(stamp).padStart(8, '0')}`;
  await login(page, adminUser());

  // the visitor
  const visitor = await browser.newPage();
  const errors = watchConsole(visitor);
  await visitor.route('**/api/auth/captcha', (route) => route.fulfill({ json: { code: 200, msg: '操作成功', data: (({ captchaId, image }) => ({ captchaId, image }))(mintCaptcha()) } }));
  await visitor.goto(`${baseUrl()}/reg`);
  await visitor.getByLabel('公司名称').fill(company);
  await visitor.getByLabel('联系人').fill('林青');
  await visitor.getByLabel('手机号').fill(phone);
  await visitor.getByRole('textbox', { name: '图形验证码' }).fill('K7PX');
  await visitor.getByRole('button', { name: '获取验证码' }).click();
  await expect(visitor.getByRole('button', { name: /秒后重新获取/ })).toBeVisible();
  // the SMS code, from the platform's SMS records (the record provider is the outbox)
  const records = await api<{ rows: { content: string }[] }>(page, 'GET', `/api/v1/sms/record/page?phone=${phone}&kind=verify_code`);
  const code = records.rows[0].content.match(/\d{6}/)![0];
  await visitor.getByRole('textbox', { name: '短信验证码' }).fill(code);
  await visitor.getByLabel('备注').fill('两个住宅项目，地暖温控');
  await shot(visitor, 'public-reg');
  await visitor.getByRole('button', { name: btn('提交申请') }).click();
  await expect(visitor).toHaveURL(/\/success$/);
  await expect(visitor.getByText('入驻申请已提交')).toBeVisible();
  await expect(visitor.getByText(/审核后将以短信通知/)).toBeVisible();
  await shot(visitor, 'public-success');
  expect(errors).toEqual([]);
  await visitor.close();

  // the platform administrator approves it in the tenant manager
  await page.goto(`${baseUrl()}/baseManager/tenantManager`);
  await page.getByRole('tab', { name: /入驻申请/ }).click();
  const row = page.getByRole('row').filter({ hasText: company });
  await expect(row).toBeVisible();
  await expect(row).toContainText('待审核');
  await shot(page, 'public-applications');
  await row.getByRole('button', { name: btn('通过') }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: '通过入驻申请' });
  const username = await dialog.getByLabel('管理员账号').inputValue();
  expect(username).toMatch(/^t\d+_admin$/);
  await dialog.getByRole('button', { name: btn('通过并创建租户') }).click();
  const created = page.getByRole('dialog').filter({ hasText: '租户已创建' });
  const password = (await created.getByTestId('initial-password').innerText()).trim();
  expect(password.length).toBe(12);
  await shot(page, 'public-approved');
  await created.getByRole('button', { name: btn('我已保存') }).click();
  await page.goto(`${baseUrl()}/baseManager/tenantManager`);
  await page.getByRole('tab', { name: /入驻申请/ }).click();
  await page.getByRole('combobox', { name: /状态/ }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: '已通过' }).click();
  await page.getByRole('button', { name: btn('查询') }).click();
  await expect(page.getByRole('row').filter({ hasText: company })).toContainText('已通过');

  // the new administrator signs in; the brand (the company name) is in the top bar
  const fresh = await browser.newPage();
  await fresh.goto(`${baseUrl()}/login`);
  await fresh.getByRole('textbox', { name: '账号' }).fill(username);
  await fresh.locator('input[name=password]').fill(password);
  await fresh.getByRole('button', { name: /登\s*录/ }).click();
  await dismissNoProjects(fresh);
  await expect(fresh.getByTestId('user-menu')).toBeVisible();
  await expect(fresh.getByTestId('navbar-brand')).toHaveText(company);
  await shot(fresh, 'public-first-login');
  await fresh.close();
});

test('扫码添加设备（390×844）：登录后回到本页，绑定设备，接入密钥只显示一次', async ({ browser }) => {
  test.setTimeout(60_000);
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  const page = await phone.newPage();
  const errors = watchConsole(page);
  await page.goto(`${baseUrl()}/addDevice`);
  await expect(page).toHaveURL(/\/login\?redirect=%2FaddDevice/);
  const { username, password } = (await import('./helpers')).demoUser();
  await page.getByRole('textbox', { name: '账号' }).fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(/\/addDevice$/);
  await expect(page.getByText('扫码添加设备')).toBeVisible();

  const code = `E2EADD${Date.now() % 10_000_000}`;
  await page.getByRole('textbox', { name: '设备编号' }).fill(code);
  await page.getByRole('combobox', { name: '项目' }).click();
  await page.getByRole('combobox', { name: '项目' }).fill('阳光花园');
  await page.locator('.ant-select-item-option').filter({ hasText: '阳光花园小区' }).click();
  await page.getByRole('combobox', { name: '设备类型' }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: '地暖温控器' }).click();
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const project = findNode(tree, '阳光花园小区')!;
  const building = project.children[0];
  await page.locator('.ant-form-item').filter({ hasText: '安装位置' }).locator('.ant-select').click();
  await page.locator('.ant-select-tree-node-content-wrapper').filter({ hasText: building.label }).first().click();
  await page.getByLabel('设备名称').fill('扫码安装测试温控器');
  await shot(page, 'public-add-device-form');
  await page.getByRole('button', { name: btn('绑定设备') }).click();
  await expect(page.getByText('设备已绑定')).toBeVisible();
  const secret = page.getByTestId('device-secret');
  await expect(secret).toBeVisible();
  expect((await secret.innerText()).trim().length).toBeGreaterThan(20);
  await expect(page.getByText('接入密钥只显示这一次')).toBeVisible();
  await shot(page, 'public-add-device-credentials');
  // once: after a reload the page asks for the next device, the secret is gone
  await page.reload();
  await expect(page.getByRole('textbox', { name: '设备编号' })).toBeVisible();
  await expect(page.getByTestId('device-secret')).toHaveCount(0);
  // the device sits in that building of the project
  const list = await api<{ rows: { deviceCode: string; areaPath: string }[] }>(page, 'GET', `/api/v1/device/devicelist?projectId=${project.id}&keyword=${code}&pageNo=1&pageSize=10`);
  expect(list.rows).toHaveLength(1);
  expect(list.rows[0].areaPath).toContain(building.label);
  expect(errors).toEqual([]);
  await phone.close();
});

test('在线演示与平台介绍（无需登录）；数据字典的租户显示名称出现在设备页面', async ({ browser, page }) => {
  test.setTimeout(60_000);
  const visitor = await browser.newPage();
  const errors = watchConsole(visitor);
  await visitor.goto(`${baseUrl()}/introduction/index`);
  await expect(visitor.getByRole('heading', { name: 'Kelvin 楼宇能源管理平台' })).toBeVisible();
  await expect(visitor.getByTestId('intro-section')).toHaveCount(8);
  await shot(visitor, 'public-introduction');
  await visitor.getByRole('link', { name: '在线演示' }).first().click();
  await expect(visitor).toHaveURL(/\/demo$/);
  await expect(visitor.getByRole('heading', { name: '张江综合能源园区' })).toBeVisible();
  await expect(visitor.getByTestId('demo-type').first()).toBeVisible();
  await expect(visitor.getByTestId('demo-device').first()).toBeVisible();
  await expect(visitor.getByTestId('demo-energy-chart').locator('canvas')).toBeVisible();
  await expect(visitor.getByRole('link', { name: btn('登录体验完整功能') })).toBeVisible();
  await shot(visitor, 'public-demo');
  expect(errors).toEqual([]);
  await visitor.close();

  // the demo operator renames a device type for its tenant
  await login(page);
  await page.goto(`${baseUrl()}/businessSys/dict`);
  await page.getByRole('option', { name: /^设备类型\s*deviceType/ }).click();
  const row = page.getByRole('row').filter({ hasText: 'device20020' });
  await row.getByRole('button', { name: '编辑显示名称' }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: '编辑显示名称' });
  await dialog.getByLabel('显示名称').fill('地暖面板（示范）');
  await dialog.getByRole('button', { name: btn('保存') }).click();
  await expect(row).toContainText('地暖面板（示范）');
  await expect(row).toContainText('本租户');
  await shot(page, 'public-dict-override');

  // 设备页面 of a project with those thermostats shows the tenant's name
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const project = findNode(tree, '阳光花园小区')!;
  await page.goto(`${baseUrl()}/device/devicepage/${project.id / 1.7891}`);
  await expect(page.getByTestId('type-tab-device20020')).toContainText('地暖面板（示范）');
  await expect(page.getByTestId('device-card').first()).toBeVisible();
  await shot(page, 'public-device-page');

  // back to the default for the other specs
  await page.goto(`${baseUrl()}/businessSys/dict`);
  await page.getByRole('option', { name: /^设备类型\s*deviceType/ }).click();
  await page.getByRole('row').filter({ hasText: 'device20020' }).getByRole('button', { name: '恢复默认' }).click();
  await page.getByRole('dialog').filter({ hasText: '恢复默认名称' }).getByRole('button', { name: btn('恢复默认') }).click();
  await expect(page.getByRole('row').filter({ hasText: 'device20020' })).not.toContainText('本租户');
});
