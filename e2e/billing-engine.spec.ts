import { expect, test, type Page } from '@playwright/test';
import { api, baseUrl, btn, findNode, login, shot, watchConsole, type TreeNode } from './helpers';

/**
 * The billing engine as the demo operator sees it, on the live simulator's readings (nothing is written beside the
 * console): 立即计费 on a prepaid project, the run with its gaps and its lines (readings from → to), the per-device
 * summary with its top-10 chart and a device's lines, the supply actions; the cost share and the on/off-time-area
 * (AG2410) allocation of share projects once their meters have counted something; expense bills on a postpaid
 * project — 出账 of the last period, the list, and 缴费 of a bill when the period holds one.
 */

/** drawers never close on Escape: their close button */
async function closeDrawer(drawer: ReturnType<Page['getByRole']>) {
  await drawer.getByRole('button', { name: 'Close' }).or(drawer.locator('.ant-drawer-close')).first().click();
  await expect(drawer).toHaveCount(0);
}

/** a photograph once a drawer, dialog or dropdown has finished moving (antd animates them for about 0.3 s) */
async function settledShot(page: Page, name: string) {
  await page.waitForTimeout(400);
  await shot(page, name);
}

type RunResult = { runId: number | null; accounts: number; lines: number; totalFen: number };

/**
 * Runs a share project until a run has shares: its plant meter and the members' devices must have counted something
 * since the last run (the simulator's meters report every minute, 4G controllers every two).
 */
async function runUntilShares(page: Page, projectId: number): Promise<RunResult> {
  let last: RunResult | null = null;
  await expect.poll(async () => {
    last = await api<RunResult>(page, 'POST', '/api/v1/billing/run', { projectId });
    return last.lines;
  }, { timeout: 480_000, intervals: [150_000] }).toBeGreaterThan(0);
  return last!;
}

test('计费引擎：立即计费与批次明细、设备计费汇总、供能控制、费用分摊、AG2410、出账与缴费', async ({ page }) => {
  test.setTimeout(900_000);
  const errors = watchConsole(page);
  await login(page);
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const [prepaid, onOff, share, postpaid] = ['阳光花园小区', '苏州 4G 通断热分摊', '东莞 4G 通断热分摊', '厦门 4G 空调计费公寓'].map((name) => findNode(tree, name)!.id);
  const url = (group: string, code: string, projectId: number) => `${baseUrl()}/${group}/${code}?projectId=${projectId}`;

  // 1. a prepaid project: 立即计费 until the simulator's thermostat has counted valve-open time since the last run
  await page.goto(url('device', 'equipmentBilling_n', prepaid));
  await page.getByRole('tab', { name: '计费批次' }).click();
  const drawer = page.getByRole('dialog').filter({ hasText: '计费批次 #' });
  await expect.poll(async () => {
    await page.getByRole('button', { name: btn('立即计费') }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: btn('计费') }).click();
    const done = page.locator('.ant-message-notice').filter({ hasText: /计费完成|没有新的用量/ }).last();
    await expect(done).toBeVisible({ timeout: 60_000 });
    const text = (await done.textContent()) ?? '';
    const lines = Number(/(\d+) 条明细/.exec(text)?.[1] ?? 0);
    // a run opens its drawer; one without lines is closed and the simulator given time to count
    if (/计费完成/.test(text)) await expect(drawer).toBeVisible();
    if (lines > 0) return lines;
    if (/计费完成/.test(text)) await closeDrawer(drawer);
    await page.waitForTimeout(20_000);
    return 0;
  }, { timeout: 300_000, intervals: [0] }).toBeGreaterThan(0);
  // the run: figures, what could not be billed (rooms without a billing device …), lines with their readings
  await expect(drawer.getByText('缺数说明')).toBeVisible();
  await expect(drawer.getByTestId('run-total')).toContainText('元');
  await expect(drawer.getByRole('cell', { name: '账户无计费设备' }).first()).toBeVisible();
  await expect(drawer.getByTestId('line-readings').first()).toContainText('→');
  await expect(drawer.getByTestId('list-total')).toContainText('合计金额');
  await settledShot(page, 'billing-run-drawer');
  await closeDrawer(drawer);
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await shot(page, 'billing-runs');

  // 2. the per-device summary of this month: the device just billed, the total, the top-10 chart; a row opens its lines
  await page.getByRole('tab', { name: '设备计费汇总' }).click();
  await expect(page.getByTestId('summary-total')).toBeVisible();
  const deviceRow = page.locator('.ant-table-row').first();
  await expect(deviceRow).toBeVisible();
  await expect(page.getByTestId('charge-top10-chart')).toBeVisible();
  await page.locator('.ant-segmented-item').filter({ hasText: '今日' }).click();
  await expect(deviceRow).toBeVisible();
  await shot(page, 'billing-summary');
  await deviceRow.click();
  const detail = page.getByRole('dialog').filter({ hasText: '计费明细：' });
  await expect(detail.locator('.ant-table-row').first()).toBeVisible();
  await expect(detail.getByTestId('line-readings').first()).toContainText('→');
  await settledShot(page, 'billing-summary-detail');
  await closeDrawer(detail);

  // 3. supply actions of the prepaid loop (billing-prepaid.spec drives a cut-off and a reconnect): the status filter
  await page.getByRole('tab', { name: '供能控制' }).click();
  await page.getByLabel('状态').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '多次未执行' }).click();
  await page.getByRole('button', { name: btn('查询') }).click();
  await expect(page.locator('.ant-empty-description').filter({ hasText: '暂无数据' })).toBeVisible();
  await page.getByRole('button', { name: btn('重置') }).click();
  await shot(page, 'billing-supply');

  // 4. cost share by area (the building heat meter's cost): the shares of a run tie to its total
  const shareRun = await runUntilShares(page, share);
  await page.goto(url('businesscenter', 'equipmentCostShare_n', share));
  await expect(page.getByLabel('计费批次')).toBeVisible();
  await page.getByLabel('计费批次').click();
  await page.locator('.ant-select-item-option').filter({ hasText: `#${shareRun.runId} ` }).click();
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await expect(page.getByTestId('share-totals')).toContainText('分摊合计');
  await expect(page.getByTestId('cost-share-pie')).toBeVisible();
  await settledShot(page, 'billing-cost-share');

  // 5. on/off-time-area (AG2410): area, valve-open hours from f30, heat placed, money
  const onOffRun = await runUntilShares(page, onOff);
  await page.goto(url('device', 'ag2410chargedata', onOff));
  await page.getByLabel('计费批次').click();
  await page.locator('.ant-select-item-option').filter({ hasText: `#${onOffRun.runId} ` }).click();
  const ag = page.locator('.ant-table-row').first();
  await expect(ag).toBeVisible();
  await expect(ag).toContainText('m²');
  await expect(ag).toContainText('GJ');
  await expect(page.getByTestId('ag2410-chart')).toBeVisible();
  await settledShot(page, 'billing-ag2410');

  // 6. a postpaid project: its run's lines wait for a bill; 出账 of the last period, then the bills
  await api<RunResult>(page, 'POST', '/api/v1/billing/run', { projectId: postpaid });
  await page.goto(url('businesscenter', 'expensebill', postpaid));
  await expect(page.getByTestId('list-total')).toContainText('账单合计');
  await page.getByRole('button', { name: btn('出账') }).click();
  const issue = page.getByRole('dialog', { name: '出账' });
  await expect(issue.getByLabel('账期')).toBeVisible();
  await settledShot(page, 'billing-issue');
  await issue.getByRole('button', { name: btn('出账') }).click();
  await expect(page.locator('.ant-popconfirm')).toContainText('将为该账期所有账户出具账单');
  await page.locator('.ant-popconfirm').getByRole('button', { name: btn('出账') }).click();
  const issued = page.locator('.ant-message-notice').filter({ hasText: /已出具|没有需要出具的账单/ });
  await expect(issued).toBeVisible({ timeout: 60_000 });
  await expect(issue).toHaveCount(0);
  const bills = await api<{ total: number; rows: { id: number; status: string; accountName: string }[] }>(page, 'GET', `/api/v1/billing/bills?projectId=${postpaid}&pageSize=50`);
  // a fresh console's residents moved in today, after the last period closed: that period holds no lines, nothing is issued
  if (bills.rows.some((b) => b.status !== 'paid')) {
    const row = page.locator('.ant-table-row').filter({ hasText: /待缴费|已逾期/ }).first();
    await row.getByRole('button', { name: btn('缴费') }).click();
    const pay = page.getByRole('dialog', { name: '缴费' });
    await expect(pay.getByTestId('pay-amount')).toContainText('元');
    await pay.getByLabel('缴费方式').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '转账' }).click();
    await shot(page, 'billing-pay');
    await pay.getByRole('button', { name: btn('缴费') }).click();
    const box = page.locator('.ant-modal-confirm');
    await expect(box).toContainText('转账');
    await box.getByRole('button', { name: btn('确定') }).click();
    await expect(page.getByText(/缴费成功/)).toBeVisible();
    await expect(row).toContainText('已缴费');
  } else {
    await expect(issued).toContainText('没有需要出具的账单');
  }
  await shot(page, 'billing-expense-bills');

  expect(errors).toEqual([]);
});
