import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, portalShot, boot, shutdown } from './harness.mjs';

// Booted before the tests are declared: whether the code samples' test runs
// depends on the document this server serves.
const { server, browser } = await boot();
after(() => shutdown(server, browser));

// The operations of the served document that carry x-codeSamples (curl, Go
// and TypeScript samples, pkg/api): until the document has them, the test
// of the reference's code samples is skipped, and runs as soon as it does.
const doc = await (await fetch(server.url + '/openapi.json')).json();
const hasCodeSamples = Object.values(doc.paths).some((item) =>
  Object.values(item).some((op) => Array.isArray(op?.['x-codeSamples']) && op['x-codeSamples'].length > 0));

const refund = '/order/v2/flight/orders/{id}/refund';

// referencePage opens a page of width×height in lang that records every
// request it makes (page.requests), to check none leaves the origin.
async function referencePage(lang, width, height) {
  const page = await newPage(browser, { lang, baseURL: server.url });
  await page.setViewportSize({ width, height });
  page.requests = [];
  page.on('request', (r) => page.requests.push(r.url()));
  // Scalar's bundle (4.8 MB) and the document (1.5 MB) take a busy CI
  // machine a while to parse: the timeout is for that, not a sleep.
  page.setDefaultTimeout(90_000);
  return page;
}

// referenceReady waits until Scalar has read the document and rendered
// its navigation.
async function referenceReady(page) {
  await page.locator('#api-reference-app li[data-sidebar-id*="/tag/"]').first().waitFor();
}

// operation is the section Scalar renders for method and path (its id is
// "<document>/tag/<tag>/<METHOD><path>").
function operation(page, method, path) {
  return page.locator(`#api-reference-app section[id$="/${method}${path}"]`);
}

// foreignRequests are the requests of page that went to another origin
// than the server's (data: URLs are no request to anyone).
function foreignRequests(page) {
  const origin = new URL(server.url).origin;
  return page.requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
}

test('the footer opens the API reference: Scalar renders every operation and its examples, from this origin only, with no console error', async () => {
  const page = await referencePage('en', 1366, 768);
  await page.goto('/');
  await page.locator('footer').getByRole('link', { name: 'API reference', exact: true }).click();
  await page.waitForURL('**/api-docs', { waitUntil: 'domcontentloaded' });
  assert.equal((await page.locator('h1').first().innerText()).trim(), 'API reference');
  assert.equal(await page.locator('.apidocs-intro a[href="/api-docs/guide"]').count(), 1, 'the reference links the getting-started guide');
  await referenceReady(page);

  // Scalar's sidebar lists each tag, its operations inside when the tag is
  // open: open them all and count the operations (GET…DELETE entries).
  const closed = page.locator('#api-reference-app li[data-sidebar-id*="/tag/"] > div > button[aria-expanded="false"]');
  for (let n = await closed.count(); n > 0; n = await closed.count()) {
    await closed.first().click();
  }
  const ops = await page.locator('#api-reference-app li[data-sidebar-id]').evaluateAll((els) =>
    els.filter((el) => /\/tag\/[^/]+\/(GET|POST|PUT|PATCH|DELETE)\//.test(el.dataset.sidebarId)).length);
  assert.ok(ops > 100, `only ${ops} operations listed`);
  // The webhooks the API sends are listed too.
  assert.equal(await page.locator('#api-reference-app li[data-sidebar-id$="/webhook/POST/order.status"]').count(), 1);

  // Open the refund operation from the sidebar: its request example (the
  // request card, headed by the method and path) and its response example
  // (the answer's envelope) render beside its parameters.
  await page.locator(`#api-reference-app li[data-sidebar-id$="/POST${refund}"] > a`).click();
  const op = operation(page, 'POST', refund);
  await op.locator('.request-card').waitFor();
  assert.match(await op.locator('.request-card').innerText(), /POST\s*\/order\/v2\/flight\/orders\/\{id\}\/refund/);
  assert.ok((await op.innerText()).includes('multipart/form-data'));
  const response = op.locator('.response-card');
  await response.filter({ hasText: '"code"' }).waitFor();
  assert.match(await response.innerText(), /"code":\s*0/);

  // The screenshot of the closing note: the operation with its examples,
  // at 1366×768.
  await op.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await portalShot(page, 'api-reference-1366x768');

  assert.deepEqual(page.errors, []);
  assert.deepEqual(foreignRequests(page), []);
});

test('the reference shows the operations\' code samples: curl, Go and TypeScript', { skip: !hasCodeSamples }, async () => {
  const page = await referencePage('en', 1366, 768);
  await page.goto(`/api-docs#tag/orders/POST${refund}`);
  const card = operation(page, 'POST', refund).locator('.request-card');
  await card.waitFor();
  // The request example shows the document's own samples, first of the
  // clients' menu (Scalar's "Code Examples").
  await card.locator('.scalar-card-header button').first().click();
  for (const label of ['curl', 'Go', 'TypeScript']) {
    await page.getByRole('option', { name: label, exact: true }).first().waitFor();
  }
  // Choosing one shows the document's sample (its first line, as the
  // code block numbers its lines).
  await page.getByRole('option', { name: 'Go', exact: true }).first().click();
  const goSample = doc.paths[refund].post['x-codeSamples'].find((s) => s.label === 'Go');
  await card.filter({ hasText: goSample.source.split('\n')[0].trim() }).waitFor();
  assert.deepEqual(page.errors, []);
  assert.deepEqual(foreignRequests(page), []);
});

test('the reference fits a phone (390×844): no sideways scroll, the operation readable', async () => {
  const page = await referencePage('zh-cn', 390, 844);
  await page.goto(`/api-docs#tag/orders/POST${refund}`);
  const op = operation(page, 'POST', refund);
  await op.locator('.response-card').filter({ hasText: '"code"' }).waitFor();
  assert.equal((await page.locator('h1').first().innerText()).trim(), 'API 参考');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls ${overflow}px sideways`);
  const box = await op.locator('h3').first().boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the operation's title is off screen: ${JSON.stringify(box)}`);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(foreignRequests(page), []);
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
