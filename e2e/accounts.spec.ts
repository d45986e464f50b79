import { expect, test } from '@playwright/test';
import { api, baseUrl, btn, confirm, findNode, login, shot, watchConsole, type TreeNode } from './helpers';

/**
 * The money journey of an operator: set the project's refund approval amount, register an account for a demo room,
 * top up 100.00 元 (the receipt reads 壹佰元整) and 50.00 元 online through the sandbox provider, ask for a 20.00 元 refund (above the approval amount: 待审批) that a
 * second user approves, collect a deposit, deduct part of it and refund the rest, then move the account out.
 * Every money screen is photographed under e2e/screenshots/.
 */

const APPROVER = { username: 'e2e_approver', password: 'Approve#2026-ok', name: '财务复核员' };
const ACCOUNT = { name: '王小明（E2E）', phone: '13912345678' };
/** exactly this button (「充值」 but not 「在线充值」) */
const only = (label: string) => new RegExp(`^${btn(label).source}$`);


test('账户与资金：登记、充值（收据）、退费审批、押金收扣退、迁出结算', async ({ page, browser }) => {
  test.setTimeout(480_000);
  const errors = watchConsole(page);
  await login(page);
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const projectId = findNode(tree, '阳光花园小区')!.id;
  const depositProjectId = findNode(tree, '滨河热计量小区')!.id;
  const url = (code: string, pid = projectId) => `${baseUrl()}/businesscenter/${code}?projectId=${pid}`;

  // 0. the project's limits: refunds above 10.00 元 need a second user
  await page.goto(url('userPayFeeUpper'));
  await page.getByLabel('退费审批金额（元）').fill('10');
  await page.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await shot(page, 'accounts-pay-fee-upper');
  await page.getByRole('tab', { name: '商户支付账户' }).click();
  await page.getByLabel('商户号').fill('1900000109');
  await page.getByLabel('AppID').fill('wxe2e0000000000001');
  await page.getByLabel('通知签名密钥').fill('sandbox-secret-0123456789');
  await page.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByTestId('api-key-masked')).toBeVisible();
  await expect(page.getByTestId('api-key-masked')).not.toContainText('sandbox-secret-0123456789');
  await shot(page, 'accounts-payment-account');

  // 1. register an account for room 1号楼 3层 304室 (the demo's own accounts hold the first rooms)
  await page.goto(url('userRegister_n'));
  await page.getByRole('button', { name: btn('新增') }).click();
  const reg = page.getByRole('dialog', { name: '用户登记' });
  await reg.getByLabel('户名').fill(ACCOUNT.name);
  await reg.getByLabel('手机号').fill(ACCOUNT.phone);
  await reg.getByLabel('房间').click();
  await reg.getByLabel('房间').fill('304室');
  await page.locator('.ant-select-tree-node-content-wrapper').filter({ hasText: '304室' }).first().click();
  await page.keyboard.press('Escape');
  await shot(page, 'accounts-register');
  await reg.getByRole('button', { name: btn('保存') }).click();

  // the new account's drawer opens
  const drawer = page.locator('.kv-account-drawer');
  await expect(drawer).toContainText(`账户：${ACCOUNT.name}`);
  await expect(drawer.getByTestId('account-balance')).toContainText('0.00');
  await shot(page, 'accounts-drawer-new');

  // 2. top up 100.00 元 → receipt 壹佰元整
  await drawer.getByRole('button', { name: only('充值') }).click();
  const top = page.getByRole('dialog', { name: '充值' });
  await top.getByLabel('充值金额').fill('100.00');
  await expect(top.getByTestId('amount-words')).toHaveText('大写：壹佰元整');
  await top.getByRole('button', { name: btn('充值') }).click();
  await confirm(page, '100.00 元（壹佰元整）');
  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByTestId('receipt-words')).toHaveText('壹佰元整');
  await expect(receipt).toContainText(ACCOUNT.name);
  await expect(receipt).toContainText('1号楼/3层/304室');
  await expect(receipt).toContainText('¥100.00 元');
  await shot(page, 'accounts-receipt');
  await page.getByRole('dialog', { name: '收据' }).getByRole('button', { name: '关 闭', exact: true }).click();
  await expect(drawer.getByTestId('account-balance')).toContainText('100.00');

  // an online top-up of 50.00 元 through the project's sandbox provider: the order's QR code, then its paid callback
  await drawer.getByRole('button', { name: '在线充值' }).click();
  const online = page.getByRole('dialog', { name: '在线充值' });
  await online.getByLabel('充值金额').fill('50');
  await online.getByRole('button', { name: '生成支付二维码' }).click();
  await confirm(page, '50.00 元（伍拾元整）');
  const qr = page.getByRole('dialog', { name: '扫码支付' });
  await expect(qr).toContainText('待支付');
  await expect(qr.locator('canvas, svg').first()).toBeVisible();
  await shot(page, 'accounts-online-order');
  await qr.getByRole('button', { name: '模拟支付（沙箱）' }).click();
  await expect(qr).toContainText('已支付');
  await qr.getByRole('button', { name: btn('完成') }).click();
  await expect(drawer.getByTestId('account-balance')).toContainText('150.00');

  // 3. refund 20.00 元: above 10.00 元, so it waits for a second user
  await drawer.getByRole('button', { name: only('退费') }).click();
  const ref = page.getByRole('dialog', { name: '退费' });
  await ref.getByLabel('退费金额').fill('20');
  await ref.getByLabel('退费原因').fill('多缴退回');
  await ref.getByRole('button', { name: btn('退费') }).click();
  await confirm(page, '待审批');
  await expect(drawer.getByTestId('refund-pending')).toContainText('退费待审批 1 笔');
  await expect(drawer.getByTestId('account-balance')).toContainText('150.00');
  await shot(page, 'accounts-drawer');

  // the second user: same role, all projects
  const roles = await api<{ id: number; name: string }[]>(page, 'GET', '/api/admin/user/roles');
  await api(page, 'POST', '/api/admin/user', { ...APPROVER, phone: '13700000001', allProjects: true, roleIds: [roles.find((r) => r.name === '租户管理员')!.id] });
  const ctx = await browser.newContext({ locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: { width: 1440, height: 900 } });
  const second = await ctx.newPage();
  const secondErrors = watchConsole(second);
  await login(second, APPROVER);
  await second.goto(url('userRegister_n'));
  await second.getByRole('tab', { name: '退费审批' }).click();
  const pendingRow = second.getByRole('row').filter({ hasText: ACCOUNT.name });
  await expect(pendingRow).toContainText('20.00');
  await expect(pendingRow).toContainText('待审批');
  await shot(second, 'accounts-refund-approval');
  await pendingRow.getByRole('button', { name: btn('批准') }).click();
  await second.getByRole('dialog', { name: '批准退费' }).getByLabel('审批意见').fill('核对无误');
  await second.getByRole('dialog', { name: '批准退费' }).getByRole('button', { name: btn('批准') }).click();
  await confirm(second, '20.00 元');
  await expect(second.getByText('已批准，已退费 20.00 元')).toBeVisible();
  await second.getByRole('tab', { name: '退费记录' }).click();
  await expect(second.getByRole('row').filter({ hasText: ACCOUNT.name })).toContainText('已退费');
  await shot(second, 'accounts-refund-records');
  expect(secondErrors).toEqual([]);
  await ctx.close();

  // 4. deposit: collect 500.00, deduct 50.00 (damage), refund the remaining 450.00
  await page.reload();
  await page.getByRole('button', { name: ACCOUNT.name }).click();
  await expect(drawer.getByTestId('account-balance')).toContainText('130.00');
  for (const [action, amount, reason, after] of [['收押金', '500', '入住押金', '500.00'], ['扣押金', '50', '门禁卡损坏赔偿', '450.00'], ['退押金', '450', '退还押金', '0.00']] as const) {
    await drawer.getByRole('button', { name: action }).click();
    const d = page.getByRole('dialog', { name: action });
    await d.getByLabel('金额', { exact: true }).fill(amount);
    await d.getByLabel(action === '扣押金' ? '扣除原因' : '说明').fill(reason);
    await d.getByRole('button', { name: action }).click();
    await confirm(page, `${amount}.00 元`);
    await expect(drawer.getByTestId('account-deposit')).toContainText(after);
  }
  await drawer.getByRole('tab', { name: '押金' }).click();
  await expect(drawer.getByRole('row').filter({ hasText: '门禁卡损坏赔偿' })).toContainText('-50.00');
  await shot(page, 'accounts-deposit-ledger');
  await drawer.getByRole('tab', { name: '账户流水' }).click();
  await expect(drawer.getByRole('row').filter({ hasText: '现金' })).toContainText('+100.00');
  await expect(drawer.getByRole('row').filter({ hasText: '在线支付' })).toContainText('+50.00');

  // 5. move out: one screen with everything the account holds, then settle and close
  await drawer.getByRole('button', { name: '迁出结算' }).click();
  const settle = page.getByRole('dialog', { name: '迁出结算' });
  await expect(settle.getByTestId('settlement')).toContainText('130.00');
  await expect(settle.getByTestId('settlement-net')).toHaveText('130.00 元');
  await shot(page, 'accounts-settlement');
  await settle.getByRole('button', { name: btn('确认结算') }).click();
  await confirm(page, '退给用户 130.00 元');
  await expect(drawer).toContainText('账户已退户');
  await expect(drawer.getByTestId('account-balance')).toContainText('0.00');
  await page.locator('.ant-drawer-close').click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: ACCOUNT.name })).toContainText('已退户');
  await expect(page.getByRole('row').filter({ hasText: ACCOUNT.name })).toContainText('139****5678');
  await shot(page, 'accounts-list');

  // the remaining screens: orders, balance events, 核对账目 (the books agree), groups, deposits
  await page.getByRole('tab', { name: '支付订单' }).click();
  await expect(page.getByRole('row').filter({ hasText: ACCOUNT.name })).toContainText('已支付');
  await shot(page, 'accounts-orders');
  await page.getByRole('tab', { name: '余额预警' }).click();
  await shot(page, 'accounts-balance-events');
  await page.getByRole('tab', { name: '核对账目' }).click();
  await page.getByRole('button', { name: '核对账目' }).click();
  await expect(page.getByTestId('reconcile-ok')).toBeVisible();
  await shot(page, 'accounts-reconcile');

  await page.goto(url('userGroup'));
  await page.getByRole('button', { name: btn('新增') }).click();
  const g = page.getByRole('dialog', { name: '新增用户组' });
  await g.getByLabel('组名').fill('E2E 科技公司');
  await g.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByRole('row').filter({ hasText: 'E2E 科技公司' })).toBeVisible();
  await shot(page, 'accounts-user-group');
  await page.goto(url('groupmanagers'));
  await expect(page.getByRole('row').filter({ hasText: 'E2E 科技公司' })).toContainText('未设置', { timeout: 30_000 });
  await shot(page, 'accounts-group-managers');
  await page.goto(url('devicedeposit'));
  await expect(page.getByRole('row').filter({ hasText: ACCOUNT.name })).toBeVisible({ timeout: 30_000 });
  await shot(page, 'accounts-device-deposit');
  await page.goto(url('depositManage_n', depositProjectId));
  await expect(page.getByRole('heading', { name: '押金管理（新）' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await shot(page, 'accounts-deposit-manage');
  expect(errors).toEqual([]);
});
