// Issue 23 item 1 pages, in a real browser against svc and the REAL OpenClaw
// gateway (the kit's fake model): the Teams page's "Import from gateway" lists
// the preset made by `openclaw agents team create`, one click imports it and
// opens the team; the team settings' Delegation section shows who may hand
// work to whom (from openclaw.json) and its switch rewrites the members'
// lists. By keyboard; axe light and dark.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { call } from '../helpers/team-chat-api.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { waitFor } from '../helpers/wait.ts';

const browser = useBrowser();
const SETUP_TIMEOUT_MS = 20 * 60_000;
let gw: TeamChatGateway | undefined;

before(async () => {
  gw = await startTeamChatGateway('svc-ui-preset-');
  await gw.start();
  await promisify(execFile)('openclaw', ['agents', 'team', 'create', '--non-interactive', '--json'], { env: { ...process.env, ...gw.env }, timeout: 180_000 });
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await gw?.close();
});

const allowOf = (stateDir: string, id: string): string[] => {
  const config = JSON.parse(readFileSync(join(stateDir, 'openclaw.json'), 'utf8')) as { agents: { entries: Record<string, { subagents?: { allowAgents?: string[] } }> } };
  return config.agents.entries[id]?.subagents?.allowAgents ?? [];
};

void test('Delegation (issue 23, item 1): import the gateway\'s team from the Teams page, then see and switch its delegation in the team settings, by keyboard', { timeout: 10 * 60_000 }, async (t) => {
  if (!gw) throw new Error('no setup (did before() fail?)');
  const g = gw;
  // svc runs on the gateway's home: the gateway's close() removes it, after the gateway stopped writing into it.
  const svc = await startSvc(t, { home: g.home, env: g.env, timeoutMs: 120_000, keepHome: true });
  // The gateway lists the CLI's agents once it has hot-reloaded each of them.
  await waitFor(async () => {
    const r = await call<{ agents: Array<{ id: string }> }>(svc.base, 'GET', '/api/teams/import/candidates');
    return ['coordinator', 'researcher', 'writer', 'reviewer'].every((id) => r.body.agents?.some((a) => a.id === id));
  }, { what: 'the preset\'s agents on the gateway', timeoutMs: 60_000, intervalMs: 250 });

  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams`);
  await page.getByText('No teams yet').waitFor();
  await page.getByRole('button', { name: 'Import from gateway' }).press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Import a team from the gateway' });
  await dialog.waitFor();
  const lead = dialog.getByRole('listitem');
  await lead.getByText('hands work to researcher, writer, reviewer').waitFor();
  assert.equal(await lead.count(), 1, 'only agents that may hand work to others are offered');
  const importButton = dialog.getByRole('button', { name: /^Import .* and its agents$/ });
  assert.deepEqual(await axeSerious(page), [], 'the import dialog has no serious axe findings');
  await importButton.press('Enter');

  // The team opens; the server has it with the coordinator leading three members.
  await page.waitForURL(/\/teams\/[^/]+$/);
  const teamId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '');
  const teams = (await call<{ teams: Array<{ id: string; leaderAgentId: string }>; assignments: Array<{ teamId: string }> }>(svc.base, 'GET', '/api/teams')).body;
  assert.deepEqual(teams.teams.map((x) => [x.id, x.leaderAgentId]), [[teamId, 'coordinator']]);
  assert.equal(teams.assignments.filter((a) => a.teamId === teamId).length, 3);

  // The settings: who may hand work to whom, as openclaw.json holds it.
  await page.goto(`${svc.base}/teams/${encodeURIComponent(teamId)}/settings`);
  const section = page.getByRole('region', { name: 'Delegation' });
  const table = section.getByRole('table', { name: 'Who may hand work to whom' });
  await table.getByRole('row').filter({ hasText: /researcher, writer, reviewer|Researcher, Writer, Reviewer/i }).waitFor();
  await table.getByRole('row').filter({ hasText: 'no one' }).first().waitFor();

  // The switch, by keyboard: members may now spawn each other, on the page and in the gateway's config.
  const box = section.getByRole('checkbox', { name: /Members may hand work to each other/ });
  assert.equal(await box.isChecked(), false);
  await box.focus();
  await page.keyboard.press('Space');
  await section.getByText('Sub-delegation is on.').waitFor();
  assert.deepEqual(allowOf(g.stateDir, 'writer').sort(), ['researcher', 'reviewer']);
  await waitFor(async () => (await table.getByRole('row').filter({ hasText: 'no one' }).count()) === 0, { what: 'no member left with no one to hand work to' });

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    assert.deepEqual(await axeSerious(page), [], `no serious axe findings (${scheme})`);
  }
});
