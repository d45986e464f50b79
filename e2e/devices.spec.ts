import { expect, test } from '@playwright/test';
import { baseUrl, chooseProject, login, shot, tableRows, watchConsole } from './helpers';

test('温控器监控：设定温度下发，设备确认，列表中的上报值无需刷新即更新', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  await page.goto(`${baseUrl()}/device/device20020`);
  await expect(page.getByRole('heading', { name: '地暖温控器' })).toBeVisible();
  // simulated thermostats come online over MQTT
  const online = tableRows(page).filter({ has: page.locator('.ant-badge-status-success') }).filter({ hasText: 'DEMO-' }).first();
  await expect(online).toBeVisible({ timeout: 30_000 });
  const cell = online.locator('[data-testid$="-f04"]');
  const deviceId = (await cell.getAttribute('data-testid'))!.split('-')[1];
  await expect(tableRows(page).first().getByText('°C').first()).toBeVisible();
  await shot(page, 'device-monitor');

  await online.getByRole('button', { name: '控制' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '设备控制' });
  await expect(drawer).toBeVisible();
  const current = await drawer.getByTestId('current-f04').innerText();
  const target = current.startsWith('27') ? 26 : 27;
  const input = drawer.getByRole('spinbutton', { name: '设定温度' });
  await input.fill(String(target));
  await drawer.getByTestId('send-f04').click();
  await expect(drawer.getByTestId('current-f04')).toHaveText(`${target}.0 °C`, { timeout: 15_000 });
  // the acknowledgement comes over the live stream with the value: the status does not lag behind it
  await expect(drawer.getByTestId('command-status-acked')).toBeVisible({ timeout: 2_000 });
  await shot(page, 'device-control-drawer');

  // the range is the registry's 10～40 °C narrowed by the device's own upper limit (f13 = 35): outside it the value
  // is refused in the form with the range, never clamped, and nothing is sent
  await expect(drawer.getByText('允许：10～35 °C，步长 0.5')).toBeVisible();
  await input.fill('40');
  await input.blur();
  await expect(input).toHaveValue(/^40(\.0)?$/);
  await expect(drawer.getByRole('alert').filter({ hasText: '「设定温度」取值范围为 10～35 °C，步长 0.5' })).toBeVisible();
  // the send button ignores repeats for 2 s (spec §5), and the first write may have been acknowledged sooner
  await expect(async () => {
    await drawer.getByTestId('send-f04').click();
    await expect(page.locator('.ant-message').getByText('「设定温度」取值范围为 10～35 °C，步长 0.5')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(drawer.locator('[data-testid^=command-status-]')).toHaveCount(1);
  await shot(page, 'device-control-range');
  await page.keyboard.press('Escape');
  // the table row changed without a reload, from the device's own report
  await expect(page.getByTestId(`cell-${deviceId}-f04`)).toHaveText(`${target}.0 °C`);
  expect(errors).toEqual([]);
});

test('4G 设备页：间歇唤醒说明，离线期间的指令等待设备唤醒', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  await page.goto(`${baseUrl()}/device/devicemonitor`);
  await chooseProject(page, '苏州 4G 通断热分摊');
  await page.goto(`${baseUrl()}/device/device4GHeating`);
  await expect(page.getByRole('heading', { name: '4G 采暖控制器' })).toBeVisible();
  await expect(page.getByText('4G 设备间歇唤醒上报')).toBeVisible();
  await expect(tableRows(page).first()).toBeVisible();
  await expect(tableRows(page).first().getByText('dBm')).toBeVisible({ timeout: 30_000 });
  await tableRows(page).first().getByRole('button', { name: '控制' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '设备控制' });
  await expect(drawer.getByText('设备下次唤醒上线时下发')).toBeVisible();
  await drawer.getByRole('spinbutton', { name: '设定温度' }).fill('19');
  await drawer.getByTestId('send-f04').click();
  // asleep: it waits (等待下发); awake at that moment: it is sent and acknowledged at once
  await expect(drawer.locator('[data-testid=command-status-pending], [data-testid=command-status-acked]')).toBeVisible();
  await shot(page, 'device-4g');
  expect(errors).toEqual([]);
});

test('热量表详情：历史曲线（ECharts）与实时数据', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  await page.goto(`${baseUrl()}/device/devicemonitor`);
  await chooseProject(page, '滨河热计量小区');
  await page.goto(`${baseUrl()}/device/calorimeter`);
  await expect(page.getByRole('heading', { name: '热量表' })).toBeVisible();
  const reported = tableRows(page).filter({ hasText: 'GJ' }).first();
  await expect(reported).toBeVisible({ timeout: 30_000 });
  await reported.getByRole('button', { name: '详情' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '设备详情' });
  await expect(drawer.getByRole('tab', { name: '历史曲线' })).toBeVisible();
  const chart = drawer.getByTestId('history-chart');
  await expect(chart).toBeVisible();
  expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(0);
  await expect(chart.locator('canvas')).toBeVisible();
  await shot(page, 'device-history');
  await drawer.getByRole('tab', { name: '实时数据' }).click();
  await expect(drawer.getByRole('cell', { name: '累计热量' })).toBeVisible();
  expect(errors).toEqual([]);
});
