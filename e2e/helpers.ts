import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, type Page } from '@playwright/test';

/** The server started by global-setup (fresh data dir, demo tenant). */
export const baseUrl = () => process.env.KELVIN_E2E_URL!;
export const demoUser = () => ({ username: process.env.KELVIN_E2E_DEMO_USER!, password: process.env.KELVIN_E2E_DEMO_PASSWORD! });
export const adminUser = () => ({ username: 'admin', password: process.env.KELVIN_E2E_ADMIN_PASSWORD! });

const SHOTS = path.resolve(import.meta.dirname, 'screenshots');

/** Keeps a screenshot of a key screen under e2e/screenshots/ (ignored by git). */
export async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  // a drawer or dialog still sliding in makes a picture of two half screens: wait for antd's motion classes to go
  await expect(page.locator('[class*="-enter-active"], [class*="-appear-active"]')).toHaveCount(0, { timeout: 3_000 }).catch(() => {});
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Console errors and uncaught exceptions of a page; assert it stays empty at the end of a test. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

export async function login(page: Page, user = demoUser(), base = baseUrl()) {
  await page.goto(`${base}/login`);
  await page.getByRole('textbox', { name: '账号' }).fill(user.username);
  await page.locator('input[name=password]').fill(user.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page.getByTestId('user-menu')).toBeVisible();
}

/** The token the console stored (for API calls a test makes beside the browser). */
export async function tokenOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return decodeURIComponent(cookies.find((c) => c.name === 'kelvin_token')!.value);
}

/** A button's accessible name: antd puts a space between two Chinese characters (「保 存」). */
export const btn = (label: string) => new RegExp(label.split('').join('\\s*'));

/** A call beside the browser as the logged-in user (extra headers: a money call's Idempotency-Key); expects code 200 and answers `data`. */
export async function api<T>(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const token = await tokenOf(page);
  const res = await page.request.fetch(`${baseUrl()}${path}`, { method, headers: { authorization: token, ...headers }, data: body });
  const json = await res.json();
  expect(json.code, `${method} ${path}: ${json.msg}`).toBe(200);
  return json.data as T;
}

/**
 * Confirms the antd confirmation box showing `text` with its `ok` button. A click the box's opening animation
 * swallowed is clicked again (a pending request shows a loading button, which ignores clicks; a money dialog's
 * Idempotency-Key makes a repeated request pay once anyway).
 */
export async function confirm(page: Page, text: RegExp | string, ok = '确定') {
  const box = page.locator('.ant-modal-confirm');
  await expect(box).toContainText(text);
  await expect(async () => {
    if (await box.count()) await box.getByRole('button', { name: btn(ok) }).click({ timeout: 2_000 }).catch(() => undefined);
    await expect(box).toHaveCount(0, { timeout: 4_000 });
  }).toPass({ timeout: 30_000 });
}

/** The area tree (/api/v1/area/tree/-1) and a node of it by name. */
export type TreeNode = { id: number; label: string; level: string; children: TreeNode[] };
export const findNode = (ns: TreeNode[], label: string): TreeNode | undefined => {
  for (const n of ns) {
    if (n.label === label) return n;
    const c = findNode(n.children, label);
    if (c) return c;
  }
  return undefined;
};

/** Switches the top bar's project (the device pages follow the selected project). */
export async function chooseProject(page: Page, name: string) {
  await page.getByTestId('project-switcher').click();
  await page.getByRole('option', { name }).click();
  await expect(page.getByTestId('project-switcher')).toContainText(name);
}

/** The data rows of the page's antd table. */
export const tableRows = (page: Page) => page.locator('.ant-table-tbody tr.ant-table-row');
/** Clicks the first 导出 and opens the downloaded .xlsx: the first sheet's rows as cell values. */
export async function exported(page: Page): Promise<unknown[][]> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-button').first().click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(fs.readFileSync((await file.path())!) as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}
