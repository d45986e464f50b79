import { expect, test, type Page } from '@playwright/test';
import { api, baseUrl, chooseProject, login, shot, watchConsole, type TreeNode } from './helpers';

const PROJECT = '阳光花园小区';

async function projectAndRoom(page: Page) {
  const roots = await api<TreeNode[]>(page, 'GET', '/api/v1/area/treeonlyproject/-1');
  const project = roots.flatMap((r) => r.children).find((p) => p.label === PROJECT)!;
  const [tree] = await api<TreeNode[]>(page, 'GET', `/api/v1/area/tree/${project.id}`);
  return { projectId: project.id, roomId: tree.children[0].children[0].children[0].id };
}

test('批量参数设置：在线设备已下发，离线设备等待上线，逐台结果可查', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  await login(page);
  await chooseProject(page, PROJECT);
  const { projectId, roomId } = await projectAndRoom(page);
  // a thermostat the simulator does not play: registered, never online
  const offline = await api<{ device: { id: number; deviceCode: string } }>(page, 'POST', `/api/v1/device/create/${projectId}/${roomId}/device20020`,
    { deviceCode: 'ZZ-E2E-OFFLINE-01', deviceName: 'E2E 离线温控器' });
  // wait for simulated thermostats of the project to be online
  await expect.poll(async () => (await api<{ total: number }>(page, 'GET', `/api/v1/device/devicelist?projectId=${projectId}&deviceType=device20020&online=1`)).total,
    { timeout: 30_000 }).toBeGreaterThan(0);
  const all = (await api<{ total: number }>(page, 'GET', `/api/v1/device/devicelist?projectId=${projectId}&deviceType=device20020`)).total;

  try {
    await page.goto(`${baseUrl()}/device/batchpara`);
    await expect(page.getByRole('heading', { name: '批量参数设置' })).toBeVisible();
    await page.getByTestId('batch-type').click();
    await page.getByTitle(/^地暖温控器（/).click();
    await page.getByTestId('batch-field').click();
    await page.getByTitle('设定温度', { exact: true }).click();
    const value = page.getByPlaceholder('10～40 °C，步长 0.5');
    // out of the registry's range: the same message the server gives, and nothing can be sent
    await value.fill('45');
    await expect(page.getByText('「设定温度」取值范围为 10～40 °C，步长 0.5')).toBeVisible();
    await expect(page.getByTestId('batch-send')).toBeDisabled();
    await value.fill('23');
    await expect(page.getByText('允许：10～40 °C，步长 0.5')).toBeVisible();

    await page.getByRole('button', { name: '选择全部筛选结果' }).click();
    await expect(page.getByTestId('picked-count')).toHaveText(String(all));
    // the chosen thermostats' own upper limit (f13 = 35) narrows the range the form allows
    await expect(page.getByText('允许：10～35 °C，步长 0.5')).toBeVisible();
    await shot(page, 'batchpara-pick');
    await page.getByTestId('batch-send').click();
    await page.getByRole('button', { name: /确\s*定/ }).click();

    const result = page.getByTestId('batch-result');
    await expect(result).toBeVisible();
    const offlineRow = result.getByRole('row', { name: /ZZ-E2E-OFFLINE-01/ });
    await expect(offlineRow.getByText('等待上线', { exact: true })).toBeVisible();
    await expect(offlineRow.getByText('设备离线，等待上线后下发')).toBeVisible();
    await expect(result.getByRole('row').filter({ hasText: '已下发' }).first()).toBeVisible();
    // the online thermostats acknowledge; the offline one's command waits
    await expect(result.getByText('已执行').first()).toBeVisible({ timeout: 15_000 });
    await expect(offlineRow.getByText('等待下发')).toBeVisible();
    await result.scrollIntoViewIfNeeded();
    await shot(page, 'batchpara-result');

    // every write is in the device operation log, the offline one still waiting
    await page.goto(`${baseUrl()}/device/deviceoperationlog`);
    const logRow = page.getByRole('row', { name: /ZZ-E2E-OFFLINE-01/ }).filter({ hasText: '设定温度 → 23.0 °C' });
    await expect(logRow).toContainText('等待下发');
    await expect(page.getByRole('row', { name: /ZZ-E2E-OFFLINE-01/ }).filter({ hasText: '新建设备' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: '设定温度 → 23.0 °C' }).filter({ hasText: '已执行' }).first()).toBeVisible();
  } finally {
    await api(page, 'POST', '/api/v1/device/deletedevice', { id: offline.device.id });
  }
  expect(errors).toEqual([]);
});

test('设备分组：新建分组，按楼栋加入设备，移出设备', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  await chooseProject(page, PROJECT);
  await page.goto(`${baseUrl()}/device/devicegroup`);
  await expect(page.getByRole('heading', { name: '设备分组' })).toBeVisible();

  await page.getByRole('button', { name: '新增分组' }).click();
  const form = page.getByRole('dialog', { name: '新增分组' });
  // the shared zod rule answers as the server would
  await form.getByLabel('分组名称').fill(' ');
  await expect(form.getByText('请输入分组名称')).toBeVisible();
  await form.getByLabel('分组名称').fill('E2E 一号楼设备');
  await form.getByLabel('备注').fill('浏览器测试');
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(page.getByTestId('group-title')).toContainText('E2E 一号楼设备');

  await page.getByRole('button', { name: '添加设备' }).click();
  const dialog = page.getByRole('dialog', { name: /添加设备到/ });
  await dialog.getByTestId('picker-area').click();
  await page.getByTitle('1号楼', { exact: true }).click();
  await dialog.getByRole('button', { name: '选择全部筛选结果' }).click();
  const count = dialog.getByTestId('picked-count');
  await expect(count).not.toHaveText('0');
  const n = Number(await count.innerText());
  await dialog.getByRole('button', { name: new RegExp(`加入分组（${n} 台）`) }).click();
  await expect(page.getByText(`已加入，分组现有 ${n} 台设备`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`共 ${n} 条`)).toBeVisible();
  // every member sits in building 1
  const locations = await page.locator('.ant-table-tbody tr.ant-table-row td:nth-child(5)').allInnerTexts();
  expect(locations.length).toBeGreaterThan(0);
  for (const l of locations) expect(l).toMatch(/^1号楼/);

  await page.locator('.ant-table-tbody tr.ant-table-row').first().getByRole('button', { name: '移出' }).click();
  await page.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText(`已移出，分组现有 ${n - 1} 台设备`)).toBeVisible();
  await expect(page.getByText(`共 ${n - 1} 条`)).toBeVisible();
  await expect(page.getByTestId('group-item').filter({ hasText: 'E2E 一号楼设备' })).toContainText(`（${n - 1} 台）`);
  await shot(page, 'devicegroup');
  expect(errors).toEqual([]);
});

test('温度分布图：按楼层显示各房间室温，切换楼栋', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  await chooseProject(page, PROJECT);
  await page.goto(`${baseUrl()}/device/temperatureMap_n`);
  await expect(page.getByRole('heading', { name: '温度分布图' })).toBeVisible();
  // 3 floors × 4 rooms of building 1, top floor first
  await expect(page.getByTestId('temp-floor')).toHaveCount(3);
  await expect(page.getByTestId('temp-floor').first()).toContainText('3层');
  await expect(page.getByTestId('temp-cell')).toHaveCount(12);
  // simulated thermostats report their room temperature
  const withTemp = page.locator('[data-testid="temp-cell"]:not([data-temp=""])');
  await expect(withTemp.first()).toBeVisible({ timeout: 30_000 });
  const t = Number(await withTemp.first().getAttribute('data-temp'));
  expect(t).toBeGreaterThan(-20);
  expect(t).toBeLessThan(60);
  await expect(withTemp.first()).toContainText(`${t.toFixed(1)}°`);
  await expect(page.getByTestId('temp-legend')).toContainText('20–24 °C');
  await expect(page.locator('.ant-spin-blur')).toHaveCount(0);
  await shot(page, 'temperature-map');

  await page.getByTestId('temp-building').click();
  await page.getByTitle('2号楼', { exact: true }).click();
  await expect(page.getByTestId('temp-building-name')).toHaveText('2号楼');
  await expect(page.getByTestId('temp-cell').first()).toContainText('301室');
  await expect(page.getByTestId('temp-cell')).toHaveCount(12);
  expect(errors).toEqual([]);
});

test('出厂检测线：地暖温控器在设备测试台上逐步通过，测试记录可查', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await login(page);
  await chooseProject(page, '吴中出厂检测线');
  await page.goto(`${baseUrl()}/device/testEquipment_n`);
  await expect(page.getByRole('heading', { name: '设备测试' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: '地暖温控器' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('在线', { timeout: 30_000 }); // the simulated device has logged in
  await row.getByRole('checkbox').check();
  await expect(page.getByText(/地暖温控器的测试步骤（\d+ 步）/)).toBeVisible();
  await page.getByRole('button', { name: /开始测试（1）/ }).click();
  await page.getByRole('tooltip').getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText('已开始测试 1 台设备')).toBeVisible();
  // every step is a real command the simulated device acknowledges and reports back
  const run = page.getByTestId('test-run');
  await expect(run).toHaveAttribute('data-status', 'passed', { timeout: 90_000 });
  await expect(run.getByTestId('step-status').filter({ hasText: '失败' })).toHaveCount(0);
  expect(await run.getByTestId('step-status').filter({ hasText: '通过' }).count()).toBeGreaterThan(3);
  await run.scrollIntoViewIfNeeded();
  await shot(page, 'factory-bench');

  await page.goto(`${baseUrl()}/device/equipmentRecords_n`);
  await expect(page.getByRole('row').filter({ hasText: '地暖温控器' }).first()).toContainText('通过');

  // the address installers write into devices before they leave the line
  await page.goto(`${baseUrl()}/device/mqttSetting_n`);
  await expect(page.getByRole('heading', { name: 'MQTT 设置' })).toBeVisible();
  await page.getByLabel('服务器地址').fill('iot.example.com');
  await page.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'DEMO-20020' })).toHaveCount(1);
  await shot(page, 'mqtt-setting');
  expect(errors).toEqual([]);
});
