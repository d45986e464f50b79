import { expect, test } from '@playwright/test';
import { adminUser, baseUrl, btn, login, shot, watchConsole } from './helpers';

test('服务注册中心与调用链路追踪：本进程在册；失败请求的追踪号从 bug日志 找到链路与瀑布图', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = watchConsole(page);
  await login(page, adminUser());

  await page.goto(`${baseUrl()}/monitorManager/serviceEurekaManager`);
  await expect(page.getByRole('heading', { name: '服务注册中心' })).toBeVisible();
  const self = page.getByRole('row').filter({ hasText: '当前' });
  await expect(self).toContainText('运行中');
  await expect(self).toContainText('接口服务');
  await expect(self).toContainText('设备接入');
  await expect(self).toContainText(/\d+ \/ \d+ MB/);
  await expect(page.getByText(/共 \d+ 条/)).toBeVisible();
  await shot(page, 'ops-eureka');

  // an operator's slip: a trace id that is not one → 400, kept by the server, logged in bug日志 with its trace id
  await page.goto(`${baseUrl()}/monitorManager/serviceZipkinManager`);
  await expect(page.getByRole('heading', { name: '调用链路追踪' })).toBeVisible();
  const idBox = page.getByPlaceholder('32 位追踪号');
  await idBox.fill('not-a-trace');
  await page.getByRole('button', { name: btn('查询') }).click();
  await expect(page.getByText('追踪号应为 32 位十六进制').first()).toBeVisible();
  await page.getByRole('button', { name: 'bug日志' }).click();
  const logged = page.getByTestId('error-trace-id').first();
  await expect(logged).toHaveText(/^[0-9a-f]{32}$/);
  const traceId = (await logged.innerText()).trim();
  await expect(page.getByRole('dialog')).toContainText('/api/v1/monitor/traces → 400');
  await shot(page, 'ops-bug-log');
  await page.getByRole('button', { name: '关 闭' }).click();

  await idBox.fill(traceId);
  await page.getByRole('button', { name: btn('查询') }).click();
  const row = page.getByRole('row').filter({ hasText: traceId });
  await expect(row).toContainText('400');
  await expect(row).toContainText('失败');
  await row.getByRole('button', { name: '详情' }).click();
  const waterfall = page.getByTestId('trace-waterfall');
  await expect(waterfall).toBeVisible();
  await expect(waterfall.locator('[data-span-kind="server"]')).toHaveCount(1);
  // the request's own span, named by its route (the signed-in caller came from the cache: no sign-in queries)
  await expect(waterfall.locator('[data-span-kind="server"]')).toContainText('/api/v1/monitor/traces');
  await shot(page, 'ops-zipkin-waterfall');

  expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
});

test('服务运行监控的操作：重新加载、MQTT 广播、4G RTU 刷新（确认后执行并显示结果）', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = watchConsole(page);
  await login(page, adminUser());
  await page.goto(`${baseUrl()}/monitorManager/serviceMonitorManager`);
  const card = page.getByTestId('monitor-actions');
  await expect(card).toBeVisible();

  await card.getByRole('button', { name: '重新加载物联网配置' }).click();
  await page.getByRole('dialog').getByRole('button', { name: btn('确定') }).click();
  const result = page.getByTestId('action-result');
  await expect(result).toContainText('已重新加载物联网配置');
  await expect(result).toContainText('告警规则索引');

  // the demo tenant's online devices
  await card.getByTestId('action-tenant').click();
  await page.getByTitle(/（demo）/).click();
  await expect(card).toContainText(/在线设备 [1-9]\d* 台/);
  await card.getByRole('button', { name: 'MQTT 广播' }).click();
  await page.getByRole('dialog').getByRole('button', { name: btn('确定') }).click();
  await expect(result).toContainText(/MQTT 广播「立即上报」已下发/);
  await expect(result).toContainText(/已下发 [1-9]\d* 台/);

  await card.getByRole('button', { name: '4G RTU 刷新' }).click();
  await page.getByRole('dialog').getByRole('button', { name: btn('确定') }).click();
  await expect(result).toContainText('4G RTU 刷新已下发');
  await expect(result).toContainText(/4G 设备 [1-9]\d* 台/);
  await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);
  await shot(page, 'ops-monitor-actions');
  expect(errors).toEqual([]);
});
