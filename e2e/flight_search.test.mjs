// Flight search in the browser (spec §2 flight search, §3 flight booking
// filter, §4 staleness, §9 display rules): the FlightSearch island on
// /flight/booking against the demo's simulated suppliers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, seriousViolations, screenshot, portalShot, login, isoDay, agencyDay, boot, shutdown, submit, pickAirport, atReflowWidth, reflowWidth, offScreen } from './harness.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

// openSearch goes to /flight/booking and waits for the island to mount.
async function openSearch(page) {
  await page.goto('/flight/booking');
  await page.locator('[data-island="FlightSearch"][data-island-mounted="true"]').waitFor();
  await page.locator('.fs-form').waitFor();
}

// search clicks Search (or the button named) and resolves once the results
// are those of a new search session.
async function search(page, button = 'Search') {
  const before = await page.evaluate(() => document.querySelector('.fs-results')?.getAttribute('data-search-id') ?? null);
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.waitForFunction((id) => {
    const now = document.querySelector('.fs-results')?.getAttribute('data-search-id');
    return now && now !== id;
  }, before);
}

// complete waits for the search to finish and returns how many solutions
// the results heading counts.
async function complete(page, lang = 'en') {
  const done = lang === 'en' ? 'Search complete: (\\d+) flights?' : '搜索完成：共 (\\d+) 个航班';
  const n = await page.waitForFunction((re) => {
    // The spec's empty state (400001) counts as a search with no flight.
    if (document.querySelector('.fs-results .fs-empty')) return { n: 0 };
    const m = new RegExp(re).exec(document.querySelector('.fs-results[aria-busy="false"] .fs-progress-text')?.textContent || '');
    return m ? { n: Number(m[1]) } : null;
  }, done, { timeout: 60_000 });
  return (await n.jsonValue()).n;
}

function amounts(texts) {
  return texts.map((s) => Number(s.replace(/[^\d.]/g, '')));
}

// apiLogin logs in through the API and returns a bearer token.
async function apiLogin(username, password = 'demo-pass-1') {
  const res = await fetch(server.url + '/base/v2/login', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username, password }),
  });
  const env = await res.json();
  assert.equal(env.code, 0, JSON.stringify(env));
  return env.data.token;
}

async function apiCall(token, method, path, body) {
  const res = await fetch(server.url + path, {
    method, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Accept-Language': 'en' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

test('demo-operator searches PEK→LHR one-way: results fill in, filter, sort, price detail, Chinese', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'demo-operator');
  await openSearch(page);
  assert.equal((await page.locator('h1').innerText()).trim(), 'Flights');

  // Spec §3 defaults: one-way, tomorrow (on the agency's calendar), one
  // adult, economy; PNR booking shown.
  assert.ok(await page.getByRole('radio', { name: 'One-way' }).isChecked());
  assert.equal(await page.locator('#fs-journeys-0-date').inputValue(), agencyDay(1));
  assert.match(await page.locator('#fs-passengers').innerText(), /1 adult/);
  assert.equal(await page.getByLabel('Cabin').inputValue(), 'economy');
  assert.ok(await page.getByRole('tab', { name: 'Book by PNR' }).isVisible());

  // Client-side journey rules (spec §5).
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  assert.ok(await page.getByText('Please add at least one flight', { exact: false }).isVisible());

  await pickAirport(page, page.getByRole('combobox', { name: 'From' }), 'PEK', 'PEK');
  await pickAirport(page, page.getByRole('combobox', { name: 'To' }), 'LHR', 'LHR');
  await page.locator('#fs-journeys-0-date').fill(isoDay(30));

  // Record whether the progress indicator shows before the search completes.
  await page.evaluate(() => {
    window.__sawProgress = false;
    new MutationObserver(() => {
      if (document.querySelector('.fs-progress-bar')) window.__sawProgress = true;
    }).observe(document.body, { subtree: true, childList: true });
  });
  await search(page);
  const total = await complete(page);
  assert.ok(await page.evaluate(() => window.__sawProgress), 'progress shown while suppliers answer');
  assert.ok(total > 0, 'PEK→LHR has flights');
  assert.ok(await page.locator('.fs-card').count() > 0);
  assert.equal(await page.locator('.fs-supplier-pending').count(), 0, 'no supplier still pending');
  const firstCard = page.locator('.fs-card').first();
  assert.match(await firstCard.innerText(), /\d{2}:\d{2}/);
  assert.match(await firstCard.innerText(), /\d{2}h\d{2}m/);
  assert.match(await firstCard.locator('.fs-price-amount').innerText(), /^\d{1,3}(,\d{3})*\.\d{2} [A-Z]{3}$/);

  // Filter by the first airline: the count beside it is what comes back.
  const airlines = page.getByRole('group', { name: 'Airlines' });
  const first = airlines.locator('label.fs-check').first();
  const name = (await first.locator('.fs-check-label').innerText()).trim();
  const count = Number(await first.locator('.fs-check-count').innerText());
  await first.locator('input').check();
  await page.locator('.fs-count').filter({ hasText: new RegExp(`^${count} flights? found$`) }).waitFor();
  // A repeated outbound shows once: its group counts its other fares, and a
  // page holds 20 whole groups (all the fares when they fit on one page).
  const { shown, groups } = await page.evaluate(() => {
    const gs = [...document.querySelectorAll('.fs-group')];
    return { shown: gs.reduce((n, g) => n + Number(g.dataset.fares), 0), groups: gs.length };
  });
  if (await page.locator('.fs-pager').count()) assert.equal(groups, 20, `${groups} groups on a full page`);
  else assert.equal(shown, count, 'every fare of the airline on its one page');
  assert.ok(shown <= count, `${shown} fares shown of ${count}`);
  for (const text of await page.locator('.fs-card').allInnerTexts()) assert.ok(text.includes(name), `card of ${name}`);
  await first.locator('input').uncheck();
  await page.locator('.fs-count').filter({ hasText: new RegExp(`^${total} flights? found$`) }).waitFor();

  // Sort by price: the page is in ascending order.
  await page.getByLabel('Sort by').selectOption('price');
  await page.waitForFunction(() => {
    const xs = [...document.querySelectorAll('.fs-price-amount')].map((e) => Number(e.textContent.replace(/[^\d.]/g, '')));
    return xs.length > 1 && xs.every((x, i) => i === 0 || xs[i - 1] <= x);
  });
  const prices = amounts(await page.locator('.fs-price-amount').allInnerTexts());
  assert.deepEqual(prices, [...prices].sort((a, b) => a - b));

  // The price detail popover: per passenger type, fare, taxes, sale price.
  const details = page.locator('.fs-card').first().getByRole('button', { name: 'Price details' });
  await details.click();
  const table = page.locator('.fs-card').first().locator('.fs-price-table');
  assert.ok(await table.isVisible());
  const head = await table.locator('thead').innerText();
  for (const col of ['Passenger', 'Number', 'Fare', 'Taxes', 'Price per person']) assert.ok(head.includes(col), col);
  assert.match(await table.locator('tbody').innerText(), /Adults/);
  // The details add up: fare + taxes (+ service fee) = price per person,
  // × number = subtotal, and the subtotals make the card's total.
  const figures = await table.evaluate((t) => {
    const num = (el) => (el ? Math.round(Number(el.textContent.replace(/[^\d.-]/g, '')) * 100) : 0);
    return {
      rows: [...t.querySelectorAll('tbody tr')].map((r) => ({
        count: Number(r.querySelector('.fs-pl-count').textContent),
        fare: num(r.querySelector('.fs-pl-fare')), taxes: num(r.querySelector('.fs-pl-taxes')), fee: num(r.querySelector('.fs-pl-fee')),
        person: num(r.querySelector('.fs-pl-person')), subtotal: num(r.querySelector('.fs-pl-subtotal')),
      })),
      total: num(t.querySelector('.fs-pl-total')),
    };
  });
  for (const r of figures.rows) {
    assert.equal(r.fare + r.taxes + r.fee, r.person, `fare + taxes + fee = per person: ${JSON.stringify(r)}`);
    assert.equal(r.person * r.count, r.subtotal, `per person × number = subtotal: ${JSON.stringify(r)}`);
  }
  assert.equal(figures.rows.reduce((n, r) => n + r.subtotal, 0), figures.total, 'the subtotals make the total');
  const cardTotal = Math.round(amounts([await page.locator('.fs-card').first().locator('.fs-price-amount').innerText()])[0] * 100);
  assert.equal(figures.total, cardTotal, 'the details total is the card price');
  // The open popover leaves the card's Select button in sight.
  const select = await page.locator('.fs-card').first().locator('.fs-select').boundingBox();
  const pop = await page.locator('.fs-card').first().locator('.fs-price-popover').boundingBox();
  const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  assert.ok(!overlaps(select, pop), `the price details do not cover Select: ${JSON.stringify({ select, pop })}`);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'flight-search-results-en');
  await page.keyboard.press('Escape');
  assert.equal(await details.getAttribute('aria-expanded'), 'false');

  // Stops read as words, and the range filters narrow the list.
  const stops = await page.getByRole('group', { name: 'Stops' }).locator('.fs-check-label').allInnerTexts();
  assert.ok(stops.length > 0 && stops.every((l) => /^(Nonstop|1 stop|\d\+ stops)$/.test(l.trim())), `stops in words: ${stops}`);
  const cheapest = prices[0];
  const limit = Math.floor(cheapest + (prices[prices.length - 1] - cheapest) / 2);
  await page.getByLabel('Highest').fill(String(limit));
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForFunction((max) => {
    const xs = [...document.querySelectorAll('.fs-results[aria-busy="false"] .fs-price-amount')].map((e) => Number(e.textContent.replace(/[^\d.]/g, '')));
    return xs.length > 0 && xs.every((x) => x <= max);
  }, limit);
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await page.locator('.fs-count').filter({ hasText: new RegExp(`^${total} flights? found$`) }).waitFor();

  // Dense cards: at 1366×768 a one-way card is at most 200 px tall, so four
  // or more fit a screen.
  await page.setViewportSize({ width: 1366, height: 768 });
  const heights = await page.evaluate(() => [...document.querySelectorAll('.fs-solutions > li')].map((e) => e.getBoundingClientRect().height));
  assert.ok(heights.length > 0 && heights.every((h) => h <= 200), `card heights ${heights}`);
  await page.locator('.fs-toolbar').evaluate((e) => e.scrollIntoView());
  await page.locator('.fs-card').first().getByRole('button', { name: 'Price details' }).click();
  await portalShot(page, 'results-en');
  await page.keyboard.press('Escape');

  // 390 px wide: nothing runs off the side; nor at 320 px, the reflow width.
  assert.deepEqual(await atReflowWidth(page), [], `results at ${reflowWidth} px`);
  await page.setViewportSize({ width: 390, height: 844 });
  assert.deepEqual(await offScreen(page), [], 'results at 390 px');
  await page.getByRole('button', { name: /Show filters/ }).click();
  assert.ok(await page.getByRole('group', { name: 'Airlines' }).isVisible());
  await screenshot(page, 'flight-search-results-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Another language: the page reloads and the same search shows in Chinese.
  await page.locator('#footer-lang').selectOption('zh-cn');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await page.locator('[data-island="FlightSearch"][data-island-mounted="true"]').waitFor();
  assert.ok(await page.getByRole('tab', { name: '搜索航班' }).isVisible());
  assert.ok(await page.getByRole('combobox', { name: '出发地' }).isVisible());
  assert.ok(await page.getByRole('radio', { name: '单程' }).isChecked());
  assert.equal(await complete(page, 'zh-cn'), total);
  assert.ok(await page.getByRole('group', { name: '航空公司' }).isVisible());
  assert.ok(await page.locator('.fs-card').first().getByRole('button', { name: /^选择/ }).isVisible());
  await screenshot(page, 'flight-search-results-zh-cn');
  assert.deepEqual(await atReflowWidth(page), [], `results in Chinese at ${reflowWidth} px`);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.locator('.fs-toolbar').evaluate((e) => e.scrollIntoView());
  await page.locator('.fs-card').first().getByRole('button', { name: '价格明细' }).click();
  await portalShot(page, 'results-zh-cn');
  await page.keyboard.press('Escape');
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();
});

test('return trip and multi-city', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'demo-operator');
  await openSearch(page);
  await page.getByRole('radio', { name: 'Return' }).check();
  await pickAirport(page, page.getByRole('combobox', { name: 'From' }), 'PEK', 'PEK');
  await pickAirport(page, page.getByRole('combobox', { name: 'To' }), 'LHR', 'LHR');
  await page.getByLabel('Departure date').fill(isoDay(30));
  await page.getByLabel('Return date').fill(isoDay(25));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  assert.ok(await page.getByText('The return date cannot be before the departure date.').isVisible());
  await page.getByLabel('Return date').fill(isoDay(37));
  await search(page);
  const total = await complete(page);
  assert.ok(total > 0, 'PEK⇄LHR has flights');
  const card = page.locator('.fs-card').first();
  assert.equal(await card.locator('.fs-journey').count(), 2);
  assert.match(await card.locator('.fs-journey').nth(0).innerText(), /Outbound[\s\S]*PEK[\s\S]*LHR/);
  assert.match(await card.locator('.fs-journey').nth(1).innerText(), /Return[\s\S]*LHR[\s\S]*PEK/);

  await page.getByRole('radio', { name: 'Multi-city' }).check();
  const froms = page.getByRole('combobox', { name: 'From' });
  assert.equal(await froms.count(), 2);
  const add = page.getByRole('button', { name: 'Add a flight' });
  for (let i = 0; i < 3; i++) await add.click();
  assert.equal(await froms.count(), 5);
  assert.ok(await add.isDisabled(), 'five flights at most');
  await page.getByRole('button', { name: 'Remove flight 5' }).click();
  await page.getByRole('button', { name: 'Remove flight 4' }).click();
  await page.getByRole('button', { name: 'Remove flight 3' }).click();
  assert.equal(await froms.count(), 2);
  assert.equal(await page.getByRole('button', { name: /Remove flight/ }).count(), 0, 'two flights at least');
  // Flight 2 starts where flight 1 lands.
  assert.match(await froms.nth(1).inputValue(), /\(LHR\)/);
  await pickAirport(page, page.getByRole('combobox', { name: 'To' }).nth(1), 'CDG', 'CDG');
  await page.locator('#fs-journeys-1-date').fill(isoDay(34));
  await search(page);
  // A multi-city without a priced combination would be the empty state.
  const multi = await complete(page);
  if (multi > 0) {
    const card = page.locator('.fs-card').first();
    assert.equal(await card.locator('.fs-journey').count(), 2);
    assert.match(await card.locator('.fs-journey').nth(1).innerText(), /Flight 2[\s\S]*LHR[\s\S]*CDG/);
  } else {
    assert.ok(await page.getByText('No suitable flight found', { exact: false }).isVisible());
  }
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'flight-search-multi');
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();
});

// amadeusMonth is the airline-style month of a YYYY-MM-DD date.
function airlineDate(iso) {
  const m = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'][Number(iso.slice(5, 7)) - 1];
  return iso.slice(8, 10) + m;
}

// nonstopFlight searches PEK→LHR on date through the API and returns its
// cheapest nonstop solution. The simulated suppliers never fail here
// (startServer), so every supplier answers and one of them sells a nonstop.
async function nonstopFlight(token, date) {
  const started = await apiCall(token, 'POST', '/shopping/v2/flight/async-shopping', {
    journeys: [{ origin: 'PEK', destination: 'LHR', date }], passengers: { adult: 1, child: 0, infant: 0 }, cabinClass: 'economy', bookingType: 'oneway',
  });
  assert.equal(started.code, 0, JSON.stringify(started));
  let env;
  // The suppliers answer in the server's process after their answer time;
  // the test can only ask again, as the API's clients do (every 500 ms).
  for (let i = 0; i < 120; i++) {
    env = await apiCall(token, 'POST', '/shopping/v2/flight/async-shopping/solutions', {
      searchId: started.data.searchId, filters: { airlines: [], stops: ['0'], departureBuckets: [], arrivalBuckets: [], ticketingSpeed: [] }, sort: 'price', page: 1, pageSize: 20,
    });
    if (env.code === 0 && env.data.complete) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.ok(env.code === 0 && env.data.complete, `the search completes: ${JSON.stringify(env).slice(0, 300)}`);
  const found = env.data.items.find((s) => s.segments.length === 1 && !s.selfTransfer);
  assert.ok(found, `a nonstop PEK→LHR flight (suppliers: ${env.data.suppliers.map((s) => `${s.name}:${s.status}`).join(' ')})`);
  return found;
}

test('PNR tab: read a pasted PNR and search exactly its flights', async () => {
  // A real flight of the simulated schedule, found through the API.
  const token = await apiLogin('demo-operator');
  const date = isoDay(30);
  const found = await nonstopFlight(token, date);
  const seg = found.segments[0];
  const number = seg.flightNumber.replace(/^[A-Z0-9]{2}/, '');
  const dep = seg.departAt.slice(11, 16).replace(':', '');
  const arr = seg.arriveAt.slice(11, 16).replace(':', '');
  const pnr = [
    'RP/PEK1A0980/PEK1A0980            AA/SU  01JAN26/0900Z   QX7ABC',
    '  1.WANG/FANG MS   2.LI/LEI MR',
    `  3  ${seg.carrier}${number.padStart(4, ' ')} ${seg.bookingClass} ${airlineDate(date)} 1 PEKLHR HK2  ${dep} ${arr}   ${airlineDate(date)}  E  ${seg.carrier}/QX7ABC`,
    '  4 AP PEK 010-12345678 - DEMO TRAVEL - A',
    '  5 TK OK01JAN/PEK1A0980',
  ].join('\n');

  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'demo-operator');
  await openSearch(page);
  await page.getByRole('tab', { name: 'Book by PNR' }).click();
  await page.getByLabel('PNR text').fill(pnr);
  await page.getByRole('button', { name: 'Read the PNR' }).click();
  const result = page.locator('.fs-pnr-result');
  await result.waitFor();
  assert.match(await result.locator('h2').innerText(), /QX7ABC/);
  assert.match(await result.locator('table').innerText(), new RegExp(`${seg.carrier}\\s*0*${Number(number)}`));
  assert.match(await result.innerText(), /WANG\/FANG/);
  assert.match(await result.innerText(), /LI\/LEI/);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'flight-search-pnr');
  await search(page, 'Search these flights');
  assert.ok(await complete(page) > 0, 'the PNR flight is priced');
  for (const text of await page.locator('.fs-card').allInnerTexts()) assert.ok(text.includes(seg.flightNumber), `only ${seg.flightNumber}`);
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();
});

test('an agency that hides PNR booking gets no PNR tab (bluesky-super, agency 222)', async () => {
  // No demo agency hides PNR booking: the provider switches it on for
  // Blue Sky, as the agency manager would.
  const token = await apiLogin('provider-admin', 'provider-pass-1');
  const detail = await apiCall(token, 'GET', '/base/v2/agencies/222');
  assert.equal(detail.code, 0, JSON.stringify(detail));
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'bluesky-super');
  await openSearch(page);
  assert.ok(await page.getByRole('tab', { name: 'Book by PNR' }).isVisible(), 'shown before the switch');

  const config = detail.data.config;
  config.settings.hidePnrBooking = true;
  const set = await apiCall(token, 'PUT', '/base/v2/agencies/222/config', config);
  assert.equal(set.code, 0, JSON.stringify(set));

  await openSearch(page);
  assert.equal(await page.getByRole('tab', { name: 'Book by PNR' }).count(), 0);
  assert.equal(await page.getByRole('tablist').count(), 0);
  assert.ok(await page.getByRole('combobox', { name: 'From' }).isVisible(), 'route search stays');
  // The API refuses it too.
  const refused = await page.evaluate(async () => {
    const res = await fetch('/shopping/v2/flight/analysis-pnr', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"pnr":"x"}' });
    return (await res.json()).code;
  });
  assert.notEqual(refused, 0);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'flight-search-bluesky-no-pnr');
  assert.deepEqual(page.errors.filter((e) => !/403|Forbidden/.test(e)), [], 'console errors');
  await page.context().close();
});

test('without JavaScript the page says so and links to the orders', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url, javaScriptEnabled: false });
  await login(page, 'demo-operator');
  await page.goto('/flight/booking');
  assert.ok(await page.getByText('Flight search needs JavaScript', { exact: false }).isVisible());
  assert.equal(await page.getByRole('link', { name: 'Go to my flight orders' }).getAttribute('href'), '/flight/orders');
  await page.context().close();

  const tw = await newPage(browser, { lang: 'zh-tw', baseURL: server.url, javaScriptEnabled: false });
  await tw.goto('/login');
  await tw.locator('input[name=username]').fill('demo-operator');
  await tw.locator('input[name=password]').fill('demo-pass-1');
  await Promise.all([tw.waitForNavigation(), tw.locator('form button[type=submit]').first().click()]);
  await tw.goto('/flight/booking');
  assert.ok(await tw.getByText('機票搜尋需要 JavaScript', { exact: false }).isVisible());
  assert.ok(await tw.getByRole('link', { name: '前往我的機票訂單' }).isVisible());
  await tw.context().close();
});
