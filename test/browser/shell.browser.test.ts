// The app shell in a real browser: the production build loads under the
// page's CSP with no error, the entry page is served for every client route,
// an unknown route shows "not found" inside the shell, and the page passes
// axe in light and dark.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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

// The nav's badges and the drawer (issue 18, page 1; brief D).

/** An agent with a minted binding asks to delete a file: the broker opens an approval and waits. */
async function raiseApproval(t: TestContext, base: string, home: string): Promise<void> {
  const res = await fetch(`${base}/api/mcp/config?server=tools&agentId=agent-shell`);
  const { config } = (await res.json()) as { config: { structured: { headers: Record<string, string> } } };
  const client = new Client({ name: 'agent-shell', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/tools`), { requestInit: { headers: config.structured.headers } }));
  t.after(() => client.close());
  mkdirSync(join(home, 'workspace'), { recursive: true });
  writeFileSync(join(home, 'workspace', 'shell.txt'), 'x');
  // Left waiting: the test ends with it pending (closing the client cancels it).
  client.callTool({ name: 'delete_path', arguments: { path: 'shell.txt' } }, undefined, { timeout: 120_000 }).catch(() => undefined);
}

void test('Dashboard (issue 18, shell): badges show the gateway stopped, the pending approvals raised while the page is open, and the recent errors', async (t) => {
  const svc = await startSvc(t, { env: { SVC_APPROVAL_TTL_MS: String(30 * 60_000) } });
  const ingest = await fetch(`${svc.base}/api/obs/ingest`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ events: [{ kind: 'error', agentId: 'agent-shell', data: { errorClass: 'ToolError', message: 'disk full' } }] }),
  });
  assert.equal(ingest.status, 200);
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/settings`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  // A svc with no gateway: stopped.
  await nav.getByRole('link', { name: /^Gateway.*gateway stopped$/ }).waitFor();
  await nav.getByRole('link', { name: /^Settings.*1 error in the last 24 hours$/ }).waitFor();
  await page.getByText('disk full').waitFor();
  assert.equal(await nav.getByRole('link', { name: /^Approvals$/ }).count(), 1, 'no approvals badge while none is pending');

  await raiseApproval(t, svc.base, svc.home);
  // The badge polls every 10 s (paused in hidden tabs): the approval shows without a reload.
  await nav.getByRole('link', { name: /^Approvals.*1 pending approval$/ }).waitFor({ timeout: 30_000 });
  assert.equal(await nav.getByRole('link', { name: /^Approvals/ }).locator('[aria-hidden="true"]').innerText(), '1', 'the badge shows the count');

  // On a phone the nav is folded into the drawer: the Menu button carries the pending count.
  await page.setViewportSize({ width: 390, height: 844 });
  const menu = page.getByRole('button', { name: /^Menu.*1 pending approval$/ });
  await menu.waitFor();
  assert.equal(await menu.locator('[aria-hidden="true"]').innerText(), '1');
});

void test('Dashboard (issue 18, shell): at 390 x 844 the nav is a drawer worked by keyboard: focus moves in, Escape closes, a link closes it', async (t) => {
  const svc = await startSvc(t);
  const { page } = await openPage(t, browser(), { viewport: { width: 390, height: 844 } });
  await page.goto(`${svc.base}/settings`);
  await page.getByRole('heading', { name: 'Settings and health' }).waitFor();
  const menu = page.getByRole('button', { name: 'Menu' });
  assert.equal(await page.getByRole('navigation', { name: 'Main' }).count(), 0, 'the nav is folded away on a phone');
  assert.equal(await page.evaluate<boolean>('document.documentElement.scrollWidth <= 390'), true, 'nothing is wider than the screen');

  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), 'Menu');
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('navigation', { name: 'Main' });
  await drawer.waitFor();
  assert.equal(await menu.getAttribute('aria-expanded'), 'true');
  assert.equal(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), 'Setup', 'focus moves into the drawer');
  assert.deepEqual(await axeSerious(page), []);

  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), 'Menu', 'focus returns to Menu');

  await page.keyboard.press('Enter');
  await drawer.waitFor();
  for (let i = 0; i < 10 && !(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).startsWith('Approvals'); i += 1) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  await drawer.waitFor({ state: 'hidden' });
  assert.equal(new URL(page.url()).pathname, '/approvals');
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
});
