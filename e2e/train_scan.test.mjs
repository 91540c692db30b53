// Scanning a passport into a train passenger in the browser (issue 18):
// demo-operator searches Beijing → Shanghai, opens second class on a G
// train, scans e2e/fixtures/passport.jpg (a Chinese passport, ZHANG SAN
// FENG, read by the server with Tesseract) into the passenger, checks what
// was read, fills the form: the railway's passport document, number,
// birthday, gender and nationality are filled, and the name is left for its
// Chinese characters (the real-name rule) with the pinyin shown. With the
// name typed, the booking holds the seats for that passport.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, seriousViolations, screenshot, loginOK, searchTrains, boot, shutdown, fillTrainSearch, scanDocument } from './harness.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

test('scans a passport into a train passenger and books it under its Chinese name', { timeout: 300_000 }, async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await loginOK(page, 'demo-operator');
  await fillTrainSearch(page);
  await searchTrains(page);
  await page.locator('.tb-seat:not(.is-sold-out)').filter({ hasText: 'Second class' }).getByRole('button').first().click();
  const pax = page.locator('fieldset.tb-passenger').first();
  await pax.waitFor();

  // Scan: what was read is shown for checking before anything is filled.
  const { read, result } = await scanDocument(pax, { timeout: 90_000 });
  assert.equal(read.travel_document, 'E23456789');
  assert.equal(read.surname, 'ZHANG');
  assert.equal(await page.locator('#fc-passengers-0-documentNumber').inputValue(), '', 'nothing filled before the user confirms');
  await screenshot(page, 'train-scan-check');
  await result.getByRole('button', { name: 'Fill the form' }).click();

  assert.equal(await page.locator('#fc-passengers-0-documentType').inputValue(), 'passport');
  assert.equal(await page.locator('#fc-passengers-0-documentNumber').inputValue(), 'E23456789');
  assert.equal(await page.locator('#fc-passengers-0-birthday').inputValue(), '1985-05-12');
  assert.equal(await page.locator('#fc-passengers-0-nationality').inputValue(), 'CN');
  assert.ok(await pax.getByRole('radio', { name: 'Male', exact: true }).isChecked());
  // The real-name rule: a Chinese citizen's name in characters, not pinyin.
  assert.equal(await page.locator('#fc-passengers-0-surname').inputValue(), '');
  assert.match(await pax.locator('.tb-real-name').innerText(), /Latin name reads ZHANG SAN FENG/);
  assert.deepEqual(await seriousViolations(page), [], 'axe: booking form after a scan');
  await screenshot(page, 'train-scan-filled');

  await page.locator('#fc-passengers-0-surname').fill('张');
  await page.locator('#fc-passengers-0-givenName').fill('三丰');
  await page.locator('#fc-contact-name').fill('张三丰');
  await page.locator('#fc-contact-phone').fill('13800138000');
  // The railway refuses a booking now and then (the simulator does, as the
  // real one); the page says so and the same key is tried again.
  const heading = page.getByRole('heading', { name: /^Booking / });
  for (let i = 0; i < 3 && !(await heading.count()); i++) {
    await page.getByRole('button', { name: 'Book and hold seats' }).click();
    await page.waitForFunction(() => document.querySelector('.tb-order') || document.querySelector('.tb-booking .form-errors'), null, { timeout: 60_000 });
  }
  await heading.waitFor();
  const id = /(\d+)$/.exec(await page.getByRole('link', { name: 'View the booking' }).getAttribute('href'))[1];
  const res = await page.request.get(`/order/v2/train/orders/${id}`, { headers: { 'Accept-Language': 'en' } });
  const env = await res.json();
  assert.equal(env.code, 0, JSON.stringify(env));
  assert.deepEqual(
    env.data.passengers.map((p) => [p.surname, p.givenName, p.documentType, p.documentNumber, p.nationality]),
    [['张', '三丰', 'passport', 'E23456789', 'CN']],
  );
});
