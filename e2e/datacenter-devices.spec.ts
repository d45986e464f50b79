import { expect, test } from '@playwright/test';
import { baseUrl, btn, login, shot, tableRows, watchConsole } from './helpers';

test('设备监控：统计条（平均室温、告警）、离线消息与导出；数据示例：选设备与字段，曲线与分页读数', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);

  // the device monitor's extras on the floor-heating thermostats of the demo operator's project
  await page.goto(`${baseUrl()}/device/device20020`);
  await expect(page.getByRole('heading', { name: '地暖温控器' })).toBeVisible();
  const online = tableRows(page).filter({ has: page.locator('.ant-badge-status-success') }).first();
  await expect(online).toBeVisible({ timeout: 30_000 });
  const strip = page.getByTestId('monitor-statistic');
  await expect(strip).toContainText('设备总数');
  await expect(strip).toContainText('告警');
  await expect(page.getByTestId('avg-room-temp')).toContainText('°C', { timeout: 30_000 });
  await shot(page, 'device-monitor-statistic');

  await page.getByTestId('offline-messages-button').click();
  const drawer = page.getByRole('dialog').filter({ hasText: '离线消息' });
  await expect(drawer.getByRole('columnheader', { name: '已离线' })).toBeVisible();
  await shot(page, 'device-monitor-offline');
  await drawer.getByRole('button', { name: 'Close' }).or(drawer.locator('.ant-drawer-close')).first().click();

  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: btn('导出') }).click();
  const file = await downloaded;
  expect(file.suggestedFilename()).toMatch(/地暖温控器\.xlsx$/);

  // the code of an online thermostat, to look it up on 数据示例
  const code = (await online.locator('td').first().locator('div > div').last().innerText()).trim();

  await page.goto(`${baseUrl()}/datacenter/datademo`);
  await expect(page.getByRole('heading', { name: '数据示例' })).toBeVisible();
  await expect(page.getByText('请选择设备')).toBeVisible();
  await page.getByTestId('datademo-device').click();
  await page.keyboard.type(code);
  await page.locator('.ant-select-item-option').filter({ hasText: code }).first().click();
  await expect(page.getByTestId('datademo-field')).toContainText('室内温度（°C）');
  const chart = page.getByTestId('datademo-chart');
  await expect(chart).toBeVisible({ timeout: 30_000 });
  expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(0);
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '室内温度（°C）' })).toBeVisible();
  await expect(tableRows(page).first()).toBeVisible();
  await page.getByRole('heading', { name: '数据示例' }).click();
  await shot(page, 'datademo');

  // longer than 7 days of raw readings is refused on the screen
  await page.getByText('自定义').click();
  await expect(page.getByText('请选择时间范围')).toBeVisible();
  expect(errors).toEqual([]);
});
