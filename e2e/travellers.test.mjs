// Saved travellers and document scanning in the browser (issue 18; spec §3
// Passenger and recognition output, §5 recognition image and frequent
// passengers): demo-operator scans a passport photo into the saved-traveller
// form and saves it, types a second traveller, finds them by search, then on
// the flight booking form fills a passenger from a saved traveller and
// scans the passport into it, checking what was read before it fills.
//
// The passport is e2e/fixtures/passport.jpg, rendered in OCR-B by the
// recognition tests' own generator (go run e2e/fixtures/gen_passport.go);
// the server reads it with Tesseract, as in production.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, seriousViolations, screenshot, loginOK, submit, flash, boot, shutdown, searchOneWay, scanDocument, offScreen } from './harness.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

// searchAndChoose searches PEK→SHA and opens the first fare whose price
// check lets it be booked (as e2e/flight_order.test.mjs does).
async function searchAndChoose(page) {
  await searchOneWay(page, 'PEK', 'SHA', 20);
  await page.waitForFunction(() => document.querySelector('.fs-results[aria-busy="false"] .fs-card'), null, { timeout: 90_000 });
  for (let i = 0; i < 5; i++) {
    const card = page.locator('.fs-card').nth(i);
    if (!(await card.count())) break;
    await Promise.all([page.waitForURL(/\/flight\/booking\/confirm\?solutionId=/), card.locator('.fs-select').click()]);
    await page.locator('[data-island="FlightConfirm"][data-island-mounted="true"]').waitFor();
    await page.locator('form.fc-form, .fc-outcome').first().waitFor({ timeout: 90_000 });
    const accept = page.locator('.fc-outcome').getByRole('button', { name: /^(Accept the new price|Accept the new package)$/ });
    if (await accept.count()) await accept.click();
    if (await page.locator('form.fc-form').count()) return;
    await page.goto('/flight/booking');
    await page.locator('[data-island="FlightSearch"][data-island-mounted="true"]').waitFor();
    await page.locator('.fs-results[aria-busy="false"] .fs-card').first().waitFor({ timeout: 30_000 });
  }
  assert.fail('no fare could be opened for booking');
}

test('saves travellers by scanning and typing, then picks and scans them on the flight booking form', { timeout: 300_000 }, async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(page, 'demo-operator');

  // 0. The profile's frequent info, each form saved with its message.
  await page.goto('/profile');
  await page.locator('#cities-form-cities').fill('pek, SHA');
  await submit(page, page.locator('#cities-form').getByRole('button', { name: 'Save' }));
  assert.equal(await flash(page), 'Favourite cities were saved');
  assert.equal(await page.locator('#cities-form-cities').inputValue(), 'PEK, SHA');
  await page.locator('#details-form-nickname').fill('');
  await submit(page, page.locator('#details-form').getByRole('button', { name: 'Save' }));
  assert.equal((await page.locator('#details-form-nickname-error').innerText()).trim(), 'Please enter a nickname');
  assert.deepEqual(await seriousViolations(page), [], 'axe: profile');
  await screenshot(page, 'travellers-profile');

  // 1. The saved-traveller page: scan the passport into the add form.
  await page.goto('/profile/travellers');
  assert.equal((await page.locator('h1').innerText()).trim(), 'Saved travellers');
  const add = page.locator('#add-traveller');
  await add.locator('[data-island="ScanDocumentForm"][data-island-mounted="true"]').waitFor();
  const { read, result } = await scanDocument(add, { timeout: 60_000 });
  // The nationality as the zone writes it (CHN), or already as the forms take it (CN).
  assert.match(read.nationality, /^CHN?$/);
  assert.deepEqual(
    [read.type, read.surname, read.given_names, read.travel_document, read.birthday, read.gender, read.expiry],
    ['Chinese passport', 'ZHANG', 'SAN FENG', 'E23456789', '1985-05-12', 'Male', '2034-03-15'],
    'what was read is shown for checking',
  );
  assert.match(read.confidence, /^Confidence \d+%/);
  // Nothing is filled before the user confirms.
  assert.equal(await page.locator('#add-traveller-form-surname').inputValue(), '');
  await screenshot(page, 'travellers-scan-check');
  await result.getByRole('button', { name: 'Fill the form' }).click();
  const v = (name) => page.locator(`#add-traveller-form-${name}`).inputValue();
  assert.deepEqual(
    [await v('surname'), await v('givenName'), await v('gender'), await v('birthday'), await v('nationality'), await v('documentType'), await v('documentNumber'), await v('documentExpiry')],
    ['ZHANG', 'SAN FENG', 'male', '1985-05-12', 'CN', 'chinese-passport', 'E23456789', '2034-03-15'],
    'the confirmed fields fill the form',
  );
  await submit(page, page.locator('#add-traveller-form').getByRole('button', { name: 'Add' }));
  assert.equal(await flash(page), 'The traveller was saved');
  assert.ok(await page.locator('tr[data-traveller="ZHANG/SAN FENG"]').isVisible(), 'the scanned traveller is listed');

  // 2. A second traveller typed by hand; a bad surname is refused first.
  const form = page.locator('#add-traveller-form');
  await form.getByLabel('Surname').fill('Li3');
  await form.getByLabel('Given name').fill('Lei');
  await form.getByLabel('Gender').selectOption('female');
  await form.getByLabel('Birthday').fill('1990-02-03');
  await form.getByLabel('Nationality').selectOption('CN');
  await form.getByLabel('Document type').selectOption('passport');
  await form.getByLabel('Document number').fill('E7654321');
  await form.getByLabel('Document expiry').fill('2033-01-01');
  await submit(page, form.getByRole('button', { name: 'Add' }));
  assert.equal((await page.locator('#add-traveller-form-surname-error').innerText()).trim(), 'The surname may only contain the letters A-Z');
  await page.locator('#add-traveller-form-surname').fill('LI');
  await submit(page, page.locator('#add-traveller-form').getByRole('button', { name: 'Add' }));
  assert.equal(await flash(page), 'The traveller was saved');
  assert.deepEqual(await seriousViolations(page), [], 'axe: saved travellers');
  await screenshot(page, 'travellers-list');
  // On a phone each traveller is a card, each value under its name, with
  // nothing scrolled sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  assert.deepEqual(await offScreen(page), [], 'the travellers at 390 px');
  const card = page.locator('tr[data-traveller="LI/LEI"]');
  assert.equal(await card.evaluate((r) => getComputedStyle(r).display), 'block', 'a card per traveller at 390 px');
  const birthday = card.locator('td', { hasText: '1990-02-03' });
  assert.equal(await birthday.evaluate((td) => getComputedStyle(td, '::before').content), '"Birthday"', 'the value is labelled');
  const wrap = page.locator('#travellers-table').locator('xpath=..');
  assert.ok(await wrap.evaluate((w) => w.scrollWidth <= w.clientWidth), 'the table does not scroll sideways at 390 px');
  assert.deepEqual(await seriousViolations(page), [], 'axe: saved travellers at 390 px');
  await page.setViewportSize({ width: 1280, height: 900 });

  // 3. Search.
  await page.getByLabel('Name or document number').fill('e765');
  await submit(page, page.getByRole('button', { name: 'Search', exact: true }));
  assert.equal(await page.locator('tr[data-traveller]').count(), 1);
  assert.ok(await page.locator('tr[data-traveller="LI/LEI"]').isVisible());

  // 4. The flight booking form: pick a saved traveller, then scan over it.
  await searchAndChoose(page);
  const pax = page.locator('fieldset.fc-passenger').first();
  const picker = pax.getByRole('combobox', { name: 'Fill from a saved traveller' });
  await page.waitForFunction(() => !document.querySelector('select[id$="-oftenUsed"]')?.disabled, null, { timeout: 30_000 });
  const liOption = picker.locator('option', { hasText: 'LI/LEI' });
  await picker.selectOption(await liOption.getAttribute('value'));
  assert.equal(await pax.getByLabel('Surname').inputValue(), 'LI');
  assert.equal(await pax.getByLabel('Document number').inputValue(), 'E7654321');
  assert.equal(await pax.getByRole('link', { name: 'Manage saved travellers' }).getAttribute('href'), '/profile/travellers');

  const scanned = await scanDocument(pax, { timeout: 60_000 });
  assert.equal(scanned.read.surname, 'ZHANG');
  await screenshot(page, 'travellers-booking-scan-check');
  await scanned.result.getByRole('button', { name: 'Fill the form' }).click();
  assert.equal(await pax.getByLabel('Surname').inputValue(), 'ZHANG');
  assert.equal(await pax.getByLabel('Given names').inputValue(), 'SAN FENG');
  assert.equal(await pax.getByLabel('Date of birth').inputValue(), '1985-05-12');
  assert.equal(await pax.getByLabel('Document number').inputValue(), 'E23456789');
  assert.equal(await pax.getByLabel('Document expiry date').inputValue(), '2034-03-15');
  assert.ok(await pax.getByRole('radio', { name: 'Male', exact: true }).isChecked());
  assert.equal(await pax.getByRole('combobox', { name: 'Nationality' }).inputValue(), "People's Republic of China");
  // The picker no longer claims the passenger is the saved LI/LEI.
  assert.equal(await picker.inputValue(), '');
  assert.deepEqual(await seriousViolations(page), [], 'axe: booking form after a scan');
  await screenshot(page, 'travellers-booking-filled');
  assert.deepEqual(page.errors.filter((e) => !e.startsWith('Failed to load resource')), [], 'no console errors');
});
