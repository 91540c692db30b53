import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { newPage, screenshotDir, boot, shutdown } from './harness.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await boot()));
after(() => shutdown(server, browser));

test('the footer opens the API reference: Swagger UI renders the operations with no console error', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await page.setViewportSize({ width: 1366, height: 768 });
  // Swagger UI's bundle is large: give a busy CI machine time to parse it.
  page.setDefaultTimeout(90_000);
  await page.goto('/');
  await page.locator('footer').getByRole('link', { name: 'API reference', exact: true }).click();
  await page.waitForURL('**/api-docs', { waitUntil: 'domcontentloaded' });
  assert.equal((await page.locator('h1').first().innerText()).trim(), 'API reference');
  // Swagger UI fetched /openapi.json and rendered every operation.
  await page.locator('#api-reference .opblock').first().waitFor();
  const ops = await page.locator('#api-reference .opblock').count();
  assert.ok(ops > 100, `only ${ops} operations rendered`);
  await page.locator('#api-reference .opblock-summary-path', { hasText: '/order/v2/flight/orders/{id}/refund' }).first().waitFor();
  // The webhooks section is there too.
  assert.ok(await page.locator('#api-reference').getByText('order.status', { exact: false }).count() > 0);
  // The screenshot of the closing note: the operations, at 1366×768.
  await page.locator('#api-reference .opblock-tag').nth(1).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(screenshotDir, 'api-reference-1366x768.png'), caret: 'initial' });
  // Open one operation: its parameters and responses render.
  await page.locator('#api-reference .opblock-summary-path', { hasText: '/order/v2/flight/orders/{id}/refund' }).first().click();
  await page.locator('#api-reference .opblock.is-open .responses-table').first().waitFor();
  assert.ok(await page.locator('#api-reference .opblock.is-open').getByText('multipart/form-data').count() > 0);
  assert.deepEqual(page.errors, []);
});

const guides = [
  { lang: 'en', h1: 'Getting started with the agency API', limits: 'Rate limits' },
  { lang: 'zh-cn', h1: '代理商 API 入门', limits: '频率限制' },
  { lang: 'zh-tw', h1: '代理商 API 入門', limits: '頻率限制' },
];

for (const g of guides) {
  test(`the API getting-started page in ${g.lang}`, async () => {
    const page = await newPage(browser, { lang: g.lang, baseURL: server.url });
    await page.goto('/api-docs/guide');
    assert.equal((await page.locator('h1').first().innerText()).trim(), g.h1);
    const sections = await page.locator('article.apidocs h2').allInnerTexts();
    assert.equal(sections.length, 8);
    assert.ok(sections.includes(g.limits), sections.join(' | '));
    assert.ok((await page.locator('article.apidocs').innerText()).includes('X-Voyage-Signature'));
    assert.deepEqual(page.errors, []);
  });
}
