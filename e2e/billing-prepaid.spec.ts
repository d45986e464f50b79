import { expect, test, type Page } from '@playwright/test';
import { api, baseUrl, btn, chooseProject, login, shot, watchConsole } from './helpers';

/**
 * The prepaid loop with the live simulator: a resident of a multi-split AC building with 60.00 元, a
 * thermostat that runs, a price high enough that half a minute of running costs about the balance. 立即计费 in
 * 设备计费 charges the use: the balance crosses warning 1 and 2 (SMS records) and then the line — the cut-off command
 * goes out through the device core and the simulated thermostat reports 关机. A top-up in 用户登记 brings the balance
 * back above the line and the thermostat is switched on again. 供能控制 lists both actions with their outcome.
 */

const PROJECT = '望京多联机办公楼';
const DEVICE_TYPE = 'device20110';
const RESIDENT = { name: '欠费测试户（E2E）', phone: '13955501234' };

type Device = { id: number; deviceName: string; areaId: number | null; online: boolean; fields: Record<string, number | string> };
type Supply = { action: string; status: string; deviceId: number };

const key = () => ({ 'idempotency-key': `e2e-prepaid-${Date.now()}-${Math.random().toString(36).slice(2)}` });
const power = async (page: Page, id: number) => (await api<{ fields: Record<string, number> }>(page, 'GET', `/api/v1/device/detail/${id}`)).fields.f00;

test('预付费闭环：余额预警、欠费断开（模拟温控器关机）、充值后自动恢复', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await login(page);
  const projects = await api<{ rows: { id: number; name: string }[] }>(page, 'GET', '/api/v1/area/project/list?pageNo=1&pageSize=100');
  const project = projects.rows.find((p) => p.name === PROJECT)!;

  // a reporting thermostat in a room nobody pays for yet
  const taken = new Set<number>();
  for (const a of (await api<{ rows: { rooms: { id: number }[] }[] }>(page, 'GET', `/api/v1/account?projectId=${project.id}&pageSize=200`)).rows) for (const r of a.rooms) taken.add(r.id);
  // (the simulated devices connect in the first seconds after the server starts)
  let device: Device | undefined;
  await expect.poll(async () => {
    const list = await api<{ rows: Device[] }>(page, 'GET', `/api/v1/device/devicelist?projectId=${project.id}&deviceType=${DEVICE_TYPE}&online=true&pageSize=50`);
    device = list.rows.find((d) => d.areaId !== null && !taken.has(d.areaId));
    return device?.id ?? null;
  }, { message: '一台在线且房间无人登记的多联机温控器', timeout: 60_000 }).not.toBeNull();
  if (!device) throw new Error('unreachable');
  // it runs: power on, heating, a set point above the room (the valve opens and the run-time counters grow)
  for (const [field, value] of [['f00', 1], ['f01', 1], ['f04', 35]] as const) await api(page, 'POST', `/api/v1/device/writedeviceattr/${device.id}/${field}/${value}`);
  await expect.poll(() => power(page, device.id), { timeout: 30_000 }).toBe(1);

  // prices an operator would never set, so that seconds of running cost more than the balance
  const tariff = await api<Record<string, unknown>>(page, 'GET', `/api/v1/billing/tariff/${project.id}`);
  const { id: _i, projectId: _p, createdBy: _c, createdAt: _t, ...doc } = tariff;
  await api(page, 'POST', `/api/v1/billing/tariff/${project.id}`, { ...doc, price: '2000.0000', effectiveFrom: Date.now(), remark: 'E2E：欠费闭环' });
  await api(page, 'PUT', `/api/v1/account/settings/${project.id}`, { topupMaxFen: null, balanceMaxFen: null, refundApprovalFen: 10_000, warning1Fen: 5_000, warning2Fen: 2_000, overdraftFen: 0 });
  const account = await api<{ id: number }>(page, 'POST', '/api/v1/account', { projectId: project.id, name: RESIDENT.name, phone: RESIDENT.phone, roomIds: [device.areaId] });
  await api(page, 'POST', `/api/v1/account/${account.id}/topup`, { amountFen: 6_000, method: 'cash' }, key());

  // 设备计费 › 计费批次 › 立即计费, until the balance is gone
  await chooseProject(page, PROJECT);
  await page.goto(`${baseUrl()}/device/equipmentBilling_n`);
  await page.getByRole('tab', { name: '计费批次' }).click();
  const supply = () => api<{ rows: Supply[] }>(page, 'GET', `/api/v1/billing/supply?accountId=${account.id}`);
  const balance = async () => (await api<{ balanceFen: number }>(page, 'GET', `/api/v1/account/${account.id}`)).balanceFen;
  // 立即计费 bills what the thermostat reported since the last run (it reports every 30 s) and opens the run
  await page.waitForTimeout(5_000);
  await page.getByRole('button', { name: btn('立即计费') }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: btn('计费') }).click();
  const runDrawer = page.getByRole('dialog').filter({ hasText: '计费批次 #' });
  await expect(runDrawer).toBeVisible();
  await shot(page, 'billing-prepaid-run');
  await runDrawer.locator('.ant-drawer-close').click();
  await expect(runDrawer).toBeHidden();
  // … and so on until the balance is gone (the schedule would do the same every 15 minutes)
  await expect.poll(async () => {
    await page.waitForTimeout(5_000);
    await api(page, 'POST', '/api/v1/billing/run', { projectId: project.id });
    return balance();
  }, { timeout: 150_000, intervals: [500] }).toBeLessThanOrEqual(0);
  await page.reload();
  await page.getByRole('tab', { name: '计费批次' }).click();
  await expect(page.getByRole('tabpanel', { name: '计费批次' }).getByRole('row').nth(1)).toBeVisible();
  await page.waitForTimeout(500); // the tab's fade
  await shot(page, 'billing-prepaid-runs');

  // warnings by SMS (warning 1 and 2, then the cut-off notice), then the thermostat is switched off and says so
  const sms = async () => (await api<{ rows: { kind: string }[] }>(page, 'GET', `/api/v1/sms/record/page?pageSize=50&phone=${RESIDENT.phone}`)).rows.map((r) => r.kind).sort();
  await expect.poll(sms, { timeout: 30_000 }).toEqual(['cut_off', 'low_balance', 'low_balance']);
  await expect.poll(async () => (await supply()).rows.find((s) => s.action === 'cutoff')?.status, { timeout: 60_000 }).toBe('acked');
  await expect.poll(() => power(page, device.id), { timeout: 60_000 }).toBe(0);
  await page.getByRole('tab', { name: '供能控制' }).click();
  await expect(page.getByRole('row').filter({ hasText: device.deviceName }).filter({ hasText: '断开供能' })).toContainText('已执行');
  await page.waitForTimeout(500);
  await shot(page, 'billing-prepaid-cutoff');

  // a top-up in 用户登记 brings it back above the line: reconnect
  await page.goto(`${baseUrl()}/businesscenter/userRegister_n`);
  await page.getByRole('row').filter({ hasText: RESIDENT.name }).getByRole('button', { name: RESIDENT.name }).click();
  const drawer = page.locator('.kv-account-drawer');
  await drawer.getByRole('button', { name: new RegExp(`^${btn('充值').source}$`) }).click();
  const top = page.getByRole('dialog', { name: '充值' });
  // what the arrears are, plus 50.00 元 (the thermostat is off: nothing more accrues meanwhile)
  const amount = `${Math.ceil(-(await balance()) / 100) + 50}.00`;
  await top.getByLabel('充值金额').fill(amount);
  await top.getByRole('button', { name: btn('充值') }).click();
  const confirmBox = page.locator('.ant-modal-confirm');
  await expect(confirmBox).toContainText(`${amount} 元`);
  await confirmBox.getByRole('button', { name: btn('确定') }).click();
  await page.getByRole('dialog', { name: '收据' }).getByRole('button', { name: '关 闭', exact: true }).click();
  await expect.poll(async () => (await supply()).rows.find((s) => s.action === 'reconnect')?.status, { timeout: 60_000 }).toBe('acked');
  await expect.poll(() => power(page, device.id), { timeout: 60_000 }).toBe(1);
  await page.goto(`${baseUrl()}/device/equipmentBilling_n`);
  await page.getByRole('tab', { name: '供能控制' }).click();
  await expect(page.getByRole('row').filter({ hasText: device.deviceName }).filter({ hasText: '恢复供能' })).toContainText('已执行');
  await page.waitForTimeout(500);
  await shot(page, 'billing-prepaid-reconnect');
  expect(errors).toEqual([]);
});
