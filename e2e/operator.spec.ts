import { expect, test, type Locator } from '@playwright/test';
import { api, baseUrl, findNode, login, shot, tableRows, watchConsole, type TreeNode } from './helpers';

/** first paint of a screen with live data can be slow on a loaded machine */
const FIRST = { timeout: 30_000 };

test.describe.configure({ timeout: 240_000 });

/** Every header of the table can be scrolled into view without sitting under the fixed 操作 column. */
async function expectEveryColumnReachable(table: Locator) {
  const fixedRight = table.locator('thead th.ant-table-cell-fix-end, thead th.ant-table-cell-fix-right').first();
  const free = table.locator('thead th:not(.ant-table-cell-fix-end):not(.ant-table-cell-fix-right):not(.ant-table-cell-fix-start):not(.ant-table-cell-fix-left):not(.ant-table-selection-column)');
  const titles = (await free.allInnerTexts()).filter((t) => t.trim());
  expect(titles.length).toBeGreaterThan(2);
  // scrolled all the way right, the last free column ends where the fixed 操作 column begins
  await table.locator('.ant-table-content, .ant-table-body').first().evaluate((el) => { el.scrollLeft = el.scrollWidth; });
  const last = free.filter({ hasText: titles.at(-1)! }).first();
  await expect(last).toBeVisible();
  // the sticky header follows the body's scroll on its scroll event: wait for it to arrive
  const op = (await fixedRight.boundingBox())!;
  await expect.poll(async () => { const b = (await last.boundingBox())!; return b.x + b.width; }, { message: `「${titles.at(-1)}」被操作列遮挡` }).toBeLessThanOrEqual(op.x + 1);
  const box = (await last.boundingBox())!;
  expect(box.x, `「${titles.at(-1)}」看不到`).toBeGreaterThan(0);
  await table.locator('.ant-table-content, .ant-table-body').first().evaluate((el) => { el.scrollLeft = 0; });
}

test('列表：1440 与 1366 宽度下每一列都能看到，列设置按页面记住', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  for (const width of [1440, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${baseUrl()}/device/device20020`);
    await expect(tableRows(page).first()).toBeVisible(FIRST);
    await expectEveryColumnReachable(page.locator('.ant-table').first());
    await page.goto(`${baseUrl()}/project/projectlist`);
    await expect(tableRows(page).first()).toBeVisible(FIRST);
    await expectEveryColumnReachable(page.locator('.ant-table').first());
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${baseUrl()}/device/device20020`);
  await expect(tableRows(page).first()).toBeVisible(FIRST);
  await shot(page, 'device-monitor-1440');

  // hide 最后上报 on this screen: it stays hidden after a reload, and other screens keep their columns
  const header = page.locator('.ant-table thead');
  await expect(header.getByText('最后上报')).toBeVisible();
  await page.getByRole('button', { name: '列设置' }).click();
  await page.getByTestId('column-settings').getByRole('checkbox', { name: '最后上报' }).uncheck();
  await expect(header.getByText('最后上报')).toHaveCount(0);
  await page.reload();
  await expect(tableRows(page).first()).toBeVisible(FIRST);
  await expect(header.getByText('阀门状态').or(header.getByText('设定温度')).first()).toBeVisible();
  await expect(header.getByText('最后上报')).toHaveCount(0);
  await page.goto(`${baseUrl()}/device/devicemonitor`);
  await expect(tableRows(page).first()).toBeVisible(FIRST);
  await expect(header.getByText('最后上报')).toBeVisible();
  await page.goto(`${baseUrl()}/device/device20020`);
  await page.getByRole('button', { name: '列设置' }).click();
  await page.getByTestId('column-settings').getByRole('button', { name: '显示全部列' }).click();
  await expect(header.getByText('最后上报')).toBeVisible();
  expect(errors).toEqual([]);
});

test('项目视图与项目详情：计费方案显示名称，设备名称不截断，点击设备打开它的详情', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  await page.goto(`${baseUrl()}/project/projectview`);
  await expect(page.getByText('按时间当量固定单价（预付费）')).toBeVisible(FIRST);
  await expect(page.locator('.ant-descriptions-item-content').filter({ hasText: /^1$/ })).toHaveCount(0);

  await page.goto(`${baseUrl()}/project/projectview2`);
  const device = page.locator('[data-testid=room-device][data-type=device20020]').first();
  await expect(device).toBeVisible(FIRST);
  // names wrap instead of ending in …: the name's box holds all of its text
  const name = device.getByTestId('room-device-name');
  expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  expect(await name.evaluate((el) => getComputedStyle(el).textOverflow)).not.toBe('ellipsis');
  await shot(page, 'project-view-1440');
  const deviceName = (await name.innerText()).trim();
  await device.click();
  await expect(page).toHaveURL(/\?device=\d+/);
  await expect(page.getByRole('dialog').filter({ hasText: `设备详情 · ${deviceName}` })).toBeVisible();

  // long sidebar titles carry their whole text as a tooltip
  const item = page.locator('[data-menu] span[title]').first();
  expect(await item.getAttribute('title')).toBe((await item.innerText()).trim());
  expect(errors).toEqual([]);
});

test('手机 390×844：列表是卡片、抽屉全屏、标题不逐字换行', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
  const page = await context.newPage();
  const errors = watchConsole(page);
  await login(page);

  // project view: the header figures sit on whole lines, not one character per line
  await page.goto(`${baseUrl()}/project/projectview2`);
  await expect(page.getByTestId('room-device').first()).toBeVisible(FIRST);
  const stats = page.getByTestId('project-stats').locator('span').filter({ hasText: '在线率' }).first();
  expect((await stats.boundingBox())!.height).toBeLessThan(30);
  expect((await page.getByTestId('room-card').first().boundingBox())!.width).toBeGreaterThan(300);
  await shot(page, 'project-view-mobile');

  // device monitor: one card per device with every column as a label / value pair
  await page.goto(`${baseUrl()}/device/device20020`);
  const card = page.getByTestId('row-card').first();
  await expect(card).toBeVisible(FIRST);
  for (const label of ['位置', '状态', '最后上报']) await expect(card.locator('dt').getByText(label, { exact: true })).toBeVisible();
  expect(await card.locator('dt').count()).toBeGreaterThan(5);
  for (const dt of await card.locator('dt').all()) expect((await dt.boundingBox())!.height).toBeLessThan(30);
  expect((await card.boundingBox())!.width).toBeGreaterThan(300);
  await shot(page, 'device-monitor-mobile');

  // control drawer: the whole screen wide, labels on one line
  await card.getByRole('button', { name: '控制' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '设备控制' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId('current-f04')).toBeVisible(FIRST);
  expect((await drawer.boundingBox())!.width).toBeGreaterThanOrEqual(389);
  // one line each: no label or header is narrower than its text
  const oneLine = async (l: Locator) => l.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size === 1;
  });
  for (const label of await drawer.locator('.ant-descriptions-item-label').all()) expect(await oneLine(label)).toBe(true);
  for (const th of await drawer.locator('th').all()) expect(await oneLine(th)).toBe(true);
  // 下发 is on screen without scrolling sideways
  // (measured once the drawer has finished sliding in)
  const send = drawer.getByTestId('send-f04');
  await expect.poll(async () => { const box = (await send.boundingBox())!; return box.x + box.width; }).toBeLessThanOrEqual(390);
  await shot(page, 'control-drawer-mobile');
  expect(errors).toEqual([]);
  await context.close();
});

test('桌面控制抽屉截图 1440×900', async ({ page }) => {
  await login(page);
  await page.goto(`${baseUrl()}/device/device20020`);
  await expect(tableRows(page).first()).toBeVisible(FIRST);
  await tableRows(page).first().getByRole('button', { name: '控制' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '设备控制' });
  await expect(drawer.getByTestId('current-f04')).toBeVisible(FIRST);
  await shot(page, 'control-drawer-1440');
});

test('地图总览：离线省界底图，邻近项目聚合，点击聚合放大', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  await page.goto(`${baseUrl()}/project/projectindex`);
  const map = page.getByTestId('project-map');
  // the bundled outline: every province drawn, no tiles fetched
  await expect(map.getByTestId('base-map').locator('path')).toHaveCount(34, FIRST);
  await expect(map.getByTestId('base-map').locator('title', { hasText: '黑龙江' })).toBeAttached();
  // the Shanghai projects sit in one cluster; clicking it zooms in until each has its own marker
  const cluster = map.getByTestId('map-cluster').filter({ has: page.locator('title', { hasText: '张江综合能源园区' }) });
  await expect(cluster).toHaveCount(1, FIRST);
  await shot(page, 'project-map');
  await cluster.click();
  await expect(map.getByTestId('map-marker').filter({ has: page.locator('title', { hasText: '张江综合能源园区' }) })).toHaveCount(1);
  await expect(map.getByTestId('map-marker').filter({ has: page.locator('title', { hasText: '临港 4G 电能园区' }) })).toHaveCount(1);
  await shot(page, 'project-map-zoomed');
  await page.getByRole('button', { name: /全\s*国/ }).click();
  await expect(cluster).toHaveCount(1);
  expect(errors).toEqual([]);
});

test('平衡阀视图：只请求项目的阀门，按楼栋分页签列出开度与水温', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const projectId = findNode(tree, '东湖水力平衡站')!.id;
  const asked = page.waitForRequest((r) => r.url().includes(`/api/v1/device/getviewbyarea/${projectId}`));
  await page.goto(`${baseUrl()}/project/projectView3?projectId=${projectId}`);
  expect((await asked).url()).toContain('category=valve');
  await expect(page.getByRole('tab', { name: /1号楼（\d+\/\d+）/ })).toBeVisible(FIRST);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const valves = Number((await page.locator('.ant-statistic').filter({ hasText: '阀门' }).locator('.ant-statistic-content-value').innerText()).replace(/\D/g, ''));
  expect(valves).toBeGreaterThan(0);
  expect(await rows.count()).toBe(valves); // one building: every valve in its tab
  await expect(page.locator('.ant-spin-blur')).toHaveCount(0);
  await page.waitForTimeout(400); // the loading veil fades out
  await shot(page, 'project-view3-valves');
  expect(errors).toEqual([]);
});
