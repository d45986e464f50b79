import { expect, test } from '@playwright/test';
import { baseUrl, login, shot, tokenOf, watchConsole } from './helpers';

const bellCount = async (page: import('@playwright/test').Page) => {
  const text = (await page.getByTestId('bell').innerText()).trim();
  return text === '' ? 0 : Number(text.replace('+', ''));
};

test('监控规则：新建规则，模拟设备触发告警，铃铛计数上升；确认告警后计数下降', async ({ page }) => {
  test.setTimeout(150_000);
  const errors = watchConsole(page);
  await login(page);
  const token = await tokenOf(page);
  // the project of the demo's floor-heating thermostats
  const found = await page.request.get(`${baseUrl()}/api/v1/device/devicelist?keyword=DEMO-20020-001&pageNo=1&pageSize=1`, { headers: { authorization: token } });
  const projectId = (await found.json()).data.rows[0].projectId as number;

  await page.goto(`${baseUrl()}/businesscenter/monitorrules?projectId=${projectId}`);
  await expect(page.getByRole('tab', { name: '告警消息', exact: true })).toBeVisible();
  const before = await bellCount(page);
  await page.getByRole('tab', { name: '监控规则', exact: true }).click();
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog', { name: '新增监控规则' });
  await dialog.getByLabel('规则名称').fill('室温高于 5 °C（演示）');
  await dialog.getByLabel('设备类型').click();
  await page.getByTitle('地暖温控器', { exact: true }).click();
  await dialog.getByLabel('监测字段').click();
  await page.getByTitle('室内温度（°C）', { exact: true }).click();
  await dialog.getByLabel(/阈值/).fill('5');
  await shot(page, 'monitor-rule-form');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByRole('row').filter({ hasText: '室温高于 5 °C（演示）' })).toContainText('室内温度 > 5.0 °C');

  // the simulated thermostats report every minute: the bell counts their alarms (live, or at the next poll)
  await page.getByRole('tab', { name: '告警消息', exact: true }).click();
  await expect.poll(() => bellCount(page), { timeout: 100_000, intervals: [2000] }).toBeGreaterThan(before);
  await expect.poll(async () => page.getByRole('row').filter({ hasText: '室温高于 5 °C（演示）' }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
  await shot(page, 'monitor-alarms');
  // acknowledge every alarm on the page at once: the bell counts only what is still unread
  await page.reload();
  await expect.poll(async () => page.getByRole('row').filter({ hasText: '室温高于 5 °C（演示）' }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
  const raised = await bellCount(page);
  await page.locator('.ant-table-thead .ant-checkbox-input').first().check();
  await page.getByRole('button', { name: /确认所选/ }).click();
  const ack = page.getByRole('dialog', { name: /确认 \d+ 条告警/ });
  await ack.getByLabel('处理说明').fill('已通知物业上门查看');
  await ack.getByRole('button', { name: /确\s*认/ }).click();
  await expect(page.getByText('已通知物业上门查看').first()).toBeVisible();
  await page.reload();
  await expect.poll(() => bellCount(page), { timeout: 15_000 }).toBeLessThan(raised);
  await shot(page, 'monitor-alarms-acknowledged');
  expect(errors).toEqual([]);
});
