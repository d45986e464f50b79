import { expect, test, type Page } from '@playwright/test';
import { api, baseUrl, exported, findNode, login, shot, watchConsole, type TreeNode } from './helpers';

/**
 * Month end in the data center, as a finance user works it: pick the month, read the chart and the total row, export
 * the whole selection and open the file (its rows and total equal the screen's), print it (A4 landscape).
 */

type ReportPage = { total: number; rows: Record<string, unknown>[]; totals: Record<string, number>; chart?: { x: string[] } };

async function open(page: Page, code: string, projectId: number) {
  await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('kelvin_views:')).forEach((k) => localStorage.removeItem(k)));
  await page.goto(`${baseUrl()}/datacenter/${code}?projectId=${projectId}`);
  await expect(page.locator('h2').first()).toBeVisible();
  await expect(page.locator('.ant-table-tbody')).toBeVisible();
}

test('月末对账：充值记录按月筛选、合计、导出与打印', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const sunshine = findNode(tree, '阳光花园小区')!.id;

  await open(page, 'operateRecord', sunshine);
  // the month preset is applied on opening; the total row sums the whole month, not only the page
  const month = await api<ReportPage>(page, 'GET', `/api/v1/datacenter/operateRecord?projectId=${sunshine}&pageSize=200`);
  expect(month.total).toBeGreaterThan(0);
  await expect(page.getByTestId('report-total-row')).toContainText(`合计（${month.total} 条）`);
  await expect(page.getByTestId('report-applied')).toContainText('时间：');
  await shot(page, 'datacenter-operate-record');

  const rows = await exported(page);
  expect(String(rows[0][0])).toContain('充值记录');
  const body = rows.slice(4, -1);
  expect(body).toHaveLength(month.total);
  expect(rows.at(-1)![0]).toBe(`合计（${month.total} 条）`);
  expect(Math.round(Number(rows.at(-1)![4]) * 100)).toBe(month.totals.amountFen);

  // 打印: the print view holds the same rows under its header
  await page.emulateMedia({ media: 'print' });
  await page.evaluate(() => { window.print = () => undefined; });
  await page.getByTestId('print-button').click();
  await expect(page.locator('.kv-print-root')).toBeVisible();
  await expect(page.locator('.kv-print-root tbody tr')).toHaveCount(month.total + 1);
  await shot(page, 'datacenter-operate-record-print');
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  await page.emulateMedia({ media: 'screen' });

  // 缴费报表: money in by day and method, the chart over the month
  await open(page, 'payReport', sunshine);
  await expect(page.getByTestId('report-chart')).toBeVisible();
  const pay = await api<ReportPage>(page, 'GET', `/api/v1/datacenter/payReport?projectId=${sunshine}&pageSize=50`);
  // the day total ties to the 充值记录 of the same month (top-ups − refunds)
  expect(pay.totals.netFen).toBe(month.totals.amountFen);
  await shot(page, 'datacenter-pay-report');

  await open(page, 'userList_n', sunshine);
  await expect(page.getByTestId('report-total-row')).toBeVisible();
  await shot(page, 'datacenter-user-list');
  expect(errors).toEqual([]);
});

test('能耗：数据统计的趋势与排行、年度同比', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const lingang = findNode(tree, '临港 4G 电能园区')!.id;
  // the simulated meters report every few seconds: wait until today's roll-up holds some use
  await expect.poll(async () => (await api<ReportPage>(page, 'GET', `/api/v1/datacenter/datastats?projectId=${lingang}&counter=f70`)).totals.usage ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);

  await open(page, 'datastats', lingang);
  await expect(page.getByTestId('report-chart')).toBeVisible();
  await expect(page.getByTestId('report-total-row')).toContainText('合计');
  await shot(page, 'datacenter-datastats');
  await page.getByRole('tab', { name: '设备用量排行' }).click();
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await expect(page.getByTestId('report-chart')).toBeVisible();
  await shot(page, 'datacenter-useenergy');

  await open(page, 'annualData', lingang);
  await expect(page.locator('.ant-table-row')).toHaveCount(12);
  await shot(page, 'datacenter-annual');
  expect(errors).toEqual([]);
});
