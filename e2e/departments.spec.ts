import { expect, test, type Page } from '@playwright/test';
import { api, baseUrl, btn, exported, findNode, login, shot, watchConsole, type TreeNode } from './helpers';

/**
 * 部门能耗 on the demo's integrated-energy park, as its energy manager works it: add a department, give it the spare
 * meter, read the department energy (table, chart, export opened), compare two departments (chart, export opened);
 * then the electricity view of the park's meters with its 峰/平/谷 chart. Screenshots under e2e/screenshots/departments-*.
 */

const PROJECT = '张江综合能源园区';

async function projectOf(page: Page) {
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  return findNode(tree, PROJECT)!.id;
}

test('部门能耗：新增部门、分配电表、部门能耗统计与导出、两个部门对比与导出', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await login(page);
  const projectId = await projectOf(page);
  const url = (code: string) => `${baseUrl()}/departmentEnergy/${code}?projectId=${projectId}`;

  // ---------------------------------------------------------------- 总览: the seeded tree, KPI cards, budget warnings
  await page.goto(url('departmentMain'));
  const tree = page.getByTestId('department-tree');
  await expect(tree.getByText('研发中心')).toBeVisible();
  await expect(tree.getByText('研发一部')).toBeVisible();
  await expect(page.getByText('本月各部门用量')).toBeVisible();
  await expect(page.getByTestId('department-chart')).toBeVisible();
  await expect(page.getByTestId('budget-warnings')).toBeVisible();
  await shot(page, 'departments-main');

  // 新增 a department
  const name = `E2E 测试部 ${Date.now() % 100000}`;
  await page.getByRole('button', { name: btn('新增') }).first().click();
  const dlg = page.getByRole('dialog', { name: '新增部门' });
  await dlg.getByLabel('部门名称').fill(name);
  await dlg.getByLabel('人数').fill('5');
  await dlg.getByLabel('面积').fill('120');
  await dlg.getByLabel('月度用电预算').fill('10');
  await dlg.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByText(`已新增部门「${name}」`)).toBeVisible();
  await expect(tree.getByText(name)).toBeVisible();

  // assign the park's spare meter to it (the only one no department holds today), from the first of this month
  await page.getByRole('button', { name: btn('分配表计/房间') }).click();
  const assign = page.getByRole('dialog', { name: new RegExp(`分配表计或房间给「${name}」`) });
  await assign.getByLabel('表计', { exact: true }).click();
  const spare = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasNotText: '今属' }).first();
  const meterLabel = (await spare.innerText()).split('（')[0];
  await spare.click();
  await assign.getByRole('button', { name: btn('分配') }).click();
  await expect(page.getByText('分配成功')).toBeVisible();
  await expect(page.locator('.ant-table-tbody').getByText(meterLabel).first()).toBeVisible();

  // a meter another department holds cannot be given twice: the overlap is refused in Chinese
  await page.getByRole('button', { name: btn('分配表计/房间') }).click();
  await assign.getByLabel('表计', { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '今属 研发二部' }).first().click();
  await assign.getByRole('button', { name: btn('分配') }).click();
  await expect(page.getByText(/分配时间不能重叠/)).toBeVisible();
  await shot(page, 'departments-assign-overlap');
  await assign.getByRole('button', { name: btn('取消') }).click();

  // ---------------------------------------------------------------- 统计: the new department has its row, the table, chart and export
  await page.goto(url('departmentStaticEnergy'));
  await expect(page.locator('.ant-table-tbody').getByText(name)).toBeVisible();
  await expect(page.getByText(/共 \d+ 条/)).toBeVisible();
  // the simulated meters report every minute: 研发中心's month total becomes a number once they have
  await expect.poll(async () => {
    const p = await api<{ rows: { name: string; total: number | null }[] }>(page, 'GET', `/api/v1/department/energy?projectId=${projectId}&pageSize=50`);
    return p.rows.find((r) => r.name === '研发中心')?.total ?? null;
  }, { timeout: 90_000, intervals: [3000] }).not.toBeNull();
  await page.getByRole('button', { name: btn('查询') }).click();
  await expect(page.getByTestId('statistic-chart')).toBeVisible();
  await expect(page.getByTestId('statistic-total-row')).toContainText('合计（一级部门之和）');
  await shot(page, 'departments-statistic');
  const sheet = await exported(page);
  expect(String(sheet[0][0])).toBe('部门');
  expect(sheet.map((r) => String(r[0]))).toEqual(expect.arrayContaining(['研发中心', '研发中心 / 研发一部', name, '合计（一级部门之和）']));

  // ---------------------------------------------------------------- 对比: two departments, chart and export
  await page.goto(url('departmentEnergyCompare'));
  await page.getByTestId('compare-departments').click();
  for (const d of ['研发一部', '研发二部']) await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper').filter({ hasText: d }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: btn('对比') }).click();
  await expect(page.getByTestId('compare-chart')).toHaveAttribute('data-series', '2');
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(2);
  await page.getByText('折线图').click();
  await shot(page, 'departments-compare');
  const cmp = await exported(page);
  expect(cmp.slice(1).map((r) => r[0])).toEqual(['研发一部', '研发二部']);
  expect(cmp[0]).toEqual(expect.arrayContaining(['环比', '同比']));
  // the one refusal was the overlap tried on purpose
  expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
});

test('电表能耗视图：按电表与按楼栋的峰平谷用电与图表', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = watchConsole(page);
  await login(page);
  const projectId = await projectOf(page);
  await page.goto(`${baseUrl()}/project/electricMeterEnergyView?projectId=${projectId}`);
  await expect(page.locator('h2').first()).toContainText('电表能耗视图');
  await expect(page.getByTestId('report-chart')).toBeVisible();
  await expect(page.getByText(/峰平谷/).first()).toBeVisible();
  await expect(page.locator('.ant-table-thead')).toContainText('谷电占比');
  await shot(page, 'departments-electric-meter');
  const byBuilding = await api<{ rows: { name: string }[] }>(page, 'GET', `/api/v1/datacenter/electricMeterEnergyView?projectId=${projectId}&kind=building`);
  expect(byBuilding.rows.every((r) => /号楼|未分配/.test(r.name))).toBe(true);
  expect(errors).toEqual([]);
});
