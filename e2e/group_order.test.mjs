// A group order on the agency's side in the browser (issue 16; spec §2
// group booking, confirmation, list and detail; §4 group statuses; §9 the
// quote within 1–2 business days, seats not reserved, staged deposits):
// demo-operator asks for a group of ten PEK→SHA, the provider quotes it
// through the API (two deposits and the final payment), the operator
// accepts, uploads the passenger list, confirms, the provider grants the
// seats through the API, and the operator pays the first deposit from the
// wallet and sees the installment table follow.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newPage, seriousViolations, screenshot, loginOK, submit, flash, isoDay, boot, shutdown, addFunds } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

function isoTime(hours) {
  return new Date(Date.now() + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// post calls the JSON API as the page's user and answers data.
async function post(page, path, body) {
  const res = await page.request.post(path, { data: body, headers: { 'Accept-Language': 'en' } });
  const env = await res.json();
  assert.equal(env.code, 0, `POST ${path}: ${res.status()} ${JSON.stringify(env)}`);
  return env.data;
}

async function status(page) {
  return (await page.locator('#group-status').innerText()).trim();
}

// cell is the text of column n (0-based) of an installment row.
async function cell(page, stage, n) {
  return (await page.locator(`#installment-${stage} > *`).nth(n).innerText()).trim();
}

test('an agency asks for a group fare, accepts the quote, sends the names, confirms and pays the first deposit', async () => {
  // The provider adds funds to Demo Travel's wallet for the deposit.
  const provider = await addFunds(browser, server.url, { reference: 'WIRE-GROUP-1' });

  // 1. The request: the spec's default counts, trimmed to ten adults.
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(page, 'demo-operator');
  await page.goto('/flight/group/booking');
  await page.locator('[data-island="GroupRequest"][data-island-mounted="true"]').waitFor();
  assert.equal(await page.getByLabel('Adults').inputValue(), '10');
  assert.equal(await page.getByLabel('Children').inputValue(), '10');
  assert.equal(await page.getByLabel('Infants').inputValue(), '0');
  // A request refused by the browser's own checks shows beside its field.
  await page.getByRole('button', { name: 'Send the request' }).click();
  await page.locator('#gr-journeys-0-origin-error').waitFor();
  for (const [label, code] of [['From', 'PEK'], ['To', 'SHA']]) {
    const field = page.getByRole('combobox', { name: label });
    await field.fill(code);
    const listbox = page.locator(`#${await field.getAttribute('aria-controls')}`);
    await listbox.getByRole('option', { name: new RegExp(`\\b${code}\\b`) }).first().click();
  }
  await page.locator('#gr-journeys-0-date').fill(isoDay(60));
  await page.getByLabel('Children').fill('0');
  await page.getByLabel('The dates may change by a few days').check();
  await page.getByLabel('Contact name').fill('Li Lei');
  await page.getByLabel('Contact email').fill('lilei@demo-travel.example');
  await page.getByLabel('Contact phone').fill('+86 10 5555 0100');
  await page.getByLabel('Remark', { exact: true }).fill('School trip, one teacher per five pupils');
  await screenshot(page, 'group-request');
  assert.deepEqual(await seriousViolations(page), [], 'no serious accessibility violations on the request form');
  await Promise.all([page.waitForURL(/\/flight\/group\/booking\/confirm\?id=\d+/), page.getByRole('button', { name: 'Send the request' }).click()]);
  const id = Number(new URL(page.url()).searchParams.get('id'));
  assert.match(await page.locator('#group-confirm-quote').innerText(), /within 1–2 business days/);
  assert.match(await page.locator('#group-confirm-seats').innerText(), /Seats are not reserved/);
  await submit(page, page.locator('#group-confirm-open'));
  assert.equal(await status(page), 'To be quoted');

  // The list: 'all' and one entry per status, this order among them.
  await page.goto('/flight/group/order');
  assert.equal(await page.locator('#group-menu a').count(), 14);
  assert.match(await page.locator('#group-status-to_be_quote').innerText(), /To be quoted\s*1/);
  await page.locator('#group-table').getByRole('link').first().waitFor();
  assert.deepEqual(await seriousViolations(page), [], 'no serious accessibility violations on the list');

  // 2. The provider quotes through the API: 1,000 CNY an adult, two
  // deposits and the final payment.
  await post(provider, `/order/v2/flight/group/orders/${id}/quote`, {
    fares: [{ passengerType: 'adult', amount: '1000.00' }],
    currency: 'CNY',
    confirmBefore: isoTime(72),
    installments: [
      { stage: 'first', amount: '2000.00', deadline: isoTime(24 * 7) },
      { stage: 'second', amount: '3000.00', deadline: isoTime(24 * 14) },
      { stage: 'final', amount: '5000.00', deadline: isoTime(24 * 30) },
    ],
    passengerListDeadline: isoTime(24 * 10),
    freeDropSeats: 1,
  });

  // 3. The agency accepts the quote.
  await page.goto(`/flight/group/order/${id}`);
  assert.equal(await status(page), 'To be confirmed');
  await page.locator('#group-countdown').waitFor();
  assert.match(await page.locator('#quote .group-total').innerText(), /10,000\.00 CNY/);
  await submit(page, page.locator('#quote-accept'));
  assert.match(await flash(page), /Quote accepted/);

  // 4. The passenger list: ten names from the xlsx.
  await page.locator('#upload-file').setInputFiles(join(here, 'fixtures', 'group-passengers.xlsx'));
  await submit(page, page.locator('#upload-submit'));
  assert.match(await flash(page), /passenger list is saved/);
  assert.equal(await page.locator('#group-passengers tbody tr').count(), 10);

  // 5. Confirm: the names are locked, the seats applied for.
  await submit(page, page.getByRole('button', { name: 'Confirm the group' }));
  assert.match(await flash(page), /Group confirmed/);
  assert.equal(await status(page), 'Confirmed, seats to apply');
  assert.equal(await page.locator('#upload').count(), 0, 'no upload after confirmation');

  // 6. The provider records the airline's yes through the API.
  await post(provider, `/order/v2/flight/group/orders/${id}/seats`, { result: 'granted' });

  // 7. The first deposit, from the wallet.
  await page.reload();
  assert.equal(await status(page), 'First deposit due');
  assert.equal(await cell(page, 'first', 4), 'Due');
  // Left to pay: each stage's own amount while unpaid, and in all.
  assert.equal(await cell(page, 'first', 5), '2,000.00 CNY', 'left to pay of the first deposit');
  assert.equal(await cell(page, 'final', 5), '5,000.00 CNY', 'left to pay of the final payment');
  assert.equal((await page.locator('#installments-left').innerText()).trim(), '10,000.00 CNY', 'left to pay in all');
  // Every open deadline counts down, as the quote did.
  await page.locator('#installment-countdown-first').waitFor();
  await page.locator('#installment-countdown-final').waitFor();
  await page.locator('#pay-channel-first').selectOption('balance');
  await screenshot(page, 'group-detail-due');
  await submit(page, page.locator('#pay-first'));
  assert.match(await flash(page), /Payment received/);
  assert.equal(await status(page), 'Second deposit due');
  assert.equal(await cell(page, 'first', 4), 'Paid');
  assert.notEqual(await cell(page, 'first', 3), '—', 'paid at is shown');
  assert.equal(await page.locator('#pay-first').count(), 0, 'the first deposit cannot be paid twice');
  assert.equal(await cell(page, 'first', 5), '0.00 CNY', 'nothing left of a paid deposit');
  assert.equal((await page.locator('#installments-left').innerText()).trim(), '8,000.00 CNY', 'left to pay in all after the first deposit');
  await page.locator('#pay-second').waitFor();
  assert.match(await page.locator('#cancel-hint').innerText(), /Deposits paid are forfeited/);
  await screenshot(page, 'group-detail-paid');

  const violations = await seriousViolations(page);
  assert.deepEqual(violations, [], 'no serious accessibility violations on the detail');
  assert.deepEqual(page.errors, [], 'no console errors');

  // In Chinese the timeline's remarks and the plan read in Chinese, money
  // in thousands with its currency.
  await page.context().addCookies([{ name: 'lang', value: 'zh-cn', domain: new URL(server.url).hostname, path: '/' }]);
  await page.reload();
  const timeline = await page.locator('#group-timeline').innerText();
  assert.match(timeline, /报价 10,000\.00 CNY/, "the quote's remark in Chinese");
  assert.match(timeline, /支付第一期定金 2,000\.00 CNY/, "the payment's remark in Chinese");
  assert.doesNotMatch(timeline, /first balance|10000\.00|passengers/, 'no English or raw remark');
  assert.equal((await page.locator('#installments-left').innerText()).trim(), '8,000.00 CNY');
  assert.deepEqual(page.errors, [], 'no console errors in Chinese');
});
