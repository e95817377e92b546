// The teams list and a team's settings in a real browser (issue 18, pages 3
// and 5; journey 2): each step asserted on the page and on the server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { call } from '../helpers/team-chat-api.ts';
import { waitFor } from '../helpers/wait.ts';

const browser = useBrowser();

interface TeamRow {
  id: string;
  name: string;
  isArchived: number;
  agentCount: number;
  leaderAgentId: string | null;
}
interface TeamList {
  teams: TeamRow[];
  assignments: Array<{ agentId: string; teamId: string }>;
}

const listTeams = async (base: string, includeArchived = false) =>
  (await call<TeamList>(base, 'GET', `/api/teams${includeArchived ? '?includeArchived=true' : ''}`)).body;

void test('Dashboard (issue 18, journey 2): the team lifecycle by keyboard only', async (t) => {
  const svc = await startSvc(t);
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams`);
  await page.getByText('No teams yet').waitFor();

  // Create: the dialog opens on its first field; Enter submits.
  await page.getByRole('button', { name: 'New team' }).press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New team' });
  await dialog.waitFor();
  assert.equal(await page.evaluate<string>('document.activeElement?.getAttribute("autocomplete") ?? ""'), 'off', 'focus starts in the name field');
  await page.keyboard.type('Alpha');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Alpha' }).waitFor();
  await page.getByText('Created Alpha.').waitFor();
  let teams = await listTeams(svc.base);
  assert.deepEqual(teams.teams.map((x) => [x.name, x.isArchived]), [['Alpha', 0]]);
  const id = teams.teams[0]?.id ?? '';

  // Rename.
  await page.getByRole('button', { name: 'Rename Alpha' }).press('Enter');
  await page.getByRole('dialog', { name: 'Rename team' }).waitFor();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Beta');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Beta' }).waitFor();
  teams = await listTeams(svc.base);
  assert.deepEqual(teams.teams.map((x) => [x.id, x.name]), [[id, 'Beta']]);

  // Archive: it leaves the list while archived teams are hidden.
  await page.getByRole('button', { name: 'Archive Beta', exact: true }).press('Enter');
  await page.getByText('Archived Beta. Show archived teams to see it.').waitFor();
  await page.getByRole('heading', { name: 'Beta' }).waitFor({ state: 'detached' });
  assert.deepEqual((await listTeams(svc.base)).teams, []);
  assert.deepEqual((await listTeams(svc.base, true)).teams.map((x) => [x.name, x.isArchived]), [['Beta', 1]]);

  // Show archived: the toggle is kept in the URL.
  await page.getByLabel('Show archived').press('Space');
  await page.getByRole('heading', { name: 'Beta' }).waitFor();
  assert.match(page.url(), /[?&]archived=1\b/);
  await page.getByRole('listitem').filter({ hasText: 'Archived' }).waitFor();

  // Unarchive.
  await page.getByRole('button', { name: 'Unarchive Beta' }).press('Enter');
  // Exact: a role name matches as a substring, and "Unarchive Beta" holds "archive Beta".
  await page.getByRole('button', { name: 'Archive Beta', exact: true }).waitFor();
  assert.deepEqual((await listTeams(svc.base)).teams.map((x) => [x.name, x.isArchived]), [['Beta', 0]]);

  // Delete: Escape cancels the confirmation; then Tab to the delete button and Enter.
  await page.getByRole('button', { name: 'Delete Beta' }).press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete Beta?' });
  await confirm.waitFor();
  assert.match(await confirm.innerText(), /Deleting a team never deletes agents: they leave the team\./);
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'hidden' });
  assert.equal((await listTeams(svc.base)).teams.length, 1, 'Escape deletes nothing');
  await page.getByRole('button', { name: 'Delete Beta' }).press('Enter');
  await confirm.waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), 'Delete team');
  await page.keyboard.press('Enter');
  await page.getByText('Deleted Beta. Its agents were kept.').waitFor();
  await page.getByText('No teams yet').waitFor();
  assert.deepEqual((await listTeams(svc.base, true)).teams, []);
});

void test('Dashboard (issue 18, Teams): delete says the agents are kept, and they are', async (t) => {
  const svc = await startSvc(t);
  const team = await call<{ team: { id: string } }>(svc.base, 'POST', '/api/teams', { name: 'Crew', icon: '🚀', color: '#336699' });
  for (const agentId of ['scout', 'smith']) {
    assert.equal((await call(svc.base, 'POST', `/api/teams/${team.body.team.id}/agents`, { agentId })).status, 200);
  }
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams`);
  const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Crew' }) });
  await row.getByText('2 agents').waitFor();
  for (const [name, href] of [
    ['Chat Crew', `/teams/${team.body.team.id}`],
    ['Board Crew', `/teams/${team.body.team.id}/board`],
    ['Settings Crew', `/teams/${team.body.team.id}/settings`],
  ] as const) {
    assert.equal(await page.getByRole('link', { name }).getAttribute('href'), href);
  }
  await page.getByRole('button', { name: 'Delete Crew' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Crew?' });
  assert.match(await confirm.innerText(), /Its 2 agents are kept: they leave the team and are not deleted\./);
  await confirm.getByRole('button', { name: 'Delete team' }).click();
  await page.getByText('No teams yet').waitFor();
  const agents = await call<{ agents: Array<{ id: string; teamId: string | null }> }>(svc.base, 'GET', '/api/agents');
  assert.deepEqual(agents.body.agents.map((a) => [a.id, a.teamId]), [['scout', null], ['smith', null]]);
});

void test('Dashboard (issue 18, Teams): a server refusal is shown as the server wrote it', async (t) => {
  const svc = await startSvc(t);
  const { page, allow } = await openPage(t, browser());
  allow(/status of 400/);
  await page.goto(`${svc.base}/teams`);
  await page.getByRole('button', { name: 'New team' }).click();
  await page.getByLabel('Name').fill('Gamma');
  // A blank icon passes no browser check once it is whitespace; the server refuses it.
  await page.getByLabel('Icon (an emoji)').fill(' ');
  await page.getByRole('button', { name: 'Create team' }).click();
  await waitFor(async () => (await page.getByRole('alert').innerText()).includes('name, icon, and color are required'), {
    what: 'the server message in the dialog',
  });
  assert.deepEqual((await listTeams(svc.base, true)).teams, []);
});

async function seedTeam(base: string, name: string): Promise<string> {
  const r = await call<{ team: { id: string } }>(base, 'POST', '/api/teams', { name, icon: '🧪', color: '#336699', serverOrchestrated: true });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.team.id;
}

void test('Dashboard (issue 18, Team settings): rules over 4,000 are refused in the field; saved rules read back after a reload', async (t) => {
  const svc = await startSvc(t);
  const teamId = await seedTeam(svc.base, 'Crew');
  const { page, allow } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}/settings`);
  const rules = page.getByLabel('Team rules');
  const save = page.getByRole('button', { name: 'Save rules' });
  await rules.fill('Answer in one paragraph.');
  await save.click();
  await page.getByText('Rules saved.').waitFor();
  assert.equal((await call<{ text: string }>(svc.base, 'GET', `/api/team-rules/${teamId}`)).body.text, 'Answer in one paragraph.');
  await page.reload();
  await waitFor(async () => (await rules.inputValue()) === 'Answer in one paragraph.', { what: 'the saved rules after a reload' });

  // Over the cap: the field says so, Save is off, nothing reaches the server.
  await rules.fill('x'.repeat(4001));
  await page.getByText('4,001 / 4,000 characters').waitFor();
  await page.getByRole('alert').getByText('Rules can be at most 4,000 characters: remove 1 character to save.').waitFor();
  assert.equal(await rules.getAttribute('aria-invalid'), 'true');
  assert.equal(await save.isDisabled(), true);
  assert.equal((await call<{ text: string }>(svc.base, 'GET', `/api/team-rules/${teamId}`)).body.text, 'Answer in one paragraph.');
  // At the cap it saves.
  await rules.press('Backspace');
  await page.getByText('4,000 / 4,000 characters').waitFor();
  await save.click();
  await page.getByText('Rules saved.').waitFor();
  assert.equal((await call<{ text: string }>(svc.base, 'GET', `/api/team-rules/${teamId}`)).body.text.length, 4000);

  // The server's refusal is shown as it wrote it: here, the team was deleted meanwhile.
  allow(/status of 404/);
  await call(svc.base, 'DELETE', `/api/teams/${teamId}`);
  await rules.fill('Too late');
  await save.click();
  await page.getByRole('alert').getByText('team not found').waitFor();
});

void test('Dashboard (issue 18, Team settings): members added and removed, the leader chosen, the lead brief and the intro saved', async (t) => {
  const svc = await startSvc(t);
  const teamId = await seedTeam(svc.base, 'Crew');
  const otherId = await seedTeam(svc.base, 'Other');
  assert.equal((await call(svc.base, 'POST', '/api/agents', { id: 'scout', name: 'Scout' })).status, 200);
  assert.equal((await call(svc.base, 'POST', '/api/agents', { id: 'smith', name: 'Smith', teamId: otherId })).status, 200);
  const members = async () =>
    (await listTeams(svc.base)).assignments
      .filter((a) => a.teamId === teamId)
      .map((a) => a.agentId)
      .sort();

  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}/settings`);
  await page.getByText('No agents on this team yet. Add one below.').waitFor();
  const list = page.getByRole('list', { name: 'Members' });

  await page.getByLabel('Known agent').selectOption({ label: 'Scout' });
  await page.getByRole('button', { name: 'Add agent' }).click();
  await list.getByRole('button', { name: 'Remove Scout' }).waitFor();
  await page.getByLabel('Known agent').selectOption({ label: 'Smith (moves from Other)' });
  await page.getByRole('button', { name: 'Add agent' }).click();
  await list.getByRole('button', { name: 'Remove Smith' }).waitFor();
  await page.getByLabel('Agent id').fill('ghost');
  await page.getByLabel('Name (optional)').fill('Ghost');
  await page.getByRole('button', { name: 'Add by id' }).click();
  await list.getByRole('button', { name: 'Remove Ghost' }).waitFor();
  assert.deepEqual(await members(), ['ghost', 'scout', 'smith']);

  await page.getByLabel('Team leader').selectOption({ label: 'Scout' });
  await page.getByText('Leader saved.').waitFor();
  await list.getByText('Leader').waitFor();
  assert.equal((await listTeams(svc.base)).teams.find((x) => x.id === teamId)?.leaderAgentId, 'scout');

  await page.getByRole('button', { name: 'Remove Ghost' }).click();
  await page.getByText('Removed Ghost; the agent is kept.').waitFor();
  await list.getByRole('button', { name: 'Remove Ghost' }).waitFor({ state: 'detached' });
  assert.deepEqual(await members(), ['scout', 'smith']);
  const ghost = await call<{ agent: { teamId: string | null } }>(svc.base, 'GET', '/api/agents/ghost');
  assert.deepEqual([ghost.status, ghost.body.agent.teamId], [200, null]);

  // Lead brief: saved, then cleared.
  await page.getByLabel('Brief for the team lead (markdown)').fill('Ship on Fridays.');
  await page.getByRole('button', { name: 'Save brief' }).click();
  await page.getByText('Lead brief saved.').waitFor();
  assert.equal((await call<{ content: string | null }>(svc.base, 'GET', `/api/lead/team-briefs/${teamId}`)).body.content, 'Ship on Fridays.');
  await page.getByRole('button', { name: 'Clear brief' }).click();
  await page.getByRole('button', { name: 'Clear brief' }).waitFor({ state: 'detached' });
  assert.equal((await call<{ content: string | null }>(svc.base, 'GET', `/api/lead/team-briefs/${teamId}`)).body.content, null);

  // The intro: counted, capped in the field, saved.
  const intro = page.getByLabel('What the agents should know about you');
  await intro.fill('y'.repeat(4002));
  await page.getByRole('alert').getByText('Introduction can be at most 4,000 characters: remove 2 characters to save.').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save introduction' }).isDisabled(), true);
  await intro.fill('I run the release train.');
  await page.getByText('24 / 4,000 characters').waitFor();
  await page.getByRole('button', { name: 'Save introduction' }).click();
  await page.getByText('Introduction saved.').waitFor();
  const onboarding = await call<{ userIntroText: string }>(svc.base, 'GET', `/api/teams/${teamId}/onboarding`);
  assert.equal(onboarding.body.userIntroText, 'I run the release train.');
});

for (const colorScheme of ['light', 'dark'] as const) {
  void test(`Dashboard (issue 18, Teams): axe finds nothing serious on /teams and a team's settings (${colorScheme})`, async (t) => {
    const svc = await startSvc(t);
    const teamId = await seedTeam(svc.base, 'Crew');
    await call(svc.base, 'POST', `/api/teams/${teamId}/agents`, { agentId: 'scout', agentName: 'Scout' });
    await call(svc.base, 'PATCH', `/api/teams/${teamId}`, { leaderAgentId: 'scout' });
    const archived = await seedTeam(svc.base, 'Old crew');
    await call(svc.base, 'PATCH', `/api/teams/${archived}`, { isArchived: 1 });
    const { page } = await openPage(t, browser(), { colorScheme });
    await page.goto(`${svc.base}/teams?archived=1`);
    await page.getByRole('heading', { name: 'Old crew' }).waitFor();
    assert.deepEqual(await axeSerious(page), []);
    await page.getByRole('button', { name: 'New team' }).click();
    await page.getByRole('dialog', { name: 'New team' }).waitFor();
    assert.deepEqual(await axeSerious(page), []);
    await page.goto(`${svc.base}/teams/${teamId}/settings`);
    await page.getByRole('list', { name: 'Members' }).getByText('Leader').waitFor();
    await page.getByLabel('Team rules').fill('x'.repeat(4001));
    assert.deepEqual(await axeSerious(page), []);
  });
}
