// Settings and health in a real browser (issue 18, page 9): the gateway URL
// with the spec's validation message, the write-only token, the health
// checks and Recheck; what the page shows and what the server holds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator } from 'playwright-core';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const browser = useBrowser();
const BAD_URL = 'gatewayUrl must be a ws:// or wss:// URL';

interface SettingsView {
  gatewayUrl: string;
  hasToken: boolean;
}

async function settings(base: string): Promise<SettingsView> {
  return (await (await fetch(`${base}/api/settings`)).json()) as SettingsView;
}

void test('Dashboard (issue 18, Settings): a bad gateway URL shows the spec\'s message and the server keeps the old one; a good one is saved', async (t) => {
  const svc = await startSvc(t);
  const before = (await settings(svc.base)).gatewayUrl;
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/settings`);
  await page.getByRole('heading', { name: 'Settings and health', level: 1 }).waitFor();
  const url = page.getByLabel('Gateway URL');
  await waitValue(url, before);

  await url.fill('http://gateway.example:18789');
  await page.getByRole('button', { name: 'Save URL' }).click();
  await page.getByRole('alert').filter({ hasText: BAD_URL }).waitFor();
  assert.equal((await settings(svc.base)).gatewayUrl, before, 'the server keeps the old URL');

  await url.fill('  wss://gateway.example:443/ws  ');
  await page.getByRole('button', { name: 'Save URL' }).click();
  await page.getByText('Saved. svc reconnects to the gateway.').waitFor();
  assert.equal((await settings(svc.base)).gatewayUrl, 'wss://gateway.example:443/ws');
  assert.equal(await page.getByRole('alert').filter({ hasText: BAD_URL }).count(), 0);
});

void test('Dashboard (issue 18, Settings): the server\'s refusal is shown as it is', async (t) => {
  const svc = await startSvc(t);
  const { page, allow } = await openPage(t, browser());
  allow(/status of 500/);
  await page.route('**/api/settings', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Failed to save settings' }) })
      : route.continue(),
  );
  await page.goto(`${svc.base}/settings`);
  await page.getByLabel('Gateway URL').fill('ws://127.0.0.1:9');
  await page.getByRole('button', { name: 'Save URL' }).click();
  await page.getByRole('alert').filter({ hasText: 'Failed to save settings' }).waitFor();
});

void test('Dashboard (issue 18, Settings): the gateway token is write-only: saved, never shown back, cleared after a confirmation', async (t) => {
  const svc = await startSvc(t);
  const secret = 'tok-d18-0123456789abcdef';
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/settings`);
  const field = page.getByLabel('Gateway token');
  await page.getByText('No token is set.').waitFor();
  assert.equal(await field.getAttribute('type'), 'password');

  await field.fill(secret);
  await page.getByRole('button', { name: 'Save token' }).click();
  await page.getByText('Token saved.').waitFor();
  await page.getByText(/^A token is set\./).waitFor();
  assert.equal((await settings(svc.base)).hasToken, true);
  assert.equal(await field.inputValue(), '', 'the typed token is dropped once sent');
  await page.reload();
  await page.getByText(/^A token is set\./).waitFor();
  assert.equal((await page.content()).includes(secret), false, 'the page never holds the token');
  assert.equal(await page.getByLabel('Gateway token').inputValue(), '');

  // An empty save asks first; Cancel keeps the token.
  await page.getByRole('button', { name: 'Save token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clear the gateway token?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await settings(svc.base)).hasToken, true);
  await page.getByRole('button', { name: 'Clear token' }).click();
  await dialog.getByRole('button', { name: 'Clear token' }).click();
  await page.getByText('Token cleared.').waitFor();
  await page.getByText('No token is set.').waitFor();
  assert.equal((await settings(svc.base)).hasToken, false);
});

void test('Dashboard (issue 18, Settings): the health checks are listed with their level and message, and Recheck asks again', async (t) => {
  const svc = await startSvc(t);
  const report = (await (await fetch(`${svc.base}/api/health`)).json()) as { checks: Array<{ id: string; ok: boolean; message: string }>; fatal: string[]; finishedAt: string };
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/settings`);
  const list = page.getByRole('list', { name: 'Health checks' });
  await list.getByRole('listitem').first().waitFor();
  const shown = await list.getByRole('listitem').allInnerTexts();
  assert.equal(shown.length, report.checks.length);
  for (const [i, c] of report.checks.entries()) {
    const level = c.ok ? 'ok' : report.fatal.includes(c.id) ? 'fatal' : 'degraded';
    assert.deepEqual(shown[i]?.split('\n').map((s) => s.trim()).filter(Boolean), [level, c.id, c.message].filter(Boolean));
  }
  assert.ok(shown.some((s) => s.startsWith('ok')), 'a fresh svc passes its fatal checks');

  // A recheck's time must read differently from the boot report's (the page shows seconds).
  const shownBefore = await page.getByRole('status').filter({ hasText: /^All checks pass|^Working|^Not working/ }).innerText();
  await waitFor(() => Date.now() >= Date.parse(report.finishedAt) + 1_000, { what: 'a second to pass since the boot report' });
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/health/recheck') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Recheck' }).click();
  const rechecked = (await (await answer).json()) as { finishedAt: string };
  const when = await page.evaluate<string>(`new Date(${JSON.stringify(rechecked.finishedAt)}).toLocaleString()`);
  await page.getByRole('status').filter({ hasText: `Checked ${when}.` }).waitFor();
  assert.notEqual(await page.getByRole('status').filter({ hasText: /^All checks pass|^Working|^Not working/ }).innerText(), shownBefore);
  const after = (await (await fetch(`${svc.base}/api/health`)).json()) as { finishedAt: string };
  assert.equal(after.finishedAt, rechecked.finishedAt, 'the server now holds the rechecked report');
});

for (const colorScheme of ['light', 'dark'] as const) {
  void test(`Dashboard (issue 18, Settings): the page passes axe in ${colorScheme}`, async (t) => {
    const svc = await startSvc(t);
    const { page } = await openPage(t, browser(), { colorScheme });
    await page.goto(`${svc.base}/settings`);
    await page.getByRole('list', { name: 'Health checks' }).waitFor();
    await page.getByLabel('Gateway token').waitFor();
    await page.getByText(/No errors in the last 24 hours|in the last 24 hours/).first().waitFor();
    assert.deepEqual(await axeSerious(page), []);
  });
}

async function waitValue(locator: Locator, value: string): Promise<void> {
  await locator.waitFor();
  await waitFor(async () => (await locator.inputValue()) === value, { what: `the field to read ${value}` });
}
