import zlib from 'node:zlib';
import { expect, test } from '@playwright/test';
import { api, baseUrl, btn, confirm, findNode, login, shot, watchConsole, type TreeNode } from './helpers';

/**
 * The data center's workflow screens as the demo operator: log a repair, assign it, add a photo and finish it (维修记录);
 * unbind a device and bind it back, reading its history (设备绑定管理); collect a deposit (押金充值) and credit one to
 * two accounts at once (押金直充). Screenshots under e2e/screenshots/datacenter-*.
 */

/** a real 2×2 PNG (the server checks the bytes, not the name) */
function png(): Buffer {
  const crc = (buf: Buffer) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const raw = Buffer.from([0, 255, 0, 0, 0, 128, 255, 0, 0, 0, 200, 0, 200, 200, 0]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}


test('数据中心流程：维修记录、设备绑定管理、押金充值、押金直充', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await login(page);
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const projectId = findNode(tree, '阳光花园小区')!.id;
  const depositProjectId = findNode(tree, '滨河热计量小区')!.id;
  const url = (code: string, pid = projectId) => `${baseUrl()}/datacenter/${code}?projectId=${pid}`;

  // ---------------------------------------------------------------- 维修记录
  await page.goto(url('repairRecord'));
  await expect(page.getByText('阀门无法关闭，房间持续供热')).toBeVisible();
  await expect(page.getByText(/共 4 条/)).toBeVisible();
  await shot(page, 'datacenter-repair-list');

  await page.getByRole('button', { name: btn('新增') }).click();
  const dlg = page.getByRole('dialog', { name: '登记维修' });
  await dlg.getByLabel('位置（无对应设备）').check();
  await dlg.getByLabel('位置', { exact: true }).fill('2 号楼 5 层 502 室');
  await dlg.getByLabel('故障描述').fill('E2E：空调面板显示 E3，不制热');
  await dlg.getByLabel('报修人').fill('赵女士');
  await dlg.getByLabel('联系电话').fill('13700001111');
  await dlg.getByText('紧急', { exact: true }).click();
  await shot(page, 'datacenter-repair-new');
  await dlg.getByRole('button', { name: btn('保存') }).click();
  await expect(page.getByText(/已登记 WX/)).toBeVisible();
  const row = page.locator('tr', { hasText: 'E2E：空调面板显示 E3' });
  await expect(row).toContainText('待派单');

  await row.getByRole('button', { name: btn('派单') }).click();
  const assign = page.getByRole('dialog', { name: /派单/ });
  await assign.getByLabel('维修人员').click();
  await page.locator('.ant-select-item-option').first().click();
  await assign.getByLabel('备注').fill('今天 15:00 上门');
  await assign.getByRole('button', { name: btn('派单') }).click();
  await expect(page.getByText('派单成功：处理中')).toBeVisible();
  await expect(row).toContainText('处理中');

  await row.getByRole('button', { name: btn('详情') }).click();
  const drawer = page.getByRole('dialog', { name: /维修记录 WX/ });
  await expect(drawer).toContainText('E2E：空调面板显示 E3');
  await drawer.locator('input[type=file]').setInputFiles({ name: '现场照片.png', mimeType: 'image/png', buffer: png() });
  await expect(drawer.getByTestId('repair-photo')).toHaveCount(1);
  await expect(drawer.getByTestId('repair-photo').locator('img')).toBeVisible();
  await expect(drawer.getByTestId('repair-timeline')).toContainText('上传照片');
  await drawer.getByRole('button', { name: btn('完成') }).click();
  const finish = page.getByRole('dialog', { name: /维修完成/ });
  await finish.getByLabel('处理结果').fill('更换显示面板，制热恢复');
  await finish.getByRole('button', { name: btn('维修完成') }).click();
  await expect(page.getByText('完成成功：已完成')).toBeVisible();
  await expect(drawer.getByTestId('repair-timeline')).toContainText('完成');
  await expect(drawer).toContainText('更换显示面板，制热恢复');
  await shot(page, 'datacenter-repair-detail');
  await drawer.getByRole('button', { name: 'Close' }).or(drawer.locator('.ant-drawer-close')).first().click();
  await expect(row).toContainText('已完成');

  // ---------------------------------------------------------------- 设备绑定管理
  await page.goto(url('deviceBindManager'));
  await page.getByLabel('绑定状态').click();
  await page.locator('.ant-select-item-option', { hasText: '已绑定' }).click();
  await page.getByRole('button', { name: btn('查询') }).click();
  const first = page.locator('.ant-table-tbody tr.ant-table-row').first();
  await expect(first).toBeVisible();
  const code = (await first.locator('td').nth(1).innerText()).trim();
  const room = (await first.locator('td').nth(4).innerText()).trim();
  await shot(page, 'datacenter-bind-list');
  await first.getByRole('button', { name: btn('解绑') }).click();
  await confirm(page, room, '解绑');
  await expect(page.getByText('已解绑，设备已转入库存')).toBeVisible();

  await page.getByLabel('绑定状态').click();
  await page.locator('.ant-select-item-option', { hasText: '未绑定' }).click();
  await page.getByLabel('设备', { exact: true }).fill(code);
  await page.getByRole('button', { name: btn('查询') }).click();
  const spare = page.locator('tr', { hasText: code });
  await expect(spare).toContainText('未绑定（库存）');
  await spare.getByRole('button', { name: btn('绑定') }).click();
  const bind = page.getByRole('dialog', { name: /绑定：/ });
  const leaf = room.split(' / ').pop()!;
  await bind.getByLabel('绑定到').click();
  await bind.getByLabel('绑定到').fill(leaf);
  // typing searches the project on the server: the matches show their whole path (「1号楼 / 1层 / 101室」)
  await page.locator('.ant-select-tree-node-content-wrapper').filter({ hasText: new RegExp(`(^| / )${leaf}$`) }).first().click();
  await shot(page, 'datacenter-bind-dialog');
  await bind.getByRole('button', { name: btn('绑定') }).click();
  await expect(page.getByText(/已绑定到/)).toBeVisible();
  await page.getByLabel('绑定状态').click();
  await page.locator('.ant-select-item-option', { hasText: '已绑定' }).click();
  await page.getByRole('button', { name: btn('查询') }).click();
  await page.locator('tr', { hasText: code }).getByRole('button', { name: btn('历史') }).click();
  const hist = page.getByRole('dialog', { name: /绑定历史/ });
  await expect(hist).toContainText('解绑（转入库存）');
  await expect(hist).toContainText('绑定到房间');
  await shot(page, 'datacenter-bind-history');
  await hist.getByRole('button', { name: 'Close' }).or(hist.locator('.ant-drawer-close')).first().click();

  // ---------------------------------------------------------------- 押金充值
  await page.goto(url('depositRecharge', depositProjectId));
  const total = page.getByTestId('deposit-total');
  await expect(total).toContainText('笔');
  const before = await api<{ totalFen: number }>(page, 'GET', `/api/v1/account/deposit/collect?projectId=${depositProjectId}`);
  await page.getByRole('button', { name: btn('新增') }).click();
  const collect = page.getByRole('dialog', { name: '收取押金' });
  await collect.locator('.ant-select').first().click();
  await page.locator('.ant-select-item-option').first().click();
  await expect(collect).toContainText('现有押金');
  await collect.getByLabel('押金金额').fill('200');
  await expect(collect.getByTestId('amount-words')).toContainText('贰佰元整');
  await shot(page, 'datacenter-deposit-recharge-new');
  await collect.getByRole('button', { name: btn('收取') }).click();
  await confirm(page, '贰佰元整');
  await expect(page.getByText(/收取成功，押金/)).toBeVisible();
  await expect(total).toContainText(`合计 ${((before.totalFen + 20000) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`);
  await shot(page, 'datacenter-deposit-recharge');

  // ---------------------------------------------------------------- 押金直充
  await page.goto(url('depositDirect', depositProjectId));
  await page.getByRole('button', { name: btn('新增直充') }).click();
  const direct = page.getByRole('dialog', { name: '押金直充' });
  await direct.locator('.ant-select').first().click();
  const options = page.locator('.ant-select-item-option');
  await options.nth(0).click();
  await options.nth(1).click();
  await direct.getByText('直充对象').click(); // closes the open list, which covers the fields below
  await direct.getByLabel('每户押金').fill('50');
  await direct.getByLabel('说明').fill('E2E 批量押金');
  await shot(page, 'datacenter-deposit-direct-new');
  await direct.getByRole('button', { name: btn('直充') }).click();
  await confirm(page, /2 户.*伍拾元整/);
  await expect(page.getByTestId('direct-result')).toContainText('成功 2 户，失败 0 户；本批共收取 100.00 元');
  await shot(page, 'datacenter-deposit-direct-result');
  await page.getByRole('dialog', { name: '直充结果' }).getByRole('button', { name: btn('完成') }).click();
  const batch = page.locator('tr.ant-table-row', { hasText: 'E2E 批量押金' });
  await expect(batch).toContainText('100.00');
  await batch.locator('.ant-table-row-expand-icon').click();
  await expect(page.locator('.ant-table-expanded-row .ant-table-row')).toHaveCount(2);
  await shot(page, 'datacenter-deposit-direct');

  expect(errors).toEqual([]);
});
