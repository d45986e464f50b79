// scratch: screenshots of the billing screens against a running console (not a test; deleted before commit)
import { chromium } from '@playwright/test';
const BASE = 'http://localhost:40879';
const [, , ...targets] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
const errors = [];
page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
page.on('pageerror', (e) => errors.push(e.message));
await page.goto(`${BASE}/login`);
await page.getByRole('textbox', { name: '账号' }).fill('demo');
await page.locator('input[name=password]').fill('KZFiZmXCxdqbBqRA');
await page.getByRole('button', { name: /登\s*录/ }).click();
await page.getByTestId('user-menu').waitFor();
for (const t of targets) {
  const [name, path, ...clicks] = t.split('|');
  await page.goto(`${BASE}${path}`);
  await page.waitForTimeout(2500);
  for (const c of clicks) {
    if (c.startsWith('tab:')) await page.getByRole('tab', { name: c.slice(4) }).click();
    else if (c.startsWith('row')) await page.locator('.ant-table-row').first().click();
    else if (c.startsWith('btn:')) await page.getByRole('button', { name: new RegExp(c.slice(4).split('').join('\\s*')) }).first().click();
    else if (c.startsWith('text:')) await page.getByText(c.slice(5)).first().click();
    await page.waitForTimeout(1500);
  }
  await page.screenshot({ path: `/tmp/we-shots/${name}.png` });
}
console.log('errors:', JSON.stringify(errors));
await browser.close();
