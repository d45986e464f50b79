import { expect, test, type Page } from '@playwright/test';
import mqtt from 'mqtt';
import { baseUrl, login, shot, tokenOf, watchConsole } from './helpers';

/** No scrollbars: the page is never wider or taller than the window. */
async function expectNoScrollbars(page: Page) {
  const m = await page.evaluate(() => ({
    sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight, w: window.innerWidth, h: window.innerHeight,
  }));
  expect(m.sw, JSON.stringify(m)).toBeLessThanOrEqual(m.w);
  expect(m.sh, JSON.stringify(m)).toBeLessThanOrEqual(m.h);
}

const flop = (page: Page, id: string) => page.getByTestId(id).getAttribute('data-value').then(Number);

test('综合大屏与项目大屏：1920×1080 与 1280×720 无滚动条；设备上报后在线与运行机组实时变化（不刷新）', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await login(page);
  const headers = { authorization: await tokenOf(page) };

  await page.goto(`${baseUrl()}/project/monitoringCenterTose`);
  await expect(page.getByTestId('bs-title')).toHaveText('综合监控中心');
  await expect(page.getByTestId('bs-map').getByTestId('map-marker').first()).toBeVisible();
  await expect.poll(() => flop(page, 'bs-online'), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect(page.getByTestId('bs-trend').locator('canvas')).toBeVisible(); // the chart's chunk loads after the figures
  await expectNoScrollbars(page);
  await shot(page, 'bigscreen-overview-1920');
  await page.setViewportSize({ width: 1280, height: 720 });
  await expectNoScrollbars(page);
  await shot(page, 'bigscreen-overview-1280');

  // a new thermostat in the floor-heating project, playing its own device over MQTT
  const found = await page.request.get(`${baseUrl()}/api/v1/device/devicelist?keyword=DEMO-20020-001&pageNo=1&pageSize=1`, { headers });
  const { projectId, areaId } = (await found.json()).data.rows[0] as { projectId: number; areaId: number };
  const made = await page.request.post(`${baseUrl()}/api/v1/device/create/${projectId}/${areaId}/device20020`, { headers, data: { deviceName: `E2E 大屏温控器 ${Date.now() % 100000}` } });
  const { device: madeDevice, credentials: cred } = (await made.json()).data as {
    device: { id: number }; credentials: { clientId: string; username: string; password: string; topics: { up: string } };
  };

  await page.goto(`${baseUrl()}/project/monitorScreen?projectId=${projectId}`);
  await expect(page.getByTestId('bs-title')).toHaveText('阳光花园小区');
  await expect.poll(() => flop(page, 'bs-online'), { timeout: 20_000 }).toBeGreaterThan(0);
  await expectNoScrollbars(page);
  await shot(page, 'bigscreen-project-1280');
  await page.setViewportSize({ width: 1920, height: 1080 });
  await expectNoScrollbars(page);
  await shot(page, 'bigscreen-project-1920');

  const online = await flop(page, 'bs-online');
  const running = await flop(page, 'bs-running');
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  const device = await mqtt.connectAsync(process.env.KELVIN_E2E_MQTT_URL!, { clientId: cred.clientId, username: cred.username, password: cred.password, reconnectPeriod: 0 });
  try {
    await device.publishAsync(cred.topics.up, JSON.stringify({ ts: Date.now(), fields: { f00: 1, f03: 21.5, f04: 22 } }), { qos: 1 });
  } finally {
    await device.endAsync();
  }
  await expect.poll(() => flop(page, 'bs-online'), { timeout: 5000 }).toBe(online + 1);
  await expect.poll(() => flop(page, 'bs-running'), { timeout: 5000 }).toBeGreaterThanOrEqual(running + 1);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await shot(page, 'bigscreen-project-live');
  // the thermostat only this test plays goes again: other journeys pick the project's online thermostats to command
  const removed = await page.request.post(`${baseUrl()}/api/v1/device/deletedevice`, { headers, data: { id: madeDevice.id } });
  expect((await removed.json()).code).toBe(200);
  expect(errors).toEqual([]);
});

test('分享链接：生成 → 未登录打开公开大屏 → 撤销 → 链接已失效', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await login(page);
  await page.goto(`${baseUrl()}/project/monitorScreen`);
  await expect(page.getByTestId('bs-title')).not.toBeEmpty();
  await page.getByRole('button', { name: '分享' }).click();
  const dialog = page.getByRole('dialog', { name: /分享项目大屏/ });
  await dialog.getByText('30 天').click();
  await dialog.getByPlaceholder('如：大厅屏').fill('E2E 大厅屏');
  await dialog.getByRole('button', { name: /生成链接/ }).click();
  const url = await dialog.getByTestId('share-url').inputValue();
  expect(url).toMatch(/\/dataviews\?token=[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByRole('row').filter({ hasText: 'E2E 大厅屏' })).toContainText('有效');
  await shot(page, 'bigscreen-share-dialog');

  // a fresh browser context: no login at all
  const guest = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const pub = await guest.newPage();
  const guestErrors = watchConsole(pub);
  await pub.goto(url);
  await expect(pub.getByTestId('bs-title')).not.toBeEmpty();
  await expect.poll(() => pub.getByTestId('bs-online').getAttribute('data-value'), { timeout: 20_000 }).toMatch(/^\d+$/);
  await expect(pub.getByRole('button', { name: '退出' })).toHaveCount(0);
  await expect(pub.getByRole('button', { name: '分享' })).toHaveCount(0);
  await expectNoScrollbars(pub);
  await shot(pub, 'bigscreen-dataviews-1280');

  await dialog.getByRole('row').filter({ hasText: 'E2E 大厅屏' }).getByRole('button', { name: /撤\s*销/ }).click();
  await page.getByRole('tooltip').getByRole('button', { name: /撤\s*销/ }).click();
  await expect(dialog.getByRole('row').filter({ hasText: 'E2E 大厅屏' })).toContainText('已撤销');

  await pub.reload();
  await expect(pub.getByTestId('bs-invalid')).toContainText('链接已失效');
  await expect(pub.getByTestId('bs-invalid')).toContainText('分享已被撤销');
  await shot(pub, 'bigscreen-dataviews-revoked');
  await guest.close();
  // the token is the whole authentication: the API refuses it now too
  const token = new URL(url).searchParams.get('token');
  const res = await page.request.get(`${baseUrl()}/api/v1/dataviews?token=${token}`);
  expect((await res.json()).msg).toBe('链接已失效：分享已被撤销');
  expect(errors).toEqual([]);
  // the refused public read shows its page, not a console error (a 403 resource load is logged by Chromium itself)
  expect(guestErrors.filter((e) => !/403|Forbidden/.test(e))).toEqual([]);
});
