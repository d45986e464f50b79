import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import mqtt from 'mqtt';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { baseUrl, login, shot, watchConsole } from './helpers';

const PROJECT = 'E2E 滨江写字楼';
const REGION = '华北区域';

async function xlsx(name: string, header: string[], rows: (string | number | null)[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('数据');
  ws.addRow(header);
  rows.forEach((r) => ws.addRow(r));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kelvin-e2e-xlsx-')), name);
  await wb.xlsx.writeFile(file);
  return file;
}

/** The tree of the journey: 2 buildings × 3 floors × 10 rooms, as the project template's rows. */
const rooms = () => {
  const out: { building: string; floor: string; room: string }[] = [];
  for (let b = 1; b <= 2; b++) for (let f = 1; f <= 3; f++) for (let r = 1; r <= 10; r++) out.push({ building: `${b}号楼`, floor: `${f}层`, room: `${b}${f}${String(r).padStart(2, '0')}` });
  return out;
};

async function upload(page: Page, dialogTitle: string, file: string) {
  const dialog = page.getByRole('dialog', { name: dialogTitle });
  await dialog.locator('input[type=file]').setInputFiles(file);
  await dialog.getByRole('button', { name: '开始导入' }).click();
  return dialog;
}

test('从新建项目到设备上线：项目、楼宇导入、设备导入、项目视图与地图', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchConsole(page);
  await login(page);

  // projectlist: a new project with coordinates
  await page.goto(`${baseUrl()}/project/projectlist`);
  await page.getByRole('button', { name: '新增项目' }).click();
  const form = page.getByRole('dialog', { name: '新增项目' });
  await form.getByLabel('项目名称').fill(PROJECT);
  await form.getByLabel('所属区域').click();
  await page.getByTitle(REGION, { exact: true }).click();
  await form.getByLabel('项目类型').click();
  await page.getByTitle(/^PT2010/).click();
  await form.getByLabel('经度').fill('117.2');
  await form.getByLabel('纬度').fill('39.13');
  await form.getByLabel('地址').fill('天津市河东区滨江道 1 号');
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText('新建成功')).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(PROJECT) });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /详\s*情/ }).click();
  await expect(page).toHaveURL(/\/project\/projectview$/);
  await expect(page.getByTestId('project-switcher')).toContainText(PROJECT);

  // area: the tree imported from the project template (60 rooms with areas)
  await page.goto(`${baseUrl()}/device/area`);
  await page.getByRole('button', { name: '导入项目楼宇' }).click();
  const treeFile = await xlsx('tree.xlsx', ['区域*', '项目*', '项目类型', '楼栋', '楼层', '房间', '面积(m²)'],
    rooms().map((r) => [REGION, PROJECT, null, r.building, r.floor, r.room, 88.5]));
  const treeDialog = await upload(page, '导入项目楼宇', treeFile);
  await expect(treeDialog.getByText('导入成功：60 行；新建 楼栋 2、楼层 6、房间 60；更新 0')).toBeVisible();
  await treeDialog.getByRole('button', { name: /关\s*闭/ }).last().click();

  // a file with a bad row imports nothing and names the row
  await page.getByRole('button', { name: '导入项目楼宇' }).click();
  const badFile = await xlsx('bad.xlsx', ['区域*', '项目*', '楼栋', '楼层', '房间', '面积(m²)'], [[REGION, PROJECT, '3号楼', '1层', '301', -1]]);
  const badDialog = await upload(page, '导入项目楼宇', badFile);
  await expect(badDialog.getByRole('cell', { name: '面积必须是大于 0 且不超过 1000000 的数字' })).toBeVisible();
  await expect(badDialog.getByText(/^导入失败：1 行有误，未导入任何数据/)).toBeVisible();
  await expect(badDialog.getByRole('cell', { name: '2', exact: true })).toBeVisible();
  await badDialog.getByRole('button', { name: /关\s*闭/ }).last().click();
  errors.length = 0; // the browser logs the refused import's HTTP 400 itself

  // the tree comes level by level: the project's buildings at once, a building's floors and a floor's rooms when opened
  const tree = page.getByTestId('area-tree');
  const next = (node: Locator) => node.locator('xpath=following-sibling::div[contains(@class,"ant-tree-treenode")][1]');
  const building1 = next(tree.locator('.ant-tree-treenode').filter({ hasText: PROJECT }));
  await expect(building1).toContainText('1号楼');
  const room1101 = tree.locator('.ant-tree-treenode').filter({ hasText: /^房间1101$/ });
  await expect(room1101).toHaveCount(0);
  await building1.locator('.ant-tree-switcher').click();
  const floor1 = next(building1);
  await expect(floor1).toContainText('1层');
  await floor1.locator('.ant-tree-switcher').click();
  await room1101.locator('.ant-tree-node-content-wrapper').click();
  await expect(page.getByText('房间：1101')).toBeVisible();
  await floor1.locator('.ant-tree-node-content-wrapper').click();
  await expect(page.locator('.ant-descriptions-item').filter({ hasText: '下级数量' })).toContainText('10');
  await shot(page, 'area-tree-levels');

  // deviceList_n: one thermostat per room from the area-device template; the secrets come back as a CSV
  await page.goto(`${baseUrl()}/device/deviceList_n`);
  await page.getByRole('button', { name: '导入设备' }).click();
  const devices = rooms().map((r) => ({ ...r, code: `E2E-${r.room}` }));
  const deviceFile = await xlsx('devices.xlsx', ['楼栋', '楼层', '房间', '设备类型*', '设备编号*', '设备名称*'],
    devices.map((d) => [d.building, d.floor, d.room, 'device20030', d.code, `${d.room} 温控器`]));
  const downloading = page.waitForEvent('download');
  const deviceDialog = await upload(page, '导入设备', deviceFile);
  const csv = fs.readFileSync(await (await downloading).path(), 'utf8');
  await expect(deviceDialog.getByText(/导入成功：60 台/)).toBeVisible();
  await deviceDialog.getByRole('button', { name: /关\s*闭/ }).last().click();
  const secrets = new Map(csv.replace(/^\ufeff/, '').trim().split('\n').slice(1).map((l) => l.split(',') as [string, string]));
  expect(secrets.size).toBe(60);
  await expect(page.getByText('共 60 条')).toBeVisible();

  // the devices come online: each connects with its imported credentials and reports, as hardware would
  const url = process.env.KELVIN_E2E_MQTT_URL!;
  const online = devices.slice(0, 40);
  const clients = await Promise.all(online.map((d) => mqtt.connectAsync(url, { clientId: d.code, username: d.code, password: secrets.get(d.code)!, reconnectPeriod: 0 })));
  try {
    await Promise.all(clients.map((c, i) => c.publishAsync(`kelvin/demo/${online[i].code}/up`, JSON.stringify({ ts: Date.now(), fields: { f00: 1, f03: 20 + (i % 5), f04: 22 } }), { qos: 1 })));
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('row', { name: /E2E-1101/ })).toContainText('在线', { timeout: 2000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByRole('row', { name: /E2E-1101/ })).not.toContainText('离线');
    await shot(page, 'device-list');

    // projectview2: buildings → floors → rooms with each room's device state
    await page.goto(`${baseUrl()}/project/projectview2`);
    await expect(page.getByRole('tab', { name: '1号楼' })).toBeVisible();
    await expect(page.getByText('在线 40', { exact: false })).toBeVisible();
    await expect(page.getByTestId('room-card')).toHaveCount(30); // the first building's rooms
    await expect(page.getByTestId('room-card').filter({ hasText: '1/1 在线' })).toHaveCount(30);
    await page.getByRole('tab', { name: '2号楼' }).click();
    await expect(page.getByTestId('room-card').filter({ hasText: '离线' }).first()).toBeVisible();
    await page.getByRole('tab', { name: '1号楼' }).click();
    await expect(page.getByRole('tab', { name: '1号楼' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('room-card').first()).toContainText('1101');
    await shot(page, 'projectview2');

    // projectindex: every project placed by its coordinates (no map tiles), the list beside
    await page.goto(`${baseUrl()}/project/projectindex`);
    const map = page.getByTestId('project-map');
    // it sits in the Beijing–Tianjin cluster: zooming in on the cluster gives it its own marker
    const ours = (id: string) => map.getByTestId(id).filter({ has: page.locator('title', { hasText: PROJECT }) });
    await expect(ours('map-cluster').or(ours('map-marker'))).toHaveCount(1);
    for (let i = 0; i < 4 && (await ours('map-marker').count()) === 0; i++) await ours('map-cluster').click();
    await expect(ours('map-marker').locator('text').filter({ hasText: PROJECT })).toBeAttached();
    await expect(ours('map-marker').locator('circle')).toHaveCount(1);
    await expect(page.getByRole('listitem').filter({ hasText: PROJECT })).toContainText('房间 60');
    await shot(page, 'projectindex');
  } finally {
    await Promise.all(clients.map((c) => c.endAsync()));
  }

  // moving a room in the level-by-level tree: the target floor is picked from what is loaded (opened or searched)
  await page.goto(`${baseUrl()}/device/area`);
  const areaTree = page.getByTestId('area-tree');
  const b1 = next(areaTree.locator('.ant-tree-treenode').filter({ hasText: PROJECT }));
  await b1.locator('.ant-tree-switcher').click();
  const f1 = next(b1);
  await f1.locator('.ant-tree-switcher').click();
  await areaTree.locator('.ant-tree-treenode').filter({ hasText: /^房间1110$/ }).locator('.ant-tree-node-content-wrapper').click();
  await page.getByRole('button', { name: /移\s*动/ }).click();
  const moveDialog = page.getByRole('dialog', { name: /移动「1110」/ });
  await moveDialog.getByRole('combobox').fill('2层');
  await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper').filter({ hasText: /^2层$/ }).click();
  await moveDialog.getByRole('button', { name: /移\s*动/ }).click();
  await expect(page.getByText('移动成功')).toBeVisible();
  await f1.locator('.ant-tree-node-content-wrapper').click();
  await expect(page.locator('.ant-descriptions-item').filter({ hasText: '下级数量' })).toContainText('9');
  await areaTree.locator('.ant-tree-treenode').filter({ hasText: /^楼层2层$/ }).locator('.ant-tree-node-content-wrapper').click();
  await expect(page.locator('.ant-descriptions-item').filter({ hasText: '下级数量' })).toContainText('11');
  expect(errors).toEqual([]);
});
