// Issue 23 items 5 and 6, the board page with the gateway's Workboard, in a
// real browser against a real svc and the REAL OpenClaw gateway with the
// Workboard plugin enabled (written into openclaw.json before the gateway
// starts; one gateway for the file). Cards are made on the test's own
// operator session, as another Workboard client would. The page shows them in
// the column their status maps to with a "Workboard" badge, their own status
// and assignee; moving and dispatching from the page reach the gateway; axe
// light and dark. Without a gateway the board shows nothing extra (and the
// watched page fails on any failed request or console error).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { uiDistEnv } from '../helpers/browser-team-chat.ts';
import { axeSerious, openPage, startSvc, useBrowser } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { call, createTeam, RUN_WAIT_MS } from '../helpers/team-chat-api.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { waitFor } from '../helpers/wait.ts';

const browser = useBrowser();
const SETUP_TIMEOUT_MS = 20 * 60_000;

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let ada = '';
let teamId = '';

before(async () => {
  gw = await startTeamChatGateway('svc-ui-workboard-');
  gw.mergeConfig({ plugins: { entries: { workboard: { enabled: true } } } });
  await gw.start();
  svc = await startServer({ home: gw.home, env: { ...gw.env, ...uiDistEnv() }, timeoutMs: 120_000 });
  [ada = ''] = await gw.createAgents(['Ada']);
  teamId = await createTeam(svc.base, 'Crew', [{ id: ada, name: 'Ada' }], ada);
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await gw?.close();
});

function rig(): { gw: TeamChatGateway; svc: RunningServer } {
  if (!gw || !svc) throw new Error('no setup (did before() fail?)');
  return { gw, svc };
}

const createCard = async (params: Record<string, unknown>): Promise<string> => {
  const r = (await (await rig().gw.session()).request('workboard.cards.create', params)) as { card: { id: string } };
  return r.card.id;
};
const gatewayStatus = async (id: string) => {
  const list = (await (await rig().gw.session()).request('workboard.cards.list', {})) as { cards: Array<{ id: string; status: string }> };
  return list.cards.find((c) => c.id === id)?.status;
};
const column = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const card = (page: Page, status: string, title: string) => column(page, status).getByRole('button', { name: new RegExp(`^${title} `) });

void test('Delegation (issue 23, item 6): the board shows Workboard cards in their column with the Workboard badge, status and assignee; a teamless card only on /board; a move from the page reaches the gateway; Dispatch shows the run; axe light and dark', async (t) => {
  const { svc } = rig();
  const plan = await createCard({ title: 'Plan the launch', status: 'todo', agentId: ada });
  const go = await createCard({ title: 'Go live', status: 'ready', agentId: ada });
  await createCard({ title: 'Someone else', status: 'running' });
  await waitFor(async () => (await call<{ cards: unknown[] }>(svc.base, 'GET', '/api/workboard')).body.cards.length === 3, { what: 'svc to read the three cards', timeoutMs: 30_000, intervalMs: 250 });

  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}/board`);
  const planCard = card(page, 'To do', 'Plan the launch');
  await planCard.waitFor();
  // The assignee's name comes with the agents list, which may load after the cards (the id shows until then).
  await planCard.getByText('Ada', { exact: true }).waitFor();
  assert.match(await planCard.innerText(), /Workboard[\s\S]*Todo[\s\S]*Ada/);
  assert.match(await card(page, 'To do', 'Go live').innerText(), /Workboard[\s\S]*Ready/);
  assert.equal(await page.getByText('Someone else').count(), 0, 'a card of no team\'s agent is not on the team board');
  assert.deepEqual(await axeSerious(page), [], 'axe, light, team board with Workboard cards');

  // Opening a card opens its own dialog, not the task drawer.
  await planCard.click();
  const dialog = page.getByRole('dialog', { name: 'Plan the launch' });
  await dialog.getByText('Not dispatched').waitFor();
  assert.equal(new URL(page.url()).searchParams.get('task'), null, 'the task drawer did not open');
  assert.equal(await dialog.getByRole('button', { name: 'Dispatch' }).count(), 0, 'Dispatch is for ready cards');
  assert.deepEqual(await axeSerious(page), [], 'axe, light, card dialog');
  await dialog.getByLabel('Move to').selectOption({ label: 'Blocked' });
  await dialog.getByRole('button', { name: 'Move' }).click();
  await dialog.getByRole('status').getByText('Moved to Blocked.').waitFor();
  await waitFor(async () => (await gatewayStatus(plan)) === 'blocked', { what: 'the gateway to hold the moved card as blocked', intervalMs: 250 });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await card(page, 'Blocked', 'Plan the launch').waitFor();

  // Dispatch a ready card: the gateway starts its agent's run; the dialog shows the session key and run id.
  await card(page, 'To do', 'Go live').click();
  const goDialog = page.getByRole('dialog', { name: 'Go live' });
  await goDialog.getByRole('button', { name: 'Dispatch' }).click();
  await goDialog.getByRole('status').getByText('Dispatched: the agent is working on it.').waitFor();
  await goDialog.getByText(`agent:${ada}:subagent:workboard-default-${go}`).waitFor({ timeout: RUN_WAIT_MS });
  await goDialog.getByText(new RegExp(`^workboard:${go}:`)).waitFor();
  await goDialog.getByRole('button', { name: 'Close' }).click();
  await waitFor(async () => ['running', 'review'].includes((await gatewayStatus(go)) ?? ''), { what: 'the dispatched card to start on the gateway', intervalMs: 250 });

  // /board: every card, the teamless one too; dark.
  const dark = await openPage(t, browser(), { colorScheme: 'dark' });
  await dark.page.goto(`${svc.base}/board`);
  await card(dark.page, 'In progress', 'Someone else').waitFor();
  await card(dark.page, 'Blocked', 'Plan the launch').waitFor();
  assert.deepEqual(await axeSerious(dark.page), [], 'axe, dark, all-teams board with Workboard cards');
});

void test('Delegation (issue 23, item 5): with no gateway the board shows nothing extra, and GET /api/workboard neither fails nor logs an error on the page', async (t) => {
  const lone = await startSvc(t);
  const { page } = await openPage(t, browser());
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/workboard');
  await page.goto(`${lone.base}/board`);
  await page.getByText('No tasks yet').waitFor();
  const r = await answered;
  assert.equal(r.status(), 200);
  assert.deepEqual(await r.json(), { enabled: false, cards: [], statuses: [] });
  assert.equal(await page.getByText('Workboard').count(), 0);
});
