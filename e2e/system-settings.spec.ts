import { expect, test } from '@playwright/test';
import { adminUser, baseUrl, btn, login, shot, watchConsole } from './helpers';

/** The system screens (/system_n) and the remaining admin screens, as the demo tenant's administrator uses them. */


test('系统参数、节假日、短信模板与记录、默认短信设置', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await login(page);

  // system parameters: the gear opens them; a saved value survives a reload
  await page.getByTestId('gear').click();
  await expect(page).toHaveURL(/\/system_n\/setting_n$/);
  await page.getByLabel('一级余额预警').fill('66.5');
  await page.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('一级余额预警')).toHaveValue('66.50');
  await shot(page, 'system-settings');

  // holidays
  await page.goto(`${baseUrl()}/system_n/holidayManagement_n`);
  await page.getByRole('button', { name: '新增节假日' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('日期').fill('2030-10-01');
  await dialog.getByLabel('日期').press('Enter');
  await dialog.getByLabel('名称').fill('国庆节');
  await dialog.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByRole('row').filter({ hasText: '2030-10-01' })).toContainText('国庆节');
  await expect(page.getByRole('row').filter({ hasText: '2030-10-01' })).toContainText('全部项目');
  await shot(page, 'holidays');

  // SMS: a custom template, then a test message lands in the record list
  await page.goto(`${baseUrl()}/baseManager/smsManager`);
  await page.getByTestId('sms-kind-low_balance').getByRole('button', { name: '自定义模板' }).click();
  const tpl = page.getByRole('dialog');
  await tpl.getByLabel('短信内容').fill('{name}您好，{project}{room}余额{balance}元，请充值。');
  await tpl.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByTestId('sms-kind-low_balance')).toContainText('自定义模板');
  await page.getByRole('button', { name: '发送测试短信' }).click();
  await page.getByRole('dialog').getByLabel('手机号').fill('13812345678');
  await page.getByRole('dialog').getByRole('button', { name: btn('发送') }).click();
  const result = page.locator('.ant-modal-confirm');
  await expect(result.locator('.ant-modal-confirm-title')).toHaveText('测试短信：已记录（未外发）');
  await expect(result).toContainText('张三您好，示例项目1号楼101室余额8.50元，请充值。');
  await result.getByRole('button').click();
  await shot(page, 'sms-manager');

  await page.goto(`${baseUrl()}/system_n/smsRecordList`);
  await expect(page.getByRole('row').filter({ hasText: '13812345678' })).toContainText('已记录（未外发）');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: btn('导出') }).click();
  expect((await download).suggestedFilename()).toMatch(/^短信记录_\d{4}-\d{2}-\d{2}\.xlsx$/);
  await shot(page, 'sms-records');

  await page.goto(`${baseUrl()}/system_n/defaultSmsSetting`);
  await expect(page.getByText('仅记录（内置，不外发）')).toBeVisible();
  await expect(page.getByText('由服务器部署时配置，如需更换请联系平台管理员')).toBeVisible();
  await expect(page.getByText('SMS_PROVIDER')).toHaveCount(0);
  await page.getByLabel('每日发送上限').fill('500');
  await page.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByText('保存成功')).toBeVisible();

  // gate log: the changes above are there, and the export is an .xlsx
  await page.goto(`${baseUrl()}/baseManager/gateLogManager`);
  await expect(page.getByRole('row').filter({ hasText: '修改默认短信设置' }).first()).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: '保存节假日' }).first()).toBeVisible();
  const logFile = page.waitForEvent('download');
  await page.getByRole('button', { name: btn('导出') }).click();
  expect((await logFile).suggestedFilename()).toMatch(/^操作日志_\d{4}-\d{2}-\d{2}\.xlsx$/);
  await shot(page, 'gate-log');

  // change password: the shared rules answer in the form before anything is sent
  await page.goto(`${baseUrl()}/baseManager/changepassword`);
  await page.getByLabel('当前密码').fill('whatever-1');
  await page.getByLabel('新密码', { exact: true }).fill('12345678');
  await page.getByLabel('确认新密码').fill('12345678');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(page.getByText('密码过于常见，请换一个更难猜的密码')).toBeVisible();
  expect(errors).toEqual([]);
});

test('菜单管理：内置菜单不能删除，可修改标题；角色类型的内置项受保护', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page, adminUser());
  await page.goto(`${baseUrl()}/baseManager/menuManager`);
  await page.getByPlaceholder('按标题或编码查找').fill('datademo');
  await page.getByText('数据示例').click();
  const detail = page.getByTestId('menu-detail');
  await expect(detail.getByRole('button', { name: btn('删除') })).toBeDisabled();
  await detail.getByLabel('标题').fill('数据示例页');
  await detail.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByText(/保存成功/)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'datademo:view' })).toBeVisible();
  await shot(page, 'menu-manager');

  await page.goto(`${baseUrl()}/baseManager/groupTypeManager`);
  const builtinRow = page.getByRole('row').filter({ hasText: '部门' }).first();
  await expect(builtinRow).toContainText('内置');
  await expect(builtinRow.getByRole('button', { name: btn('删除') })).toHaveCount(0);
  // names only: the internal codes (role / department / free) are not shown
  await expect(page.locator('main, .ant-table').getByText(/^(role|department|free)$/)).toHaveCount(0);

  await page.goto(`${baseUrl()}/baseManager/tenantManager`);
  await expect(page.getByRole('row').filter({ hasText: 'demo' })).toContainText('暖云能源');
  await shot(page, 'tenant-list');
  expect(errors).toEqual([]);
});
