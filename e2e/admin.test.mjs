// The SuperUser's pages in the browser: user management, the user log and
// the company profile (spec §2), their access rule and their translations.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, launchBrowser, newPage, seriousViolations, screenshot, login, submit, loginByIds, sentHome } from './harness.mjs';

let server;
let browser;
let tmp;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  tmp = mkdtempSync(join(tmpdir(), 'voyage-admin-'));
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const row = (page, username) => page.locator(`tr[data-user="${username}"]`);

test('SuperUser manages users: list, add, edit, deactivate', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'demo-super', 'demo-pass-1');
  await page.goto('/users');
  assert.equal(new URL(page.url()).pathname, '/users');
  assert.equal((await page.locator('h1').innerText()).trim(), 'User Management');
  assert.equal(await row(page, 'demo-operator').count(), 1);
  assert.equal(await row(page, 'demo-finance').count(), 1);
  assert.equal(await row(page, 'bluesky-super').count(), 0, 'another agency\'s user is listed');
  assert.equal(await page.getByText('bluesky-super').count(), 0);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'admin-users-en');

  // Search and status filter work as plain GET forms.
  await page.getByLabel('Keyword').fill('finance');
  await submit(page, page.getByRole('button', { name: 'Search', exact: true }));
  assert.equal(new URL(page.url()).searchParams.get('keyword'), 'finance');
  assert.equal(await row(page, 'demo-finance').count(), 1);
  assert.equal(await row(page, 'demo-operator').count(), 0);
  await page.goto('/users');

  // No role: the spec's message, inline, and the typed values kept.
  const add = page.locator('#add-user form');
  await add.getByLabel('Username').fill('demo-clerk');
  await add.getByLabel('Email').fill('clerk@demo-travel.example');
  await add.getByLabel('Mobile').fill('13900000000');
  await add.getByLabel('Password').fill('clerk-pass-1');
  assert.equal(await add.getByLabel('Area code').inputValue(), '86');
  await submit(page, add.getByRole('button', { name: 'Add user' }));
  assert.ok(await page.getByText('Please assign a role for this user').isVisible());
  assert.equal(await page.locator('#add-user form').getByLabel('Username').inputValue(), 'demo-clerk');
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'admin-users-no-role');

  // A bad email gets the spec's message too.
  await page.locator('#add-user form').getByLabel('Email').fill('clerk@');
  await page.locator('#add-user form').getByLabel('Operator').check();
  await page.locator('#add-user form').getByLabel('Password').fill('clerk-pass-1');
  await submit(page, page.locator('#add-user form').getByRole('button', { name: 'Add user' }));
  assert.ok(await page.getByText('Email format error').isVisible());

  await page.locator('#add-user form').getByLabel('Email').fill('clerk@demo-travel.example');
  await page.locator('#add-user form').getByLabel('Operator').check();
  await page.locator('#add-user form').getByLabel('Password').fill('clerk-pass-1');
  await submit(page, page.locator('#add-user form').getByRole('button', { name: 'Add user' }));
  assert.equal(new URL(page.url()).pathname, '/users');
  assert.ok(await page.getByText('The user has been added').isVisible());
  const clerk = row(page, 'demo-clerk');
  assert.equal(await clerk.count(), 1);
  assert.match(await clerk.innerText(), /Operator/);
  assert.match(await clerk.innerText(), /\+86 13900000000/);

  // Edit: username and email are shown, not editable.
  await submit(page, clerk.getByRole('link', { name: 'Edit demo-clerk' }));
  const edit = page.locator('#edit-user form');
  assert.ok(await page.getByRole('heading', { name: 'Edit user demo-clerk' }).isVisible());
  assert.equal(await edit.locator('input[name="username"], input[name="email"]').count(), 0);
  assert.ok(await edit.getByText('clerk@demo-travel.example').isVisible());
  await edit.getByLabel('Nickname').fill('Clerk Kent');
  assert.deepEqual(await seriousViolations(page), []);
  await submit(page, edit.getByRole('button', { name: 'Save changes' }));
  assert.ok(await page.getByText('The user has been saved').isVisible());
  assert.match(await row(page, 'demo-clerk').innerText(), /Clerk Kent/);

  // Deactivate behind a confirmation.
  await row(page, 'demo-clerk').getByText('Deactivate', { exact: true }).click();
  assert.ok(await row(page, 'demo-clerk').getByText('They are logged out at once').isVisible());
  await submit(page, row(page, 'demo-clerk').getByRole('button', { name: 'Confirm deactivation' }));
  assert.ok(await page.getByText('The user has been deactivated').isVisible());
  assert.match(await row(page, 'demo-clerk').innerText(), /Inactive/);
  await screenshot(page, 'admin-users-deactivated');
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();

  // The deactivated user cannot log in.
  const other = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(other, 'demo-clerk', 'clerk-pass-1');
  assert.equal(new URL(other.url()).pathname, '/login');
  assert.ok(await other.getByText('Invalid username or password').isVisible());
  assert.deepEqual(other.errors, [], 'console errors');
  await other.context().close();
});

test('the user log reads the user.create entry as a sentence', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'demo-super', 'demo-pass-1');
  await page.goto('/user-log');
  assert.equal((await page.locator('h1').innerText()).trim(), 'User Log');
  assert.ok(await page.getByRole('columnheader', { name: 'Time', exact: true }).isVisible());
  await page.getByLabel('Action').selectOption('user.create');
  await submit(page, page.getByRole('button', { name: 'Filter' }));
  assert.equal(new URL(page.url()).searchParams.get('action'), 'user.create');
  const entry = page.locator('tbody tr', { hasText: 'Created user demo-clerk' });
  assert.equal(await entry.count(), 1);
  assert.doesNotMatch(await entry.innerText(), /user:demo-clerk|user\.create/);
  assert.match(await entry.innerText(), /demo-super/);
  // In Demo Travel's zone (Asia/Shanghai), the zone named (issue 20).
  assert.match(await entry.innerText(), /\d{4}-\d{2}-\d{2} \d{2}:\d{2} CST/);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'admin-user-log');

  await page.goto('/user-log?from=2020-13-45');
  assert.ok(await page.getByText('Please enter the date as YYYY-MM-DD').isVisible());
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();
});

// A 1×1 transparent PNG.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test('company profile: alias and logo', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'demo-super', 'demo-pass-1');
  await page.goto('/company');
  assert.equal((await page.locator('h1').innerText()).trim(), 'Company Profile');
  assert.equal(await page.getByLabel('Company name').inputValue(), 'Demo Travel');
  assert.ok(await page.getByText('Settlement currency').isVisible());
  assert.deepEqual(await seriousViolations(page), []);

  // Address is required.
  await page.getByLabel('Address').fill('');
  await submit(page, page.getByRole('button', { name: 'Save', exact: true }));
  assert.ok(await page.getByText('Please enter the company address').isVisible());

  await page.getByLabel('Address').fill('88 Nathan Road, Kowloon, Hong Kong');
  await page.getByLabel('Alias').fill('Demo HK');
  await submit(page, page.getByRole('button', { name: 'Save', exact: true }));
  assert.equal(new URL(page.url()).pathname, '/company');
  assert.ok(await page.getByText('Company information saved').isVisible());
  assert.equal(await page.getByLabel('Alias').inputValue(), 'Demo HK');

  const file = join(tmp, 'logo.png');
  writeFileSync(file, png);
  await page.getByLabel('Logo image').setInputFiles(file);
  await submit(page, page.getByRole('button', { name: 'Upload logo' }));
  assert.ok(await page.getByText('The logo has been uploaded').isVisible());
  const img = page.getByRole('img', { name: 'Company logo' });
  assert.ok(await img.isVisible());
  await page.waitForFunction(() => {
    const i = document.querySelector('.admin-logo img');
    return i && i.complete && i.naturalWidth === 1;
  });
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'admin-company');
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();
});

test('an operator is sent home from /users', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'demo-operator', 'demo-pass-1');
  // Refused, the operator lands on their own home in the portal.
  await sentHome(page, '/users', '/flight/booking', 'You do not have the access');
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();
});

test('zh-tw: the user management page is in Traditional Chinese', async () => {
  const page = await newPage(browser, { lang: 'zh-tw', baseURL: server.url });
  await loginByIds(page, 'demo-super');
  await page.goto('/users');
  assert.equal((await page.locator('h1').innerText()).trim(), '使用者管理');
  assert.ok(await page.getByRole('heading', { name: '新增使用者' }).isVisible());
  assert.ok(await page.getByRole('columnheader', { name: '使用者名稱' }).isVisible());
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'admin-users-zh-tw');
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();
});

// lineCount is how many lines the text of locator's element takes.
async function lineCount(locator) {
  return locator.evaluate((e) => {
    const r = document.createRange();
    r.selectNodeContents(e);
    return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
  });
}

test('zh-cn on a phone: each user is a card, the username whole on one line', async () => {
  // A Chinese header may break between any two characters: as a table the
  // list once fitted a phone by setting usernames one letter a line.
  const page = await newPage(browser, { lang: 'zh-cn', baseURL: server.url });
  await loginByIds(page, 'demo-super');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/users');
  const card = row(page, 'demo-operator');
  assert.equal(await card.evaluate((r) => getComputedStyle(r).display), 'block', 'a card per user at 390 px');
  const name = card.locator('th[scope="row"]');
  assert.equal((await name.innerText()).trim(), 'demo-operator');
  assert.equal(await lineCount(name), 1, 'the username on one line');
  const email = card.locator('td', { hasText: 'operator@demo-travel.example' });
  assert.equal(await email.evaluate((td) => getComputedStyle(td, '::before').content), '"邮箱"', 'each value under its column\'s name');
  assert.deepEqual(await seriousViolations(page), []);
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();
});
