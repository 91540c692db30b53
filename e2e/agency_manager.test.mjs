// Agency manager and wallet in the browser (spec §2 agency manager and
// wallet, §3 Agency, top-up and wallet entry, §8 settlement-currency notice).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, seriousViolations, screenshot, loginOK, submit, flash, boot, shutdown, loginByIds, sentHome } from './harness.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

const newPassword = 'kowloon-new-1';

test('demo-super manages Kowloon Tours: add, markup, credit, funds, API key, password, currency', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(page, 'demo-super', 'demo-pass-1');

  await page.goto('/agency-manager');
  assert.equal(new URL(page.url()).pathname, '/agency-manager');
  assert.equal((await page.locator('h1').innerText()).trim(), 'Agency Management');
  const list = page.locator('table.mgr-table');
  assert.equal(await list.getByRole('link', { name: 'Demo Sub Travel', exact: true }).count(), 1);
  assert.equal(await page.getByText('Blue Sky Travel').count(), 0, 'another parent\'s agency is not listed');
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'agency-manager-list');

  // Add Kowloon Tours with its super user.
  await page.getByText('Open the form to add an agency').click();
  await page.getByLabel('Company name').fill('Kowloon Tours');
  await page.getByLabel('Alias').fill('Kowloon');
  await page.getByLabel('Contact name').fill('Ka Ming');
  await page.getByLabel('Contact email').fill('ops@kowloon-tours.example');
  await page.getByLabel('Contact phone').fill('+852 2345 6789');
  assert.ok(await page.getByLabel('Show bills').isChecked(), 'bills shown by default');
  await page.getByLabel('Super user username').fill('kowloon-admin');
  await page.getByLabel('Super user email').fill('admin@kowloon-tours.example');
  await page.getByLabel('Super user password').fill('kowloon-pass-1');
  assert.deepEqual(await seriousViolations(page), []);
  await submit(page, page.getByRole('button', { name: 'Add agency' }));
  assert.match(new URL(page.url()).pathname, /^\/agency-manager\/agencies\/\d+$/);
  const detailPath = new URL(page.url()).pathname;
  assert.equal((await page.locator('h1').innerText()).trim(), 'Kowloon Tours');
  assert.match(await flash(page), /The agency was added/);
  assert.match(await page.locator('#agency-balance').innerText(), /^0\.00 CNY$/);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'agency-manager-detail');

  // It is now in the list.
  await page.goto('/agency-manager?keyword=Kowloon');
  assert.equal(await page.locator('table.mgr-table').getByRole('link', { name: 'Kowloon Tours', exact: true }).count(), 1);
  // The list names each agency's parent.
  const heads = await page.locator('table.mgr-table thead th').allInnerTexts();
  const parentCol = heads.findIndex((h) => h.trim() === 'Parent agency');
  assert.ok(parentCol >= 0, `a Parent agency column: ${heads}`);
  const kowloonRow = page.locator('table.mgr-table tbody tr').filter({ has: page.getByRole('link', { name: 'Kowloon Tours', exact: true }) });
  assert.equal((await kowloonRow.locator('th, td').nth(parentCol).innerText()).trim(), 'Demo Travel');
  await page.goto(detailPath);
  // The forms are on tabs: plain links, one tab shown at a time.
  const tabs = page.locator('nav.mgr-tabs');
  assert.equal(await tabs.getByRole('link').count(), 7);
  assert.equal(await tabs.locator('a[aria-current=page]').innerText(), 'Agency profile');
  assert.equal(await page.locator('#funds').count(), 0, 'the funds form is on another tab');
  await submit(page, tabs.getByRole('link', { name: 'Pricing' }));
  assert.equal(await tabs.locator('a[aria-current=page]').innerText(), 'Pricing');

  // Price adjustment: 5 % on China mainland routes, capped at 80.
  await page.locator('#markups-flight-markups-china-unit').selectOption('percent');
  await page.locator('#markups-flight-markups-china-value').fill('5');
  await page.locator('#markups-flight-markups-china-limit').fill('80');
  assert.match(await page.locator('#markups-flight-markups-china-limit-hint').innerText(), /0 means unlimited/);
  await submit(page, page.locator('#markups button[type=submit]'));
  // The message is beside the form saved, on screen, not at the top.
  assert.match(await page.locator('#markups .mgr-saved').innerText(), /The changes were saved/);
  assert.ok(await page.locator('#markups .mgr-saved').isVisible());
  assert.ok(await page.locator('#markups .mgr-saved').evaluate((e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }), 'the message is in view');
  assert.equal(await page.locator('#markups-flight-markups-china-unit').inputValue(), 'percent');
  assert.equal(await page.locator('#markups-flight-markups-china-value').inputValue(), '5');
  assert.equal(await page.locator('#markups-flight-markups-china-limit').inputValue(), '80');

  // A bad markup comes back inline.
  await page.locator('#markups-flight-markups-domestic-value').fill('lots');
  await submit(page, page.locator('#markups button[type=submit]'));
  assert.ok(await page.locator('#markups-flight-markups-domestic-value-error').isVisible());
  assert.equal(await page.locator('#markups-flight-markups-domestic-value').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await seriousViolations(page), []);
  await page.goto(detailPath + '?section=money');

  // A parent has no money of its own yet: it can neither grant credit nor
  // top up (spec §3; only the provider brings money in).
  assert.match(await page.locator('#funds-parent-hint').innerText(), /from your own wallet's balance \(now 0\.00 CNY\)/);
  assert.equal(await page.locator('#funds-exchangeRate').count(), 0, 'a parent has no exchange rate to enter');
  await page.locator('#credit-creditLimit').fill('5000');
  await submit(page, page.getByRole('button', { name: 'Save credit line' }));
  assert.match(await page.locator('#credit').innerText(), /set aside from your balance/);
  await page.locator('#funds-amountReceived').fill('100');
  await page.locator('#funds-reference').fill('GIFT-1');
  await submit(page, page.getByRole('button', { name: 'Add funds' }));
  assert.match(await page.locator('#funds').innerText(), /Insufficient Account Balance/);
  assert.match(await page.locator('#agency-balance').innerText(), /^0\.00 CNY$/);
  assert.match(await page.locator('#agency-credit').innerText(), /^0\.00 CNY$/);
  assert.deepEqual(await seriousViolations(page), []);

  // The provider gives Kowloon Tours a credit line of 5000 and tops it up.
  const provider = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(provider, 'provider-admin', 'provider-pass-1');
  await provider.goto(detailPath + '?section=money');
  assert.equal((await provider.locator('h1').innerText()).trim(), 'Kowloon Tours');
  await provider.locator('#credit-creditLimit').fill('5000');
  await provider.locator('#credit-creditPeriod').fill('30');
  await provider.locator('#credit-creditPeriodUnit').selectOption('day');
  await submit(provider, provider.getByRole('button', { name: 'Save credit line' }));
  assert.match(await flash(provider), /The credit line was saved/);
  assert.match(await provider.locator('#agency-credit').innerText(), /^5,000\.00 CNY$/);

  // Add funds: 100 USD at 7.8 with a 1 % fee → 780.00 − 7.80 = 772.20 CNY.
  const key = await provider.locator('input[name=idempotencyKey]').inputValue();
  assert.ok(key.length > 10, 'the form carries an idempotency key');
  await provider.locator('#funds-currencyReceived').selectOption('USD');
  await provider.locator('#funds-amountReceived').fill('100');
  await provider.locator('#funds-exchangeRate').fill('7.8');
  await provider.locator('#funds-feePercent').fill('1');
  await provider.locator('#funds-reference').fill('HSBC-1');
  await submit(provider, provider.getByRole('button', { name: 'Add funds' }));
  assert.match(await flash(provider), /The funds were added/);
  assert.match(await provider.locator('#agency-balance').innerText(), /^772\.20 CNY$/);
  assert.match(await provider.locator('#agency-available').innerText(), /^5,772\.20 CNY$/);
  assert.notEqual(await provider.locator('input[name=idempotencyKey]').inputValue(), key, 'a new form gets a new key');
  assert.deepEqual(provider.errors, [], 'console errors (provider-admin)');
  await provider.context().close();
  await page.goto(detailPath + '?section=api');

  // Generate an API key: shown once.
  await page.locator('#apikey-name').fill('ERP');
  await submit(page, page.getByRole('button', { name: 'Generate API key' }));
  assert.equal((await page.locator('h1').innerText()).trim(), 'API key generated');
  const apiKey = await page.getByLabel('API key').inputValue();
  assert.match(apiKey, /^vk_[A-Za-z0-9]{8}_/);
  assert.ok(await page.getByText('This key is shown only once').isVisible());
  assert.ok(await page.getByText('copy it now').isVisible());
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'agency-manager-apikey');
  await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'I have copied the key' }).click()]);
  const prefix = apiKey.split('_').slice(0, 2).join('_');
  assert.equal(await page.locator('#apikey code').filter({ hasText: prefix }).count(), 1, 'the prefix is listed');
  assert.ok(!(await page.content()).includes(apiKey), 'the key is never shown again');

  // Reset the super admin's password.
  await submit(page, page.locator('nav.mgr-tabs').getByRole('link', { name: 'Password and status' }));
  await page.locator('#reset-password').fill(newPassword);
  await submit(page, page.getByRole('button', { name: 'Reset password' }));
  assert.match(await flash(page), /super admin's password was reset/);

  // kowloon-admin logs in with it and sees the top-up in its wallet.
  const kowloon = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(kowloon, 'kowloon-admin', newPassword);
  await kowloon.goto('/bills/wallet');
  assert.equal(new URL(kowloon.url()).pathname, '/bills/wallet');
  assert.match(await kowloon.locator('#wallet-balance').innerText(), /^772\.20\s+CNY$/);
  assert.match(await kowloon.locator('#wallet-credit').innerText(), /^5,000\.00\s+CNY$/);
  assert.match(await kowloon.locator('#wallet-available').innerText(), /^5,772\.20\s+CNY$/);
  const row = kowloon.locator('#wallet-entries tbody tr');
  assert.equal(await row.count(), 1);
  // The entries' scroll region is reachable by keyboard and names itself;
  // Remark is in view at 1366 px.
  const region = kowloon.locator('.table-wrap').filter({ has: kowloon.locator('#wallet-entries') });
  assert.equal(await region.getAttribute('tabindex'), '0');
  assert.equal(await region.getAttribute('role'), 'region');
  assert.match(await region.getAttribute('aria-label'), /CNY/);
  await kowloon.setViewportSize({ width: 1366, height: 768 });
  const remark = await kowloon.locator('#wallet-entries thead th').last().boundingBox();
  assert.ok(remark && remark.x + remark.width <= 1366, `Remark in view at 1366 px: ${JSON.stringify(remark)}`);
  assert.ok(await region.evaluate((e) => e.scrollWidth <= e.clientWidth), 'the wallet table does not scroll sideways at 1366 px');
  assert.match(await row.innerText(), /Top-up/);
  assert.match(await row.innerText(), /HSBC-1/);
  assert.match(await row.innerText(), /\+772\.20/);
  const chart = kowloon.locator('svg.mgr-chart-svg');
  assert.ok(await chart.isVisible(), 'the balance chart is drawn');
  assert.equal(await chart.getAttribute('role'), 'img');
  assert.match(await chart.locator('title').textContent(), /Wallet balance in CNY/);
  assert.equal(await chart.locator('circle').count(), 1);
  assert.match(await kowloon.locator('figure.mgr-chart table').innerText(), /772\.20/);
  assert.deepEqual(await seriousViolations(kowloon), []);
  await screenshot(kowloon, 'wallet-kowloon');
  // The type filter: no flight bookings yet.
  await kowloon.locator('#wallet-type').selectOption('origin-flight');
  await submit(kowloon, kowloon.getByRole('button', { name: 'Filter', exact: true }));
  assert.ok(await kowloon.locator('#wallet-empty').isVisible());
  assert.deepEqual(kowloon.errors, [], 'console errors (kowloon-admin)');
  await kowloon.context().close();

  // Change the settlement currency: the spec's notice.
  await page.goto(detailPath + '?section=settings');
  await page.locator('#settings-settings-settlementCurrency').selectOption('HKD');
  await submit(page, page.locator('#settings button[type=submit]'));
  assert.match(await flash(page), /The settlement currency has changed/);
  assert.match(await page.locator('#agency-balance').innerText(), /HKD$/);
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(page.errors, [], 'console errors (demo-super)');
  await page.context().close();
});

test('demo-finance: an empty wallet shows the empty states', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(page, 'demo-finance', 'demo-pass-1');
  await page.goto('/bills/wallet');
  assert.equal(new URL(page.url()).pathname, '/bills/wallet');
  assert.equal((await page.locator('h1').innerText()).trim(), 'Wallet');
  assert.match(await page.locator('#wallet-balance').innerText(), /^0\.00\s+CNY$/);
  assert.ok(await page.getByText('No wallet entries found.').isVisible());
  assert.ok(await page.locator('#wallet-chart-empty').isVisible());
  assert.match(await page.locator('#wallet-chart-empty').innerText(), /No data/);
  assert.equal(await page.locator('svg.mgr-chart-svg').count(), 0);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'wallet-empty');

  // A date in the wrong form comes back inline (the input is type=date, so
  // the bad value arrives through the address).
  await page.goto('/bills/wallet?from=yesterday');
  assert.ok(await page.locator('#wallet-from-error').isVisible());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Chinese: the wallet page is translated', async () => {
  const page = await newPage(browser, { lang: 'zh-cn', baseURL: server.url });
  await loginByIds(page, 'demo-finance');
  await page.goto('/bills/wallet');
  assert.ok(await page.getByText('没有钱包流水。', { exact: true }).isVisible());
  assert.ok(await page.getByText('最近 90 天余额变化').isVisible());
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Refused, each lands on their home in the portal.
for (const { who, username, paths } of [
  { who: 'demo-operator', username: 'demo-operator', paths: ['/agency-manager', '/agency-manager/agencies/3'] },
  { who: 'bluesky-super (no sub-agency rights)', username: 'bluesky-super', paths: ['/agency-manager'] },
]) {
  test(`${who} is sent home from the agency manager`, async () => {
    const page = await newPage(browser, { lang: 'en', baseURL: server.url });
    await loginOK(page, username, 'demo-pass-1');
    for (const path of paths) await sentHome(page, path, '/flight/booking', 'You do not have the access');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
