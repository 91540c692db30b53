// Identity in the browser: login form, landing pages, menus per role, the
// navigation guard, logout, language switch and single login (spec §2, §6).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { newPage, seriousViolations, screenshot, login, boot, shutdown, sentHome } from './harness.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

const menu = ['Flights', 'Group Ticket', 'Trains', 'My Bookings', 'Wallet & Invoicing', 'Agency Management'];

const users = [
  {
    username: 'demo-super', password: 'demo-pass-1', landing: '/flight/booking', h1: 'Flights', name: 'Demo Super',
    // Demo Travel may create sub-agencies, so its super user manages them.
    shown: menu, userMenu: ['User Management', 'User Log', 'Company Profile', 'Account'],
  },
  {
    username: 'demo-operator', password: 'demo-pass-1', landing: '/flight/booking', h1: 'Flights', name: 'Demo Operator',
    shown: ['Flights', 'Group Ticket', 'Trains', 'My Bookings'], userMenu: ['Account'], forbidden: '/bills/wallet',
  },
  {
    username: 'demo-finance', password: 'demo-pass-1', landing: '/bills/statements', h1: 'Statements', name: 'Demo Finance',
    // Finance books nothing, so no Trains entry that would end in a refusal.
    shown: ['Wallet & Invoicing', 'Agency Management'], userMenu: ['Account'], forbidden: '/flight/booking',
  },
  {
    username: 'provider-admin', password: 'provider-pass-1', landing: '/flight/booking', h1: 'Flights', name: 'Provider Admin',
    shown: menu, userMenu: ['User Management', 'User Log', 'Company Profile', 'Account'],
  },
];

function mainNav(page) {
  return page.getByRole('navigation', { name: 'Main menu' });
}

async function logout(page) {
  await page.locator('details.usermenu > summary').click();
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Log out' }).click()]);
}

for (const u of users) {
  test(`${u.username}: login, landing page, menus, guard, logout`, async () => {
    const page = await newPage(browser, { lang: 'en', baseURL: server.url });
    await login(page, u.username, u.password);
    assert.equal(new URL(page.url()).pathname, u.landing);
    assert.equal((await page.locator('h1').innerText()).trim(), u.h1);
    assert.ok(await page.getByText('Logged in successfully').isVisible());

    for (const entry of menu) {
      const n = await mainNav(page).getByRole('link', { name: entry, exact: true }).count();
      assert.equal(n, u.shown.includes(entry) ? 1 : 0, `menu entry ${entry}`);
    }
    const summary = page.locator('details.usermenu > summary');
    assert.match(await summary.innerText(), new RegExp(u.name));
    await summary.click();
    const userNav = page.getByRole('navigation', { name: 'User menu' });
    for (const entry of ['User Management', 'User Log', 'Company Profile', 'Account']) {
      const n = await userNav.getByRole('link', { name: entry, exact: true }).count();
      assert.equal(n, u.userMenu.includes(entry) ? 1 : 0, `user menu entry ${entry}`);
    }
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, `landing-${u.username}`);
    await summary.click();

    if (u.forbidden) {
      // Refused, the user lands on their own home in the portal.
      await sentHome(page, u.forbidden, u.landing, 'You do not have the access');
    }

    await logout(page);
    assert.equal(new URL(page.url()).pathname, '/');
    assert.ok(await page.getByText('You have logged out').isVisible());
    assert.equal(await page.getByRole('link', { name: 'Log in' }).count(), 1);
    assert.equal(await mainNav(page).count(), 0, 'no app menu when logged out');
    assert.deepEqual(page.errors, [], 'console errors');
    await page.context().close();
  });
}

test('wrong password shows the error inline', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'demo-operator', 'wrong-pass');
  assert.equal(new URL(page.url()).pathname, '/login');
  assert.ok(await page.getByText('Invalid username or password').isVisible());
  assert.equal(await page.getByLabel('Username').inputValue(), 'demo-operator');
  assert.ok(await page.getByText('Forgot your password? Please contact your administrator.').isVisible());
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'login-invalid-en');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a logged-out visit to /flight/orders goes home with "Please login"', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await sentHome(page, '/flight/orders', '/', 'Please login');
  await page.context().close();
});

test('switching language keeps the session', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'demo-super', 'demo-pass-1');
  await page.locator('#footer-lang').selectOption('zh-cn');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(new URL(page.url()).pathname, '/flight/booking');
  assert.equal(await page.getByRole('navigation', { name: '主菜单' }).getByRole('link', { name: '机票', exact: true }).count(), 1);
  assert.match(await page.locator('details.usermenu > summary').innerText(), /Demo Super/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// userId asks the API who username is.
async function userId(username, password) {
  const res = await fetch(server.url + '/base/v2/login', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username, password }),
  });
  const env = await res.json();
  assert.equal(env.code, 0, JSON.stringify(env));
  return env.data.userInfo.id;
}

function singleLoginQuery(secret, code, id) {
  const ts = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', secret).update(`code=${code}&timestamp=${ts}&userid=${id}`).digest('hex');
  return new URLSearchParams({ code, signature, timestamp: String(ts), userid: String(id) }).toString();
}

test('single login for Demo Travel shows the success message', async () => {
  const id = await userId('demo-operator', 'demo-pass-1');
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  const res = await page.goto('/flight/booking?' + singleLoginQuery('demo-sso-secret', 'e2e-demo-1', id));
  assert.equal(res.status(), 200);
  const url = new URL(page.url());
  assert.equal(url.pathname, '/flight/booking');
  assert.equal(url.search, '');
  assert.ok(await page.getByText('Logged in successfully').isVisible());
  assert.match(res.headers()['content-security-policy'], /frame-ancestors 'self' https:\/\/demo-travel\.example/);
  assert.equal(res.headers()['x-frame-options'], undefined);
  assert.match(await page.locator('details.usermenu > summary').innerText(), /Demo Operator/);
  assert.ok(await page.getByRole('link', { name: 'Customer service' }).isVisible());

  // The same link again: the code works once.
  await page.goto('/flight/booking?' + singleLoginQuery('demo-sso-secret', 'e2e-demo-1', id));
  assert.equal(new URL(page.url()).pathname, '/');
  assert.ok(await page.getByText('The single login link has already been used.').isVisible());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('single login for agency 222: no message, sky theme, own favicon, no customer service', async () => {
  const id = await userId('bluesky-super', 'demo-pass-1');
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await page.goto('/flight/booking?' + singleLoginQuery('bluesky-sso-secret', 'e2e-blue-1', id));
  assert.equal(new URL(page.url()).pathname, '/flight/booking');
  assert.equal((await page.locator('h1').innerText()).trim(), 'Flights');
  assert.equal(await page.getByText('Logged in successfully').count(), 0);
  assert.equal(await page.locator('.flash').count(), 0);
  assert.match(await page.getAttribute('body', 'class'), /\btheme-sky\b/);
  assert.equal(await page.getAttribute('link[rel="icon"]', 'href'), '/static/favicon-bluesky.svg');
  assert.equal(await page.getByRole('link', { name: 'Customer service' }).count(), 0);
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'single-login-bluesky');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('account page: details, password form, sessions', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await page.goto('/profile');
  assert.ok(await page.getByRole('main').getByRole('link', { name: 'Log in' }).isVisible());
  await login(page, 'demo-finance', 'demo-pass-1');
  await page.goto('/profile');
  assert.equal((await page.locator('h1').innerText()).trim(), 'Account');
  assert.ok(await page.getByText('finance@demo-travel.example').isVisible());
  assert.ok(await page.getByText('This session').isVisible());
  // The session's device in words, the raw user agent only in its title.
  const device = page.locator('#sessions-title').locator('xpath=..').locator('tbody td').first();
  assert.match((await device.innerText()).trim(), /^Headless Chrome \d+ on Linux$/);
  assert.match(await device.getAttribute('title'), /^Mozilla\/5\.0 /);
  await page.getByLabel('Current password').fill('wrong-pass');
  await page.getByLabel('New password', { exact: true }).fill('abc');
  await page.getByLabel('Confirm new password').fill('abd');
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Change password' }).click()]);
  assert.ok(await page.getByText('The current password is incorrect').isVisible());
  assert.ok(await page.getByText('The password must be 6 to 15 characters').isVisible());
  assert.ok(await page.getByText('The two passwords do not match').isVisible());
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'profile-en');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// At 390 px the main menu is behind a button: every entry is a whole word
// inside the screen once opened (a sideways row cut "Wallet & Invo|icing"
// with nothing to say there was more), in English and Chinese. It is a
// native disclosure, so it opens without JavaScript as well.
for (const { lang, button, entries, javaScriptEnabled } of [
  { lang: 'en', button: 'Menu', entries: menu, javaScriptEnabled: true },
  { lang: 'zh-cn', button: '菜单', entries: ['机票', '团队票', '火车票', '我的订单', '钱包与发票', '分销商管理'], javaScriptEnabled: true },
]) {
  test(`at 390 px the menu is a button that opens whole entries (${lang})`, async () => {
    const page = await newPage(browser, { lang: 'en', baseURL: server.url, javaScriptEnabled });
    await login(page, 'demo-super', 'demo-pass-1');
    await page.context().addCookies([{ name: 'lang', value: lang, url: server.url }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/flight/booking');
    const nav = page.getByRole('navigation', { name: lang === 'en' ? 'Main menu' : '主菜单' });
    assert.equal(await nav.count(), 0, 'the menu is closed until asked for');
    await page.locator('details.navmenu > summary', { hasText: button }).click();
    for (const entry of entries) {
      const link = nav.getByRole('link', { name: entry, exact: true });
      assert.equal(await link.count(), 1, `menu entry ${entry}`);
      const box = await link.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${entry} is whole on screen: ${JSON.stringify(box)}`);
      // The text is not clipped inside its link either.
      assert.ok(await link.evaluate((a) => a.scrollWidth <= a.clientWidth), `${entry} is not cut`);
    }
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll at 390 px');
    assert.deepEqual(await seriousViolations(page), [], `axe: menu open at 390 px (${lang})`);
    await screenshot(page, `menu-390-${lang}`, { fullPage: false });
    await Promise.all([page.waitForNavigation(), nav.getByRole('link', { name: entries[3], exact: true }).click()]);
    assert.equal(new URL(page.url()).pathname, '/flight/orders');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
