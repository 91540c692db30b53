// A flight order paid by Alipay's QR code in the browser (issue #49), in
// English and in Simplified Chinese: the server pays through Alipay's fake
// gateway (e2e/fakepay, a process of its own, which checks every request's
// RSA2 signature). demo-operator, working in the language, books PEK→SHA
// and chooses Alipay; the order's page shows the QR code with the amount
// and the channel's name; the payer scans and pays at the fake, which
// sends its signed notification to the server; the page, without a
// reload, shows the order paid; and demo-finance finds the payment in
// Transactions, by Alipay, for the order's total.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startServer, startFakePay, launchBrowser, newPage, loginOK, seriousViolations, screenshot, watchFailures, unexpectedErrors,
  choose, pickAirport, isoDay, apiData, cents, bookAndPay,
} from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));

let fake;
let server;
let browser;

before(async () => {
  fake = await startFakePay();
  try {
    // payment.public_url is the server's own address: the fake posts its
    // notifications to {public_url}/payment/v2/notify/alipay.
    server = await startServer({ env: (url) => ({ ...fake.env, VOYAGE_PAYMENT_PUBLIC_URL: url }) });
    browser = await launchBrowser();
  } catch (err) {
    await server?.stop();
    await fake.stop();
    throw err;
  }
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await fake?.stop();
});

// catalog is the portal's messages in lang (pkg/i18n/locales), to find the
// search's and the booking form's controls by their names in that language. What the test
// expects to read is written out below instead, so a wrong translation
// fails it.
function catalog(lang) {
  const dir = join(here, '..', 'pkg', 'i18n', 'locales', lang);
  const all = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) Object.assign(all, JSON.parse(readFileSync(join(dir, f), 'utf8')));
  return (key) => {
    assert.ok(key in all, `${lang} has ${key}`);
    return all[key];
  };
}

const china = JSON.parse(readFileSync(join(here, '..', 'pkg', 'geo', 'countries.json'), 'utf8')).find((c) => c.code === 'CN');

// What each language shows: the channel, the QR code's label, the pending
// payment's line, the paid order and the transaction.
const shows = {
  en: {
    channel: 'Alipay',
    qrLabel: 'QR code to pay by Alipay',
    pending: (amount) => `${amount} CNY by Alipay, waiting for the payer.`,
    scan: "Scan with Alipay on the payer's phone.",
    paid: 'Paid',
    paidStatus: /^(Processing|Ticketed)$/,
    bookAndPay: /^Book and pay /,
    transactions: 'Transactions',
  },
  'zh-cn': {
    channel: '支付宝',
    qrLabel: '支付宝付款二维码',
    pending: (amount) => `待付款 ${amount} CNY（支付宝），等待付款人扫码或付款。`,
    scan: '请用付款人手机上的支付宝扫码。',
    paid: '已支付',
    paidStatus: /^(处理中|已出票)$/,
    bookAndPay: /^预订并支付 /,
    transactions: '交易记录',
  },
};

// setLang switches the portal's language as the footer's selector does
// (its cookie) and reloads the page.
async function setLang(page, lang) {
  await page.context().addCookies([{ name: 'lang', value: lang, domain: new URL(page.url()).hostname, path: '/' }]);
  await page.reload();
  await page.waitForFunction((want) => document.documentElement.lang.toLowerCase() === want, lang);
}

// findFlight searches PEK→SHA days ahead in the page's language (t) and
// keeps the fares ticketed at the normal speed ('special' fares wait for
// the provider's review before they can be paid), then chooses one.
async function findFlight(page, t, days) {
  await page.goto('/flight/booking');
  await page.locator('[data-island="FlightSearch"][data-island-mounted="true"]').waitFor();
  await page.getByRole('radio', { name: t('flight.trip.oneway') }).check();
  await pickAirport(page, page.getByRole('combobox', { name: t('flight.field.origin') }), 'PEK', 'PEK');
  await pickAirport(page, page.getByRole('combobox', { name: t('flight.field.destination') }), 'SHA', 'SHA');
  await page.locator('#fs-journeys-0-date').fill(isoDay(days));
  await page.getByRole('button', { name: t('flight.search.submit'), exact: true }).click();
  await page.locator('.fs-results[aria-busy="false"] .fs-card, .fs-results .fs-empty').first().waitFor({ timeout: 90_000 });
  assert.ok(await page.locator('.fs-card').count() > 0, 'PEK→SHA has flights');
  const normal = page.locator('.fs-facet input[value="normal-standard"]');
  if (await normal.count()) {
    const count = Number(await normal.locator('xpath=..').locator('.fs-check-count').innerText());
    await normal.check();
    const found = t(count === 1 ? 'flight.results.count_one' : 'flight.results.count_other').replace('{{count}}', count);
    await page.locator('.fs-count').filter({ hasText: new RegExp(`^${found}$`) }).waitFor();
  }
  await choose(page);
}

// fillPassenger fills the one adult (ZHANG/WEI, Chinese passport) and the
// contact, finding each field by its label in lang (t).
async function fillPassenger(page, lang, t) {
  // A required field's label ends in an asterisk.
  const label = (key) => new RegExp(`^${t(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);
  const pax = page.locator('fieldset.fc-passenger').first();
  await pax.getByLabel(label('confirm.field.surname')).fill('ZHANG');
  await pax.getByLabel(label('confirm.field.givenName')).fill('WEI');
  await pax.getByRole('radio', { name: t('confirm.gender.male'), exact: true }).check();
  await pax.getByLabel(label('confirm.field.birthday')).fill('1985-04-02');
  const nationality = pax.getByRole('combobox', { name: t('confirm.field.nationality') });
  await nationality.fill('China');
  // Outside English an option also names the country in English.
  await page.getByRole('option', { name: lang === 'en' ? china.en : `${china[lang]} ${china.en}`, exact: true }).click();
  assert.equal(await nationality.inputValue(), china[lang]);
  await pax.getByLabel(label('confirm.field.documentType')).selectOption('passport');
  await pax.getByLabel(label('confirm.field.documentNumber')).fill('E12345678');
  await pax.getByLabel(label('confirm.field.documentExpiry')).fill('2034-01-01');
  await page.getByLabel(label('confirm.field.contactName')).fill('Wei Zhang');
  await page.getByLabel(label('confirm.field.contactEmail')).fill('wei.zhang@example.com');
  await page.getByLabel(label('confirm.field.contactPhone')).fill('+86 138 0013 8000');
}

for (const [i, lang] of ['en', 'zh-cn'].entries()) {
  test(`${lang}: demo-operator pays a flight order by Alipay's QR code; the fake notifies; demo-finance sees the payment`, async () => {
    const want = shows[lang];
    const page = await newPage(browser, { lang: 'en', baseURL: server.url });
    await page.setViewportSize({ width: 1366, height: 768 });
    await loginOK(page, 'demo-operator');
    const failures = watchFailures(page);
    // The operator works in lang (the footer's choice, after logging in):
    // searches, chooses a flight, fills in the booking, chooses Alipay
    // and books.
    await setLang(page, lang);
    const t = catalog(lang);
    await findFlight(page, t, 20 + i);
    await fillPassenger(page, lang, t);
    const alipay = page.getByRole('radio', { name: want.channel, exact: true });
    await alipay.waitFor();
    await alipay.check();
    assert.equal((await page.locator('.fc-channel.is-checked .fc-channel-name').innerText()).trim(), want.channel);
    const book = page.locator('.fc-submit button[type=submit]');
    assert.match(await book.innerText(), want.bookAndPay);
    await bookAndPay(page, book);
    const orderID = new URL(page.url()).pathname.split('/').pop();

    // The order waits for its payer: the QR code, the amount and the
    // channel in lang.
    const order = await apiData(page, `/order/v2/flight/orders/${orderID}`);
    assert.equal(order.paymentStatus, 'unpaid', 'not paid before the payer pays');
    assert.equal(order.payment?.channel, 'alipay', `the order waits for an Alipay payment: ${JSON.stringify(order.payment)}`);
    assert.match(order.payment.qrCode, /^https:\/\/qr\.alipay\.com\//, 'the code is the one Alipay answered at precreate');
    assert.equal(cents(order.payment.amount.amount), cents(order.total.amount), 'the payment is the order total');
    const pending = page.locator('#pending-payment');
    await pending.waitFor();
    const qr = pending.locator('svg.qr-code');
    assert.equal(await qr.count(), 1, 'a QR code is drawn');
    assert.equal(await qr.getAttribute('aria-label'), want.qrLabel);
    assert.ok((await qr.locator('path').getAttribute('d')).length > 100, 'the code has its modules');
    const box = await qr.boundingBox();
    assert.ok(box && box.width >= 120 && box.y + box.height <= 768, `the code is in view at 1366×768: ${JSON.stringify(box)}`);
    const text = await pending.innerText();
    assert.ok(text.includes(want.pending(order.total.amount)), `the amount and channel: ${text}`);
    assert.ok(text.includes(want.scan), `how to pay: ${text}`);
    assert.deepEqual(await seriousViolations(page), [], 'axe: the payment waiting for its payer');
    await screenshot(page, `payment-alipay-qr-${lang}`, { fullPage: false });

    // The payer scans the code and pays; the fake's notification is the
    // server's word that it is paid. The page stays as it is: its own
    // refresh (every 4 s) shows the order paid.
    await page.evaluate(() => { window.voyageNoReload = true; });
    const paid = await fake.pay(order.payment.qrCode);
    assert.equal(paid.status, 'TRADE_SUCCESS');
    assert.equal(cents(paid.amount), cents(order.total.amount), 'the payer paid the order total');
    assert.deepEqual(paid.notifications.map((n) => [new URL(n.url).pathname, n.tradeStatus, n.answers, n.delivered]),
      [['/payment/v2/notify/alipay', 'TRADE_SUCCESS', ['success'], true]], 'the server verified and acknowledged the notification');
    await pending.waitFor({ state: 'detached', timeout: 30_000 });
    await page.locator('#order-payment').filter({ hasText: want.paid }).waitFor();
    assert.equal(await page.evaluate(() => window.voyageNoReload), true, 'the page was not reloaded');
    assert.match((await page.locator('#order-status').innerText()).trim(), want.paidStatus);
    const settled = await apiData(page, `/order/v2/flight/orders/${orderID}`);
    assert.equal(settled.paymentStatus, 'paid');
    assert.equal(settled.paymentChannel, 'alipay');
    assert.deepEqual(unexpectedErrors(page, failures), [], `console errors (demo-operator); answers ≥ 400: ${failures.map((f) => `${f.status} ${f.method} ${f.path}`).join(', ') || 'none'}`);

    // demo-finance: the payment in Transactions, by Alipay, under the
    // order's booking number and Alipay's trade number.
    const finance = await newPage(browser, { lang: 'en', baseURL: server.url });
    await finance.setViewportSize({ width: 1366, height: 768 });
    await loginOK(finance, 'demo-finance');
    await finance.goto('/bills/transactions');
    await setLang(finance, lang);
    assert.equal((await finance.locator('h1').innerText()).trim(), want.transactions);
    const row = finance.locator('#bill-transactions tbody tr').filter({ hasText: settled.bookingNumber });
    assert.equal(await row.count(), 1, `one transaction for ${settled.bookingNumber}`);
    assert.equal((await row.locator('th').innerText()).trim(), settled.bookingNumber);
    const cells = (await row.locator('td').allInnerTexts()).map((c) => c.trim());
    assert.equal(cells[0], paid.tradeNo, 'the reference is Alipay\'s trade number');
    assert.equal(cells[1], want.channel, 'the method is Alipay');
    assert.match(cells[2], /\bCNY$/);
    assert.equal(cents(cells[2].replace(/[^\d.,]/g, '')), cents(order.total.amount), 'the amount paid is the order total');
    assert.deepEqual(await seriousViolations(finance), [], 'axe: transactions');
    if (lang === 'en') await screenshot(finance, 'transactions-alipay-en', { fullPage: false });
    assert.deepEqual(finance.errors, [], 'console errors (demo-finance)');
    for (const p of [page, finance]) await p.context().close();
  });
}
