import { expect, test } from '@playwright/test';
import mqtt from 'mqtt';
import { adminUser, baseUrl, login, shot, watchConsole } from './helpers';

test('服务运行监控：数据库与 MQTT 状态、在线设备、接入速率与计数、被拒绝的连接', async ({ page }) => {
  test.setTimeout(60_000);
  // a device login with a wrong secret: refused, counted, and listed with its reason
  const refused = await new Promise<Error | null>((resolve) => {
    const c = mqtt.connect(process.env.KELVIN_E2E_MQTT_URL!, { clientId: 'DEMO-20020-001', username: 'DEMO-20020-001', password: 'not-the-secret', reconnectPeriod: 0 });
    c.once('connect', () => resolve(null));
    c.once('error', (err) => resolve(err));
    setTimeout(() => c.end(true), 5000);
  });
  expect(refused?.message).toContain('Bad username or password');

  const errors = watchConsole(page);
  await login(page, adminUser());
  await page.goto(`${baseUrl()}/monitorManager/serviceMonitorManager`);
  await expect(page.getByRole('heading', { name: '服务运行监控' })).toBeVisible();
  await expect(page.getByText('SQLite')).toBeVisible();
  await expect(page.getByText('运行中')).toBeVisible();
  // the demo's simulated devices are online and report
  await expect.poll(async () => Number((await page.getByTestId('monitor-devices').locator('.ant-statistic-content-value').innerText()).replace(/\D/g, '')), { timeout: 20_000 }).toBeGreaterThan(0);
  await expect.poll(async () => Number((await page.locator('[data-counter="messages_stored"]').innerText()).replace(/\D/g, ''))).toBeGreaterThan(0);
  // two readings 5 s apart make the first rate point
  await expect(page.getByTestId('ingest-rate-chart')).toBeVisible({ timeout: 20_000 });

  // the rejects table's reason filter (the actions card above has selects of its own)
  await page.locator('.ant-form-item').filter({ hasText: '原因' }).locator('.ant-select').click();
  await page.getByTitle('认证失败', { exact: true }).click();
  await page.getByRole('button', { name: /查\s*询/ }).click();
  const row = page.getByRole('row').filter({ hasText: 'DEMO-20020-001' }).first();
  await expect(row).toContainText('认证失败');
  await expect(row).toContainText('demo'); // the device's tenant
  await expect(page.getByText(/共 \d+ 条/)).toBeVisible();
  await page.waitForTimeout(5500); // one more reading on the chart for the picture
  await page.getByRole('heading', { name: '服务运行监控' }).scrollIntoViewIfNeeded();
  await shot(page, 'service-monitor');
  expect(errors).toEqual([]);
});
