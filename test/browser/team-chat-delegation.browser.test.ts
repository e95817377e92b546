// Issue 23 item 6 (brief D), the Team chat page with native delegation, in a
// real browser against a real svc and the REAL OpenClaw gateway with the fake
// model (one gateway for the file, started in before()). The lead Lea may
// spawn Res (`subagents.allowAgents`, written with the helper's mergeConfig);
// the person sends `TOOL@<lea>: sessions_spawn {...}` and the page shows the
// hand-over with Res running, Res's text streaming inside it (never as a
// bubble of Lea's), Res's reply landing inside with its cost, the hand-over
// folding to a summary, and Lea continuing with the result; collapse and
// expand by keyboard; Stop while a child runs ends it (stopped, Send back);
// 390 x 844; axe light and dark. Then, from seeded rows: a refused spawn's
// notice, a child entry whose hand-over is not held, a failed child.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { seedEntry, seedTranscript, skipOnboarding, uiDistEnv } from '../helpers/browser-team-chat.ts';
import { axeSerious, openPage, useBrowser } from '../helpers/browser.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { createTeam, executions, openChatStream, RUN_WAIT_MS, teamKey, type ChatStream, type Entry, type TeamMember } from '../helpers/team-chat-api.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { waitFor } from '../helpers/wait.ts';

const S = 'Delegation (issue 23, item 6)';
const browser = useBrowser();
const SETUP_TIMEOUT_MS = 20 * 60_000;

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let lea: TeamMember | undefined;
let res: TeamMember | undefined;

before(async () => {
  gw = await startTeamChatGateway('svc-ui-deleg-');
  await gw.start();
  const [leaId, resId] = await gw.createAgents(['Lea', 'Res']);
  lea = { id: leaId as string, name: 'Lea' };
  res = { id: resId as string, name: 'Res' };
  // The gate the gateway enforces (docs/gateway-facts.md, "Native
  // delegation"): Lea may hand work to Res.
  gw.mergeConfig({ agents: { entries: { [lea.id]: { subagents: { allowAgents: [res.id] } } } } });
  svc = await startServer({ home: gw.home, env: { ...gw.env, ...uiDistEnv() }, timeoutMs: 120_000 });
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await gw?.close();
});

function rig(): { gw: TeamChatGateway; svc: RunningServer; lea: TeamMember; res: TeamMember } {
  if (!gw || !svc || !lea || !res) throw new Error('no setup (did before() fail?)');
  return { gw, svc, lea, res };
}

/** The prompt that makes Lea's run (only hers) spawn Res on `task`. */
const spawnPrompt = (leadId: string, childId: string, task: string, label: string) =>
  `TOOL@${leadId}: sessions_spawn ${JSON.stringify({ task, agentId: childId, label })}`;

async function sendByKeyboard(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.focus();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

const handoverRow = (stream: ChatStream, label: string) =>
  stream.row(`the hand-over of "${label}"`, (e) => e.trigger === 'spawn' && typeof e.childSessionKey === 'string' && e.label === label);

/** The hand-over's list item, its toggle button and the region it opens. */
function handoverOf(page: Page, childSessionKey: string) {
  const item = page.locator(`li[data-handover="${childSessionKey}"]`);
  return { item, toggle: item.getByRole('button').first(), region: item.getByRole('group') };
}

/** Waits until the hand-over shows `status`; a timeout says what it showed and what the stream committed. */
async function untilStatus(item: Locator, status: string, stream: ChatStream): Promise<void> {
  try {
    await item.locator(`[data-handover-status="${status}"]`).waitFor();
  } catch (err) {
    const rows = stream.rows().map((e) => `${e.role}/${e.kind} ${e.sessionKey} ${e.trigger ?? ''} ${e.text.slice(0, 80)}`);
    throw new Error(`${(err as Error).message}\nthe hand-over shows ${await item.getAttribute('data-status')}; rows:\n  ${rows.join('\n  ')}`, { cause: err });
  }
}

/**
 * The child's live bubbles not inside any hand-over (its text must never be
 * one). Only the child's: once it is done, the lead's continuation streams
 * at the top level, as it should.
 */
const topLevelLive = (page: Page, childKey: string) =>
  page.evaluate<number>(
    `[...document.querySelectorAll("[data-live]")].filter((el) => el.getAttribute("data-live") === ${JSON.stringify(childKey)} && !el.closest("[data-handover]")).length`,
  );

void test(`${S}: the hand-over shows the child running, its text streams inside, its reply lands inside with its cost, the lead continues; keyboard collapse and expand; axe light`, async (t) => {
  const { gw, svc, lea, res } = rig();
  const teamId = await createTeam(svc.base, 'Delegation journey', [lea, res], lea.id);
  await skipOnboarding(svc.base, teamId);
  const stream = await openChatStream(svc.base, teamId);
  t.after(() => stream.close());
  t.after(() => void gw.model.release());
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}`);
  await page.getByText('No messages yet').waitFor();

  const label = 'Research the topic';
  await sendByKeyboard(page, spawnPrompt(lea.id, res.id, 'SLOW: research the topic in depth and report back to the lead', label));

  // The hand-over, open while Res runs: "Lea handed “…” to Res", working.
  const h = await handoverRow(stream, label);
  const childKey = h.childSessionKey as string;
  const { item, toggle, region } = handoverOf(page, childKey);
  await item.waitFor();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true', 'open while the child runs');
  assert.match((await toggle.textContent()) ?? '', /Lea handed “Research the topic” to Res/);
  await untilStatus(item, 'running', stream);

  // Res's text streams inside the hand-over, under Res's name; never a bubble of the team's own; Stop is offered.
  await gw.model.untilHeld(1, RUN_WAIT_MS);
  // Res is let go only once Lea's own run has ended: a child that finishes while its parent's run still
  // goes has its result steered into that run by the gateway, and there is no announce run to continue.
  await stream.row("Lea's own reply", (e) => e.role === 'assistant' && e.sessionKey === h.sessionKey && e.trigger === 'user', RUN_WAIT_MS);
  const live = region.locator('[data-live-text]');
  await live.waitFor();
  await region.getByText('Res', { exact: true }).first().waitFor();
  assert.equal(await topLevelLive(page, childKey), 0, 'no live bubble of the child outside the hand-over');
  await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
  assert.deepEqual(await axeSerious(page), [], 'axe while the child runs');
  gw.model.release();

  // The reply lands inside, with the cost on the hand-over; then it folds to a summary.
  const reply: Entry = await stream.row("Res's reply", (e) => e.sessionKey === childKey && e.role === 'assistant' && e.kind === 'message');
  assert.equal(reply.parentSessionKey, h.sessionKey, 'the child reply refers to its parent (server side)');
  assert.equal(typeof reply.costUsd, 'number', 'the child reply carries its cost');
  const cost = `$${(reply.costUsd as number) >= 1 ? (reply.costUsd as number).toFixed(2) : (reply.costUsd as number).toFixed(4)}`;
  await untilStatus(item, 'done', stream);
  assert.equal((await item.locator('[data-cost]').textContent())?.replace(/\s+/g, ' ').trim(), `, cost ${cost}`);
  await waitFor(async () => (await toggle.getAttribute('aria-expanded')) === 'false', { what: 'the hand-over to fold once Res is done' });
  await item.locator('[data-handover-summary]').getByText(/^Res: ECHO/).waitFor();
  assert.equal(await region.isVisible(), false);
  assert.equal(await page.locator(`[data-entry-id="${reply.entryId}"]`).count(), 1, 'the reply is in the page once, inside the hand-over');
  assert.equal(await item.locator(`[data-entry-id="${reply.entryId}"]`).count(), 1);
  assert.equal(await topLevelLive(page, childKey), 0, 'no live bubble of the child outside the hand-over once it is done');

  // Lea continues with the result: a lead bubble after the hand-over, marked as such.
  const cont = await stream.row("Lea's continuation", (e) => e.trigger === 'announce' && e.agentId === lea.id && e.role === 'assistant');
  const contItem = page.locator(`[data-entry-id="${cont.entryId}"]`);
  await contItem.getByText("continuing with Res's result").waitFor();
  assert.equal(await contItem.evaluate((el) => (el as unknown as { closest(sel: string): unknown }).closest('[data-handover]') === null), true, 'the continuation is not nested');
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor();

  // Keyboard: the hand-over's button opens and closes it; its name says what, the status and the cost.
  const name = (await toggle.evaluate((el) => (el as unknown as { innerText: string }).innerText)).replace(/\s+/g, ' ');
  assert.match(name, /Lea handed “Research the topic” to Res.*done.*\$0\.\d{4}/);
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  await region.locator(`[data-entry-id="${reply.entryId}"]`).waitFor();
  assert.equal(await region.getAttribute('aria-label'), `Res's work on “${label}”`);
  await page.keyboard.press('Space');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await region.waitFor({ state: 'hidden' });
  assert.deepEqual(await axeSerious(page), [], 'axe light, done');

  // After a reload the page shows the same: folded, done, with the cost.
  await page.reload();
  await untilStatus(item, 'done', stream);
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal((await item.locator('[data-cost]').innerText()).trim().endsWith(cost), true);
});

void test(`${S}: Stop while the child runs ends it: the hand-over says stopped, Send is back, the child's run is cancelled; 390 x 844 and axe dark`, async (t) => {
  const { gw, svc, lea, res } = rig();
  const teamId = await createTeam(svc.base, 'Delegation stop', [lea, res], lea.id);
  await skipOnboarding(svc.base, teamId);
  const stream = await openChatStream(svc.base, teamId);
  t.after(() => stream.close());
  t.after(() => void gw.model.release());
  const { page } = await openPage(t, browser(), { colorScheme: 'dark', viewport: { width: 390, height: 844 } });
  await page.goto(`${svc.base}/teams/${teamId}`);
  await page.getByText('No messages yet').waitFor();

  const label = 'Check the sources';
  await sendByKeyboard(page, spawnPrompt(lea.id, res.id, 'SLOW: check every source, slowly, before answering', label));
  const h = await handoverRow(stream, label);
  const { item, toggle, region } = handoverOf(page, h.childSessionKey as string);
  await untilStatus(item, 'running', stream);
  const [held] = await gw.model.untilHeld(1, RUN_WAIT_MS);
  await region.locator('[data-live-text]').waitFor();

  // On a phone: the hand-over fits, nothing scrolls sideways; axe dark.
  const box = await item.boundingBox();
  assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the hand-over is on screen: ${JSON.stringify(box)}`);
  assert.ok(await page.evaluate<boolean>('document.documentElement.scrollWidth <= 390'), 'no sideways scroll');
  assert.deepEqual(await axeSerious(page), [], 'axe dark, phone, child running');

  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await untilStatus(item, 'stopped', stream);
  await region.locator('[data-live-text]').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Stop', exact: true }).count(), 0);
  assert.match((await toggle.innerText()).replace(/\s+/g, ' '), /stopped/);

  // The server agrees: the child's run is cancelled, the model's stream closed by the gateway's abort.
  await waitFor(() => executions(svc.home, teamId).some((r) => r.session_key === h.childSessionKey && r.status === 'cancelled'), { what: "the child's run to be cancelled" });
  await waitFor(() => held?.state === 'closed', { what: 'the held model stream to be aborted' });
  assert.deepEqual(await axeSerious(page), [], 'axe dark, phone, stopped');
});

void test(`${S}: a refused spawn reads as a notice; a child entry without its hand-over stands alone as a sub-agent's; a failed child folds to its note`, async (t) => {
  const { svc } = rig();
  // Agents that exist only in svc: nothing runs, the rows are seeded (POST /api/chat-history) once the page is live.
  const kim = { id: 'ui-d23-kim', name: 'Kim' };
  const lou = { id: 'ui-d23-lou', name: 'Lou' };
  const teamId = await createTeam(svc.base, 'Delegation notes', [kim, lou], kim.id);
  await skipOnboarding(svc.base, teamId);
  const stream = await openChatStream(svc.base, teamId);
  t.after(() => stream.close());
  const { page } = await openPage(t, browser());
  await page.goto(`${svc.base}/teams/${teamId}`);
  await page.getByText('No messages yet').waitFor();

  const leadKey = teamKey(kim.id, teamId);
  const oldKey = `agent:${lou.id}:subagent:older-one`;
  const childKey = `agent:${lou.id}:subagent:audit-one`;
  const meta = { role: 'system' as const, kind: 'meta' as const, trigger: 'spawn' };
  const refused = { ...seedEntry(teamId, kim.id, 'Kim could not hand “Audit” to stranger: agentId is not allowed for sessions_spawn (allowed: ui-d23-lou)'), ...meta, entryId: 'spawn-refused-call-1' };
  const orphan = { ...seedEntry(teamId, lou.id, 'ECHO: an older finding'), sessionKey: oldKey, trigger: 'spawn', parentSessionKey: leadKey };
  const handover = { ...seedEntry(teamId, kim.id, 'Kim handed “Audit the logs” to Lou'), ...meta, entryId: `spawn-${childKey}`, childSessionKey: childKey, label: 'Audit the logs' };
  const note = { ...seedEntry(teamId, lou.id, 'Lou’s work on “Audit the logs” ended: timed out after 60000 ms'), ...meta, sessionKey: childKey, parentSessionKey: leadKey };
  await seedTranscript(svc.base, [refused, orphan, handover, note]);

  const refusedItem = page.locator(`[data-entry-id="${refused.entryId}"]`);
  await refusedItem.waitFor();
  assert.equal(await refusedItem.getAttribute('data-kind'), 'refused');
  assert.equal((await refusedItem.innerText()).replace(/\s+/g, ' ').trim(), `Hand-over refused: ${refused.text}`);

  const orphanItem = page.locator(`[data-entry-id="${orphan.entryId}"]`);
  await orphanItem.getByText('Lou (sub-agent)').waitFor();
  assert.equal(await orphanItem.evaluate((el) => (el as unknown as { closest(sel: string): unknown }).closest('[data-handover]') === null), true);

  const { item, toggle, region } = handoverOf(page, childKey);
  await untilStatus(item, 'failed', stream);
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false', 'a finished child is folded');
  assert.equal((await item.locator('[data-handover-summary]').innerText()).trim(), note.text);
  await toggle.click();
  await region.locator(`[data-entry-id="${note.entryId}"]`).getByText(note.text).waitFor();
  assert.deepEqual(await axeSerious(page), []);
});
