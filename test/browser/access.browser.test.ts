// The access gate in a real browser (issue 18, journey 8): svc started with
// STUDIO_ACCESS_TOKEN shows the access page instead of the app; pasting the
// token gets in (the server sets its cookie and drops the token from the
// address); a reload stays in; a wrong token is said to be wrong and is not
// left in the address.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';

const browser = useBrowser();
const TOKEN = 'd18-access.Token_~42';
const GATED = { STUDIO_ACCESS_TOKEN: TOKEN };
// The gate's refusals of the app's first /api calls, which are what flips it to the access page.
const GATED_401 = /status of 401 \(Unauthorized\)/;

void test('Dashboard (issue 18, journey 8): the access gate shows the access page; pasting the token gets in, the address drops it, a reload stays in', async (t) => {
  const svc = await startSvc(t, { env: GATED });
  const { page, context, allow } = await openPage(t, browser());
  allow(GATED_401);
  await page.goto(`${svc.base}/approvals?tab=history`);
  await page.getByRole('heading', { name: 'Access token required', level: 1 }).waitFor();
  assert.equal(await page.getByRole('navigation').count(), 0, 'no app behind the access page');
  await page.getByText('STUDIO_ACCESS_TOKEN').waitFor();
  assert.equal(await page.getByLabel('Access token').getAttribute('type'), 'password');

  // A wrong token: the server refuses it, the page says so and takes it out of the address.
  await page.getByLabel('Access token').fill('not-the-token');
  await page.getByRole('button', { name: 'Open dashboard' }).click();
  await page.getByRole('alert').filter({ hasText: 'That token was not accepted' }).waitFor();
  assert.equal(new URL(page.url()).search, '?tab=history');

  // A token with characters a token cannot have never leaves the page.
  await page.getByLabel('Access token').fill('has space');
  await page.getByRole('button', { name: 'Open dashboard' }).click();
  await page.getByRole('alert').filter({ hasText: 'only letters, digits' }).waitFor();

  await page.getByLabel('Access token').fill(TOKEN);
  await page.getByRole('button', { name: 'Open dashboard' }).click();
  await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  await page.getByRole('tab', { name: 'History', selected: true }).waitFor();
  assert.equal(new URL(page.url()).search, '?tab=history', 'the token is gone from the address, the rest kept');
  assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 1);
  const cookies = await context.cookies();
  assert.deepEqual(cookies.map((c) => c.name), ['svc_access']);
  assert.equal(cookies[0]?.value.includes(TOKEN), false, 'the cookie is a session, not the token');
  assert.equal(await page.evaluate<string>('JSON.stringify([document.cookie, Object.keys(localStorage), Object.keys(sessionStorage)])').then((s) => s.includes(TOKEN)), false);

  await page.reload();
  await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  assert.equal(await page.getByRole('heading', { name: 'Access token required' }).count(), 0);
  // And /api answers now (the shell's reads included).
  await page.getByRole('link', { name: /Gateway.*gateway stopped/ }).waitFor();
});

void test('Dashboard (issue 33 #6): opened at a path that reads as another host (//evil.example/teams), the access page sends the token to svc only', async (t) => {
  const svc = await startSvc(t, { env: GATED });
  const { page, context, allow } = await openPage(t, browser());
  allow(GATED_401);
  const hosts = new Set<string>();
  page.on('request', (r) => void hosts.add(new URL(r.url()).host));
  await page.goto(`${svc.base}//evil.example/teams`);
  await page.getByRole('heading', { name: 'Access token required', level: 1 }).waitFor();
  await page.getByLabel('Access token').fill(TOKEN);
  await page.getByRole('button', { name: 'Open dashboard' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  const here = new URL(page.url());
  assert.equal(here.origin, svc.base, 'still on svc');
  assert.equal(here.search, '', 'the token is gone from the address');
  assert.deepEqual([...hosts], [new URL(svc.base).host], 'no request left for another host');
  assert.deepEqual((await context.cookies()).map((c) => c.name), ['svc_access']);
});

for (const colorScheme of ['light', 'dark'] as const) {
  void test(`Dashboard (issue 18, journey 8): the access page passes axe in ${colorScheme}`, async (t) => {
    const svc = await startSvc(t, { env: GATED });
    const { page, allow } = await openPage(t, browser(), { colorScheme });
    allow(GATED_401);
    await page.goto(`${svc.base}/`);
    await page.getByRole('heading', { name: 'Access token required' }).waitFor();
    assert.deepEqual(await axeSerious(page), []);
  });
}
