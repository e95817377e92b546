// Issue 18, the Team chat page (`/teams/:id`), in a real browser against a
// real svc and the REAL OpenClaw gateway with the fake model (one gateway for
// the file, started in before(), as test/gateway/team-chat.test.ts does): the
// onboarding gate and the intro; a mention picked by keyboard; deltas that
// grow and replace the live bubble; the committed reply; a reload with no
// duplicates (journey 3); Stop mid-run (journey 4); a dropped connection
// mid-run, cut for real by a TCP proxy in front of svc (journey 5); "load
// earlier", "jump to latest", a refused send and its retry, roster targeting,
// task cards from board frames; the 390 x 844 pass and axe light and dark.
// Tests that do not need a run seed their transcript through
// POST /api/chat-history and use agents that exist only in svc.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import {
  installLiveRecorder, liveTexts, renderedEntryIds, seedEntry, seedTranscript, serverEntries, skipOnboarding, startCutProxy, uiDistEnv, type CutProxy,
} from '../helpers/browser-team-chat.ts';
import { axeSerious, openPage, useBrowser } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { call, createTeam, executions, openChatStream, RUN_WAIT_MS, teamKey, type ChatFrame, type ChatStream, type TeamMember } from '../helpers/team-chat-api.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { waitFor } from '../helpers/wait.ts';

const browser = useBrowser();
const SETUP_TIMEOUT_MS = 20 * 60_000;

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let proxy: CutProxy | undefined;
/** Agents on the gateway: one pair per journey, so no journey moves another's agents to its team. */
const agents: Record<string, TeamMember> = {};

before(async () => {
  gw = await startTeamChatGateway('svc-ui-chat-');
  await gw.start();
  const names = ['Ada', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay'];
  const ids = await gw.createAgents(names);
  names.forEach((name, i) => (agents[name] = { id: ids[i] as string, name }));
  // The proxy's pages send Origin http://127.0.0.1:<proxy port>: SVC_ALLOWED_HOSTS lets svc's host guard accept that name on any port.
  svc = await startServer({ home: gw.home, env: { ...gw.env, ...uiDistEnv(), SVC_ALLOWED_HOSTS: '127.0.0.1' }, timeoutMs: 120_000 });
  proxy = await startCutProxy(svc.port);
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await proxy?.close();
  await svc?.stop();
  await gw?.close();
});

function rig(): { gw: TeamChatGateway; svc: RunningServer; proxy: CutProxy } {
  if (!gw || !svc || !proxy) throw new Error('no setup (did before() fail?)');
  return { gw, svc, proxy };
}
const agent = (name: string): TeamMember => agents[name] ?? assert.fail(`no agent ${name}`);
const keysOf = (teamId: string, ...members: TeamMember[]) => [...members.map((m) => teamKey(m.id, teamId)), `team:${teamId}`];
const isDelta = (f: ChatFrame): f is Extract<ChatFrame, { type: 'delta' }> => f.type === 'delta';
const entry = (page: Page, entryId: string) => page.locator(`[data-entry-id="${entryId}"]`);

/** The page renders exactly the server's rows for the team's keys, each once. */
async function sameRowsAsServer(page: Page, base: string, keys: readonly string[]): Promise<number> {
  const server = (await serverEntries(base, keys)).map((e) => e.entryId).sort();
  const rendered = await waitFor(async () => {
    const ids = await renderedEntryIds(page);
    return ids.length === server.length ? ids : null;
  }, { what: `the page to render the server's ${server.length} rows` });
  assert.equal(new Set(rendered).size, rendered.length, `no row twice: ${rendered.join(', ')}`);
  assert.deepEqual([...rendered].sort(), server);
  return rendered.length;
}

/** Sends `text` from the composer by keyboard. */
async function sendByKeyboard(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.focus();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** The user row the stream committed for `text`. */
const userRowOf = (stream: ChatStream, text: string) => stream.row(`the user entry "${text.slice(0, 30)}"`, (e) => e.role === 'user' && e.text === text);

void test('Dashboard (issue 18, journey 3): the onboarding gate and the intro, a mention picked by keyboard, deltas that grow and replace the live bubble, the committed reply, a reload with no duplicates', async (t) => {
  const { gw, svc } = rig();
  const [ada, bob] = [agent('Ada'), agent('Bob')];
  const teamId = await createTeam(svc.base, 'Journey three', [ada, bob], ada.id);
  const stream = await openChatStream(svc.base, teamId);
  t.after(() => stream.close());
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}`);

  // The gate: meet the team (who leads), then the intro with its 4,000-character counter.
  await page.getByRole('heading', { name: 'Meet your team' }).waitFor();
  const met = page.getByRole('list', { name: 'Agents on this team' });
  assert.deepEqual((await met.getByRole('listitem').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim()), ['Ada lead', 'Bob']);
  assert.equal(await page.getByRole('textbox', { name: 'Message' }).count(), 0, 'no composer before the gate');
  assert.deepEqual(await axeSerious(page), []);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Introduce yourself' }).waitFor();
  const intro = page.getByRole('textbox', { name: /About you/ });
  await intro.fill('x'.repeat(4100));
  await page.getByText('4,000 / 4,000 characters').waitFor();
  await intro.fill('I run the releases.');
  await page.getByText('19 / 4,000 characters').waitFor();
  await page.getByRole('button', { name: 'Save and start chatting' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.waitFor();
  const onboarding = await call(svc.base, 'GET', `/api/teams/${teamId}/onboarding`);
  assert.deepEqual(onboarding.body, { agentsIntroduced: true, userIntroduced: true, userIntroText: 'I run the releases.' });
  await page.getByText('No messages yet').waitFor();
  assert.deepEqual(await axeSerious(page), []);

  // The @ combobox, by keyboard: every name, ArrowDown to Bob, Enter picks "@Bob ".
  await box.focus();
  await page.keyboard.type('@');
  const listbox = page.getByRole('listbox', { name: 'Team members to mention' });
  await listbox.waitFor();
  assert.deepEqual(await listbox.getByRole('option').allTextContents(), ['Ada (lead)', 'Bob']);
  await page.keyboard.press('ArrowDown');
  assert.equal(await listbox.getByRole('option', { name: 'Bob' }).getAttribute('aria-selected'), 'true');
  assert.equal(await box.getAttribute('aria-activedescendant'), 'mention-option-1');
  await page.keyboard.press('Enter');
  await listbox.waitFor({ state: 'detached' });
  assert.equal(await box.inputValue(), '@Bob ');
  await page.getByText('To Bob', { exact: true }).waitFor();
  // Escape closes the list without touching the text; Shift+Enter is a new line, not a send.
  await page.keyboard.press('Backspace');
  await listbox.waitFor();
  await page.keyboard.press('Escape');
  await listbox.waitFor({ state: 'detached' });
  await page.keyboard.type(' ');
  await page.keyboard.press('Shift+Enter');
  // A SLOW line holds the model after its first word; enough words that the rest streams as several deltas.
  const slow = `SLOW: ${Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ')}`;
  await page.keyboard.type(slow);
  const message = `@Bob \n${slow}`;
  assert.equal(await box.inputValue(), message);
  await installLiveRecorder(page);
  await page.keyboard.press('Enter');

  // The user's entry, for Bob; Bob runs; the live bubble shows the first word while the model holds.
  const userRow = await userRowOf(stream, message);
  assert.equal(userRow.agentId, bob.id);
  await entry(page, userRow.entryId).getByText('You to Bob').waitFor();
  // The optimistic bubble went when the committed row with its entryId arrived.
  await page.locator('[data-pending]').waitFor({ state: 'detached' });
  assert.equal(await box.inputValue(), '');
  await gw.model.untilHeld(1, RUN_WAIT_MS);
  const live = page.locator('[data-live-text]');
  await live.waitFor();
  await page.getByRole('button', { name: /^Bob.*working$/ }).waitFor();
  await page.getByRole('button', { name: 'Stop' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Send' }).count(), 0, 'Stop replaces Send while anyone runs');
  gw.model.release();

  const reply = await stream.row("Bob's reply", (e) => e.role === 'assistant' && e.agentId === bob.id);
  await entry(page, reply.entryId).waitFor();
  await live.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: /^Bob.*idle$/ }).waitFor();
  await page.getByRole('button', { name: 'Send' }).waitFor();
  assert.equal((await entry(page, reply.entryId).locator('p').textContent())?.trim(), reply.text.trim());

  // The live bubble showed the whole text of one delta each time (replaced, never appended), and it grew.
  const shown = await liveTexts(page);
  const sent = stream.frames().filter(isDelta).filter((d) => d.sessionKey === teamKey(bob.id, teamId)).map((d) => d.text);
  assert.ok(shown.length >= 2, `the bubble grew over several deltas: ${JSON.stringify(shown)}`);
  for (const text of shown) assert.ok(sent.includes(text), `the bubble showed ${JSON.stringify(text.slice(0, 60))}, the full text of a delta`);
  for (let i = 1; i < shown.length; i++) assert.ok((shown[i] as string).startsWith((shown[i - 1] as string).trimEnd()), 'each text extends the one before');
  assert.ok(reply.text.startsWith((shown.at(-1) as string).trimEnd()), 'the last text shown is a prefix of the reply');

  // Rendered rows are the server's rows, once each; and again after a reload.
  const keys = keysOf(teamId, ada, bob);
  const count = await sameRowsAsServer(page, svc.base, keys);
  assert.equal(count, 2);
  await page.reload();
  await entry(page, reply.entryId).waitFor();
  assert.equal(await sameRowsAsServer(page, svc.base, keys), count);
  assert.deepEqual(await axeSerious(page), []);
});

void test('Dashboard (issue 18, journey 4): Stop mid-run: the live bubble goes, the agent is idle, Send is back, and the server agrees', async (t) => {
  const { gw, svc } = rig();
  const [cy, dee] = [agent('Cy'), agent('Dee')];
  const teamId = await createTeam(svc.base, 'Journey four', [cy, dee], cy.id);
  await skipOnboarding(svc.base, teamId);
  const stream = await openChatStream(svc.base, teamId);
  t.after(() => stream.close());
  t.after(() => void gw.model.release());
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}`);
  await page.getByText('No messages yet').waitFor();

  const text = 'SLOW: take your time over this one';
  await sendByKeyboard(page, text);
  await entry(page, (await userRowOf(stream, text)).entryId).waitFor();
  const [held] = await gw.model.untilHeld(1, RUN_WAIT_MS);
  const live = page.locator('[data-live-text]');
  await live.waitFor();
  await page.getByRole('button', { name: /^Cy.*working$/ }).waitFor();

  await page.getByRole('button', { name: 'Stop' }).click();
  await live.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: /^Cy.*idle$/ }).waitFor();
  await page.getByRole('button', { name: 'Send' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Stop' }).count(), 0);
  await page.getByText(/is working…/).waitFor({ state: 'detached' });

  // The server: Cy idle, the run cancelled, the model's stream closed by the gateway's abort.
  const cyRow = await call<{ agent: { status: string } }>(svc.base, 'GET', `/api/agents/${cy.id}`);
  assert.equal(cyRow.body.agent.status, 'idle');
  await waitFor(() => executions(svc.home, teamId).some((r) => r.agent_id === cy.id && r.status === 'cancelled'), { what: "Cy's run to be cancelled" });
  await waitFor(() => held?.state === 'closed', { what: 'the held model stream to be aborted' });
  // What streamed before the stop is kept as Cy's entry; the page shows the server's rows.
  await sameRowsAsServer(page, svc.base, keysOf(teamId, cy, dee));
});

void test('Dashboard (issue 18, journey 5): a dropped connection mid-run: the reconnect banner, the stream resumes from Last-Event-ID, the reply and the board catch up, the row count is the server\'s', async (t) => {
  const { gw, svc, proxy } = rig();
  const [eve, fay] = [agent('Eve'), agent('Fay')];
  const teamId = await createTeam(svc.base, 'Journey five', [eve, fay], eve.id);
  await skipOnboarding(svc.base, teamId);
  const stream = await openChatStream(svc.base, teamId);
  t.after(() => stream.close());
  t.after(() => proxy.restore());
  t.after(() => void gw.model.release());
  const { page, allow } = await openPage(t, browser());
  await page.goto(`${proxy.base}/teams/${teamId}`);
  await page.getByText('No messages yet').waitFor();

  const text = 'SLOW: keep going while the line is down';
  await sendByKeyboard(page, text);
  const userRow = await userRowOf(stream, text);
  await entry(page, userRow.entryId).waitFor();
  await gw.model.untilHeld(1, RUN_WAIT_MS);
  await page.locator('[data-live-text]').waitFor();
  const lastId = Math.max(...stream.frames().flatMap((f) => (f.type === 'row' ? [f.id] : [])));

  // Cut every connection to the page; its reconnects fail until the line is back.
  // What a cut line does to the page's requests (its stream, and any poll in flight): network errors, no HTTP status.
  allow(/^request failed: GET http:\/\/127\.0\.0\.1:\d+\/api\/\S+ \(net::ERR_[A-Z_]+\)$/);
  allow(/^console error: Failed to load resource: net::ERR_[A-Z_]+ \(http:\/\/127\.0\.0\.1:\d+\/api\//);
  proxy.cut();
  const banner = page.getByText('Live updates interrupted — reconnecting…');
  await banner.waitFor();

  // Meanwhile the run ends and a task is made: their frames never reach the page.
  gw.model.release();
  const reply = await stream.row("Eve's reply", (e) => e.role === 'assistant' && e.agentId === eve.id);
  const task = await call<{ task: { id: string } }>(svc.base, 'POST', '/api/tasks', { teamId, title: 'Made while offline' });
  assert.equal(task.status, 200, JSON.stringify(task.body));
  const seen = proxy.requests.length;
  proxy.restore();

  await banner.waitFor({ state: 'detached', timeout: 30_000 });
  await entry(page, reply.entryId).waitFor();
  await page.locator('[data-live-text]').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: /^Eve.*idle$/ }).waitFor();
  const resumed = proxy.requests.slice(seen).find((r) => r.path.startsWith(`/api/teams/${teamId}/chat/stream`));
  assert.equal(resumed?.headers['last-event-id'], String(lastId), 'the EventSource resumed after the last row it had');
  // The reopened stream reloads the board: the card made while offline shows.
  await page.getByRole('complementary', { name: 'Tasks and approvals' }).getByRole('button', { name: /Made while offline/ }).waitFor();
  await sameRowsAsServer(page, svc.base, keysOf(teamId, eve, fay));
});

void test('Dashboard (issue 18, Team chat): "load earlier" pages back through chat history past the 200 rendered rows; "jump to latest (n new)" only when the reader is away from the bottom', async (t) => {
  const svc = rig().svc;
  const kim = { id: 'ui-kim', name: 'Kim' };
  const lou = { id: 'ui-lou', name: 'Lou' };
  const teamId = await createTeam(svc.base, 'Long history', [kim, lou], kim.id);
  await skipOnboarding(svc.base, teamId);
  const seeded = Array.from({ length: 230 }, (_, i) => seedEntry(teamId, i % 3 === 0 ? lou.id : kim.id, `message number ${i}`, i % 5 === 0 ? 'user' : 'assistant'));
  await seedTranscript(svc.base, seeded);
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}`);
  await entry(page, (seeded.at(-1) as { entryId: string }).entryId).waitFor();
  await waitFor(async () => (await renderedEntryIds(page)).length === 200, { what: '200 rows rendered' });
  assert.deepEqual(await renderedEntryIds(page), seeded.slice(30).map((e) => e.entryId));

  await page.getByRole('button', { name: 'Load earlier messages' }).click();
  await waitFor(async () => (await renderedEntryIds(page)).length === 230, { what: 'the earlier 30 rows' });
  assert.deepEqual(await renderedEntryIds(page), seeded.map((e) => e.entryId), 'in order, no gap, no duplicate');
  await page.getByRole('button', { name: 'Load earlier messages' }).waitFor({ state: 'detached' });

  // Away from the bottom, new rows are counted, not scrolled to.
  await page.evaluate('document.querySelector("[data-testid=transcript]").scrollTop = 0');
  const more = [seedEntry(teamId, kim.id, 'new one'), seedEntry(teamId, lou.id, 'new two')];
  await seedTranscript(svc.base, more);
  await page.getByRole('button', { name: 'Jump to latest (2 new)' }).click();
  const inView = (id: string) =>
    page.evaluate<boolean>(`(() => { const c = document.querySelector("[data-testid=transcript]").getBoundingClientRect(); const r = document.querySelector('[data-entry-id="${id}"]').getBoundingClientRect(); return r.top >= c.top && r.bottom <= c.bottom + 1; })()`);
  await waitFor(() => inView(more[1]?.entryId as string), { what: 'the newest row in view after the jump' });
  // At the bottom, the view follows a new row by itself.
  const last = seedEntry(teamId, kim.id, 'followed');
  await seedTranscript(svc.base, [last]);
  await entry(page, last.entryId).waitFor();
  await waitFor(() => inView(last.entryId), { what: 'the new row scrolled into view' });
  assert.equal(await page.getByRole('button', { name: /Jump to latest/ }).count(), 0);
});

void test('Dashboard (issue 18, Team chat): a roster member targets the message; a refused send shows the server\'s message on its bubble and Retry sends it once, with the same entryId', async (t) => {
  const svc = rig().svc;
  const kim = { id: 'ui-kim-2', name: 'Kim' };
  const lou = { id: 'ui-lou-2', name: 'Lou' };
  const teamId = await createTeam(svc.base, 'Retry', [kim, lou], kim.id);
  await skipOnboarding(svc.base, teamId);
  const { page, allow } = await openPage(t, browser());
  const posted: Array<{ entryId?: string; targetAgentId?: string }> = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith(`/api/teams/${teamId}/chat`)) posted.push(req.postDataJSON() as { entryId?: string });
  });
  await page.goto(`${svc.base}/teams/${teamId}`);
  await page.getByText('No messages yet').waitFor();

  const louChip = page.getByRole('button', { name: /^Lou/ });
  await louChip.click();
  assert.equal(await louChip.getAttribute('aria-pressed'), 'true');
  await page.getByText('To Lou', { exact: true }).waitFor();

  // The first POST is answered with a refusal (as svc answers a team whose chat gate is closed).
  allow(/console error: Failed to load resource: the server responded with a status of 404/);
  await page.route(`**/api/teams/${teamId}/chat`, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"team is not server-orchestrated"}' }), { times: 1 });
  await sendByKeyboard(page, 'are you there?');
  const failed = page.locator('[data-pending="failed"]');
  await failed.getByText('Not sent: team is not server-orchestrated').waitFor();
  await failed.getByRole('button', { name: 'Retry' }).click();
  await failed.waitFor({ state: 'detached' });
  await page.locator('[data-pending]').waitFor({ state: 'detached' });

  assert.equal(posted.length, 2);
  assert.equal(posted[0]?.entryId, posted[1]?.entryId, 'the retry posts the same entryId');
  assert.equal(posted[1]?.targetAgentId, lou.id);
  const rows = await serverEntries(svc.base, keysOf(teamId, kim, lou));
  const mine = rows.filter((e) => e.entryId === posted[0]?.entryId);
  assert.equal(mine.length, 1);
  assert.equal(mine[0]?.sessionKey, teamKey(lou.id, teamId), 'stored under Lou, the targeted member');
  await entry(page, posted[0]?.entryId as string).getByText('You to Lou').waitFor();

  // Removing the chip ends the targeting.
  await page.getByRole('button', { name: 'Stop sending only to Lou' }).first().click();
  assert.equal(await louChip.getAttribute('aria-pressed'), 'false');
});

void test('Dashboard (issue 18, Team chat): the team\'s task cards follow event: board frames', async (t) => {
  const svc = rig().svc;
  const kim = { id: 'ui-kim-3', name: 'Kim' };
  const teamId = await createTeam(svc.base, 'Board frames', [kim], kim.id);
  await skipOnboarding(svc.base, teamId);
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}`);
  const panel = page.getByRole('complementary', { name: 'Tasks and approvals' });
  await panel.getByText('No tasks yet.', { exact: false }).waitFor();
  await page.getByText('No messages yet').waitFor();
  const made = await call<{ task: { id: string } }>(svc.base, 'POST', '/api/tasks', { teamId, title: 'Write the notes', assigneeAgentId: kim.id });
  const card = panel.getByRole('button', { name: /Write the notes/ });
  await card.getByText('To do').waitFor();
  await call(svc.base, 'PATCH', `/api/tasks/${made.body.task.id}`, { status: 'in_progress' });
  await card.getByText('In progress').waitFor();
  await card.getByText('Kim').waitFor();
});

void test('Dashboard (issue 18, Team chat): at 390 x 844 in dark: the gate, then the chat with its panel folded away, links to board and settings, no sideways scroll, and axe', async (t) => {
  const svc = rig().svc;
  const kim = { id: 'ui-kim-4', name: 'Kim' };
  const lou = { id: 'ui-lou-4', name: 'Lou' };
  const teamId = await createTeam(svc.base, 'Small screen', [kim, lou], kim.id);
  const seeded = [
    seedEntry(teamId, kim.id, 'Plan the release for Friday, please.', 'user'),
    seedEntry(teamId, kim.id, 'On it: I will split it into three tasks and hand the notes to Lou.'),
    { ...seedEntry(teamId, lou.id, 'Could not deliver to Lou: gateway not connected'), role: 'system' as const, kind: 'meta' as const },
  ];
  await seedTranscript(svc.base, seeded);
  const { page } = await openPage(t, browser(), { colorScheme: 'dark', viewport: { width: 390, height: 844 } });
  await page.goto(`${svc.base}/teams/${teamId}`);
  await page.getByRole('heading', { name: 'Meet your team' }).waitFor();
  assert.deepEqual(await axeSerious(page), []);
  await page.getByRole('button', { name: 'Skip the introductions' }).click();

  await entry(page, seeded[2]?.entryId as string).waitFor();
  const teamNav = page.getByRole('navigation', { name: 'Team' });
  assert.equal(await teamNav.getByRole('link', { name: 'Board' }).getAttribute('href'), `/teams/${teamId}/board`);
  assert.equal(await teamNav.getByRole('link', { name: 'Settings' }).getAttribute('href'), `/teams/${teamId}/settings`);
  const composer = page.getByRole('textbox', { name: 'Message' });
  const box = await composer.boundingBox();
  assert.ok(box && box.y + box.height <= 844 && box.x >= 0 && box.x + box.width <= 390, `the composer is on screen: ${JSON.stringify(box)}`);
  assert.ok(await page.evaluate<boolean>('document.documentElement.scrollWidth <= 390 && document.querySelector("main").scrollWidth <= document.querySelector("main").clientWidth'), 'no sideways scroll');
  const panel = page.getByRole('complementary', { name: 'Tasks and approvals' });
  assert.equal(await panel.isVisible(), false, 'the panel is folded away');
  await page.getByRole('button', { name: 'Tasks and approvals' }).click();
  await panel.getByText('No tasks yet.', { exact: false }).waitFor();
  assert.deepEqual(await axeSerious(page), []);
  assert.equal(await sameRowsAsServer(page, svc.base, keysOf(teamId, kim, lou)), 3);
});

void test('Dashboard (issue 18, Team chat): an unknown team id is a page that says so', async (t) => {
  const { page } = await openPage(t, browser());
  await page.goto(`${rig().svc.base}/teams/no-such-team`);
  await page.getByRole('heading', { name: 'Team not found' }).waitFor();
  await page.getByRole('link', { name: 'See all teams' }).waitFor();
});

void test('Dashboard (issue 18, a first team): a team made on /teams, an agent made on the gateway from its settings, the gate skipped, and the agent answers', async (t) => {
  const { svc } = rig();
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams`);
  await page.getByRole('button', { name: 'New team' }).click();
  const dialog = page.getByRole('dialog', { name: 'New team' });
  await dialog.getByLabel('Name').fill('First team');
  await dialog.getByRole('button', { name: 'Create team' }).click();
  await page.getByRole('link', { name: 'Add agents to First team' }).click();
  await page.waitForURL(/\/teams\/[^/]+\/settings$/);
  const teamId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2] as string);

  // The gateway's agents are offered; a new one is made there and joins the team.
  const gatewayAgents = page.getByLabel('Agent on your gateway');
  await gatewayAgents.locator('option', { hasText: agent('Ada').id }).waitFor({ state: 'attached' });
  await page.getByLabel('New agent on the gateway').fill('Gus');
  await page.getByRole('button', { name: 'Create and add' }).click();
  await page.getByRole('list', { name: 'Members' }).getByRole('button', { name: 'Remove Gus' }).waitFor();
  // The create answered once the gateway had loaded Gus (it hot-reloads a new agent about a second later).
  const listed = await call<{ agents: Array<{ id: string; name: string }> }>(svc.base, 'GET', '/api/gateway/agents');
  const gus = listed.body.agents.find((a) => a.name === 'Gus');
  assert.ok(gus, `the gateway lists Gus: ${JSON.stringify(listed.body)}`);
  const teams = await call<{ assignments: Array<{ agentId: string; teamId: string }> }>(svc.base, 'GET', '/api/teams');
  assert.deepEqual(teams.body.assignments.filter((a) => a.teamId === teamId), [{ agentId: gus.id, teamId }]);

  await page.getByRole('navigation', { name: 'Team' }).getByRole('link', { name: 'Chat' }).click();
  await page.getByRole('button', { name: 'Skip the introductions' }).click();
  await sendByKeyboard(page, 'hello from a first team');
  // The reply streams in (the live bubble), then is committed: the page shows the committed row, as the server holds it.
  const reply = await waitFor(async () => (await serverEntries(svc.base, [teamKey(gus.id, teamId)])).find((e) => e.role === 'assistant'), {
    what: "Gus's committed reply",
    timeoutMs: RUN_WAIT_MS,
  });
  assert.equal(reply.text.trim(), 'ECHO: hello from a first team');
  await entry(page, reply.entryId).getByText('ECHO: hello from a first team').waitFor();
});
