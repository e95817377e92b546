// The board in a real browser (issue 18, page 6): columns by status over the
// board routes, the task drawer (comments, moves the rule allows and the
// server's refusal, claim, dependencies, parent and sub-tasks), a task made
// elsewhere appearing live through the team's stream, and filters in the URL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { call } from '../helpers/team-chat-api.ts';

const browser = useBrowser();

interface Task {
  id: string;
  title: string;
  status: string;
  assigneeAgentId: string | null;
  dependsOn: string[];
}

async function seedTeam(base: string, name: string, agents: ReadonlyArray<[string, string]>): Promise<string> {
  const r = await call<{ team: { id: string } }>(base, 'POST', '/api/teams', { name, icon: '🧪', color: '#336699' });
  for (const [agentId, agentName] of agents) {
    assert.equal((await call(base, 'POST', `/api/teams/${r.body.team.id}/agents`, { agentId, agentName })).status, 200);
  }
  return r.body.team.id;
}

async function seedTask(base: string, body: Record<string, unknown>, status?: string): Promise<Task> {
  const r = await call<{ task: Task }>(base, 'POST', '/api/tasks', body);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  if (!status) return r.body.task;
  const p = await call<{ task: Task }>(base, 'PATCH', `/api/tasks/${r.body.task.id}`, { status });
  assert.equal(p.status, 200, JSON.stringify(p.body));
  return p.body.task;
}

const getTask = async (base: string, id: string) => (await call<{ task: Task; openBlockers: string[] }>(base, 'GET', `/api/tasks/${id}`)).body;
const column = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const card = (page: Page, status: string, title: string) => column(page, status).getByRole('button', { name: new RegExp(`^${title} `) });

void test('Dashboard (issue 18, Board): columns by status, the drawer, comments, and only the moves the rule allows', async (t) => {
  const svc = await startSvc(t);
  const teamId = await seedTeam(svc.base, 'Crew', [['scout', 'Scout'], ['smith', 'Smith']]);
  const plan = await seedTask(svc.base, { title: 'Write the plan', teamId, assigneeAgentId: 'scout' });
  const review = await seedTask(svc.base, { title: 'Review the plan', teamId });
  await seedTask(svc.base, { title: 'Ship it', teamId, assigneeAgentId: 'smith' }, 'in_progress');
  const child = await seedTask(svc.base, { title: 'Check the figures', parentTaskId: review.id });

  const { page, allow } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}/board`);
  await card(page, 'To do', 'Write the plan').waitFor();
  assert.equal(await column(page, 'To do').getByRole('listitem').count(), 3);
  assert.equal(await column(page, 'In progress').getByRole('listitem').count(), 1);
  await card(page, 'In progress', 'Ship it').waitFor();
  assert.match(await card(page, 'To do', 'Write the plan').innerText(), /Scout/);

  // The drawer: the moves from todo, and no others.
  await card(page, 'To do', 'Write the plan').click();
  const drawer = page.getByRole('dialog', { name: 'Write the plan' });
  await drawer.waitFor();
  assert.match(page.url(), new RegExp(`[?&]task=${plan.id}`));
  const moves = drawer.getByRole('group', { name: 'Move the task' }).getByRole('button');
  assert.deepEqual(await moves.allInnerTexts(), ['Move to In progress', 'Move to Blocked', 'Move to Cancelled']);

  // A comment.
  await drawer.getByLabel('New comment').fill('Looks good to me');
  await drawer.getByRole('button', { name: 'Add comment' }).click();
  await drawer.getByRole('list', { name: 'Comments' }).getByText('Looks good to me').waitFor();
  const comments = await call<{ comments: Array<{ body: string; authorAgentId: string | null }> }>(svc.base, 'GET', `/api/tasks/${plan.id}/comments`);
  assert.deepEqual(comments.body.comments.map((c) => [c.body, c.authorAgentId]), [['Looks good to me', null]]);

  // An allowed move: the card changes column, the server holds it, the next moves follow the rule.
  await drawer.getByRole('button', { name: 'Move to In progress' }).click();
  await drawer.getByRole('heading', { name: 'Status: In progress' }).waitFor();
  assert.deepEqual(await moves.allInnerTexts(), ['Move to To do', 'Move to In review', 'Move to Done', 'Move to Blocked', 'Move to Cancelled']);
  assert.equal((await getTask(svc.base, plan.id)).task.status, 'in_progress');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  await page.waitForURL((u) => !u.search.includes('task='));
  await card(page, 'In progress', 'Write the plan').waitFor();

  // The server's refusal, as it wrote it: an unassigned task cannot start.
  allow(/status of 409/);
  await card(page, 'To do', 'Review the plan').click();
  const rdrawer = page.getByRole('dialog', { name: 'Review the plan' });
  await rdrawer.getByRole('button', { name: 'Move to In progress' }).click();
  await rdrawer.getByRole('alert').getByText('a task needs an assignee to be in progress').waitFor();
  assert.equal((await getTask(svc.base, review.id)).task.status, 'todo');

  // Sub-tasks and parent.
  await rdrawer.getByRole('list', { name: 'Sub-tasks' }).getByRole('button', { name: 'Check the figures' }).waitFor();

  // A dependency blocks the claim; unlinked, the claim goes through.
  await rdrawer.getByLabel('Add a dependency').selectOption({ label: 'Write the plan (In progress)' });
  await rdrawer.getByRole('button', { name: 'Link', exact: true }).click();
  await rdrawer.getByRole('list', { name: 'Dependencies' }).getByRole('button', { name: 'Write the plan', exact: true }).waitFor();
  assert.deepEqual((await getTask(svc.base, review.id)).task.dependsOn, [plan.id]);
  await rdrawer.getByLabel('Claim for').selectOption({ label: 'Smith' });
  await rdrawer.getByRole('button', { name: 'Claim', exact: true }).click();
  await rdrawer.getByRole('alert').getByText('task is blocked by unfinished dependencies').waitFor();
  await rdrawer.getByRole('button', { name: 'Unlink Write the plan' }).click();
  await rdrawer.getByText('Nothing: the task can start at any time.').waitFor();
  await rdrawer.getByRole('button', { name: 'Claim', exact: true }).click();
  await rdrawer.getByRole('heading', { name: 'Status: In progress' }).waitFor();
  const claimed = await getTask(svc.base, review.id);
  assert.deepEqual([claimed.task.status, claimed.task.assigneeAgentId, claimed.task.dependsOn], ['in_progress', 'smith', []]);

  // Open the sub-task from the drawer; its parent links back.
  await rdrawer.getByRole('button', { name: 'Check the figures' }).click();
  const cdrawer = page.getByRole('dialog', { name: 'Check the figures' });
  await cdrawer.getByRole('button', { name: 'Review the plan' }).waitFor();
  assert.match(page.url(), new RegExp(`[?&]task=${child.id}`));
});

void test('Dashboard (issue 18, Board): a task made through the API appears live on the team board, and moves live', async (t) => {
  const svc = await startSvc(t);
  const teamId = await seedTeam(svc.base, 'Crew', [['scout', 'Scout']]);
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}/board`);
  await page.getByText('No tasks yet').waitFor();
  // Nothing else reloads the board on this page (no poll, no focus in a headless tab): only the stream's board frame.
  const task = await seedTask(svc.base, { title: 'Made elsewhere', teamId, assigneeAgentId: 'scout' });
  await card(page, 'To do', 'Made elsewhere').waitFor();
  await call(svc.base, 'PATCH', `/api/tasks/${task.id}`, { status: 'in_progress' });
  await card(page, 'In progress', 'Made elsewhere').waitFor();
  assert.equal(await column(page, 'To do').getByRole('listitem').count(), 0);
});

void test('Dashboard (issue 18, Board): filters live in the URL; back and forward keep them', async (t) => {
  const svc = await startSvc(t);
  const red = await seedTeam(svc.base, 'Red', [['scout', 'Scout']]);
  const blue = await seedTeam(svc.base, 'Blue', [['smith', 'Smith']]);
  await seedTask(svc.base, { title: 'Red one', teamId: red, assigneeAgentId: 'scout' });
  await seedTask(svc.base, { title: 'Red two', teamId: red }, 'cancelled');
  await seedTask(svc.base, { title: 'Blue one', teamId: blue, assigneeAgentId: 'smith' });
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/board`);
  await card(page, 'To do', 'Blue one').waitFor();
  const titles = async () => (await page.locator('[data-task-id] > span:first-child').allInnerTexts()).sort();
  assert.deepEqual(await titles(), ['Blue one', 'Red one', 'Red two']);

  await page.getByLabel('Team').selectOption({ label: 'Red' });
  await page.waitForURL(/[?&]team=/);
  assert.deepEqual(await titles(), ['Red one', 'Red two']);
  await page.getByLabel('Status').selectOption({ label: 'Cancelled' });
  await page.waitForURL(/status=cancelled/);
  assert.deepEqual(await titles(), ['Red two']);
  await page.getByLabel('Assignee').selectOption({ label: 'Scout' });
  await page.getByText('No tasks match these filters').waitFor();
  assert.match(page.url(), /assignee=scout/);

  await page.goBack();
  await page.waitForURL((u) => !u.search.includes('assignee='));
  assert.deepEqual(await titles(), ['Red two']);
  assert.equal(await page.getByLabel('Status').inputValue(), 'cancelled');
  await page.goBack();
  await page.waitForURL((u) => !u.search.includes('status='));
  assert.deepEqual(await titles(), ['Red one', 'Red two']);
  assert.equal(await page.getByLabel('Team').inputValue(), red);
  await page.goForward();
  await page.waitForURL(/status=cancelled/);
  assert.deepEqual(await titles(), ['Red two']);

  // A reload keeps them too.
  await page.reload();
  await card(page, 'Cancelled', 'Red two').waitFor();
  assert.deepEqual(await titles(), ['Red two']);
  assert.equal(await page.getByLabel('Team').inputValue(), red);
});

for (const colorScheme of ['light', 'dark'] as const) {
  void test(`Dashboard (issue 18, Board): axe finds nothing serious on the board and the drawer (${colorScheme})`, async (t) => {
    const svc = await startSvc(t);
    const teamId = await seedTeam(svc.base, 'Crew', [['scout', 'Scout']]);
    const parent = await seedTask(svc.base, { title: 'Plan', teamId, assigneeAgentId: 'scout', description: 'Write it down.' });
    const task = await seedTask(svc.base, { title: 'Draft', teamId, parentTaskId: parent.id, dependsOn: [parent.id] });
    await call(svc.base, 'POST', `/api/tasks/${task.id}/comments`, { body: 'First pass', authorAgentId: 'scout' });
    const { page } = await openPage(t, browser(), { colorScheme });
    await page.goto(`${svc.base}/teams/${teamId}/board`);
    await card(page, 'To do', 'Draft').waitFor();
    assert.deepEqual(await axeSerious(page), []);
    await page.goto(`${svc.base}/board?task=${task.id}`);
    await page.getByRole('dialog', { name: 'Draft' }).getByText('First pass').waitFor();
    assert.deepEqual(await axeSerious(page), []);
  });
}
