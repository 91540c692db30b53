import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, seriousViolations, screenshot, boot, shutdown, sentHome } from './harness.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

const languages = [
  { lang: 'en', htmlLang: 'en', h2: 'Apply for partnership', submit: 'Submit', nav: 'Privacy Policy' },
  { lang: 'zh-cn', htmlLang: 'zh-CN', h2: '申请成为合作伙伴', submit: '提交', nav: '隐私政策' },
  { lang: 'zh-tw', htmlLang: 'zh-TW', h2: '申請成為合作夥伴', submit: '送出', nav: '隱私權政策' },
];

for (const l of languages) {
  test(`home page in ${l.lang}: language, content, accessibility`, async () => {
    const page = await newPage(browser, { lang: l.lang, baseURL: server.url });
    await page.goto('/');
    assert.equal(await page.getAttribute('html', 'lang'), l.htmlLang);
    assert.equal(await page.locator('h1').count(), 1);
    assert.ok((await page.locator('h1').innerText()).trim().length > 0);
    assert.equal((await page.locator('#apply h2').innerText()).trim(), l.h2);
    // Logged out, the top bar offers no app menus; the footer links are there.
    assert.ok(await page.locator('footer').getByRole('link', { name: l.nav, exact: true }).isVisible());
    assert.equal(await page.locator('header').getByRole('link', { name: /^(Flights|机票|機票)$/ }).count(), 0);
    // The island replaced the fallback select with a combobox. The fallback
    // <select> is a combobox too, so wait for it to go rather than for any
    // combobox to appear.
    await page.locator('#apply select[name="country"]').waitFor({ state: 'detached' });
    await page.locator('#apply').getByRole('combobox').first().waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await screenshot(page, `home-${l.lang}`);
    assert.deepEqual(page.errors, [], 'console errors');
    await page.context().close();
  });
}

for (const path of ['/terms', '/privacy']) {
  for (const l of languages) {
    test(`${path} in ${l.lang}`, async () => {
      const page = await newPage(browser, { lang: l.lang, baseURL: server.url });
      const res = await page.goto(path);
      assert.equal(res.status(), 200);
      assert.equal(await page.getAttribute('html', 'lang'), l.htmlLang);
      assert.equal(await page.locator('h1').count(), 1);
      assert.ok((await page.locator('main h2').count()) >= 5, 'numbered sections');
      assert.deepEqual(await seriousViolations(page), []);
      await screenshot(page, `${path.slice(1)}-${l.lang}`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
}

test('partnership form with JavaScript: invalid then valid', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await page.goto('/');
  const form = page.locator('#apply');
  await form.getByRole('button', { name: 'Submit' }).click();
  await form.getByText('Please input the username').waitFor();
  assert.ok(await form.getByText('Please select your country').isVisible());
  assert.ok(await form.getByText('Please input email address or phone number').first().isVisible());
  await screenshot(page, 'apply-invalid-en');

  await form.getByLabel('Title/Name').fill('Ms Tan');
  await form.getByLabel('Email').fill('tan@');
  await form.getByRole('button', { name: 'Submit' }).click();
  await form.getByText('The email format is incorrect.').waitFor();

  await form.getByLabel('Email').fill('tan@lionheart-travel.example');
  const country = form.getByRole('combobox');
  await country.fill('Singa');
  await page.getByRole('option', { name: /Singapore/ }).first().waitFor();
  await country.press('ArrowDown');
  await country.press('Enter');
  assert.equal(await form.locator('input[type="hidden"][name="country"]').inputValue(), 'SG');
  await form.getByLabel('Company name').fill('Lionheart Travel Pte Ltd');
  await form.getByRole('button', { name: 'Submit' }).click();
  await form.getByText('Submitted', { exact: true }).waitFor();
  assert.ok(await form.getByText('An account manager will reach out to you soon.').isVisible());
  assert.deepEqual(await seriousViolations(page), []);
  await screenshot(page, 'apply-done-en');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('partnership form without JavaScript, in Traditional Chinese', async () => {
  const page = await newPage(browser, { lang: 'zh-tw', javaScriptEnabled: false, baseURL: server.url });
  await page.goto('/');
  const form = page.locator('#apply');
  assert.equal(await form.locator('select[name="country"]').count(), 1, 'fallback select present without JS');
  await form.getByRole('button', { name: '送出' }).click();
  await page.waitForLoadState();
  assert.ok(await page.getByText('請輸入使用者名稱').isVisible());
  assert.ok(await page.getByText('請選擇您的國家/地區').first().isVisible());
  await page.locator('#app-name').fill('陳小姐');
  await page.locator('#app-phone').fill('+886 2 2345 6789');
  await page.locator('select[name="country"]').selectOption('TW');
  await page.locator('#apply').getByRole('button', { name: '送出' }).click();
  await page.waitForURL(/applied=1/);
  assert.ok(await page.getByText('已送出', { exact: true }).isVisible());
  await page.context().close();
});

test('footer language selector switches the language', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await page.goto('/terms');
  await page.locator('#footer-lang').selectOption('zh-cn');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(page.url(), /\/terms$/);
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  await page.context().close();
});

test('a guarded page sends a visitor home with "Please login"', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await sentHome(page, '/flight/booking', '/', 'Please login');
  await page.context().close();
});
