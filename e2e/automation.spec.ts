import { expect, test, type Page } from '@playwright/test';
import { baseUrl, login, shot, tableRows, tokenOf, watchConsole } from './helpers';

/** An online simulated thermostat the server executes programs for (20000: not a memory-program type). */
async function thermostat(page: Page) {
  const token = await tokenOf(page);
  const res = await page.request.get(`${baseUrl()}/api/v1/device/devicelist?deviceType=device20000&online=1&pageNo=1&pageSize=1`, { headers: { authorization: token } });
  const d = (await res.json()).data.rows[0] as { id: number; deviceCode: string; projectId: number; fields: Record<string, number> };
  expect(d, '一台在线的 20000 温控器').toBeTruthy();
  return d;
}

/** "YYYY-MM-DD HH:mm" in Asia/Shanghai (the browser's and the server's calendar), `ms` from now. */
function shanghai(ms: number) {
  return new Date(Date.now() + ms + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}

/** Picks an option of an antd select opened by clicking `trigger`, typing `text` to search when given. */
async function pick(page: Page, trigger: ReturnType<Page['locator']>, option: string | RegExp, text?: string) {
  await trigger.click();
  if (text) await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

test('周程序：为房间温控器新建周程序，立即执行后设备设定温度改变，执行记录显示每台设备的结果', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await login(page);
  const d = await thermostat(page);
  const target = d.fields.f04 === 27.5 ? 26.5 : 27.5;

  await page.goto(`${baseUrl()}/businessSys/thermostatprogram?projectId=${d.projectId}`);
  await expect(page.getByRole('heading', { name: '温控器编程' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog', { name: '新增周程序' });
  await dialog.getByLabel('程序名称').fill('会议室全天恒温（演示）');
  await pick(page, dialog.getByLabel('设备类型'), '温控器（20000）');
  await pick(page, dialog.locator('#week-program_deviceIds'), d.deviceCode, d.deviceCode);
  await dialog.getByLabel('程序名称').click();

  // today's tab: one slot from 00:00 at the target temperature (the starter's 22:00 off slot goes), then every day alike
  const editor = dialog.getByTestId('week-program-editor');
  await editor.getByTestId('slot-1').getByRole('button', { name: '删除时段' }).click();
  const slot = editor.getByTestId('slot-0');
  const time = slot.getByLabel('开始时间');
  await time.click();
  await time.fill('00:00');
  await time.press('Enter');
  await slot.getByRole('spinbutton', { name: '设定温度' }).fill(String(target));
  await editor.getByRole('button', { name: '复制到…' }).click();
  await page.getByRole('button', { name: /^每\s*天$/ }).click();
  await page.getByRole('button', { name: /^复\s*制$/ }).click();
  await expect(page.getByText(/^把周.的时段复制到$/)).toBeHidden();
  await expect(editor.getByTestId('timeline-segment')).toHaveCount(7);
  await expect(editor.getByTestId('timeline-day-0')).toContainText(`${target.toFixed(1)}°C`);
  await shot(page, 'automation-week-program-editor');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toBeHidden();
  const row = tableRows(page).filter({ hasText: '会议室全天恒温（演示）' });
  await expect(row).toContainText('1 台设备');
  await shot(page, 'automation-week-programs');

  await row.getByRole('button', { name: '立即执行' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: /确\s*定/ }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '执行记录 · 会议室全天恒温（演示）' });
  await expect(drawer).toBeVisible();
  await expect(async () => {
    await drawer.getByRole('button', { name: /刷\s*新/ }).click();
    await expect(drawer.locator('.ant-table-row').first()).toContainText('成功', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await drawer.locator('.ant-table-row-expand-icon').first().click();
  await expect(drawer.getByText(`设定温度 = ${target.toFixed(1)} °C`).first()).toBeVisible();
  await shot(page, 'automation-program-run-history');
  await drawer.getByRole('button', { name: 'Close' }).or(drawer.locator('.ant-drawer-close')).first().click();

  // the simulated thermostat took the program's set temperature: its device page shows it (live)
  await page.goto(`${baseUrl()}/device/device20000?projectId=${d.projectId}`);
  await expect(page.getByTestId(`cell-${d.id}-f04`)).toHaveText(`${target.toFixed(1)} °C`, { timeout: 30_000 });
  await shot(page, 'automation-program-applied');

  // the program is listed for the device (weekprogram/listbydevice) with what it holds now
  await page.goto(`${baseUrl()}/businessSys/thermostat?projectId=${d.projectId}`);
  await expect(page.getByRole('heading', { name: '温控器管理' })).toBeVisible();
  // several thermostat types in the project: a switch between them
  const types = page.locator('.ant-segmented');
  if (await types.isVisible()) await types.getByText(/温控器（20000）/).click();
  await page.getByPlaceholder('设备编号或名称').fill(d.deviceCode);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(tableRows(page).first().getByTestId('applied-program')).toContainText('会议室全天恒温（演示）');
  await shot(page, 'automation-thermostats');
  expect(errors).toEqual([]);
});

test('定时任务：新建一分钟后执行的任务，立即执行，执行记录列出设备、命令与结果', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await login(page);
  const d = await thermostat(page);
  const target = d.fields.f04 === 24 ? 23 : 24;

  await page.goto(`${baseUrl()}/device/task?projectId=${d.projectId}`);
  await expect(page.getByRole('heading', { name: '定时任务' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const dialog = page.getByRole('dialog', { name: '新增定时任务' });
  await dialog.getByLabel('任务名称').fill('早间预热（演示）');
  await pick(page, dialog.getByLabel('设备类型'), '温控器（20000）');
  await pick(page, dialog.locator('#task-once_deviceIds'), d.deviceCode, d.deviceCode);
  await dialog.getByLabel('任务名称').click();
  const runAt = dialog.getByLabel('执行时间');
  await runAt.click();
  await runAt.fill(shanghai(65_000));
  await runAt.press('Enter');
  await dialog.getByRole('spinbutton', { name: '设定温度' }).fill(String(target));
  await shot(page, 'automation-task-form');
  await dialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(dialog).toBeHidden();
  const row = tableRows(page).filter({ hasText: '早间预热（演示）' });
  await expect(row).toContainText('执行一次');
  await expect(row).toContainText(`设定温度 = ${target.toFixed(1)} °C`);
  await shot(page, 'automation-tasks');
  await expect(row).toContainText('从未执行');

  // 立即执行: a run with each device's command and outcome
  await row.getByRole('button', { name: '立即执行' }).click();
  await page.getByRole('tooltip').getByRole('button', { name: /确\s*定/ }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '执行记录 · 早间预热（演示）' });
  await expect(async () => {
    await drawer.getByRole('button', { name: /刷\s*新/ }).click();
    await expect(drawer.locator('.ant-table-row').first()).toContainText('全部成功', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(drawer.locator('.ant-table-row').first()).toContainText('手动执行');
  await drawer.locator('.ant-table-row-expand-icon').first().click();
  await expect(drawer.getByText(d.deviceCode).first()).toBeVisible();
  await expect(drawer.getByText(`设定温度 = ${target.toFixed(1)} °C`)).toBeVisible();
  await expect(drawer.locator('.ant-tag').filter({ hasText: '成功' }).first()).toBeVisible();
  await shot(page, 'automation-task-run-history');
  expect(errors).toEqual([]);
});

test('自动化各页面：周期任务规则实时描述、策略条件、节假日、记忆周期、超时池、编程方案与编程设置', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await login(page);
  const token = await tokenOf(page);
  const found = await page.request.get(`${baseUrl()}/api/v1/device/devicelist?keyword=DEMO-20020-001&pageNo=1&pageSize=1`, { headers: { authorization: token } });
  const floorHeating = (await found.json()).data.rows[0].projectId as number;

  await page.goto(`${baseUrl()}/device/scheduledTask?projectId=${floorHeating}`);
  await expect(page.getByRole('heading', { name: '周期任务' })).toBeVisible();
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const periodic = page.getByRole('dialog', { name: '新增周期任务' });
  await expect(periodic.getByTestId('rule-description')).toHaveText('执行规则：每周一至周五 07:30');
  await periodic.getByRole('checkbox', { name: '周五' }).uncheck();
  await expect(periodic.getByTestId('rule-description')).toHaveText('执行规则：每周一至周四 07:30');
  await periodic.getByText('每月', { exact: true }).click();
  await expect(periodic.getByTestId('rule-description')).toHaveText('执行规则：每月1日 07:30');
  await periodic.getByText('Cron', { exact: true }).click();
  await periodic.getByLabel('Cron 表达式').fill('0 8 * * 6,7');
  await expect(periodic.getByTestId('rule-description')).toHaveText('执行规则：每周六、日 08:00');
  await periodic.getByLabel('Cron 表达式').fill('0 8 * *');
  await expect(periodic.getByTestId('rule-description')).toHaveText('规则还不完整或格式不正确');
  await shot(page, 'automation-periodic-form');
  await periodic.getByRole('button', { name: /取\s*消/ }).click();

  await page.goto(`${baseUrl()}/device/strategicsTask?projectId=${floorHeating}`);
  await expect(page.getByRole('heading', { name: '策略任务' })).toBeVisible();
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const strategy = page.getByRole('dialog', { name: '新增策略任务' });
  await expect(strategy.getByTestId('strategy-description')).toHaveText('当设备的室内温度低于 16.0 °C 持续 20 分钟时执行，之后 30 分钟内不重复触发');
  await shot(page, 'automation-strategy-form');
  await strategy.getByRole('button', { name: /取\s*消/ }).click();

  for (const [path, heading, name] of [
    ['/device/holidayTask', '节假日任务', 'automation-holiday-tasks'],
    ['/device/memoryScheduledTask', '记忆周期任务', 'automation-memory-tasks'],
    ['/device/overtimePool_n', '超时池', 'automation-overtime-pool'],
    ['/businessSys/programscheme', '编程方案', 'automation-program-schemes'],
    ['/device/deviceprogram', '编程设置', 'automation-deviceprogram'],
  ] as const) {
    await page.goto(`${baseUrl()}${path}?projectId=${floorHeating}`);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('.ant-pagination-total-text, .ant-empty-description').first()).toBeVisible();
    await shot(page, name);
  }

  // a scheme becomes a program through 应用到…
  await page.goto(`${baseUrl()}/businessSys/programscheme?projectId=${floorHeating}`);
  await page.getByRole('button', { name: /新\s*增/ }).click();
  const scheme = page.getByRole('dialog', { name: '新增编程方案' });
  await scheme.getByLabel('方案名称').fill('住宅标准作息（演示）');
  await scheme.getByRole('button', { name: /保\s*存/ }).click();
  await expect(scheme).toBeHidden();
  await tableRows(page).filter({ hasText: '住宅标准作息（演示）' }).getByRole('button', { name: '应用到…' }).click();
  const apply = page.getByRole('dialog', { name: '由方案「住宅标准作息（演示）」新建周程序' });
  await expect(apply.getByLabel('程序名称')).toHaveValue('住宅标准作息（演示）');
  await expect(apply.getByTestId('timeline-segment').first()).toBeVisible();
  await shot(page, 'automation-scheme-apply');
  await apply.getByRole('button', { name: /取\s*消/ }).click();
  expect(errors).toEqual([]);
});

// A once task created for the next minute is fired by the scheduler itself (trigger 按计划), not by 立即执行.
test('定时任务：到点由调度器执行，执行记录显示按计划', async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const d = await thermostat(page);
  const token = await tokenOf(page);
  const runAt = Math.ceil((Date.now() + 20_000) / 60_000) * 60_000;
  const res = await page.request.post(`${baseUrl()}/api/v1/task`, {
    headers: { authorization: token },
    data: { projectId: d.projectId, name: '到点执行（演示）', kind: 'once', runAt, deviceType: 'device20000', deviceIds: [d.id], writes: [{ fieldCode: 'f04', value: 23 }] },
  });
  const id = (await res.json()).data.id as number;
  await expect.poll(async () => {
    const runs = await (await page.request.get(`${baseUrl()}/api/v1/task/${id}/runs?pageNo=1&pageSize=5`, { headers: { authorization: token } })).json();
    return runs.data.rows[0]?.triggerLabel ?? null;
  }, { timeout: 150_000, intervals: [5_000] }).toBe('按计划');
});
