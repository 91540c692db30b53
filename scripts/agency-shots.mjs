// Screenshots of the provider's agency page (issue 20) at 1366×768 in
// English and Simplified Chinese: the first tab, and the money tab right
// after a save, with the message beside the form. Run against a demo
// server seeded with `voyage demo seed` (`make run`):
//
//   BASE=http://127.0.0.1:8080 OUT=docs/screenshots/portal node scripts/agency-shots.mjs
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const base = process.env.BASE || 'http://127.0.0.1:8080';
const out = process.env.OUT || join(here, '..', 'docs', 'screenshots', 'portal');
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (const lang of ['en', 'zh-cn']) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addCookies([{ name: 'lang', value: lang, url: base }]);
  const page = await context.newPage();
  await page.goto(base + '/login');
  await page.locator('input[name="username"]').fill('provider-admin');
  await page.locator('input[name="password"]').fill('provider-pass-1');
  await Promise.all([page.waitForNavigation(), page.locator('form[action="/login"] button[type="submit"]').click()]);
  await page.goto(base + '/agency-manager?keyword=Harbour%20Travel');
  const href = await page.locator('table.mgr-table a', { hasText: 'Harbour Travel' }).first().getAttribute('href');
  await page.goto(base + href);
  await page.screenshot({ path: join(out, `agency-detail-${lang}.png`), caret: 'initial' });
  // Save the credit line: the message shows beside the form, in view.
  await page.goto(base + href + '?section=money');
  await Promise.all([page.waitForNavigation(), page.locator('#credit button[type="submit"]').click()]);
  await page.screenshot({ path: join(out, `agency-detail-saved-${lang}.png`), caret: 'initial' });
  await context.close();
}
await browser.close();
