import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, baseUrl, btn, findNode, login, shot, watchConsole, type TreeNode } from './helpers';

/**
 * The billing configuration of an operator, screen by screen on fitting demo projects: change a price and save it
 * (the new version shows in the history with who and when), try the prices in 计费试算 (totals computed by hand
 * below), edit a TOU period across midnight, change device parameters (batch, history), add a share team with members
 * and a related meter, add a metering plan and put a device on it. Every screen is photographed under e2e/screenshots/.
 */

const history = (page: Page) => page.getByTestId('tariff-history');
const firstHistoryRow = (page: Page) => history(page).locator('.ant-table-tbody tr.ant-table-row').first();

/** save the tariff form and wait for the new version in the history */
async function saveTariff(page: Page, remark: string) {
  await page.getByLabel('备注').fill(remark);
  await page.getByTestId('tariff-form').getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByText(/保存成功/).first()).toBeVisible();
  await expect(firstHistoryRow(page)).toContainText(remark);
  await expect(firstHistoryRow(page)).toContainText('当前生效');
  await expect(firstHistoryRow(page)).toContainText('demo');
}

/** run the 计费试算 of a panel and read its total */
async function quote(panel: Locator, total: string) {
  await panel.getByRole('button', { name: btn('试算') }).click();
  await expect(panel.getByTestId('quote-total')).toHaveText(total);
}

/** fen as the console shows them: "1,234.50" */
const yuan = (fen: number) => `${Math.floor(fen / 100)}`.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + `.${String(fen % 100).padStart(2, '0')}`;

/** a dialog saved: wait until it has faded out (before a photograph or the next row lookup) */
async function dialogGone(page: Page) {
  await expect(page.locator('.ant-modal-wrap:visible')).toHaveCount(0);
}

/** a TimePicker: type the time and confirm */
async function setTime(input: Locator, hhmm: string) {
  await input.click();
  await input.fill(hhmm);
  await input.press('Enter');
}

test('计费配置：版本与修改记录、计费试算、分时时段、设备参数、分摊组、计费方案', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchConsole(page);
  await login(page);
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const pid = (name: string) => findNode(tree, name)!.id;
  const sunshine = pid('阳光花园小区'); // 101, time equivalent prepaid
  const finance = pid('金融中心写字楼'); // 102, AC with cost share
  const binhe = pid('滨河热计量小区'); // 105, deposit-based
  const nanjing = pid('南京 4G 空调公寓'); // 103, AG2420
  const lingang = pid('临港 4G 电能园区'); // PT5010
  const chongming = pid('崇明光伏电站'); // PT5020
  const go = async (group: string, code: string, projectId: number) => {
    // one tab at a time: the shell warns above 9 open pages, and the warning would cover the screenshots
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('kelvin_views:')).forEach((k) => localStorage.removeItem(k)));
    await page.goto(`${baseUrl()}/${group}/${code}?projectId=${projectId}`);
    await expect(page.locator('h2').first()).toBeVisible();
  };

  // 1. 项目参数: a new unit price is a new version; the balance warnings are the accounts module's settings
  await go('businesscenter', 'projectpara', sunshine);
  // the demo opened billing a week ago: its version is in force until this save
  await expect(page.getByTestId('tariff-current')).toContainText('当前生效版本');
  await page.getByLabel('单价（元/h）', { exact: true }).fill('1.5');
  await page.getByLabel('高速系数 k').fill('1.1');
  await saveTariff(page, 'E2E 调整单价');
  await expect(firstHistoryRow(page)).toContainText('1.5');
  await expect(firstHistoryRow(page)).toContainText('0.6 / 0.8 / 1.1');
  await expect(page.getByTestId('tariff-current')).toContainText('当前生效版本');
  const money = page.getByTestId('money-settings');
  await money.getByLabel('余额预警一（元）').fill('60');
  await money.getByRole('button', { name: btn('保存预警设置') }).click();
  await expect(page.getByText('保存成功').first()).toBeVisible();
  await shot(page, 'billing-projectpara');

  // 2. 计费时段: the valley runs 22:00–07:00 across midnight, the morning peak starts at 07:00
  await go('businesscenter', 'jfsd', sunshine);
  await page.getByRole('switch').click();
  const periods = page.getByTestId('tou-period');
  await expect(periods).toHaveCount(4);
  await setTime(periods.nth(3).locator('input').nth(1), '07:00');
  // a gap 07:00–08:00 until the peak moves: said at once, drawn in the bar
  await expect(page.getByTestId('tou-problems')).toContainText('07:00–08:00 没有设置时段');
  await expect(page.getByTestId('tou-chart')).toHaveAttribute('data-segments', /07:00-08:00:gap/);
  await setTime(periods.nth(0).locator('input').nth(0), '07:00');
  await expect(page.getByTestId('tou-problems')).toHaveCount(0);
  await expect(page.getByTestId('tou-chart')).toHaveAttribute('data-segments', '00:00-07:00:valley,07:00-11:00:peak,11:00-18:00:flat,18:00-22:00:peak,22:00-24:00:valley');
  await page.getByLabel(/^峰时单价/).fill('1.3');
  await saveTariff(page, 'E2E 调整峰谷时段');
  await expect(firstHistoryRow(page)).toContainText('峰 07:00–11:00');
  await expect(firstHistoryRow(page)).toContainText('谷 22:00–07:00');
  await expect(firstHistoryRow(page)).toContainText('启用');
  // the history marks the version that changed this screen's part; 项目参数's save before it did not
  await expect(firstHistoryRow(page).getByTestId('section-changed')).toBeVisible();
  await expect(history(page).locator('.ant-table-tbody tr.ant-table-row').nth(1)).toContainText('E2E 调整单价');
  await expect(history(page).locator('.ant-table-tbody tr.ant-table-row').nth(1).getByTestId('section-changed')).toHaveCount(0);
  await page.getByTestId('tou-chart').scrollIntoViewIfNeeded();
  await shot(page, 'billing-jfsd');

  // 3. 计费规则 (ladder): base 0.5 元/kWh; 2800 used, 200 more → 80 kWh in tier 1 (0.50) + 120 in tier 2 (0.55)
  //    = 40.00 + 66.00 = 106.00 元
  await go('businesscenter', 'billingrules_n', sunshine);
  await page.getByLabel('基础电价（元/kWh）').fill('0.5');
  const ladderTrial = page.getByTestId('quote-trial');
  await ladderTrial.getByLabel('本周期已用电量（kWh）').fill('2800');
  await ladderTrial.getByLabel('本次用电量（kWh）').fill('200');
  await quote(ladderTrial, '106.00');
  await expect(ladderTrial.getByTestId('quote-lines')).toContainText('66.00');
  await shot(page, 'billing-billingrules');
  await saveTariff(page, 'E2E 阶梯基础电价');
  await expect(firstHistoryRow(page)).toContainText('0.5');

  // 4. 计费方案 (deposit-based project): the monthly flat fee
  await go('businesscenter', 'billingScheme', binhe);
  await expect(page.getByText('21. 押金制固定费用')).toBeVisible();
  // the 21 schemes, each with 预付费/后付费 and its method
  await page.getByRole('combobox', { name: '计费方案' }).click();
  const selected = page.locator('.ant-select-item-option').filter({ hasText: '押金制固定费用' });
  await expect(selected).toContainText('预付费');
  await expect(selected).toContainText('押金制包月');
  await page.waitForTimeout(300); // the list's opening animation
  await shot(page, 'billing-scheme-options');
  await page.keyboard.press('Escape');
  await page.getByLabel('包月费（元/月·台）').fill('130');
  await saveTariff(page, 'E2E 包月费');
  await expect(firstHistoryRow(page)).toContainText('130');
  await history(page).scrollIntoViewIfNeeded();
  await shot(page, 'billing-scheme');

  // 5. 4G 计费方案: price 2 元/h, k 0.6/0.8/1; 10 h low + 5 h mid + 2 h high → T当量 = 6 + 4 + 2 = 12 h → 24.00 元
  await go('businesscenter', 'jffa2021x1', nanjing);
  await page.getByLabel('单价（元/h）', { exact: true }).fill('2');
  const teTrial = page.getByTestId('quote-trial');
  await teTrial.getByLabel('低速运行时间（h）').fill('10');
  await teTrial.getByLabel('中速运行时间（h）').fill('5');
  await teTrial.getByLabel('高速运行时间（h）').fill('2');
  await quote(teTrial, '24.00');
  await shot(page, 'billing-jffa2021x1');
  await saveTariff(page, 'E2E 4G 单价');

  // 6. 采暖计费系数: 16 元/m² × 100 m² + 85 元/GJ × 2.5 GJ = 1600 + 212.50 = 1812.50 元; the on/off-time-area split of
  //    100 GJ at the project's unit price P 元/GJ over 90 m² × 300 h and 120 m² × 200 h: 100 GJ × P costs P × 10000 fen
  //    (P in ten-thousandths of a 元 = the fen of 100 GJ), shared 27000 : 24000, the odd fen to the larger remainder
  await go('businesscenter', 'billingFactorHeating', binhe);
  const twoPart = page.getByTestId('quote-trial');
  await twoPart.getByLabel('供热面积（m²）').fill('100');
  await twoPart.getByLabel('用热量（GJ）').fill('2.5');
  await quote(twoPart, '1,812.50');
  await shot(page, 'billing-heating');
  await page.getByRole('tab', { name: '通断时间面积法试算' }).click();
  const onOff = page.getByTestId('quote-trial').filter({ has: page.getByTestId('onoff-rooms') });
  const { price } = await api<{ price: string }>(page, 'GET', `/api/v1/billing/tariff/${binhe}`);
  const [whole, frac = ''] = price.split('.');
  const costFen = Number(whole) * 10000 + Number(frac.padEnd(4, '0'));
  let [f1, f2] = [Math.floor((costFen * 27) / 51), Math.floor((costFen * 24) / 51)];
  if (f1 + f2 < costFen) {
    if ((costFen * 27) % 51 >= (costFen * 24) % 51) f1 += 1;
    else f2 += 1;
  }
  await quote(onOff, yuan(costFen));
  await expect(onOff.getByTestId('quote-lines').locator('tr').filter({ hasText: '101' })).toContainText(yuan(f1));
  await expect(onOff.getByTestId('quote-lines').locator('tr').filter({ hasText: '102' })).toContainText(yuan(f2));
  await shot(page, 'billing-heating-onoff');
  await page.getByLabel('计量热价（元/GJ）').fill('88');
  await saveTariff(page, 'E2E 计量热价');

  // 7. 电能计费系数 and 光伏计费系数
  await go('businesscenter', 'billingFactor_n', lingang);
  await page.getByLabel('电表倍率').fill('40');
  await saveTariff(page, 'E2E 倍率');
  await expect(firstHistoryRow(page)).toContainText('40');
  await history(page).scrollIntoViewIfNeeded();
  await shot(page, 'billing-factor-electric');
  await go('businesscenter', 'billingFactorSolar_n', chongming);
  await page.getByLabel('上网电价（元/kWh）').fill('0.4');
  await saveTariff(page, 'E2E 上网电价');
  await history(page).scrollIntoViewIfNeeded();
  await shot(page, 'billing-factor-solar');

  // 8. 空调计费参数: batch 计费系数 1.2 on both 20030 thermostats; the history of one shows it
  await go('businesscenter', 'device20030para', finance);
  const rows = page.locator('.ant-table-tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await page.locator('.ant-table-thead .ant-checkbox-input').check();
  await expect(page.getByTestId('selected-count')).toHaveText('2');
  await page.getByRole('button', { name: btn('批量修改') }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('计费系数').fill('1.2');
  await edit.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByText('已修改 2 台设备的计费参数')).toBeVisible();
  await dialogGone(page);
  await expect(rows.first()).toContainText('1.2');
  await expect(rows.first()).toContainText('demo');
  await shot(page, 'billing-device20030para');
  await rows.first().getByRole('button', { name: '记录' }).click();
  const drawer = page.locator('.kv-billing-drawer');
  await expect(drawer.locator('.ant-table-tbody tr.ant-table-row').first()).toContainText('1.2');
  await page.waitForTimeout(400); // the drawer's opening animation
  await shot(page, 'billing-device-param-history');
  await drawer.locator('.ant-drawer-close').click();

  // 9. AG2420 计费参数: one device's rated power
  await go('businesscenter', 'deviceAG2420para', nanjing);
  await rows.first().getByRole('button', { name: '修改' }).click();
  await page.getByRole('dialog').getByLabel('额定功率（kW）').fill('2.8');
  await page.getByRole('dialog').getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByText('已修改 1 台设备的计费参数')).toBeVisible();
  await dialogGone(page);
  await expect(rows.first()).toContainText('2.8');
  await shot(page, 'billing-deviceAG2420para');

  // 10. 设备基础费: typed in 元, kept in fen
  await go('businesscenter', 'devicebasefee', finance);
  await rows.first().getByRole('button', { name: '修改' }).click();
  await page.getByRole('dialog').getByLabel('基础费（元/月）').fill('15.5');
  await page.getByRole('dialog').getByRole('button', { name: btn('保存') }).click();
  await expect(rows.first()).toContainText('15.50');
  await dialogGone(page);
  await shot(page, 'billing-devicebasefee');

  // 11. 分摊组: two accounts of the office building (registered here: the demo's accounts live elsewhere)
  const building = findNode(tree, '金融中心写字楼')!;
  const held = (await api<{ rows: { rooms: { id: number }[] }[] }>(page, 'GET', `/api/v1/account?projectId=${finance}&pageSize=200`)).rows.flatMap((a) => a.rooms.map((r) => r.id));
  const rooms = building.children[0]!.children.flatMap((floor) => floor.children).filter((r) => !held.includes(r.id)).slice(0, 2);
  const members = [{ name: '分摊甲（E2E）', phone: '13900000001' }, { name: '分摊乙（E2E）', phone: '13900000002' }];
  for (const [i, m] of members.entries()) await api(page, 'POST', '/api/v1/account', { projectId: finance, ...m, roomIds: [rooms[i]!.id] });
  await go('businesscenter', 'groupexpsshare', finance);
  await page.getByRole('button', { name: btn('新增') }).click();
  await page.getByRole('dialog').getByLabel('分摊组名称').fill('1 号楼空调分摊（E2E）');
  await page.getByRole('dialog').getByRole('button', { name: btn('保存') }).click();
  const teamRow = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '1 号楼空调分摊（E2E）' });
  await expect(teamRow).toBeVisible();
  await dialogGone(page);
  await shot(page, 'billing-groupexpsshare');
  await teamRow.getByRole('button', { name: /成员/ }).click();
  const membersDrawer = page.locator('.kv-billing-drawer');
  const picker = membersDrawer.getByTestId('member-picker').locator('input');
  for (const m of members) {
    await picker.fill(m.name.slice(0, 3));
    await page.locator('.ant-select-item-option').filter({ hasText: m.name }).click();
  }
  await membersDrawer.getByRole('button', { name: btn('添加成员') }).click();
  const memberRows = membersDrawer.locator('.ant-table-tbody tr.ant-table-row');
  await expect(memberRows.filter({ hasText: '分摊甲（E2E）' }).first()).toBeVisible();
  // 分摊试算: 1000 元 with 200 public; equivalents 10 and 30 → 800 × ¼ and ¾ = 200 and 600, the 200 public by area
  const team = (await api<{ rows: { shareTeamId: number; name: string }[] }>(page, 'GET', `/api/v1/billing/shareteam?projectId=${finance}`)).rows.find((t) => t.name === '1 号楼空调分摊（E2E）')!;
  const areas = (await api<{ rows: { accountName: string; area: number }[] }>(page, 'GET', `/api/v1/billing/sharegroup?shareTeamId=${team.shareTeamId}`)).rows;
  const areaOf = (name: string) => areas.find((a) => a.accountName === name)!.area;
  const [a1, a2] = [areaOf(members[0]!.name), areaOf(members[1]!.name)];
  // the public 20000 fen by area, the fen left over to the larger remainder
  const exact1 = (20000 * a1) / (a1 + a2);
  let pub1 = Math.floor(exact1);
  let pub2 = Math.floor((20000 * a2) / (a1 + a2));
  if (pub1 + pub2 < 20000) {
    if (exact1 - pub1 >= (20000 * a2) / (a1 + a2) - pub2) pub1 += 1;
    else pub2 += 1;
  }
  const shareTrial = membersDrawer.getByTestId('quote-trial');
  await shareTrial.getByLabel('总费用（元）').fill('1000');
  await shareTrial.getByLabel('其中公共费用（元）').fill('200');
  await shareTrial.getByLabel(`${members[0]!.name}的当量`).fill('10');
  await shareTrial.getByLabel(`${members[1]!.name}的当量`).fill('30');
  await quote(shareTrial, '1,000.00');
  await expect(shareTrial.getByTestId('quote-lines').locator('tr').filter({ hasText: members[0]!.name })).toContainText(yuan(20000 + pub1));
  await expect(shareTrial.getByTestId('quote-lines').locator('tr').filter({ hasText: members[1]!.name })).toContainText(yuan(60000 + pub2));
  await shareTrial.scrollIntoViewIfNeeded();
  await shot(page, 'billing-share-members');
  await membersDrawer.locator('.ant-drawer-close').click();
  await expect(teamRow).toContainText('2');

  // 12. 设备关联: the first AC thermostat is the team's 总表
  await go('businesscenter', 'devicerelation', finance);
  await page.getByRole('button', { name: btn('添加关联设备') }).click();
  const relDialog = page.getByRole('dialog');
  await relDialog.getByLabel('分摊组').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '1 号楼空调分摊（E2E）' }).click();
  await relDialog.getByText('总表（计入总费用）').click();
  await relDialog.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'DEMO-20030-001' }).locator('.ant-checkbox-input').check();
  await relDialog.getByRole('button', { name: /添加/ }).last().click();
  await expect(page.getByText('已添加')).toBeVisible();
  await expect(relDialog).toBeHidden();
  const relRow = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'DEMO-20030-001' });
  await expect(relRow).toContainText('总表');
  await expect(relRow).toContainText('1 号楼空调分摊（E2E）');
  await shot(page, 'billing-devicerelation');

  // 13. 计费方案设置: a plan, then a device on it from now on (添加设备方案)
  await go('device', 'jffa2020x1', finance);
  await page.getByRole('button', { name: btn('新增') }).click();
  const planDialog = page.getByRole('dialog');
  await planDialog.getByLabel('方案名称').fill('办公区空调时间计费（E2E）');
  await planDialog.getByLabel('单价（元）').fill('1.8');
  await planDialog.getByRole('button', { name: btn('保存') }).click();
  const planRow = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '办公区空调时间计费（E2E）' });
  await expect(planRow).toContainText('1.8');
  await dialogGone(page);
  await shot(page, 'billing-jffa2020x1');
  await planRow.getByRole('button', { name: '设备' }).click();
  await page.locator('.kv-billing-drawer').getByRole('button', { name: btn('添加设备') }).click();
  await expect(page).toHaveURL(/addDevicePlan_n\?planId=\d+/);
  await expect(page.getByText(/办公区空调时间计费（E2E）（时间当量/)).toBeVisible();
  await page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'DEMO-20030-004' }).locator('.ant-checkbox-input').check();
  await expect(page.getByRole('button', { name: /加入方案（1 台）/ })).toBeEnabled();
  await page.waitForTimeout(300); // the checkbox and button transitions
  await shot(page, 'billing-add-device-plan');
  await page.getByRole('button', { name: /加入方案/ }).click();
  await expect(page.getByText('已将 1 台设备加入方案')).toBeVisible();
  await expect(page).toHaveURL(/jffa2020x1/);
  await expect(planRow).toBeVisible();
  await planRow.getByRole('button', { name: '设备' }).click();
  await expect(page.locator('.kv-billing-drawer .ant-table-tbody tr.ant-table-row').filter({ hasText: 'DEMO-20030-004' })).toBeVisible();
  await page.waitForTimeout(400);
  await shot(page, 'billing-plan-devices');

  expect(errors).toEqual([]);
});
