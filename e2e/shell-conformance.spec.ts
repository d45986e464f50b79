import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startConsoleServer, type ConsoleServer } from './global-setup';
import { MENUS } from '../packages/contracts/src/menus.ts';
import { adminUser, baseUrl, login, shot, watchConsole } from './helpers';

/** A deploy of a new build: every asset gets a new name, and every reference to it follows (what a rebuild does). */
function redeploy(dist: string, suffix: string) {
  const assets = path.join(dist, 'assets');
  const renames = fs.readdirSync(assets).filter((f) => /\.(js|css)$/.test(f)).map((f) => [f, f.replace(/\.(js|css)$/, `${suffix}.$1`)] as const);
  for (const [from, to] of renames) fs.renameSync(path.join(assets, from), path.join(assets, to));
  const texts = [path.join(dist, 'index.html'), ...fs.readdirSync(assets).filter((f) => /\.(js|css)$/.test(f)).map((f) => path.join(assets, f))];
  for (const file of texts) {
    let text = fs.readFileSync(file, 'utf8');
    for (const [from, to] of renames) text = text.split(from).join(to);
    fs.writeFileSync(file, text);
  }
}

/** The built file of one source module, from the build manifest. */
function chunkOf(dist: string, source: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
  return manifest[source].file;
}

async function openMenu(page: Page, group: string, item: string) {
  const nav = page.getByRole('navigation', { name: '菜单' });
  const entry = nav.getByRole('menuitem').filter({ hasText: item }).first();
  if (!(await entry.isVisible())) await nav.getByRole('menuitem').filter({ hasText: group }).first().click();
  await entry.click();
}

// null while the page is between documents (a reload under way)
const oldPage = (page: Page) => page.evaluate(() => (window as unknown as { kelvinOld?: boolean }).kelvinOld === true).catch(() => null);

test('换版后点击尚未加载的页面：自动刷新一次进入新版本；仍然失败时提示新版本与刷新按钮，不循环刷新', async ({ browser }) => {
  test.setTimeout(180_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-redeploy-'));
  const dist = path.join(tmp, 'web');
  fs.cpSync(process.env.KELVIN_WEB_DIST ?? path.resolve(import.meta.dirname, '../apps/web/dist'), dist, { recursive: true });
  const env = { KELVIN_WEB_DIST: dist, KELVIN_SIMULATOR: 'off' };
  let server: ConsoleServer = await startConsoleServer({ dataDir: path.join(tmp, 'data'), env });
  const page = await browser.newPage();
  page.on('response', (r) => { if (process.env.KELVIN_E2E_DEBUG && r.status() >= 400) console.log('[page]', r.status(), r.url()); });
  try {
    await login(page, server.demo!, server.url);
    await page.goto(`${server.url}/project/projectview2`);
    await expect(page.getByRole('navigation', { name: '菜单' })).toBeVisible();
    // the screen's own chunk has arrived (stopping the server while it is on the wire fails that import instead)
    await expect(page.getByTestId('room-card').first()).toBeVisible();
    await page.evaluate(() => { (window as unknown as { kelvinOld: boolean }).kelvinOld = true; });

    // the server restarts on the same address with a new build; this tab still runs the old one
    const port = Number(new URL(server.url).port);
    await server.stop();
    redeploy(dist, '-v2');
    server = await startConsoleServer({ dataDir: path.join(tmp, 'data'), port, env });
    // the old build's chunk is gone: a 404, never index.html (the manifest keeps the old build's names)
    expect((await page.request.get(`${server.url}/${chunkOf(dist, 'src/features/device-management/pages/device-group.tsx')}`)).status()).toBe(404);

    await openMenu(page, '设备管理', '设备分组');
    // one automatic reload: the new build opens the screen
    await expect.poll(() => oldPage(page)).toBe(false);
    await expect(page).toHaveURL(/\/device\/devicegroup$/);
    await expect(page.locator('script[src*="-v2"]')).toHaveCount(1);
    await expect(page.getByRole('main').getByText('设备分组').first()).toBeVisible();
    await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
    await page.evaluate(() => { (window as unknown as { kelvinOld: boolean }).kelvinOld = true; });

    // a chunk that is still missing right after that reload: no second reload, the notice says why and offers one
    // (answered 404 by the browser itself: deleting the file could take a chunk that other screens share with it)
    const missing = chunkOf(dist, 'src/features/device-management/pages/device-operation-log.tsx').replace(/\.js$/, '-v2.js');
    await page.route(`**/${missing}`, (route) => route.fulfill({ status: 404, body: '' }));
    await openMenu(page, '设备管理', '设备操作日志');
    const notice = page.getByRole('dialog').filter({ hasText: '系统已更新' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('控制台已发布新版本');
    // the error screen sits inside the shell: menu and top bar stay
    await expect(page.getByTestId('error-screen')).toContainText('系统已更新');
    await expect(page.getByRole('navigation', { name: '菜单' })).toBeVisible();
    await expect(page.getByTestId('project-switcher')).toBeVisible();
    await page.waitForTimeout(1500);
    expect(await oldPage(page)).toBe(true);
    await shot(page, 'redeploy-new-version');
    await notice.getByRole('button', { name: '刷新页面' }).click();
    await expect.poll(() => oldPage(page)).toBe(false);
  } finally {
    await page.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(async ({ method, url, body }) => {
    const token = decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith('kelvin_token='))!.split('=')[1]);
    const res = await fetch(url, { method, headers: { Authorization: token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()).data;
  }, { method, url, body });
}

test('设备类型页面只显示项目拥有或项目类型规划的设备类型（侧边栏与快捷入口）', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  await page.goto(`${baseUrl()}/project/projectview2`);
  await expect(page.getByTestId('project-switcher')).toContainText('阳光花园小区');
  const projectId = Number((await page.context().cookies()).find((c) => c.name === 'kelvin_projectId')!.value);
  const types = (await api<{ code: string }[]>(page, 'GET', `/api/v1/area/devicetypebyproject/${projectId}`)).map((t) => t.code);
  const pages = MENUS.filter((m) => m.parent === 'deviceTypes');
  const shown = pages.filter((m) => types.includes(m.code) && (!m.projectTypes || m.projectTypes.includes('PT1011')));
  const hidden = pages.filter((m) => !shown.includes(m));
  expect(shown.length).toBeGreaterThan(0);
  expect(hidden.length).toBeGreaterThan(0);

  const nav = page.getByRole('navigation', { name: '菜单' });
  await nav.getByRole('menuitem').filter({ hasText: '设备管理' }).first().click();
  await nav.getByRole('menuitem').filter({ hasText: '设备类型监控' }).first().click();
  for (const m of shown) await expect(nav.getByRole('menuitem', { name: m.title, exact: true })).toBeVisible();
  for (const m of hidden) await expect(nav.getByRole('menuitem', { name: m.title, exact: true })).toHaveCount(0);

  await page.getByRole('button', { name: /快捷入口/ }).click();
  const quick = page.getByTestId('quick-targets').locator('.kv-pop-item');
  await expect(quick.first()).toBeVisible();
  const quickTitles = await quick.allInnerTexts();
  for (const m of hidden) expect(quickTitles).not.toContain(m.title);
  expect(quickTitles.some((t) => shown.some((m) => m.title === t))).toBe(true);

  // a hidden type's page opened by URL says the project does not use it
  await page.goto(`${baseUrl()}${hidden.find((m) => !m.projectTypes)!.path}`);
  await expect(page.getByText('当前项目不支持此功能')).toBeVisible();
  expect(errors).toEqual([]);
});

test('项目切换失败时保持原项目并提示，菜单与 Cookie 不混杂', async ({ page }) => {
  await login(page);
  await page.goto(`${baseUrl()}/device/deviceList_n`);
  await expect(page.getByTestId('project-switcher')).toContainText('阳光花园小区');
  const cookie = async (name: string) => (await page.context().cookies()).find((c) => c.name === name)?.value;
  await expect.poll(() => cookie('kelvin_projectType')).toBe('PT1011');
  const before = { id: await cookie('kelvin_projectId'), type: await cookie('kelvin_projectType') };
  await page.route('**/api/v1/area/projecttypelist**', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ code: 50000, msg: '服务繁忙', data: null }) }));
  await page.getByTestId('project-switcher').click();
  await page.getByRole('option', { name: '金融中心写字楼' }).click();
  await expect(page.getByText('切换项目失败，仍为「阳光花园小区」')).toBeVisible();
  await expect(page.getByTestId('project-switcher')).toContainText('阳光花园小区');
  expect({ id: await cookie('kelvin_projectId'), type: await cookie('kelvin_projectType') }).toEqual(before);
  // the PT1011 menus stay: 计费时段 shows, the AC billing parameters (金融中心's type) do not
  const nav = page.getByRole('navigation', { name: '菜单' });
  await nav.getByRole('menuitem').filter({ hasText: '业务中心' }).click();
  await expect(nav.getByRole('menuitem').filter({ hasText: '计费时段' })).toBeVisible();
  await expect(nav.getByRole('menuitem').filter({ hasText: '空调计费参数' })).toHaveCount(0);

  // once the server answers again the switch goes through whole
  await page.unroute('**/api/v1/area/projecttypelist**');
  await page.getByTestId('project-switcher').click();
  await page.getByRole('option', { name: '金融中心写字楼' }).click();
  await expect(page.getByTestId('project-switcher')).toContainText('金融中心写字楼');
  expect(await cookie('kelvin_projectType')).not.toBe(before.type);
});

test('租户标志：侧边栏、手机顶栏与租户登录链接按 135×52 显示；无标志时显示品牌名', async ({ browser, page }) => {
  await login(page, adminUser());
  const code = `logo${Date.now() % 100000}`;
  const tenant = await api<{ id: number }>(page, 'POST', '/api/admin/tenant', {
    code, name: `标志测试${code}`, brand: '标志能源', logo: PNG, admin: { username: `${code}_admin`, name: '标志管理员', password: 'Logo#Admin-2026' },
  });
  expect(tenant.id).toBeGreaterThan(0);
  const user = { username: `${code}_admin`, password: 'Logo#Admin-2026' };

  // the tenant's link: its logo on the login page
  const fresh = await browser.newPage();
  await fresh.goto(`${baseUrl()}/login?tenantId=${tenant.id}`);
  const loginLogo = fresh.getByTestId('tenant-logo');
  await expect(loginLogo).toBeVisible();
  expect(await loginLogo.evaluate((img: HTMLImageElement) => [img.width, img.height, img.complete && img.naturalWidth > 0])).toEqual([135, 52, true]);
  await shot(fresh, 'login-tenant-logo');
  await fresh.getByRole('textbox', { name: '账号' }).fill(user.username);
  await fresh.locator('input[name=password]').fill(user.password);
  await fresh.getByRole('button', { name: /登\s*录/ }).click();
  // no projects yet: the alert stays on Escape (dialogs close only by their buttons)
  const alert = fresh.getByRole('dialog').filter({ hasText: '没有获取到项目列表' });
  await expect(alert).toBeVisible();
  await fresh.keyboard.press('Escape');
  await fresh.waitForTimeout(400);
  await expect(alert).toBeVisible();
  await alert.getByRole('button', { name: '知道了' }).click();
  const sideLogo = fresh.locator('.kv-sider').getByTestId('tenant-logo');
  await expect(sideLogo).toBeVisible();
  expect(await sideLogo.evaluate((img: HTMLImageElement) => [img.width, img.height])).toEqual([135, 52]);
  await shot(fresh, 'sidebar-tenant-logo');
  await fresh.close();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  const mobile = await phone.newPage();
  await login(mobile, user);
  await mobile.getByRole('dialog').filter({ hasText: '没有获取到项目列表' }).getByRole('button', { name: '知道了' }).click();
  await expect(mobile.getByTestId('mobile-navbar').getByTestId('tenant-logo')).toBeVisible();
  await shot(mobile, 'mobile-tenant-logo');
  await phone.close();

  // without a logo: the brand name
  await api(page, 'PUT', `/api/admin/tenant/${tenant.id}`, { logo: null });
  const plain = await browser.newPage();
  await plain.goto(`${baseUrl()}/login?tenantId=${tenant.id}`);
  await expect(plain.getByTestId('brand')).toHaveText('标志能源');
  await expect(plain.getByTestId('tenant-logo')).toHaveCount(0);
  await plain.close();
});

test('设备控制抽屉不随 Esc 或点击遮罩关闭', async ({ page }) => {
  await login(page);
  await page.goto(`${baseUrl()}/device/devicemonitor`);
  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ has: page.getByRole('button', { name: '控制' }) }).first();
  await row.getByRole('button', { name: '控制' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '设备控制' });
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Escape');
  await page.mouse.click(20, 450);
  await page.waitForTimeout(400);
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: /Close|关闭/ }).first().click();
  await expect(drawer).toBeHidden();
});

test('项目搜索：重新打开时搜索框为空', async ({ page }) => {
  // the search box shows from 12 projects: the tree answer gets extra project nodes beside the real ones
  await page.route('**/api/v1/area/treeonlyproject/-1', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    type Node = { id: number; label: string; level: string; children: Node[] };
    const region = body.data[0] as Node;
    const sample = JSON.stringify(region.children.find((n) => n.level === 'project') ?? region.children[0]);
    for (let i = 0; i < 12; i++) {
      const extra = JSON.parse(sample) as Node;
      extra.id = 900000 + i;
      extra.label = `测试项目${i}`;
      (extra as unknown as { value: number }).value = extra.id;
      extra.children = [];
      region.children.push(extra);
    }
    await route.fulfill({ response: res, json: body });
  });
  await login(page);
  await expect(page.getByTestId('project-switcher')).not.toContainText('未选择项目');
  await page.getByTestId('project-switcher').click();
  const search = page.getByRole('textbox', { name: '搜索项目' });
  await search.fill('光伏');
  await expect(page.getByRole('option').first()).toContainText('光伏');
  const filtered = await page.getByRole('option').count();
  expect(filtered).toBeLessThan(5);
  // move away: the dropdown closes after 1 s
  await page.mouse.move(1200, 700);
  await expect(page.getByRole('listbox', { name: '切换项目' })).toBeHidden({ timeout: 5000 });
  await page.getByTestId('project-switcher').click();
  await expect(page.getByRole('textbox', { name: '搜索项目' })).toHaveValue('');
  expect(await page.getByRole('option').count()).toBeGreaterThan(filtered + 11);
});

test('当前页面与打开的标签保存 3 天：新开浏览器标签回到原页面', async ({ page, context }) => {
  await login(page);
  for (const s of ['/device/deviceList_n', '/device/devicegroup']) {
    await page.goto(`${baseUrl()}${s}`);
    await expect(page.locator(`[data-testid=tag][data-path="${s}"]`)).toBeVisible();
  }
  const cookies = await context.cookies();
  const home = cookies.find((c) => c.name === 'kelvin_homePage')!;
  const current = cookies.find((c) => c.name === 'kelvin_currentPage')!;
  expect(decodeURIComponent(home.value)).toBe('/device/devicegroup');
  expect(decodeURIComponent(current.value)).toBe('/device/devicegroup');
  const days = (home.expires * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(2.9);
  expect(days).toBeLessThan(3.1);

  const tab = await context.newPage();
  await tab.goto(`${baseUrl()}/`);
  await expect(tab).toHaveURL(/\/device\/devicegroup$/);
  for (const s of ['/project/projectview2', '/device/deviceList_n', '/device/devicegroup']) {
    await expect(tab.locator(`[data-testid=tag][data-path="${s}"]`)).toBeVisible();
  }
  await tab.close();
});

test('长列表滚动时查询表单与表头固定在顶部，滚回后复位', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 560 }, locale: 'zh-CN' });
  const page = await context.newPage();
  await login(page);
  await page.goto(`${baseUrl()}/device/deviceList_n`);
  const form = page.getByTestId('sticky-query').first();
  await expect(form).toBeVisible();
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
  const main = page.locator('main');
  const mainTop = (await main.boundingBox())!.y;
  const formTop0 = (await form.boundingBox())!.y;
  expect(formTop0).toBeGreaterThan(mainTop + 5);
  await main.evaluate((el) => el.scrollTo(0, 400));
  await expect.poll(async () => Math.round((await form.boundingBox())!.y - mainTop)).toBe(0);
  await main.evaluate((el) => el.scrollTo(0, 700));
  await page.waitForTimeout(200);
  expect(Math.round((await form.boundingBox())!.y - mainTop)).toBe(0);
  // the table header sticks right under the query form
  const header = page.locator('.ant-table-thead').first();
  const formBox = (await form.boundingBox())!;
  await expect.poll(async () => Math.abs(Math.round((await header.boundingBox())!.y - (formBox.y + formBox.height)))).toBeLessThanOrEqual(1);
  const headerTop = (await header.boundingBox())!.y;
  await main.evaluate((el) => el.scrollTo(0, 900));
  await page.waitForTimeout(200);
  expect(Math.round((await header.boundingBox())!.y)).toBe(Math.round(headerTop));
  await shot(page, 'sticky-list');
  await main.evaluate((el) => el.scrollTo(0, 0));
  await expect.poll(async () => Math.round((await form.boundingBox())!.y)).toBe(Math.round(formTop0));
  await context.close();
});

test('连续打开超过 9 个页面时只显示一条提示', async ({ page }) => {
  await login(page);
  const screens = [
    '/project/projectindex', '/project/projectview', '/project/projectedit', '/device/area', '/device/deviceList_n',
    '/device/devicemonitor', '/device/devicegroup', '/device/task', '/device/scheduledTask', '/device/strategicsTask', '/device/holidayTask',
  ];
  await page.goto(`${baseUrl()}/project/projectview2`);
  await expect(page.getByTestId('tag')).toHaveCount(1);
  // in-app navigation, one screen after the other (as clicking through the menu does)
  for (const s of screens) {
    await page.evaluate((path) => {
      window.history.pushState({}, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, s);
    await expect(page.locator(`[data-testid=tag][data-path="${s}"]`)).toBeVisible();
  }
  await expect(page.locator('.ant-message-notice').filter({ hasText: '最多同时打开 9 个页面' })).toHaveCount(1);
});

test('持有未授权的已知页面显示壳内 401，未知路径显示 404', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  await page.goto(`${baseUrl()}/monitorManager/serviceMonitorManager`);
  await expect(page.getByText('抱歉，您没有权限访问该页面')).toBeVisible();
  await expect(page).toHaveURL(/\/monitorManager\/serviceMonitorManager$/);
  await expect(page.getByRole('navigation', { name: '菜单' })).toBeVisible();
  await expect(page.getByTestId('project-switcher')).toBeVisible();
  await shot(page, 'unauthorized-in-shell');
  await page.goto(`${baseUrl()}/no/such/screen`);
  await expect(page).toHaveURL(/\/404$/);
  expect(errors).toEqual([]);
});
