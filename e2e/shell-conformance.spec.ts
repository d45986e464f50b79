import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startConsoleServer, type ConsoleServer } from './global-setup';
import { login, shot } from './helpers';

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
  test.setTimeout(420_000);
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
    fs.rmSync(path.join(dist, chunkOf(dist, 'src/features/device-management/pages/device-operation-log.tsx').replace(/\.js$/, '-v2.js')));
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
