// The app shell in a real browser: the production build loads under the
// page's CSP with no error, the entry page is served for every client route,
// an unknown route shows "not found" inside the shell, and the page passes
// axe in light and dark.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';

const browser = useBrowser();

void test('the dashboard loads under its CSP and an unknown route is a page, not an error', async (t) => {
  const svc = await startSvc(t);
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/no/such/page`);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 1);
  assert.deepEqual(await axeSerious(page), []);
});

void test('the dark theme follows the system and passes axe', async (t) => {
  const svc = await startSvc(t);
  const { page } = await openPage(t, browser(), { colorScheme: 'dark' });
  await page.goto(`${svc.base}/no/such/page`);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  assert.equal(await page.evaluate<string>('document.documentElement.dataset.theme'), 'dark');
  assert.deepEqual(await axeSerious(page), []);
});
