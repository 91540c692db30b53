// Screenshots of the group flight pages (issue 16) in English and
// Simplified Chinese: the request form, the list and a detail with its
// installments. Run against a demo server (`make run`, or migrate up, demo
// seed and serve by hand):
//
//   BASE=http://127.0.0.1:8080 OUT=/tmp/shots node scripts/group-shots.mjs
//
// It files one group through the API (request, quote, accept, passenger
// list, confirm, seats granted, first deposit paid) so the detail has an
// installment table to show, then takes the pictures.
import { readFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const base = process.env.BASE || 'http://127.0.0.1:8080';
const out = process.env.OUT || join(here, '..', 'e2e', 'screenshots', 'group');
mkdirSync(out, { recursive: true });

const isoDay = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const isoTime = (h) => new Date(Date.now() + h * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function login(context, username, password) {
  const page = await context.newPage();
  await page.goto(base + '/login');
  await page.locator('#login-username, input[name="username"]').first().fill(username);
  await page.locator('#login-password, input[name="password"]').first().fill(password);
  await Promise.all([page.waitForNavigation(), page.locator('form[action="/login"] button[type="submit"]').click()]);
  return page;
}

async function api(page, method, path, body, extra = {}) {
  const res = await page.request.fetch(base + path, { method, data: body, headers: { 'Accept-Language': 'en', ...extra } });
  const env = await res.json();
  if (env.code !== 0) throw new Error(`${method} ${path}: ${JSON.stringify(env)}`);
  return env.data;
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const provCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const provider = await login(provCtx, 'provider-admin', 'provider-pass-1');
  const opCtx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const op = await login(opCtx, 'demo-operator', 'demo-pass-1');

  // A group at its first deposit, another just quoted, a third waiting.
  const request = (dest, days, n) =>
    api(op, 'POST', '/order/v2/flight/group/orders', {
      journeys: [{ origin: 'PEK', destination: dest, date: isoDay(days), remark: 'Morning flights preferred' }],
      isChangeDate: true, acceptChangeFlight: false, passengers: { adult: 10, child: 0, infant: 0 }, cabinClass: 'economy',
      contact: { name: 'Li Lei', email: 'lilei@demo-travel.example', phone: '+86 10 5555 0100' }, remark: `School trip ${n}`,
    }, { 'Idempotency-Key': `shots-${Date.now()}-${n}` });
  const quote = (id) =>
    api(provider, 'POST', `/order/v2/flight/group/orders/${id}/quote`, {
      fares: [{ passengerType: 'adult', amount: '1000.00' }], currency: 'CNY', confirmBefore: isoTime(72),
      installments: [
        { stage: 'first', amount: '2000.00', deadline: isoTime(24 * 7) },
        { stage: 'second', amount: '3000.00', deadline: isoTime(24 * 14) },
        { stage: 'third', amount: '2000.00', deadline: isoTime(24 * 21) },
        { stage: 'final', amount: '3000.00', deadline: isoTime(24 * 30) },
      ],
      passengerListDeadline: isoTime(24 * 10), freeDropSeats: 1,
    });
  const g1 = await request('SHA', 60, 1);
  await quote(g1.id);
  await api(op, 'POST', `/order/v2/flight/group/orders/${g1.id}/quote/acceptance`);
  const list = readFileSync(join(here, '..', 'e2e', 'fixtures', 'group-passengers.xlsx'));
  const up = await op.request.fetch(`${base}/order/v2/flight/group/orders/${g1.id}/passengers`, {
    method: 'PUT', multipart: { file: { name: 'list.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: list } },
  });
  if ((await up.json()).code !== 0) throw new Error('passenger list refused');
  await api(op, 'POST', `/order/v2/flight/group/orders/${g1.id}/confirmation`);
  await api(provider, 'POST', `/order/v2/flight/group/orders/${g1.id}/seats`, { result: 'granted' });
  // The deposit needs money in the wallet: the provider adds it first.
  await provider.goto(base + '/agency-manager');
  await Promise.all([provider.waitForNavigation(), provider.locator('table.mgr-table a', { hasText: 'Demo Travel' }).first().click()]);
  await provider.locator('#funds-currencyReceived').selectOption('CNY');
  await provider.locator('#funds-amountReceived').fill('20000');
  await provider.locator('#funds-exchangeRate').fill('1');
  await provider.locator('#funds-reference').fill('WIRE-SHOTS');
  await Promise.all([provider.waitForNavigation(), provider.locator('#funds button[type="submit"], form[action$="/funds"] button[type="submit"]').first().click()]);
  await api(op, 'POST', `/order/v2/flight/group/orders/${g1.id}/payment`, { channel: 'balance', stage: 'first' }, { 'Idempotency-Key': `shots-pay-${Date.now()}` });
  const g2 = await request('CAN', 45, 2);
  await quote(g2.id);
  const g3 = await request('HKG', 90, 3);

  for (const lang of ['en', 'zh-cn']) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await ctx.addCookies([{ name: 'lang', value: lang, url: base }]);
    const page = await login(ctx, 'demo-operator', 'demo-pass-1');
    await page.goto(base + '/flight/group/booking');
    await page.locator('[data-island="GroupRequest"][data-island-mounted="true"]').waitFor();
    await page.locator('#gr-contact-phone').fill('+86 10 5555 0100');
    await page.locator('#gr-remark').fill(lang === 'en' ? 'School trip: 20 pupils and their teachers' : '学校游学：20 名学生及带队老师');
    await page.screenshot({ path: join(out, `request-${lang}.png`), fullPage: true });
    await page.goto(base + '/flight/group/order');
    await page.screenshot({ path: join(out, `list-${lang}.png`), fullPage: true });
    await page.goto(`${base}/flight/group/order/${g1.id}`);
    await page.screenshot({ path: join(out, `detail-${lang}.png`), fullPage: true });
    await page.goto(`${base}/flight/group/order/${g2.id}`);
    await page.screenshot({ path: join(out, `quote-${lang}.png`), fullPage: true });
    await ctx.close();
  }
  await provider.goto(`${base}/flight/group/order?status=to_be_quote`);
  await provider.screenshot({ path: join(out, 'provider-queue-en.png'), fullPage: true });
  await provider.goto(`${base}/flight/group/order/${g3.id}`);
  await provider.screenshot({ path: join(out, 'provider-quote-form-en.png'), fullPage: true });
  console.log('screenshots in', out);
} finally {
  await browser.close();
}
