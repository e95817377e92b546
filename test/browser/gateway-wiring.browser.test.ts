// Issue 30 in a real browser, as a person with their own gateway does it: a
// REAL OpenClaw gateway started by the test (not through svc) with two
// agents, svc started with an empty state folder of its own, the gateway's
// URL and token typed into the Settings page, a team made; then the Gateway
// page's "svc in the gateway" section shows each agent attached, routed and
// metered, the attach switch takes svc's MCP servers out and back by
// keyboard, and Undo (asked twice) leaves the gateway's config as it was.
// axe in light and dark, and a 390 px pass.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { tempHome } from '../helpers/server.ts';
import { call, createTeam } from '../helpers/team-chat-api.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { waitFor } from '../helpers/wait.ts';

const browser = useBrowser();
const SETUP_TIMEOUT_MS = 20 * 60_000;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- gateway config

let gw: TeamChatGateway | undefined;
let bob = '';
before(async () => {
  gw = await startTeamChatGateway('svc-ui-wiring-');
  await gw.start();
  [bob] = (await gw.createAgents(['Bob'])) as [string];
}, { timeout: SETUP_TIMEOUT_MS });
after(async () => {
  await gw?.close();
});

const gateway = () => gw as TeamChatGateway;
const fileConfig = (): Json => JSON.parse(readFileSync(join(gateway().stateDir, 'openclaw.json'), 'utf8')) as Json;
const withoutMeta = ({ meta: _meta, ...rest }: Json): Json => rest;

void test('Issue 30 #2: connected in Settings, svc wires itself into the person\'s gateway; the Gateway page shows each agent attached, routed and metered; attach off and on by keyboard; Undo leaves the config as it was', async (t) => {
  const original = fileConfig();
  const home = tempHome('svc-ui-wiring-svc-');
  const svc = await startSvc(t, { home, env: { OPENCLAW_STATE_DIR: join(home, 'no-gateway-here') } });
  const { page } = await openPage(t, browser());

  // Settings: the person's gateway URL and token.
  await page.goto(`${svc.base}/settings`);
  await page.getByLabel('Gateway URL').fill(gateway().url);
  await page.getByRole('button', { name: 'Save URL' }).click();
  await page.getByLabel('Gateway token').fill(gateway().token);
  await page.getByRole('button', { name: 'Save token' }).click();
  await page.getByText('A token is set.', { exact: false }).waitFor();
  await waitFor(async () => (await call<Json>(svc.base, 'GET', '/api/system/gateway-wiring')).body.last?.reason === 'gateway connected', { what: 'svc to connect and wire the gateway', timeoutMs: 120_000 });
  await createTeam(svc.base, 'Crew', [{ id: 'main', name: 'Main' }, { id: bob, name: 'Bob' }], 'main');

  await page.goto(`${svc.base}/gateway`);
  const section = page.getByRole('region', { name: 'svc in the gateway' });
  const table = section.getByRole('region', { name: 'What svc wired into each agent' });
  const row = (name: string) => table.getByRole('row', { name: new RegExp(`^${name}\\b`) });
  await row('Main').getByText('Attached', { exact: true }).waitFor();
  await row('Bob').getByText('Attached', { exact: true }).waitFor();
  await row('Main').getByText('Routed', { exact: true }).waitFor();
  await row('Bob').getByText('Before each call', { exact: true }).waitFor();
  await section.getByText(/^Connected to the gateway; its config:/).waitFor();
  await section.getByText(`${join(gateway().stateDir, 'openclaw.json')}.before-svc`).waitFor();
  assert.equal(Object.keys(fileConfig().mcp?.servers ?? {}).filter((n) => n.startsWith('svc-')).length, 8);
  assert.ok(!(await page.content()).includes(gateway().token), 'the page never shows the gateway token');

  // Attach off, by keyboard: svc's MCP servers leave the config; the row says why and what to do.
  const attach = section.getByRole('switch', { name: /Attach svc.s MCP servers to team agents/ });
  await attach.focus();
  await page.keyboard.press('Space');
  await row('Bob').getByText("No: attaching svc's MCP servers is off").waitFor();
  assert.equal(await attach.isChecked(), false);
  assert.equal(Object.keys(fileConfig().mcp?.servers ?? {}).filter((n) => n.startsWith('svc-')).length, 0);
  // The switch is disabled while its round runs, which takes the focus away: back to it, and on again.
  await attach.focus();
  await page.keyboard.press('Space');
  await row('Bob').getByText('Attached', { exact: true }).waitFor();

  for (const colorScheme of ['light', 'dark'] as const) {
    const { page: p } = await openPage(t, browser(), { colorScheme });
    await p.goto(`${svc.base}/gateway`);
    await p.getByRole('region', { name: 'What svc wired into each agent' }).getByText('Attached', { exact: true }).first().waitFor();
    assert.deepEqual(await axeSerious(p), [], colorScheme);
  }
  const { page: phone } = await openPage(t, browser(), { viewport: { width: 390, height: 844 } });
  await phone.goto(`${svc.base}/gateway`);
  await phone.getByRole('region', { name: 'What svc wired into each agent' }).getByText('Attached', { exact: true }).first().waitFor();
  assert.equal(await phone.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth'), true, 'no sideways scroll at 390 px');
  assert.deepEqual(await axeSerious(phone), [], 'at 390 px');

  // Undo, asked twice: the config is as the person had it, the switch off.
  await section.getByRole('button', { name: 'Undo svc’s changes' }).click();
  const confirm = section.getByRole('group', { name: 'Confirm undo' });
  await confirm.getByRole('button', { name: 'Undo' }).click();
  const wiring = section.getByRole('switch', { name: /svc wires itself into the gateway/ });
  await waitFor(async () => !(await wiring.isChecked()), { what: 'the wiring switch to go off' });
  await row('Bob').getByText("No: svc's wiring of the gateway is off").first().waitFor();
  await section.getByRole('status').getByText(/^Last round .*undo requested/).waitFor();
  assert.deepEqual(withoutMeta(fileConfig()), withoutMeta(original));
});
