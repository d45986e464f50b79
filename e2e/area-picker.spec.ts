import { expect, test } from '@playwright/test';
import { api, baseUrl, btn, findNode, login, shot, watchConsole, type TreeNode } from './helpers';

/**
 * The room picker of a project of any size: buildings and floors come first, a floor's rooms when it is opened, typing
 * searches the project on the server (every word must appear in the path), and a saved room is named by its path even
 * though its floor was never opened. Nothing is saved here.
 */
test('房间选择：逐层载入、服务端查找（多个词）、已选房间显示完整位置', async ({ page }) => {
  const errors = watchConsole(page);
  await login(page);
  const tree = await api<TreeNode[]>(page, 'GET', '/api/v1/area/tree/-1');
  const projectId = findNode(tree, '阳光花园小区')!.id;
  await page.goto(`${baseUrl()}/businesscenter/userRegister_n?projectId=${projectId}`);

  // an account opened for editing: its rooms are named by id (「1号楼 / 1层 / 101室」), no floor opened yet
  const asked: string[] = [];
  page.on('request', (r) => { if (r.url().includes('/api/v1/area/')) asked.push(new URL(r.url()).pathname + new URL(r.url()).search); });
  // any account still in use (another spec may have moved one out: it has no 编辑)
  const edit = page.getByRole('button', { name: btn('编辑') });
  await page.getByRole('row').filter({ has: edit }).first().getByRole('button', { name: btn('编辑') }).click();
  const dialog = page.getByRole('dialog', { name: '编辑账户' });
  await expect(dialog.getByText(/^\d+号楼 \/ \d+层 \/ \d+室$/).first()).toBeVisible();
  expect(asked.some((u) => u.startsWith('/api/v1/area/search') && u.includes('ids='))).toBe(true);
  expect(asked.some((u) => new RegExp(`/api/v1/area/tree/${projectId}$`).test(u))).toBe(false); // never the whole project

  // browse: open 1号楼, then 1层 — its rooms arrive on their own
  await dialog.getByTestId('room-picker').click();
  const popup = page.locator('.ant-select-dropdown:visible');
  const node = (text: string) => popup.locator('.ant-select-tree-treenode').filter({ has: page.locator('.ant-select-tree-title', { hasText: new RegExp(`^${text}$`) }) });
  await node('1号楼').locator('.ant-select-tree-switcher').click();
  await node('1层').first().locator('.ant-select-tree-switcher').click();
  await expect(node('101室').first()).toBeVisible();
  expect(asked.some((u) => /\/api\/v1\/area\/tree\/\d+\?depth=1$/.test(u))).toBe(true);
  await shot(page, 'area-picker-browse');

  // search: both words must appear; every match shows where it is
  await dialog.getByTestId('room-picker').locator('input').fill('2号楼 20');
  const matches = popup.locator('.ant-select-tree-title');
  await expect(matches.first()).toHaveText(/^2号楼 \/ /);
  for (const t of await matches.allInnerTexts()) expect(t).toMatch(/^2号楼 \/ .*20/);
  await shot(page, 'area-picker-search');
  await dialog.getByTestId('room-picker').locator('input').fill('没有这个房间');
  await expect(popup.getByText('没有匹配的区域')).toBeVisible();

  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: btn('取消') }).click();
  expect(errors).toEqual([]);
});
