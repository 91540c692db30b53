// Screenshots of the pages issue 20 changed, for a person to look at: each
// page in English and Simplified Chinese at 1366×768 and 390×844, as the
// living demo agency (Harbour Travel) and the provider. Run against a server
// seeded with `voyage demo seed` (`make run`):
//
//   BASE=http://127.0.0.1:8080 OUT=/tmp/shots node scripts/review-shots.mjs
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { fillAdultAndContact, isoDay } from '../e2e/harness.mjs';

const base = process.env.BASE || 'http://127.0.0.1:8080';
const out = process.env.OUT || '/tmp/shots';
mkdirSync(out, { recursive: true });
const sizes = { desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });

async function session(user, password, lang) {
  const context = await browser.newContext({ viewport: sizes.desktop });
  await context.addCookies([{ name: 'lang', value: lang, url: base }]);
  const page = await context.newPage();
  await page.goto(base + '/login');
  await page.locator('input[name="username"]').fill(user);
  await page.locator('input[name="password"]').fill(password);
  await Promise.all([page.waitForNavigation(), page.locator('form[action="/login"] button[type="submit"]').click()]);
  return { context, page };
}

// shoot takes the page at both sizes: the first screen, then the next
// screens down to the page's end (at most four), each as one image.
async function shoot(page, name, lang) {
  for (const [size, vp] of Object.entries(sizes)) {
    await page.setViewportSize(vp);
    await page.waitForTimeout(300);
    // A table wider than its box scrolls sideways: say so, since a picture
    // of its first screen does not show it.
    const wide = await page.evaluate(() => [...document.querySelectorAll('.table-wrap')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `${e.scrollWidth}/${e.clientWidth}`));
    if (wide.length && size === 'desktop') console.log(`${name} ${lang} ${size}: tables scroll sideways (${wide.join(', ')})`);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let i = 0; i < 4 && i * vp.height < height; i++) {
      const suffix = i ? `-${i + 1}` : '';
      await page.screenshot({ path: join(out, `${name}-${lang}-${size}${suffix}.png`), caret: 'initial', fullPage: true,
        clip: { x: 0, y: i * vp.height, width: vp.width, height: Math.min(vp.height, height - i * vp.height) } });
    }
  }
  await page.setViewportSize(sizes.desktop);
}

async function pick(page, field, code) {
  await field.fill(code);
  const listbox = page.locator(`#${await field.getAttribute('aria-controls')}`);
  const option = listbox.getByRole('option', { name: new RegExp(`\\b${code}\\b`) }).first();
  await option.waitFor();
  await option.click();
}

let orderHref = process.env.ORDER || '';
for (const lang of ['en', 'zh-cn']) {
  const { context, page } = await session('harbour-super', 'demo-pass-1', lang);
  await page.goto(base + '/flight/booking');
  const from = lang === 'en' ? 'From' : '出发地';
  const to = lang === 'en' ? 'To' : '目的地';
  await pick(page, page.getByRole('combobox', { name: from }), 'PEK');
  await pick(page, page.getByRole('combobox', { name: to }), 'SHA');
  await page.locator('#fs-journeys-0-date').fill(isoDay(20));
  await page.getByRole('button', { name: lang === 'en' ? 'Search' : '搜索', exact: true }).click();
  await page.locator('.fs-results[aria-busy="false"] .fs-card').first().waitFor({ timeout: 90_000 });
  await shoot(page, 'results', lang);
  const details = page.locator('.fs-card').first().locator('.fs-price-details, button.fs-price-toggle, [aria-haspopup]').first();
  if (await details.count()) {
    await details.click();
    await page.screenshot({ path: join(out, `results-price-${lang}-desktop.png`) });
  }
  if (!orderHref) {
    await Promise.all([page.waitForURL(/\/flight\/booking\/confirm/), page.locator('.fs-card').first().locator('.fs-select').click()]);
    const accept = page.locator('.fc-outcome').getByRole('button', { name: /^(Accept the new price|Accept the new package)$/ });
    await page.locator('form.fc-form, .fc-outcome').first().waitFor({ timeout: 90_000 });
    if (await accept.count()) await accept.click();
    await page.locator('form.fc-form').waitFor();
    await fillAdultAndContact(page);
    await page.getByRole('radio', { name: /^Account balance/ }).check();
    for (let i = 0; i < 3 && !/\/flight\/orders\/\d+$/.test(new URL(page.url()).pathname); i++) {
      await page.locator('.fc-submit').getByRole('button', { name: /^Book/ }).click();
      await page.waitForFunction(() => /\/flight\/orders\/\d+$/.test(location.pathname) ||
        document.querySelector('.fc-submit .form-errors, .fc-order .form-errors'), null, { timeout: 120_000 });
    }
    orderHref = new URL(page.url()).pathname;
    await page.waitForTimeout(8000); // ticketing
  }
  for (const [name, path] of [['order-detail', orderHref], ['orders-list', '/flight/orders'], ['wallet', '/bills/wallet'],
    ['transactions', '/bills/transactions'], ['statements', '/bills/statements'], ['profile', '/profile'], ['user-log', '/user-log'],
    ['train-booking', '/train/booking'], ['group-orders', '/flight/group/order'], ['api-docs', '/api-docs'], ['api-guide', '/api-docs/guide']]) {
    await page.goto(base + path);
    await page.waitForLoadState('networkidle');
    await shoot(page, name, lang);
  }
  await context.close();

  const p = await session('provider-admin', 'provider-pass-1', lang);
  for (const [name, path] of [['provider-orders', '/flight/orders'], ['agency-list', '/agency-manager']]) {
    await p.page.goto(base + path);
    await shoot(p.page, name, lang);
  }
  await p.page.goto(base + '/agency-manager?keyword=Harbour%20Travel');
  const href = await p.page.locator('table.mgr-table a', { hasText: 'Harbour Travel' }).first().getAttribute('href');
  await p.page.goto(base + href);
  await shoot(p.page, 'agency-detail', lang);
  await p.page.goto(base + href + '?section=money');
  await shoot(p.page, 'agency-money', lang);
  await p.context.close();
}
console.log(orderHref);
await browser.close();
