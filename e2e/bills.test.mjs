// Transactions, statements and sub-agency bills in the browser (spec §2
// wallet 'All Transactions' and statements, agency manager sub-agency
// statements and bill detail; §6 finance and agencybills:read).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, seriousViolations, screenshot, loginOK, submit, flash, agencyDay, boot, shutdown, addFunds, loginByIds, sentHome } from './harness.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

// A statement's days are its agency's: today is the demo agencies' today.
const today = agencyDay(0);
// Statements start on the first of this year: one covers at most 366 days,
// so a fixed first day would be refused a year on.
const from = `${today.slice(0, 4)}-01-01`;

// checkDownloads fetches the three export links of a statement page with
// the page's session and checks what comes back.
async function checkDownloads(page) {
  const want = {
    csv: 'text/csv; charset=utf-8',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    pdf: 'application/pdf',
  };
  for (const [format, type] of Object.entries(want)) {
    const href = await page.locator(`#statement-${format}`).getAttribute('href');
    assert.match(href, new RegExp(`format=${format}$`));
    const res = await page.request.get(href);
    assert.equal(res.status(), 200, `${format} download`);
    assert.equal(res.headers()['content-type'], type, `${format} content type`);
    assert.match(res.headers()['content-disposition'], new RegExp(`attachment; filename="statement-.+\\.${format}"`));
    const bytes = await res.body();
    assert.ok(bytes.length > 0, `${format} not empty`);
    if (format === 'csv') assert.match(bytes.toString('utf8'), /WIRE-1/);
    if (format === 'pdf') assert.equal(bytes.subarray(0, 5).toString(), '%PDF-');
    if (format === 'xlsx') assert.equal(bytes.subarray(0, 2).toString(), 'PK');
  }
}

test('demo-super tops up Demo Sub Travel; sub-super sees the transaction and makes statements; demo-super reads the bill', async () => {
  // The provider adds 1000 CNY to Demo Travel's wallet; Demo Travel moves
  // it on to Demo Sub Travel (a parent gives only what it holds).
  const provider = await addFunds(browser, server.url, { amount: '1000', reference: 'WIRE-0', list: '/agency-manager?keyword=Demo%20Travel' });
  await provider.context().close();

  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(page, 'demo-super');

  // Add 1000 CNY to Demo Sub Travel's wallet.
  await page.goto('/agency-manager');
  await submit(page, page.locator('table.mgr-table').getByRole('link', { name: 'Demo Sub Travel', exact: true }));
  assert.equal((await page.locator('h1').innerText()).trim(), 'Demo Sub Travel');
  await submit(page, page.locator('nav.mgr-tabs').getByRole('link', { name: 'Credit and funds' }));
  await page.locator('#funds-amountReceived').fill('1000');
  await page.locator('#funds-reference').fill('WIRE-1');
  await submit(page, page.getByRole('button', { name: 'Add funds' }));
  assert.match(await flash(page), /The funds were added/);
  assert.match(await page.locator('#agency-balance').innerText(), /^1,000\.00 CNY$/);

  // sub-super: All Transactions.
  const sub = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(sub, 'sub-super');
  await sub.goto('/bills/transactions');
  assert.equal(new URL(sub.url()).pathname, '/bills/transactions');
  assert.equal((await sub.locator('h1').innerText()).trim(), 'Transactions');
  assert.ok(await sub.getByRole('heading', { name: 'All Transactions' }).isVisible());
  const headers = (await sub.locator('#bill-transactions thead th').allInnerTexts()).map((h) => h.trim());
  assert.deepEqual(headers, ['Original ID', 'Reference ID', 'Payment Method', 'Total Amount Paid', 'Amount in a given currency',
    'Handling Fee', 'Payment Time', 'Created on']);
  const tx = sub.locator('#bill-transactions tbody tr');
  assert.equal(await tx.count(), 1);
  assert.match(await tx.innerText(), /WIRE-1/);
  // Demo Travel paid it out of its own wallet, not by a bank transfer.
  assert.match(await tx.innerText(), /Parent agency's wallet/);
  assert.match(await tx.innerText(), /1,000\.00 CNY/);
  assert.ok(await sub.locator('nav.sidenav a[aria-current=page]', { hasText: 'Transactions' }).isVisible());
  assert.deepEqual(await seriousViolations(sub), []);
  await screenshot(sub, 'bills-transactions');

  // Statements: none yet; create one for 2026 so far.
  await sub.goto('/bills/statements');
  assert.equal((await sub.locator('h1').innerText()).trim(), 'Statements');
  assert.ok(await sub.locator('#bill-statements-empty').isVisible());
  assert.deepEqual(await seriousViolations(sub), []);
  await sub.locator('#statement-from').fill(from);
  await sub.locator('#statement-to').fill(today);
  await submit(sub, sub.getByRole('button', { name: 'Create statement' }));
  assert.match(new URL(sub.url()).pathname, /^\/bills\/statements\/\d+$/);
  assert.match(await flash(sub), /The statement was created/);
  assert.match(await sub.locator('#statement-opening').innerText(), /^0\.00\s+CNY$/);
  assert.match(await sub.locator('#statement-closing').innerText(), /^1,000\.00\s+CNY$/);
  // Its period ends today: it is provisional, counted to now, and says so.
  const period = (await sub.locator('#statement-period').innerText()).trim().split('\n');
  assert.equal(period[0].trim(), `${from} – ${today}`);
  assert.match(period[1] ?? '', new RegExp(`^Provisional: the period is not over, entries up to ${today} \\d{2}:\\d{2} CST;`));
  const rows = sub.locator('#statement-entries tbody tr');
  assert.equal(await rows.count(), 3, 'opening, the top-up, closing');
  assert.match(await rows.nth(1).innerText(), /Top-up/);
  assert.match(await rows.nth(1).innerText(), /WIRE-1/);
  assert.match(await rows.nth(1).innerText(), /\+1,000\.00/);
  assert.deepEqual(await seriousViolations(sub), []);
  await screenshot(sub, 'bills-statement');
  await checkDownloads(sub);

  // Back in the list.
  await submit(sub, sub.getByRole('link', { name: 'Back to statements' }));
  const listed = sub.locator('#bill-statements tbody tr');
  assert.equal(await listed.count(), 1);
  assert.match(await listed.innerText(), /1,000\.00/);

  // An end before the start comes back inline.
  await sub.locator('#statement-from').fill('2026-03-01');
  await sub.locator('#statement-to').fill('2026-02-01');
  await submit(sub, sub.getByRole('button', { name: 'Create statement' }));
  assert.equal(new URL(sub.url()).pathname, '/bills/statements');
  assert.ok(await sub.locator('#statement-to-error').isVisible());
  assert.match(await sub.locator('#statement-to-error').innerText(), /end date after the start date/);
  assert.equal(await sub.locator('#statement-to').getAttribute('aria-invalid'), 'true');
  assert.equal(await sub.locator('#statement-from').inputValue(), '2026-03-01', 'the dates are kept');
  assert.equal(await listed.count(), 1, 'nothing was created');
  assert.deepEqual(await seriousViolations(sub), []);
  await screenshot(sub, 'bills-statements-error');
  assert.deepEqual(sub.errors, [], 'console errors (sub-super)');
  await sub.context().close();

  // demo-super: Demo Sub Travel's statements and its bill.
  await page.goto('/agency-manager/statements');
  assert.equal((await page.locator('h1').innerText()).trim(), 'Sub-agency statements');
  assert.ok(await page.locator('#sub-choose-prompt').isVisible());
  assert.deepEqual(await seriousViolations(page), []);
  const subID = await page.locator('#sub-agency option', { hasText: 'Demo Sub Travel' }).getAttribute('value');
  await page.locator('#sub-agency').selectOption(subID);
  await submit(page, page.getByRole('button', { name: 'Show statements' }));
  assert.ok(await page.getByRole('heading', { name: 'Statements of Demo Sub Travel' }).isVisible());
  assert.equal(await page.locator('#bill-statements tbody tr').count(), 1, 'sub-super\'s statement is listed');
  await page.locator('#statement-from').fill(from);
  await page.locator('#statement-to').fill(today);
  // sub-super made this period's statement: asking for it again answers
  // that one (one period, one statement), and no second is listed.
  await submit(page, page.getByRole('button', { name: 'Create statement' }));
  assert.match(await flash(page), /This period already has its statement/);
  const subRows = page.locator('#bill-statements tbody tr');
  assert.equal(await subRows.count(), 1);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'bills-sub-statements');
  await submit(page, subRows.first().getByRole('link'));
  assert.match(new URL(page.url()).pathname, /^\/agency-manager\/bills\/\d+$/);
  assert.match(new URL(page.url()).search, /agency=\d+/);
  assert.match(await page.locator('#statement-agency').innerText(), /Demo Sub Travel/);
  assert.match(await page.locator('#statement-closing').innerText(), /^1,000\.00\s+CNY$/);
  const entries = page.locator('#statement-entries tbody tr');
  assert.equal(await entries.count(), 3);
  assert.match(await entries.nth(1).innerText(), /WIRE-1/);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'bills-sub-bill');
  await checkDownloads(page);

  // The bill is Demo Sub Travel's: it is no statement of Demo Travel's.
  const billID = new URL(page.url()).pathname.split('/').pop();
  assert.equal((await page.request.get(`/bills/statements/${billID}`)).status(), 404, 'another agency\'s statement is not found');
  assert.equal((await page.request.get(`/agency-manager/bills/${billID}?agency=999`)).status(), 404, 'an unmanaged agency is not found');
  assert.deepEqual(page.errors, [], 'console errors (demo-super)');
  await page.context().close();
});

test('Chinese: the statement pages are translated', async () => {
  const page = await newPage(browser, { lang: 'zh-cn', baseURL: server.url });
  // Blue Sky Travel has no transactions (Demo Travel's top-up moved money).
  await loginByIds(page, 'bluesky-super');
  await page.goto('/bills/transactions');
  assert.ok(await page.getByText('没有交易记录。', { exact: true }).isVisible());
  await page.goto('/bills/statements');
  assert.ok(await page.getByRole('heading', { name: '创建对账单' }).isVisible());
  assert.ok(await page.getByText('暂无对账单。', { exact: true }).isVisible());
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('demo-operator is sent home from the statements', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(page, 'demo-operator');
  for (const path of ['/bills/statements', '/bills/transactions', '/agency-manager/statements']) {
    await sentHome(page, path, '/flight/booking', 'You do not have the access');
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
