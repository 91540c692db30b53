// Times and the display currency as a user sees them (issue 20): a user
// chooses their own time zone on the profile page and the footer's display
// currency; the orders list and the order page show the order's creation
// in that zone with the zone named, the flight at the airport's local time
// labelled as local, and the order total and the results' prices with an
// approximate amount in the display currency beside the settlement amount.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, seriousViolations, screenshot, loginOK, submit, flash, fillAdultAndContact, watchFailures, unexpectedErrors, choose, boot, shutdown, apiData, searchOneWay } from './harness.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

// wall is an instant on zone's clock: "2026-11-25 18:06".
function wall(iso, zone) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const p = (t) => parts.find((x) => x.type === t).value;
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}`;
}

// New York's abbreviation at an instant, as Go writes it.
function nyLabel(iso) {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'short' })
    .formatToParts(new Date(iso)).find((x) => x.type === 'timeZoneName').value;
  return name; // EST or EDT
}

test('a user zone and a display currency: list and detail times in the zone, flights at the airport, approximate amounts', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  // The failure expected: the empty wallet's refused payment (422).
  const failures = watchFailures(page);
  const expected = (f) =>
    (f.status === 422 && f.method === 'POST' && /^\/order\/v2\/flight\/orders\/\d+\/payment$/.test(f.path));
  await loginOK(page, 'demo-operator');

  // 1. The profile page: the agency's zone is the default; choose New York.
  await page.goto('/profile');
  const zone = page.getByRole('combobox', { name: 'Time zone', exact: true });
  assert.match(await zone.locator('option:checked').innerText(), /The agency's zone: Beijing, Shanghai \(UTC\+8\)/);
  await zone.selectOption('America/New_York');
  await submit(page, page.getByRole('button', { name: 'Save time zone' }));
  assert.match(await flash(page), /Your time zone is saved/);
  assert.equal(await page.getByRole('combobox', { name: 'Time zone', exact: true }).inputValue(), 'America/New_York');
  assert.equal(await page.locator('meta[name="voyage-time-zone"]').getAttribute('content'), 'America/New_York');
  assert.deepEqual(await seriousViolations(page), []);

  // 2. The footer's display currency: US dollars (the form submits itself).
  await Promise.all([page.waitForNavigation(), page.locator('#footer-currency').selectOption('USD')]);
  assert.equal(await page.locator('#footer-currency').inputValue(), 'USD');

  // 3. Results: each price in CNY with its approximate US dollars.
  await searchOneWay(page, 'PEK', 'SHA', 21);
  const card = page.locator('.fs-card').first();
  await card.waitFor({ timeout: 90_000 });
  const price = (await card.locator('.fs-price-amount').innerText()).trim();
  assert.match(price, /^[\d,]+\.\d{2} CNY$/, 'the settlement price stays');
  const approx = (await card.locator('.fs-price-approx').innerText()).trim();
  assert.match(approx, /^≈ USD [\d,]+\.\d{2}$/, 'an approximate price in dollars');
  const cny = Number(price.replace(/[^\d.]/g, ''));
  const usd = Number(approx.replace(/[^\d.]/g, ''));
  assert.ok(usd > 0 && usd < cny, `${approx} is fewer dollars than ${price}`);
  await screenshot(page, 'display-results-usd');

  // 4. Book a flight without paying (the wallet is empty): the first whose
  //    price check lets it be booked (the simulated airlines withdraw a
  //    fare now and then, as flight_order.test.mjs meets too).
  await choose(page);
  // The confirm page: the price lines' total and the amount to pay with dollars.
  assert.match((await page.locator('.fc-price-table tfoot td').innerText()).replace(/\s+/g, ' '), /^[\d,]+\.\d{2} CNY ≈ USD [\d,]+\.\d{2}$/);
  assert.match(await page.locator('.fc-total-line').innerText(), /: [\d,]+\.\d{2} CNY ≈ USD [\d,]+\.\d{2}$/);
  await fillAdultAndContact(page);
  // The airline may refuse a booking now and then (the simulated suppliers
  // do): the same submit is tried again, as flight_order.test.mjs does.
  for (let i = 0; i < 3; i++) {
    await page.locator('.fc-submit').getByRole('button', { name: /^Book/ }).click();
    await page.waitForFunction(() => /\/flight\/orders\/\d+$/.test(location.pathname) ||
      document.querySelector('.fc-submit .form-errors, .fc-order .form-errors, form.fc-form [aria-invalid="true"]'), null, { timeout: 120_000 });
    if (/\/flight\/orders\/\d+$/.test(new URL(page.url()).pathname)) break;
    // Booked, but the empty wallet cannot pay: on to the order's page.
    const later = page.getByRole('link', { name: 'Pay later from the order page' });
    if (await later.count()) {
      await Promise.all([page.waitForURL(/\/flight\/orders\/\d+$/), later.click()]);
      break;
    }
    await screenshot(page, 'display-booking-refused');
    assert.ok(i < 2, `booking failed: ${await page.locator('.form-errors, .field-error').allInnerTexts()}`);
  }
  await page.waitForURL(/\/flight\/orders\/\d+$/);
  const id = new URL(page.url()).pathname.split('/').pop();
  const order = await apiData(page, `/order/v2/flight/orders/${id}`);

  // 5. The order page: created in New York time with the zone named; the
  //    flight at Beijing's clock, labelled local; the total with dollars.
  const created = `${wall(order.createdAt, 'America/New_York')} ${nyLabel(order.createdAt)}`;
  assert.ok((await page.locator('main').innerText()).includes(created), `the order page shows its creation as ${created}`);
  const depart = `${wall(order.segments?.[0]?.departAt || order.departAt, 'Asia/Shanghai')} local`;
  const flights = await page.locator('main').innerText();
  assert.ok(flights.includes(depart), `the flight leaves at ${depart} (Beijing's clock)`);
  const total = (await page.locator('#order-total').innerText()).trim();
  assert.match(total, /^[\d,]+\.\d{2} CNY ≈ USD [\d,]+\.\d{2}$/, `order total ${total}`);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'display-order-detail');

  // 6. The orders list: the same creation time and zone, the departure local.
  await page.goto('/flight/orders');
  const row = page.locator('tbody tr', { hasText: order.bookingNumber });
  const text = await row.innerText();
  assert.ok(text.includes(created), `list row ${text} shows ${created}`);
  assert.ok(text.includes(depart), `list row ${text} shows ${depart}`);
  assert.match(text, /≈ USD [\d,]+\.\d{2}/);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'display-orders-list');

  // 7. Back to the agency's zone and the settlement currency: no dollars.
  await page.goto('/profile');
  await page.getByRole('combobox', { name: 'Time zone', exact: true }).selectOption('');
  await submit(page, page.getByRole('button', { name: 'Save time zone' }));
  await Promise.all([page.waitForNavigation(), page.locator('#footer-currency').selectOption('CNY')]);
  await page.goto(`/flight/orders/${id}`);
  assert.ok((await page.locator('main').innerText()).includes(`${wall(order.createdAt, 'Asia/Shanghai')} CST`));
  assert.equal(await page.locator('#order-total .approx').count(), 0, 'no approximate amount in the settlement currency');
  assert.deepEqual(unexpectedErrors(page, failures, expected), [], `console errors; answers ≥ 400: ${failures.map((f) => `${f.status} ${f.method} ${f.path}`).join(', ') || 'none'}`);
  await page.context().close();
});

test('a time zone that is no zone is refused with a translated message, nothing changed', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(page, 'demo-operator');
  await page.context().addCookies([{ name: 'lang', value: 'zh-cn', domain: new URL(server.url).hostname, path: '/' }]);
  const res = await page.request.put('/base/v2/me/config/timeZone', { data: '"Mars/Olympus"', headers: { 'Accept-Language': 'zh-cn', 'Content-Type': 'application/json' } });
  const env = await res.json();
  assert.notEqual(env.code, 0);
  assert.match(JSON.stringify(env), /未知时区/);
  const me = await apiData(page, '/base/v2/me');
  assert.equal(me.config?.timeZone ?? me.userInfo?.config?.timeZone ?? '', '');
  await page.context().close();
});
