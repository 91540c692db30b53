// The job console (River's own UI at /admin/jobs/) in the browser: the
// provider's SuperUser opens it from the user menu and sees River's job
// list, under the console's policy without a violation; an agency's
// SuperUser and a visitor are turned away. The harness runs on SQLite,
// where riverui works as on PostgreSQL (pkg/app's TestJobConsole runs both).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { boot, shutdown, newPage, login, flash } from './harness.mjs';

let server;
let browser;

before(async () => {
  ({ server, browser } = await boot());
});

after(async () => {
  await shutdown(server, browser);
});

test('the provider SuperUser opens the job console from the menu and sees the jobs', async () => {
  const page = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(page, 'provider-admin', 'provider-pass-1');
  await page.locator('details.usermenu summary').click();
  const entry = page.getByRole('link', { name: 'Job Console' });
  assert.equal(await entry.getAttribute('href'), '/admin/jobs/');
  await Promise.all([page.waitForURL(/\/admin\/jobs\//), entry.click()]);

  // River's sidebar of job states, then the list of one state: the
  // periodic jobs every server runs at its start are completed there.
  await page.getByRole('link', { name: /^Completed/ }).click();
  await page.waitForURL(/\/admin\/jobs\/jobs\?state=completed/);
  await page.getByText('cleanup_expired', { exact: true }).waitFor({ timeout: 15_000 });
  assert.ok(await page.getByText('deliver_email', { exact: true }).isVisible(), 'the email job is listed');
  // No script or style the console's policy refused, no failed request.
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an agency SuperUser and a visitor cannot open the job console', async () => {
  const agency = await newPage(browser, { lang: 'en', baseURL: server.url });
  await login(agency, 'demo-super');
  await agency.locator('details.usermenu summary').click();
  assert.equal(await agency.getByRole('link', { name: 'Job Console' }).count(), 0, 'the agency sees the menu entry');
  await agency.goto('/admin/jobs/');
  assert.ok(!new URL(agency.url()).pathname.startsWith('/admin/'), `the agency stayed on ${agency.url()}`);
  assert.match(await flash(agency), /You do not have the access/);
  // Its session cannot use the console's API either, to read or to act.
  const list = await agency.request.get('/admin/jobs/api/jobs?state=completed', { maxRedirects: 0 });
  assert.notEqual(list.status(), 200);
  assert.ok(!(await list.text()).includes('cleanup_expired'));
  const retry = await agency.request.post('/admin/jobs/api/jobs/retry', { data: { ids: ['1'] }, maxRedirects: 0 });
  assert.equal(retry.status(), 403);
  await agency.context().close();

  const visitor = await newPage(browser, { lang: 'en', baseURL: server.url });
  await visitor.goto('/admin/jobs/');
  assert.equal(new URL(visitor.url()).pathname, '/');
  assert.match(await flash(visitor), /Please login/);
  assert.equal(await visitor.getByText('cleanup_expired').count(), 0);
  await visitor.context().close();
});
