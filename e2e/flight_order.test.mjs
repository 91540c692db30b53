// A flight order from search to refund in the browser (issue #6; spec §2
// booking confirmation, order list and detail; §4 statuses and price check;
// §5 passenger rules; §7 /order/v2/flight/…): the provider tops up Demo
// Travel's wallet, demo-operator books and pays PEK→SHA from the balance,
// the background job issues the ticket, the itinerary downloads, a refund
// with a proof file is requested, the provider approves it, the agency
// confirms, and the money comes back — the wallet checked at every step.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newPage, seriousViolations, screenshot, portalShot, loginOK, submit, flash, fillAdultAndContact, watchFailures, unexpectedErrors, choose, boot, shutdown, apiData, cents, searchOneWay, wallet, topUp, bookAndPay } from './harness.mjs';

let server;
let browser;
let scratch;

before(async () => {
  ({ server, browser } = await boot());
  scratch = mkdtempSync(join(tmpdir(), 'voyage-e2e-order-'));
});

after(async () => {
  await shutdown(server, browser);
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function getOrder(page, id) {
  return apiData(page, `/order/v2/flight/orders/${id}`);
}

// status is the order detail page's status badge.
async function status(page) {
  return (await page.locator('#order-status').innerText()).trim();
}

// reloadUntil reloads the order page until its status reads want, or fails
// with the last status seen. It waits, as a user does, on work the server's
// queue does in another process (ticketing, the refund): no clock of the
// test's can move that, so it polls once a second.
async function reloadUntil(page, want, ms, what) {
  const end = Date.now() + ms;
  let seen = await status(page);
  // A failure or a hold for a person is final for this test: stop there.
  while (seen !== want && !/failed|on hold/i.test(seen) && Date.now() < end) {
    await page.waitForTimeout(1_000);
    await page.reload();
    seen = await status(page);
  }
  assert.equal(seen, want, `${what}: the order page shows ${want} within ${ms / 1000} s`);
}

// complete waits for the search to finish and returns how many flights it
// found.
async function complete(page) {
  const n = await page.waitForFunction(() => {
    if (document.querySelector('.fs-results .fs-empty')) return { n: 0 };
    const m = /Search complete: (\d+) flights?/.exec(document.querySelector('.fs-results[aria-busy="false"] .fs-progress-text')?.textContent || '');
    return m ? { n: Number(m[1]) } : null;
  }, null, { timeout: 90_000 });
  return (await n.jsonValue()).n;
}

// searchFlights searches PEK→SHA one-way 20 days ahead and keeps the fares
// ticketed at the normal speed: 'special' fares wait for the provider's
// review before they can be paid.
async function searchFlights(page) {
  await searchOneWay(page, 'PEK', 'SHA', 20);
  const total = await complete(page);
  assert.ok(total > 0, 'PEK→SHA has flights');
  const normal = page.locator('.fs-facet input[value="normal-standard"]');
  if (await normal.count()) {
    const count = Number(await normal.locator('xpath=..').locator('.fs-check-count').innerText());
    await normal.check();
    await page.locator('.fs-count').filter({ hasText: new RegExp(`^${count} flights? found$`) }).waitFor();
  }
  assert.ok(await page.locator('.fs-card').count() > 0, 'flights to choose from');
  await screenshot(page, 'flight-order-search');
}

// money writes cents as the pages do: 20,000.00 CNY.
function money(c) {
  return `${(c / 100).toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} CNY`;
}

// fillBooking fills the one adult, the contact and chooses the balance.
async function fillBooking(page) {
  await fillAdultAndContact(page);
  const balance = page.getByRole('radio', { name: /^Account balance/ });
  await balance.waitFor();
  await balance.check();
}

// A 1×1 PNG, checked by content on the server.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test('book PEK→SHA, pay from the balance, ticket, download, refund with a proof; the wallet follows', async () => {
  // 1. The provider adds 20,000 CNY to Demo Travel's wallet, which
  // demo-finance watches through the API.
  const { finance, provider, funded } = await topUp(browser, server.url, 'WIRE-ORDER-1');

  // 2. demo-operator searches, chooses a flight, fills in the booking and
  // pays from the balance.
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(page, 'demo-operator');
  const failures = watchFailures(page);
  await searchFlights(page);
  await choose(page);
  assert.equal((await page.locator('h1').innerText()).trim(), 'Confirm booking', 'the confirmation page');
  await fillBooking(page);
  assert.match(await page.locator('.fc-channel.is-checked').innerText(), new RegExp(`Available: ${money(funded).replace(/\./g, '\\.')}`), 'the balance available to pay');
  const shownTotal = cents((await page.locator('.fc-submit .fc-total').innerText()).replace(/[^\d.,]/g, ''));
  assert.ok(shownTotal > 0, 'the confirmation shows a total');
  assert.deepEqual(await seriousViolations(page), [], 'axe: confirmation page');
  await screenshot(page, 'flight-order-confirm');
  const book = page.locator('.fc-submit button[type=submit]');
  assert.match(await book.innerText(), /^Book and pay /);
  await bookAndPay(page, book);
  const orderPath = new URL(page.url()).pathname;
  const orderID = orderPath.split('/').pop();
  let order = await getOrder(page, orderID);
  assert.equal(order.type, 'origin');
  assert.equal(order.paymentStatus, 'paid', 'the order is paid');
  assert.equal(order.paymentChannel, 'balance', 'from the balance');
  assert.equal(cents(order.total.amount), shownTotal, 'the order costs what the confirmation showed');
  assert.deepEqual(order.passengers.map((p) => [p.surname, p.givenName, p.gender, p.birthday, p.nationality, p.documentType, p.documentNumber, p.documentExpiry]),
    [['ZHANG', 'WEI', 'male', '1985-04-02', 'CN', 'passport', 'E12345678', '2034-01-01']], 'the passenger as entered');
  assert.equal(order.origin, 'PEK');
  assert.match(order.destination, /^(SHA|PVG)$/, 'to Shanghai (SHA is the city: Hongqiao or Pudong)');
  const paid = await wallet(finance);
  assert.equal(funded - paid, cents(order.total.amount), 'the wallet went down by the order total');

  // 3. The ticketing job issues the ticket.
  await reloadUntil(page, 'Ticketed', 120_000, 'ticketing');
  const ticket = (await page.locator('#order-tickets').innerText()).trim();
  assert.match(ticket, /\d{10}/, 'a ticket number is shown');
  assert.match(await page.locator('#order-passengers tbody').innerText(), /ZHANG\/WEI[\s\S]*E12345678/);
  assert.match(await page.locator('#order-total').innerText(), new RegExp(order.total.amount.replace('.', '\\.')));
  order = await getOrder(page, orderID);
  assert.equal(order.status, 'issued');
  assert.ok(order.ticketNumbers.length > 0 && ticket.includes(order.ticketNumbers[0]), 'the ticket number of the API');
  assert.deepEqual(await seriousViolations(page), [], 'axe: issued order');
  await screenshot(page, 'flight-order-issued');

  // 4. The itinerary as PDF and Excel.
  const docs = [
    ['Itinerary (PDF)', 'application/pdf', '%PDF-'],
    ['Itinerary (Excel)', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'PK'],
  ];
  for (const [name, type, magic] of docs) {
    const href = await page.getByRole('link', { name, exact: true }).getAttribute('href');
    const res = await page.request.get(href);
    assert.equal(res.status(), 200, `${name} download`);
    assert.equal(res.headers()['content-type'], type, `${name} content type`);
    const bytes = await res.body();
    assert.equal(bytes.subarray(0, magic.length).toString('latin1'), magic, `${name} is a ${magic} file`);
  }

  // 4b. The ticketed order shows its flights and passengers first; change,
  // refund and void fold behind their buttons, one open at a time.
  const top = async (p, sel) => (await p.locator(sel).first().boundingBox()).y;
  assert.ok(await top(page, '#order-flights') < await top(page, '#actions'), 'flights before the actions');
  assert.ok(await top(page, '#order-passengers') < await top(page, '#actions'), 'passengers before the actions');
  const refundForm = page.locator('form#refund');
  assert.equal(await refundForm.isVisible(), false, 'the refund form is folded');
  await page.locator('#change-toggle > summary').click();
  assert.ok(await page.locator('form#change-search').isVisible(), 'the change search opens');
  // The change search starts from the flight's local date at its origin
  // airport (Beijing), not the UTC date.
  const departAt = new Date((order.journeys?.[0] ?? order).departAt);
  const beijingDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(departAt);
  assert.equal(await page.locator('#change-search-date-0').inputValue(), beijingDate, `the change date is the local departure date (departs ${departAt.toISOString()})`);
  await page.locator('#refund-toggle > summary').click();
  assert.ok(await refundForm.isVisible(), 'the refund form opens');
  assert.equal(await page.locator('form#change-search').isVisible(), false, 'opening the refund folds the change');
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.locator('#refund-toggle > summary').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await portalShot(page, 'order-detail-en');
  await page.locator('#footer-lang').selectOption('zh-cn');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await portalShot(page, 'order-detail-zh-cn');

  // 4c. The order list at 1366×768: Total, Status and Created in view
  // without scrolling sideways; at 390×844 each order reads as a card.
  await page.goto('/flight/orders');
  await portalShot(page, 'orders-list-zh-cn');
  await page.locator('#footer-lang').selectOption('en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  for (const name of ['Total', 'Status', 'Created']) {
    const th = page.locator('#orders-table thead th').filter({ hasText: new RegExp(`^${name}$`) });
    const box = await th.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 1366, `${name} is in view at 1366 px: ${JSON.stringify(box)}`);
  }
  assert.ok(await page.locator('.orders-results .table-wrap').evaluate((e) => e.scrollWidth <= e.clientWidth), 'the order table does not scroll sideways at 1366 px');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 1366), 'no horizontal scroll at 1366 px');
  await portalShot(page, 'orders-list-en');
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll at 390 px');
  const row = page.locator('#orders-table tbody tr').first();
  for (const cls of ['orders-col-total', 'orders-col-status', 'orders-col-created']) {
    const box = await row.locator(`td.${cls}`).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${cls} is in view at 390 px: ${JSON.stringify(box)}`);
  }
  assert.equal(await row.locator('td.orders-col-total').getAttribute('data-label'), 'Total', 'each value under its column name');
  assert.ok(await row.evaluate((r) => getComputedStyle(r).display === 'block'), 'a card per order at 390 px');
  assert.deepEqual(await seriousViolations(page), [], 'axe: order list at 390 px');
  await screenshot(page, 'orders-list-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(orderPath);
  await page.locator('#refund-toggle > summary').click();

  // 5. A refund request with a proof.
  const proof = join(scratch, 'proof.png');
  writeFileSync(proof, png);
  await refundForm.getByLabel('Reason').selectOption('0');
  await refundForm.getByLabel('Remark').fill('The passenger cannot travel.');
  await refundForm.getByLabel('Proof files').setInputFiles(proof);
  await submit(page, refundForm.getByRole('button', { name: 'Send refund request' }));
  assert.match(new URL(page.url()).pathname, /^\/flight\/orders\/\d+$/);
  assert.notEqual(new URL(page.url()).pathname, orderPath, 'the refund request has its own page');
  assert.match(await flash(page), /The refund request was sent for review/);
  assert.equal(await status(page), 'Refund under review');
  assert.equal((await page.locator('#order-type').innerText()).trim(), 'Refund');
  assert.match(await page.locator('#order-request').innerText(), /Voluntary[\s\S]*The passenger cannot travel\./);
  assert.match(await page.locator('#order-proofs').innerText(), /proof\.png/);
  assert.equal(await page.locator('#order-original').getAttribute('href'), orderPath);
  const refundPath = new URL(page.url()).pathname;
  const refundID = refundPath.split('/').pop();
  assert.equal(await wallet(finance), paid, 'a refund request moves no money');
  // Not quoted yet: the amount is the provider's to confirm, not 0.00.
  assert.equal((await page.locator('#order-total').innerText()).trim(), 'Amount to be confirmed by the provider');
  assert.doesNotMatch(await page.locator('#order-prices').innerText(), /You receive\s+0\.00/);
  assert.deepEqual(await seriousViolations(page), [], 'axe: refund under review');
  await screenshot(page, 'flight-order-refund-reviewing');

  // 6. The provider's order list names each order's agency.
  await provider.goto('/flight/orders');
  assert.ok((await provider.locator('#orders-table thead').innerText()).includes('Agency'), 'an Agency column');
  assert.equal((await provider.locator('#orders-table tbody tr').filter({ hasText: order.bookingNumber }).first().locator('td.orders-col-agency').innerText()).trim(), 'Demo Travel');

  // The provider approves it: the refund waits for the agency's yes.
  await provider.goto(refundPath);
  assert.equal(await status(provider), 'Refund under review');
  for (const form of ['approve', 'quote', 'reject']) assert.equal(await provider.locator(`form#${form}`).count(), 1, `the provider may ${form}`);
  assert.match(await provider.locator('#order-proofs').innerText(), /proof\.png/, 'the provider sees the proof');
  assert.deepEqual(await seriousViolations(provider), [], 'axe: the provider\'s review');
  await screenshot(provider, 'flight-order-refund-review');
  await submit(provider, provider.locator('form#approve').getByRole('button', { name: 'Approve' }));
  assert.match(await flash(provider), /Approved\./);
  assert.equal(await status(provider), 'Refund to be confirmed');
  const refund = await getOrder(page, refundID);
  assert.equal(refund.status, 'rfd_to_be_confirm');
  const refundAmount = refund.priceBreakdown.refundAmount;
  assert.ok(cents(refundAmount.amount) > 0 && cents(refundAmount.amount) <= cents(order.total.amount), `a refund amount within what was paid: ${refundAmount.amount}`);
  assert.match(await provider.locator('#order-prices').innerText(), new RegExp(`Refund amount\\s+${refundAmount.amount.replace('.', '\\.')}`));
  assert.equal(await wallet(finance), paid, 'an approval moves no money');
  await screenshot(provider, 'flight-order-refund-approved');

  // 7. The agency confirms; the refund is carried out in the background.
  await page.reload();
  assert.equal(await status(page), 'Refund to be confirmed');
  const confirm = page.locator('form#confirm');
  assert.match(await confirm.locator('#confirm-amounts').innerText(), new RegExp(`You receive\\s+${refundAmount.amount.replace('.', '\\.')} CNY`), 'what the agency agrees to receive');
  await submit(page, confirm.getByRole('button', { name: 'Confirm' }));
  assert.match(await flash(page), /Confirmed/);
  await reloadUntil(page, 'Refunded, paid back', 120_000, 'refund');
  const done = await getOrder(page, refundID);
  assert.equal(done.status, 'refunded_reimbursed');
  assert.equal(done.priceBreakdown.refundAmount.amount, refundAmount.amount, 'the refund amount stayed as approved');
  const refunded = await wallet(finance);
  assert.equal(refunded - paid, cents(refundAmount.amount), 'the wallet went up by the refund amount');
  assert.deepEqual(await seriousViolations(page), [], 'axe: refunded');
  await screenshot(page, 'flight-order-refunded');
  await page.goto(orderPath);
  assert.equal(await status(page), 'Closed', 'the original order is closed');
  assert.equal((await getOrder(page, orderID)).status, 'closed');
  assert.match(await page.locator('#order-related').innerText(), /Refund[\s\S]*Refunded, paid back/);
  assert.equal(await page.locator('form#refund').count(), 0, 'a closed order offers no refund');

  // 8. No console errors anywhere.
  assert.deepEqual(unexpectedErrors(page, failures), [], `console errors (demo-operator); answers ≥ 400: ${failures.map((f) => `${f.status} ${f.method} ${f.path}`).join(', ') || 'none'}`);
  assert.deepEqual(provider.errors, [], 'console errors (provider-admin)');
  assert.deepEqual(finance.errors, [], 'console errors (demo-finance)');
  for (const p of [page, provider, finance]) await p.context().close();
});
