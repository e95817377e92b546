// The Approvals page in a real browser (issue 18, page 7 and journey 6):
// approvals raised in the background by a real MCP SDK client calling the
// tools broker's delete_path (a tool whose policy asks) appear with the nav
// badge and a countdown, are resolved from the page by keyboard and by
// mouse, and the server, the history and the tool audit agree.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { waitFor } from '../helpers/wait.ts';

const browser = useBrowser();
const LONG_TTL = { SVC_APPROVAL_TTL_MS: String(30 * 60_000) };

interface Approval {
  id: string;
  toolName: string;
  agentId: string | null;
  status: string;
}

/** An agent attached to svc's tools server with its own minted binding (as a runtime would be). */
async function agentClient(t: TestContext, base: string, agentId: string): Promise<Client> {
  const res = await fetch(`${base}/api/mcp/config?server=tools&agentId=${encodeURIComponent(agentId)}`);
  assert.equal(res.status, 200);
  const { config } = (await res.json()) as { config: { structured: { headers: Record<string, string> } } };
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/tools`), { requestInit: { headers: config.structured.headers } });
  const client = new Client({ name: `agent-${agentId}`, version: '0.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

/** delete_path on a file in svc's workspace: the broker asks a person first. Resolves when the call ends. */
function askToDelete(home: string, client: Client, file: string): Promise<CallToolResult> {
  mkdirSync(join(home, 'workspace'), { recursive: true });
  writeFileSync(join(home, 'workspace', file), 'x');
  return client.callTool({ name: 'delete_path', arguments: { path: file } }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>;
}

async function pending(base: string): Promise<Approval[]> {
  return ((await (await fetch(`${base}/api/tools/approvals`)).json()) as { approvals: Approval[] }).approvals;
}

const card = (page: Page, agentId: string) => page.getByRole('article').filter({ hasText: agentId });
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

/** Presses Tab until the focused element is a button named `name` inside the card of `agentId`. */
async function tabTo(page: Page, agentId: string, name: string): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    await page.keyboard.press('Tab');
    const here = await page.evaluate<string>(
      `(() => { const a = document.activeElement; const c = a && a.closest('article'); return a && a.tagName === 'BUTTON' && c ? a.textContent + '|' + c.textContent : ''; })()`,
    );
    if (here.startsWith(`${name}|`) && here.includes(agentId)) return;
  }
  assert.fail(`Tab never reached "${name}" on ${agentId}'s card`);
}

void test('Dashboard (issue 18, journey 6): approvals raised in the background appear with badge and countdown and are resolved by keyboard and by mouse', async (t) => {
  const svc = await startSvc(t, { env: LONG_TTL });
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/approvals`);
  await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  await page.getByText('No pending approvals').waitFor();

  const alice = await agentClient(t, svc.base, 'agent-alice');
  const bob = await agentClient(t, svc.base, 'agent-bob');
  const first = askToDelete(svc.home, alice, 'alice.txt');
  // Appears while the page is open (the page polls; nothing is reloaded).
  await card(page, 'agent-alice').waitFor();
  await page.getByRole('link', { name: /Approvals.*1 pending approval/ }).waitFor();
  const aliceCard = card(page, 'agent-alice');
  assert.equal(await aliceCard.getByRole('heading', { name: 'delete_path' }).count(), 1);
  await aliceCard.getByText('risk: destructive').waitFor();
  await aliceCard.getByText('alice.txt').waitFor();
  // The countdown follows SVC_APPROVAL_TTL_MS (30 min): its format, not the passing of time.
  assert.match(await aliceCard.getByText(/^expires in /).innerText(), /^expires in (30:00|29:[0-5]\d)$/);
  await page.getByRole('status').filter({ hasText: '1 approval waiting.' }).waitFor();

  // Allow once, by keyboard only.
  await page.getByRole('tab', { name: 'Pending' }).focus();
  await tabTo(page, 'agent-alice', 'Allow once');
  await page.keyboard.press('Enter');
  await aliceCard.getByText('Allowed once').waitFor();
  assert.equal((await first).isError ?? false, false, 'the allowed call ran');

  // Deny, by mouse.
  const second = askToDelete(svc.home, bob, 'bob.txt');
  await card(page, 'agent-bob').getByRole('button', { name: 'Deny' }).click();
  await card(page, 'agent-bob').getByText('Denied', { exact: true }).waitFor();
  assert.match(text(await second), /denied by a human/);

  // Always allow asks first: Escape cancels and nothing is decided; confirming decides.
  const third = askToDelete(svc.home, alice, 'again.txt');
  const thirdCard = page.getByRole('listitem').filter({ has: page.getByText('again.txt') }).getByRole('article');
  await thirdCard.getByRole('button', { name: 'Always allow' }).click();
  const dialog = page.getByRole('dialog', { name: 'Always allow delete_path?' });
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await pending(svc.base)).length, 1, 'cancelling the confirmation decides nothing');
  await thirdCard.getByRole('button', { name: 'Always allow' }).click();
  await dialog.getByRole('button', { name: 'Always allow' }).click();
  await thirdCard.getByText('Always allowed').waitFor();
  assert.equal((await third).isError ?? false, false);

  // The server holds the decisions: nothing pending, the badge is gone.
  assert.deepEqual(await pending(svc.base), []);
  const resolved = (await (await fetch(`${svc.base}/api/obs/events?kinds=approval_resolved`)).json()) as { events: Array<{ agentId: string; data: string }> };
  assert.deepEqual(
    resolved.events.map((e) => [e.agentId, (JSON.parse(e.data) as { status: string }).status]),
    [['agent-alice', 'allow_once'], ['agent-bob', 'deny'], ['agent-alice', 'allow_always']],
  );
  await page.getByRole('link', { name: 'Approvals', exact: true }).waitFor();

  // History, with the tab in the URL; back and forward keep it.
  await page.getByRole('tab', { name: 'History' }).click();
  await page.waitForURL(/\?tab=history$/);
  const history = page.getByRole('region', { name: 'Approval history' });
  await waitFor(async () => (await history.getByRole('row').count()) === 4, { what: 'three history rows and the header' });
  const decisions = (await history.getByRole('row').allInnerTexts()).slice(1).map((r) => r.split('\t').slice(1, 4).join(' | '));
  assert.deepEqual(decisions, [
    'delete_path | agent-alice | Always allowed',
    'delete_path | agent-bob | Denied',
    'delete_path | agent-alice | Allowed once',
  ]);
  await page.goBack();
  await page.getByRole('tab', { name: 'Pending', selected: true }).waitFor();
  await page.goForward();
  await page.getByRole('tab', { name: 'History', selected: true }).waitFor();

  // The tool audit lists the broker's rows; the filter is in the URL too.
  await page.getByRole('tab', { name: 'Tool audit' }).click();
  await page.getByLabel('Tool name').fill('delete_path');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/tab=audit&tool=delete_path$/);
  const audit = page.getByRole('region', { name: 'Tool audit' });
  await waitFor(async () => (await audit.getByRole('row').count()) === 7, { what: 'six audit rows (before and after per call) and the header' });
  assert.equal(await audit.getByRole('cell', { name: 'require_approval' }).count(), 3);
});

void test('Dashboard (issue 18, journey 6): an approval that expires says so and can no longer be resolved; the history shows it expired', async (t) => {
  const svc = await startSvc(t, { env: { SVC_APPROVAL_TTL_MS: '12000' } });
  const agent = await agentClient(t, svc.base, 'agent-late');
  const call = askToDelete(svc.home, agent, 'late.txt');
  await waitFor(async () => (await pending(svc.base)).length === 1, { what: 'the approval to be pending' });
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/approvals`);
  const late = card(page, 'agent-late');
  await late.getByRole('button', { name: 'Allow once' }).waitFor();
  assert.match(await late.getByText(/^expires in /).innerText(), /^expires in 0:[01]\d$/);
  // The broker's own expiry ends the call; the page then shows it expired.
  assert.match(text(await call), /expired/);
  await late.getByText(/^Expired/).waitFor();
  assert.equal(await late.getByRole('button', { name: 'Allow once' }).count(), 0);
  assert.equal(await late.getByRole('button', { name: 'Deny' }).count(), 0);
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByRole('region', { name: 'Approval history' }).getByRole('cell', { name: 'Expired' }).waitFor();
});

void test('Dashboard (issue 33 #6): a decision a client reported is shown apart from the approvals svc decided, as granting nothing', async (t) => {
  const svc = await startSvc(t, { env: LONG_TTL });
  const agent = await agentClient(t, svc.base, 'agent-rep');
  const call = askToDelete(svc.home, agent, 'rep.txt');
  await waitFor(async () => (await pending(svc.base)).length === 1, { what: 'the approval to be pending' });
  const [asked] = await pending(svc.base);
  const denied = await fetch(`${svc.base}/api/tools/approvals/${asked?.id}/resolve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"decision":"deny"}' });
  assert.equal(denied.status, 200);
  assert.match(text(await call), /denied/i);
  // Another program claims the opposite, through the spec's reporting route.
  const reported = await fetch(`${svc.base}/api/approvals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 'agent-rep', toolName: 'delete_path', action: 'allow_always', reason: 'approved in chat' }),
  });
  assert.equal(reported.status, 200);

  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/approvals?tab=history`);
  const history = page.getByRole('region', { name: 'Approval history' });
  await history.getByRole('cell', { name: 'Denied' }).waitFor();
  assert.equal(await history.getByRole('row').count(), 2, 'the header and the one decision svc made');
  const apart = page.getByRole('region', { name: 'Decisions reported by clients' });
  await apart.getByRole('cell', { name: 'approved in chat' }).waitFor();
  assert.equal(await apart.getByRole('cell', { name: 'Always allow' }).count(), 1);
  await page.getByText('they granted nothing').waitFor();
  assert.deepEqual(await axeSerious(page), []);
});

for (const colorScheme of ['light', 'dark'] as const) {
  void test(`Dashboard (issue 18, Approvals): the three tabs pass axe in ${colorScheme}, with a pending card shown`, async (t) => {
    const svc = await startSvc(t, { env: LONG_TTL });
    const agent = await agentClient(t, svc.base, 'agent-axe');
    // Left pending: closing the client when the test ends rejects the call, which is expected.
    void askToDelete(svc.home, agent, 'axe.txt').catch(() => undefined);
    const { page } = await openPage(t, browser(), { colorScheme });
    await page.goto(`${svc.base}/approvals`);
    await card(page, 'agent-axe').waitFor();
    assert.deepEqual(await axeSerious(page), []);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('region', { name: 'Approval history' }).waitFor();
    assert.deepEqual(await axeSerious(page), []);
    await page.getByRole('tab', { name: 'Tool audit' }).click();
    await page.getByRole('region', { name: 'Tool audit' }).waitFor();
    assert.deepEqual(await axeSerious(page), []);
  });
}

void test('Dashboard (issue 18, Approvals): at 390 x 844 a card reads and resolves, and the tabs switch by arrow keys', async (t) => {
  const svc = await startSvc(t, { env: LONG_TTL });
  const agent = await agentClient(t, svc.base, 'agent-phone');
  const call = askToDelete(svc.home, agent, 'phone.txt');
  const { page } = await openPage(t, browser(), { viewport: { width: 390, height: 844 } });
  await page.goto(`${svc.base}/approvals`);
  const phone = card(page, 'agent-phone');
  await phone.waitFor();
  // Nothing is wider than the screen.
  assert.equal(await page.evaluate<boolean>('document.documentElement.scrollWidth <= 390'), true);
  const box = await phone.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the card fits: ${JSON.stringify(box)}`);
  await phone.getByRole('button', { name: 'Deny' }).click();
  await phone.getByText('Denied', { exact: true }).waitFor();
  assert.match(text(await call), /denied/);
  await page.getByRole('tab', { name: 'Pending' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('tab', { name: 'History', selected: true }).waitFor();
  await page.waitForURL(/\?tab=history$/);
  assert.deepEqual(await axeSerious(page), []);
});

void test('Dashboard (issue 18, journey 6): the team chat\'s tray shows only that team\'s pending approvals and resolves them in place', async (t) => {
  const svc = await startSvc(t, { env: LONG_TTL });
  const created = await fetch(`${svc.base}/api/teams`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Tray team', icon: '🧪', color: '#336699' }),
  });
  const { team } = (await created.json()) as { team: { id: string } };
  const assigned = await fetch(`${svc.base}/api/teams/${team.id}/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentId: 'agent-member' }),
  });
  assert.equal(assigned.status, 200);
  // Past the onboarding gate, so the chat (and its side panel) shows.
  const onboarded = await fetch(`${svc.base}/api/teams/${team.id}/onboarding`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agentsIntroduced: true, userIntroduced: true }),
  });
  assert.equal(onboarded.status, 200);
  const member = await agentClient(t, svc.base, 'agent-member');
  const outsider = await agentClient(t, svc.base, 'agent-outsider');
  const asked = askToDelete(svc.home, member, 'member.txt');
  // Left pending: closing the client when the test ends rejects the call, which is expected.
  void askToDelete(svc.home, outsider, 'outsider.txt').catch(() => undefined);
  await waitFor(async () => (await pending(svc.base)).length === 2, { what: 'both approvals to be pending' });

  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${team.id}`);
  const tray = page.getByRole('region', { name: 'Approvals for this team' });
  await tray.getByRole('heading', { name: '1 approval waiting' }).waitFor();
  await tray.getByRole('article').filter({ hasText: 'agent-member' }).getByRole('button', { name: 'Deny' }).click();
  await tray.getByText('Denied', { exact: true }).waitFor();
  assert.equal(await tray.getByText('agent-outsider').count(), 0, 'another team\'s (or no team\'s) approval is not in this tray');
  assert.match(text(await asked), /denied by a human/);
  assert.deepEqual((await pending(svc.base)).map((a) => a.agentId), ['agent-outsider']);
});
