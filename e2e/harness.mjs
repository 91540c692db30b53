// Test harness: starts the real voyage binary on a fresh SQLite database and
// drives Debian's chromium with playwright-core.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
export const screenshotDir = join(here, 'screenshots');
mkdirSync(screenshotDir, { recursive: true });

// simOff runs the simulated suppliers (flights and the railway) without the
// failures they draw in production (2% errors, 0.5% hangs, 5% price
// changes): a browser test that does not test a supplier's failure must not
// meet one by chance, on a lucky or unlucky day. Their answer time is kept,
// so the pages show their searching states as users see them.
const simOff = { VOYAGE_SHOPPING_SIM_ERROR_RATE: '0', VOYAGE_SHOPPING_SIM_TIMEOUT_RATE: '0', VOYAGE_SHOPPING_SIM_VOLATILITY: '0' };
// Nothing balances the tests' servers: stop() ends one without the drain
// delay a load balancer needs (http.drain_delay).
const noDrain = { VOYAGE_HTTP_DRAIN_DELAY: '0s' };

// Starts `voyage serve` on a free port and resolves with its base URL once it
// prints the address. living seeds as `make run` does (`voyage demo seed`):
// the demo agencies and the living one, Harbour Travel, with its money and
// activity. sim sets the simulators' draws (VOYAGE_SHOPPING_SIM_* by their
// last word, e.g. { ERROR_RATE: '1' }) for a test of a supplier's failure;
// by default they never fail. env adds to the server's environment: an
// object, or a function of the server's base URL answering one, for a
// setting that names the server's own address (payment.public_url, where a
// payment channel's notifications reach it); then the harness finds the
// port first (freePort) and tries another should it be taken before the
// server binds it.
export async function startServer({ living = false, sim = {}, env: extra = {} } = {}) {
  const bin = process.env.VOYAGE_BIN || join(here, '..', 'bin', 'voyage');
  const dir = mkdtempSync(join(tmpdir(), 'voyage-e2e-'));
  const env = { ...process.env, ...simOff, ...noDrain };
  for (const [k, v] of Object.entries(sim)) env[`VOYAGE_SHOPPING_SIM_${k}`] = v;
  if (typeof extra !== 'function') Object.assign(env, extra);
  if (living) {
    const seed = spawnSync(bin, ['demo', 'seed', '--db', join(dir, 'voyage.db'), '--log-level', 'warn'], { encoding: 'utf8', timeout: 300_000, env });
    if (seed.status !== 0) throw new Error(`voyage demo seed failed (${seed.status}):\n${seed.stderr}`);
  }
  for (let attempt = 1; ; attempt++) {
    let addr = '127.0.0.1:0';
    const runEnv = { ...env };
    if (typeof extra === 'function') {
      addr = `127.0.0.1:${await freePort()}`;
      Object.assign(runEnv, extra(`http://${addr}`));
    }
    try {
      const { url, proc, log } = await serve(bin, dir, addr, runEnv);
      return {
        url,
        // missingKeys answers the catalog keys the server was asked for
        // and lacks so far, as "lang key" (each once: the server logs a
        // miss once), read from its warnings (pkg/app logs every miss).
        missingKeys: () => missingKeysIn(log()),
        async stop() {
          proc.kill('SIGTERM');
          await new Promise((r) => proc.once('exit', r));
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      // Another process took the port between freePort and the server's
      // bind: try a new one.
      if (addr.endsWith(':0') || !/address already in use/.test(err.message) || attempt === 5) {
        rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
}

// serve spawns `voyage serve --demo` on addr and resolves once it prints
// its address.
async function serve(bin, dir, addr, env) {
  const proc = spawn(bin, ['serve', '--demo', '--db', join(dir, 'voyage.db'), '--addr', addr, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'pipe'], env,
  });
  const { ready: url, log } = await started(proc, 'voyage', 60, (out) => out.match(/running at (http:\/\/\S+)/)?.[1]);
  return { url, proc, log };
}

// started resolves once ready(stdout so far) answers something, with that
// answer and log (stderr so far); the process exiting first, or not being
// ready in seconds (then it is killed), rejects with its stderr.
async function started(proc, name, seconds, ready) {
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const answer = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => { proc.kill('SIGTERM'); reject(new Error(`${name} did not start in ${seconds}s:\n` + stderr)); }, seconds * 1000);
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const r = ready(out);
      if (r !== undefined) { clearTimeout(timer); resolve(r); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited with ${code}:\n${stderr}`)); });
  });
  return { ready: answer, log: () => stderr };
}

// missingKeysIn reads the server's "i18n: missing catalog key" warnings
// (slog's text form: lang=… key=… with the key quoted when it has spaces).
export function missingKeysIn(log) {
  const out = [];
  for (const line of log.split('\n')) {
    if (!line.includes('i18n: missing catalog key')) continue;
    const lang = line.match(/ lang=(\S+)/)?.[1];
    const key = line.match(/ key=("(?:[^"\\]|\\.)*"|\S+)/)?.[1];
    out.push(`${lang} ${key}`);
  }
  return out;
}

// freePort answers a TCP port on 127.0.0.1 that was free a moment ago.
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// startFakePay starts e2e/fakepay (bin/fakepay, built by `make fakepay`;
// VOYAGE_FAKEPAY_BIN names another): Alipay's fake gateway as a process.
// It answers the fake's address, env (the settings that point
// payment.alipay at it, key files included), pay(qrCode): the payer scans
// the code and pays, the fake notifying the server at once, which answers
// the trade and the server's answers to the notification; and stop().
export async function startFakePay() {
  const bin = process.env.VOYAGE_FAKEPAY_BIN || join(here, '..', 'bin', 'fakepay');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build it with \`make fakepay\``);
  const dir = mkdtempSync(join(tmpdir(), 'voyage-fakepay-'));
  // -stdin: the fake stops when this process is gone, whatever ends it.
  const proc = spawn(bin, ['-dir', dir, '-stdin'], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Its first line is a JSON object: its url and env.
  const { ready } = await started(proc, 'fakepay', 30, (out) => {
    const nl = out.indexOf('\n');
    return nl >= 0 ? JSON.parse(out.slice(0, nl)) : undefined;
  });
  return {
    url: ready.url,
    env: ready.env,
    async pay(qrCode) {
      const res = await fetch(`${ready.url}/fakepay/pay`, { method: 'POST', body: new URLSearchParams({ qr_code: qrCode }) });
      const body = await res.json();
      assert.equal(res.status, 200, `the payer pays at the fake: ${JSON.stringify(body)}`);
      return body;
    },
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
      '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

// boot starts the server and the browser a test file shares; were the
// browser not to start, the server is stopped rather than left running.
export async function boot(opts) {
  const server = await startServer(opts);
  try {
    return { server, browser: await launchBrowser() };
  } catch (err) {
    await server.stop();
    throw err;
  }
}

// shutdown ends what boot started, either of them possibly absent when
// boot failed.
export async function shutdown(server, browser) {
  await browser?.close();
  await server?.stop();
}

// Opens a page that records console errors (CSP violations land there) and
// uncaught exceptions, so a test can assert there were none.
export async function newPage(browser, { lang, javaScriptEnabled = true, baseURL } = {}) {
  const context = await browser.newContext({ javaScriptEnabled, baseURL, viewport: { width: 1280, height: 900 } });
  if (lang) {
    const u = new URL(baseURL);
    await context.addCookies([{ name: 'lang', value: lang, domain: u.hostname, path: '/' }]);
  }
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  return page;
}

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// seriousViolations answers the page's accessibility problems, a line
// each: axe-core's serious and critical violations, and what does not
// reflow at 320 px (WCAG 2.1's 1.4.10, which axe cannot test;
// atReflowWidth). Every state a test checks with axe is laid out on the
// narrowest phone too.
export async function seriousViolations(page) {
  return [...await axeViolations(page), ...await atReflowWidth(page)];
}

// axeViolations runs axe-core on the page and answers its serious and
// critical violations.
export async function axeViolations(page) {
  // Evaluated over the DevTools protocol: the page's CSP forbids inline
  // scripts, and bypassing the CSP would hide violations these tests catch.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    // resultTypes: axe still runs every rule on every node, but builds the
    // selectors and details of one node only for the passes, incomplete
    // and inapplicable results, which nothing here reads; violations keep
    // all their nodes.
    // eslint-disable-next-line no-undef
    return await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

// offScreen answers what of the page a reader at the window's width cannot
// read: the page scrolling sideways, and text running past the window's
// right edge. Text inside something that scrolls sideways (a wide table the
// reader swipes) is reachable and not reported, as long as that scroller
// itself ends inside the window; text that something clips on purpose (an
// ellipsis, a visually hidden label) is not reported either.
export async function offScreen(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    const scroll = document.documentElement.scrollWidth;
    if (scroll > width) out.push(`the page scrolls sideways (${scroll} px wide in ${width})`);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const reported = new Set();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      const el = n.parentElement;
      if (!text || !el || reported.has(el) || !el.checkVisibility({ visibilityProperty: true })) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      if (!rects.length) continue;
      const right = Math.max(...rects.map((r) => r.right)) + window.scrollX;
      if (right <= width + 1) continue;
      // The first ancestor that does not let its content overflow decides.
      let within = null;
      for (let a = el; a && a !== document.body; a = a.parentElement) {
        const o = getComputedStyle(a).overflowX;
        if (o !== 'visible') { within = { a, o }; break; }
      }
      if (within && within.o !== 'auto' && within.o !== 'scroll') continue;
      if (within) {
        const box = within.a.getBoundingClientRect();
        if (box.right + window.scrollX <= width + 1) continue;
      }
      reported.add(el);
      const name = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}`;
      out.push(`"${text.slice(0, 40)}" (${name}) ends at ${Math.round(right)} px`);
      if (out.length >= 5) break;
    }
    return out;
  });
}

// reflowWidth is the width WCAG 2.1's reflow criterion (1.4.10) asks a
// page to read at without scrolling sideways: a 320 px phone, narrower
// than the 390 px one the tests take elsewhere.
export const reflowWidth = 320;

// atReflowWidth lays the page out at reflowWidth, answers what offScreen
// finds there, a line each naming the criterion, and gives the window back
// its size.
export async function atReflowWidth(page) {
  const size = page.viewportSize();
  await page.setViewportSize({ width: reflowWidth, height: 640 });
  try {
    return (await offScreen(page)).map((p) => `reflow (WCAG 1.4.10) at ${reflowWidth} px: ${p}`);
  } finally {
    await page.setViewportSize(size);
  }
}

// portalShot saves what the window shows (not the whole page) into
// docs/screenshots/portal/, the screenshots the closing note cites.
export const portalShotDir = join(here, '..', 'docs', 'screenshots', 'portal');
export async function portalShot(page, name) {
  mkdirSync(portalShotDir, { recursive: true });
  await page.screenshot({ path: join(portalShotDir, name + '.png'), caret: 'initial' });
}

// screenshot saves the whole page into e2e/screenshots/ (fullPage false:
// what the window shows).
export async function screenshot(page, name, { fullPage = true } = {}) {
  // caret: 'initial' because hiding the caret injects a <style> element,
  // which the page's CSP rightly blocks and reports as a console error.
  await page.screenshot({ path: join(screenshotDir, name + '.png'), fullPage, caret: 'initial' });
}

// login signs username in through the login form (the demo password unless
// told); loginOK also checks the portal welcomed them.
export async function login(page, username, password = 'demo-pass-1') {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Log in' }).click()]);
}

export async function loginOK(page, username, password = 'demo-pass-1') {
  await login(page, username, password);
  assert.ok(await page.getByText('Logged in successfully').isVisible(), `${username} logged in`);
}

// loginByIds signs username in through a login form in any language,
// filling it by its field ids (its labels are translated).
export async function loginByIds(page, username, password = 'demo-pass-1') {
  await page.goto('/login');
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  await submit(page, page.locator('form.auth-form button[type=submit]'));
}

// sentHome visits path, which page may not open, and checks it landed on
// home with the flash message that says why.
export async function sentHome(page, path, home, message) {
  await page.goto(path);
  assert.equal(new URL(page.url()).pathname, home, `${path}: sent home`);
  assert.ok(await page.getByText(message).isVisible(), `${path}: "${message}" shown`);
}

// submit clicks a button that posts a form and waits for the next page.
export async function submit(page, button) {
  await Promise.all([page.waitForNavigation(), button.click()]);
}

// flash is the text of the page's flash messages.
export async function flash(page) {
  return (await page.locator('.flashes').innerText()).trim();
}

// apiData calls the JSON API with the page's session cookie and answers
// the envelope's data.
export async function apiData(page, path) {
  const res = await page.request.get(path, { headers: { 'Accept-Language': 'en' } });
  assert.equal(res.status(), 200, `GET ${path}`);
  const env = await res.json();
  assert.equal(env.code, 0, `GET ${path}: ${JSON.stringify(env)}`);
  return env.data;
}

// cents turns an API amount ("1,234.50" or "1234.50") into whole cents, so
// sums are exact.
export function cents(amount) {
  return Math.round(Number(String(amount).replace(/,/g, '')) * 100);
}

// addFunds signs provider-admin in and adds amount CNY (at rate 1) to Demo
// Travel's wallet under reference, found from the agency list at list; it
// answers the provider's page.
export async function addFunds(browser, baseURL, { amount = '20000', reference, list = '/agency-manager' }) {
  const provider = await newPage(browser, { lang: 'en', baseURL });
  await loginOK(provider, 'provider-admin', 'provider-pass-1');
  await provider.goto(list);
  await submit(provider, provider.locator('table.mgr-table').getByRole('link', { name: 'Demo Travel', exact: true }));
  assert.equal((await provider.locator('h1').innerText()).trim(), 'Demo Travel');
  await submit(provider, provider.locator('nav.mgr-tabs').getByRole('link', { name: 'Credit and funds' }));
  await provider.locator('#funds-currencyReceived').selectOption('CNY');
  await provider.locator('#funds-amountReceived').fill(amount);
  await provider.locator('#funds-exchangeRate').fill('1');
  await provider.locator('#funds-reference').fill(reference);
  await submit(provider, provider.getByRole('button', { name: 'Add funds' }));
  assert.match(await flash(provider), /The funds were added/);
  return provider;
}

// wallet is Demo Travel's balance in cents, read by demo-finance (the
// wallet is a finance page: an operator may not read it).
export async function wallet(finance) {
  const w = await apiData(finance, '/base/v2/wallet');
  assert.equal(w.balance.currency, 'CNY', 'the wallet settles in CNY');
  return cents(w.balance.amount);
}

// topUp signs demo-finance in to watch Demo Travel's wallet, has the
// provider add 20,000 CNY under reference (addFunds) and checks the wallet
// went up by that; it answers both pages and the balance after, in cents.
export async function topUp(browser, baseURL, reference) {
  const finance = await newPage(browser, { lang: 'en', baseURL });
  await loginOK(finance, 'demo-finance');
  const start = await wallet(finance);
  const provider = await addFunds(browser, baseURL, { reference });
  const funded = await wallet(finance);
  assert.equal(funded - start, 2_000_000, 'the wallet went up by 20,000.00 CNY');
  return { finance, provider, funded };
}

// pickOption types query into a combobox field and chooses the first option
// whose name matches option; the field must then read as want.
async function pickOption(page, field, query, option, want) {
  await field.fill(query);
  const listbox = page.locator(`[id="${await field.getAttribute('aria-controls')}"]`);
  const choice = listbox.getByRole('option', { name: option }).first();
  await choice.waitFor();
  await choice.click();
  assert.match(await field.inputValue(), want);
}

// pickAirport chooses the airport of code in an airport field.
export async function pickAirport(page, field, query, code) {
  await pickOption(page, field, query, new RegExp(`\\b${code}\\b`), new RegExp(`\\(${code}\\)`));
}

// pickStation chooses the station named name in the station field label.
export async function pickStation(page, label, query, name) {
  await pickOption(page, page.getByRole('combobox', { name: label }), query, new RegExp(`^${name}\\b`), new RegExp(`^${name} \\(`));
}

// searchOneWay searches from → to one-way on day on the flight booking
// page; the caller waits for what it needs of the results.
export async function searchOneWay(page, from, to, day) {
  await page.goto('/flight/booking');
  await page.locator('[data-island="FlightSearch"][data-island-mounted="true"]').waitFor();
  await page.getByRole('radio', { name: 'One-way' }).check();
  await pickAirport(page, page.getByRole('combobox', { name: 'From' }), from, from);
  await pickAirport(page, page.getByRole('combobox', { name: 'To' }), to, to);
  await page.locator('#fs-journeys-0-date').fill(isoDay(day));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

// fillTrainSearch opens the train booking page and fills Beijing South →
// Shanghai Hongqiao on the second on-sale date; it answers the on-sale
// dates.
export async function fillTrainSearch(page) {
  await page.goto('/train/booking');
  await page.locator('[data-island="TrainBooking"][data-island-mounted="true"]').waitFor();
  await pickStation(page, 'From', 'beijing', 'Beijing South');
  await pickStation(page, 'To', 'shanghai', 'Shanghai Hongqiao');
  const date = page.getByLabel('Date');
  const dates = await date.locator('option').evaluateAll((os) => os.map((o) => o.value));
  await date.selectOption(dates[1]);
  return dates;
}

// searchTrains clicks Search trains and waits for the trains: the railway's
// failures are off (startServer), so a refused search is a defect.
export async function searchTrains(page) {
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/shopping/v2/train/search', { timeout: 60_000 }),
    page.getByRole('button', { name: 'Search trains' }).click(),
  ]);
  assert.ok(res.ok(), `the train search answered ${res.status()}`);
  await page.locator('.tb-train').first().waitFor();
}

// isoDay is the UTC date n days from now ("2026-12-01"), for search and
// travel dates far enough ahead that no zone's calendar disagrees.
export function isoDay(n) {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

// agencyDay is the date n days after today on the demo agencies' calendar
// (Asia/Shanghai, the provider's default zone), which the portal's "today"
// follows: from 16:00 UTC it is a day ahead of the UTC date. en-CA writes
// YYYY-MM-DD.
export function agencyDay(n) {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date()).split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

// fillAdultAndContact fills the flight booking form's first passenger (an
// adult, ZHANG/WEI, Chinese passport) and the contact, in English.
export async function fillAdultAndContact(page) {
  const pax = page.locator('fieldset.fc-passenger').first();
  await pax.getByLabel('Surname').fill('ZHANG');
  await pax.getByLabel('Given names').fill('WEI');
  await pax.getByRole('radio', { name: 'Male', exact: true }).check();
  await pax.getByLabel('Date of birth').fill('1985-04-02');
  const nationality = pax.getByRole('combobox', { name: 'Nationality' });
  await nationality.fill('China');
  // China is listed under its full name; typing 'China' finds it.
  await page.getByRole('option', { name: "People's Republic of China", exact: true }).click();
  assert.equal(await nationality.inputValue(), "People's Republic of China");
  await pax.getByLabel('Document type').selectOption('passport');
  await pax.getByLabel('Document number').fill('E12345678');
  await pax.getByLabel('Document expiry date').fill('2034-01-01');
  await page.getByLabel('Contact name').fill('Wei Zhang');
  await page.getByLabel('Contact email').fill('wei.zhang@example.com');
  await page.getByLabel('Contact phone').fill('+86 138 0013 8000');
}

// watchFailures records every answer of 400 or more the page gets; the
// browser logs each as a console error.
export function watchFailures(page) {
  const seen = [];
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() >= 400) seen.push({ status: r.status(), method: r.request().method(), path });
  });
  return seen;
}

// checkOutcome waits for the price check's answer: the form (ok), or an
// outcome panel, whose title it answers.
export async function checkOutcome(page) {
  await page.locator('form.fc-form, .fc-outcome').first().waitFor({ timeout: 90_000 });
  const outcome = page.locator('.fc-outcome');
  return (await outcome.count()) ? (await outcome.locator('h2').innerText()).trim() : '';
}

// choose selects the cards in turn until the price check lets one be
// booked: a new price or package is accepted; a fare no longer sold (or
// with other document rules, which may refuse a passport) sends the test
// back to the next one. The suppliers never fail here (startServer), so a
// check that failed is no reason to try again.
export async function choose(page) {
  const tried = [];
  for (let i = 0; i < 5; i++) {
    if (!(await page.locator('.fs-card').nth(i).count())) break;
    const card = page.locator('.fs-card').nth(i);
    tried.push(await card.locator('.fs-flightno').first().innerText());
    await Promise.all([page.waitForURL(/\/flight\/booking\/confirm\?solutionId=/), card.locator('.fs-select').click()]);
    await page.locator('[data-island="FlightConfirm"][data-island-mounted="true"]').waitFor();
    const title = await checkOutcome(page);
    if (title) {
      const accept = page.locator('.fc-outcome').getByRole('button', { name: /^(Accept the new price|Accept the new package)$/ });
      if (!(await accept.count())) {
        tried[tried.length - 1] += ` (${title})`;
        await page.goto('/flight/booking');
        await page.locator('[data-island="FlightSearch"][data-island-mounted="true"]').waitFor();
        await page.locator('.fs-results[aria-busy="false"] .fs-card').first().waitFor({ timeout: 30_000 });
        continue;
      }
      await accept.click();
    }
    await page.locator('form.fc-form').waitFor();
    return;
  }
  assert.fail(`no flight could be booked; tried ${tried.join(', ')}`);
}

// bookAndPay submits the flight confirmation and waits for the order's
// page; an error shown instead fails the test with its message.
export async function bookAndPay(page, button) {
  await button.click();
  await page.waitForFunction(() => /\/flight\/orders\/\d+$/.test(location.pathname) ||
    document.querySelector('.fc-submit .form-errors, .fc-order .form-errors'), null, { timeout: 120_000 });
  if (!/\/flight\/orders\/\d+$/.test(new URL(page.url()).pathname)) {
    assert.fail(`booking and paying failed: ${await page.locator('.fc-submit .form-errors, .fc-order .form-errors').first().innerText()}`);
  }
  await page.locator('#order-status').waitFor();
}

// passport is e2e/fixtures/passport.jpg, a Chinese passport (ZHANG SAN
// FENG, E23456789) rendered in OCR-B by the recognition tests' generator
// (go run e2e/fixtures/gen_passport.go).
export const passport = join(here, 'fixtures', 'passport.jpg');

// scanDocument uploads the passport through a ScanDocument inside scope
// and answers the fields it shows as read (with its confidence) and the
// result panel, before the user confirms them. The server reads the photo
// with Tesseract, within timeout ms.
export async function scanDocument(scope, { timeout }) {
  await scope.getByRole('button', { name: /^Scan document/ }).click();
  await scope.getByLabel("Photo of the document's data page").setInputFiles(passport);
  const result = scope.locator('.tv-scan-result');
  await result.waitFor({ timeout });
  const read = {};
  for (const dd of await result.locator('dd[data-field]').all()) read[await dd.getAttribute('data-field')] = (await dd.innerText()).trim();
  read.confidence = (await result.locator('.tv-scan-confidence').innerText()).trim();
  return { read, result };
}

// unexpectedErrors are page's console errors less the one 'Failed to load
// resource' of each failure the test expected (allow; by default none).
export function unexpectedErrors(page, failures, allow = () => false) {
  const allowed = failures.filter(allow).map((f) => `Failed to load resource: the server responded with a status of ${f.status} `);
  return page.errors.filter((e) => {
    const i = allowed.findIndex((a) => e.startsWith(a));
    if (i < 0) return true;
    allowed.splice(i, 1);
    return false;
  });
}
