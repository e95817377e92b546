// Issue 23 item 5 end to end: the gateway's Workboard on svc's board, with a
// REAL OpenClaw gateway (the test cache's openclaw, the fake model) and svc
// as a child process that finds it the way a user's installation does. The
// gateway starts without the plugin; the test enables it by editing
// openclaw.json (the gateway hot-reloads it, as `openclaw plugins enable
// workboard` does) and makes cards on its own operator session, as another
// Workboard client would. The tests run in order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkboardCard, WorkboardView } from '../../shared/workboard/schemas.ts';
import { call, createTeam } from '../helpers/team-chat-api.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const WB_STATUSES = ['triage', 'backlog', 'todo', 'scheduled', 'ready', 'running', 'review', 'blocked', 'done'];
/** Below the service's MAX_AGE_MS (30 s): a change seen sooner came through `plugin.workboard.changed`. Only stops a hang. */
const EVENT_WAIT_MS = 20_000;
const RUN_WAIT_MS = 120_000;

interface Setup {
  gw: TeamChatGateway;
  svc: RunningServer;
  teamId: string;
  ada: string;
  zed: string;
}
let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let ctx: Setup | undefined;

before(async () => {
  gw = await startTeamChatGateway('svc-workboard-e2e-');
  await gw.start();
  svc = await startServer({ home: gw.home, env: gw.env, timeoutMs: 120_000 });
  const [ada, bob, zed] = await gw.createAgents(['Ada', 'Bob', 'Zed']);
  const teamId = await createTeam(svc.base, 'Team W', [{ id: ada as string, name: 'Ada' }, { id: bob as string, name: 'Bob' }], ada as string);
  ctx = { gw, svc, teamId, ada: ada as string, zed: zed as string };
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  gw?.model.release();
  await svc?.stop();
  await gw?.close();
});

function setup(): Setup {
  if (!ctx) throw new Error('no setup (did before() fail?)');
  return ctx;
}

const board = async (c: Setup, teamId?: string): Promise<WorkboardView> => {
  const r = await call<WorkboardView>(c.svc.base, 'GET', `/api/workboard${teamId ? `?teamId=${teamId}` : ''}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
};
const cardOf = async (c: Setup, id: string) => (await board(c)).cards.find((x) => x.id === id);
const gatewayCard = async (c: Setup, id: string) => {
  const list = (await (await c.gw.session()).request('workboard.cards.list', {})) as { cards: Array<Record<string, unknown>> };
  return list.cards.find((x) => x.id === id);
};
const createCard = async (c: Setup, params: Record<string, unknown>): Promise<string> => {
  const r = (await (await c.gw.session()).request('workboard.cards.create', params)) as { card: { id: string } };
  return r.card.id;
};
const move = (c: Setup, id: string, body: unknown) => call<{ card?: WorkboardCard; error?: string }>(c.svc.base, 'POST', `/api/workboard/cards/${id}/move`, body);
const dispatch = (c: Setup, id: string) => call<{ card?: WorkboardCard; error?: string }>(c.svc.base, 'POST', `/api/workboard/cards/${id}/dispatch`, {});

void test('Delegation (issue 23, item 5): a gateway without the Workboard plugin reads as enabled:false (200, nothing else); enabling the plugin on the running gateway turns svc\'s board on', async () => {
  const c = setup();
  // svc's own gateway link is up: the gateway answers through it.
  await waitFor(async () => (await call<{ reachable: boolean }>(c.svc.base, 'GET', '/api/gateway/agents')).body.reachable, { what: 'svc connected to the gateway', timeoutMs: 60_000, intervalMs: 250 });
  assert.deepEqual(await board(c), { enabled: false, cards: [], statuses: [] });
  assert.deepEqual(await board(c, c.teamId), { enabled: false, cards: [], statuses: [] });
  const refused = await move(c, 'any-card', { status: 'done' });
  assert.deepEqual([refused.status, refused.body], [409, { error: 'Workboard is not enabled on the gateway' }]);

  c.gw.mergeConfig({ plugins: { entries: { workboard: { enabled: true } } } });
  const on = await waitFor(async () => {
    const v = await board(c);
    return v.enabled ? v : null;
  }, { what: 'GET /api/workboard to say enabled once the plugin is on', timeoutMs: 60_000, intervalMs: 250 });
  assert.deepEqual(on, { enabled: true, cards: [], statuses: WB_STATUSES });
});

void test('Delegation (issue 23, item 5): cards made on the gateway show in GET /api/workboard with source, column, assignee and teams; a card whose agent is in no team is not in ?teamId=; a change on the gateway shows after plugin.workboard.changed', async () => {
  const c = setup();
  const mine = await createCard(c, { title: 'Draft the plan', status: 'todo', agentId: c.ada });
  const stray = await createCard(c, { title: 'Stray work', status: 'backlog', agentId: c.zed });
  const seen = await waitFor(async () => {
    const v = await board(c);
    return v.cards.length === 2 ? v : null;
  }, { what: 'both new cards in GET /api/workboard', timeoutMs: EVENT_WAIT_MS, intervalMs: 250 });
  const byId = new Map(seen.cards.map((x) => [x.id, x]));
  assert.deepEqual(
    { ...byId.get(mine), updatedAt: null },
    { id: mine, title: 'Draft the plan', status: 'todo', column: 'todo', agentId: c.ada, teamIds: [c.teamId], sessionKey: null, runId: null, source: 'workboard', updatedAt: null },
  );
  assert.equal(typeof byId.get(mine)?.updatedAt, 'number');
  assert.deepEqual(
    { ...byId.get(stray), updatedAt: null },
    { id: stray, title: 'Stray work', status: 'backlog', column: 'todo', agentId: c.zed, teamIds: [], sessionKey: null, runId: null, source: 'workboard', updatedAt: null },
  );
  assert.deepEqual((await board(c, c.teamId)).cards.map((x) => x.id), [mine], 'the team board has its agent\'s card only');

  // Changed by another Workboard client: svc reads it again when the gateway says the board changed.
  const session = await c.gw.session();
  const changed = new Promise<void>((resolve) => {
    const off = session.on('plugin.workboard.changed', () => {
      off();
      resolve();
    });
  });
  await session.request('workboard.cards.move', { id: mine, status: 'blocked' });
  await changed;
  const after = await waitFor(async () => {
    const card = await cardOf(c, mine);
    return card?.status === 'blocked' ? card : null;
  }, { what: 'svc to show the card blocked', timeoutMs: EVENT_WAIT_MS, intervalMs: 250 });
  assert.equal(after.column, 'blocked');
});

void test('Delegation (issue 23, item 5): moving a card from svc moves it on the gateway (workboard.cards.list shows it); an unknown status is 400, an unknown card 404, and neither changes the gateway', async () => {
  const c = setup();
  const id = (await board(c, c.teamId)).cards[0]?.id;
  assert.ok(id, 'the team card of the previous test');
  const moved = await move(c, id, { status: 'ready' });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  assert.deepEqual([moved.body.card?.id, moved.body.card?.status, moved.body.card?.column, moved.body.card?.source], [id, 'ready', 'todo', 'workboard']);
  assert.equal((await gatewayCard(c, id))?.status, 'ready', 'the gateway has the new status');
  assert.equal((await cardOf(c, id))?.status, 'ready', 'svc\'s GET right after the move shows it');

  const unknown = await move(c, id, { status: 'shipped' });
  assert.deepEqual([unknown.status, unknown.body], [400, { error: 'unknown status' }]);
  const missing = await move(c, 'no-such-card', { status: 'done' });
  assert.deepEqual([missing.status, missing.body], [404, { error: 'card not found' }]);
  const blank = await move(c, id, {});
  assert.deepEqual([blank.status, blank.body], [400, { error: 'status required' }]);
  assert.equal((await gatewayCard(c, id))?.status, 'ready', 'unchanged on the gateway');
});

void test('Delegation (issue 23, item 5): dispatching a ready card starts its agent\'s sub-agent run: the card carries the session key and run id and ends in review; the gateway\'s own refusal is a 409 with its words; a card that is not ready is 409', async () => {
  const c = setup();
  const id = (await board(c, c.teamId)).cards.find((x) => x.status === 'ready')?.id;
  assert.ok(id, 'the ready team card');
  // The card's notes make its run hold at the fake model, so the second dispatch meets a running first one.
  await (await c.gw.session()).request('workboard.cards.update', { id, patch: { notes: 'SLOW: the workboard run holds here' } });
  const started = await dispatch(c, id);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const sessionKey = `agent:${c.ada}:subagent:workboard-default-${id}`;
  assert.deepEqual([started.body.card?.status, started.body.card?.column, started.body.card?.sessionKey], ['running', 'in_progress', sessionKey]);
  const runId = started.body.card?.runId;
  assert.ok(runId, 'a run id');
  await c.gw.model.untilHeld(1, RUN_WAIT_MS);

  const second = await createCard(c, { title: 'Second for Ada', status: 'ready', agentId: c.ada });
  const refused = await dispatch(c, second);
  assert.equal(refused.status, 409, JSON.stringify(refused.body));
  assert.match(refused.body.error ?? '', /already has active Workboard work/);
  assert.equal((await gatewayCard(c, second))?.status, 'ready', 'the refused card did not start');

  const stray = (await board(c)).cards.find((x) => x.teamIds.length === 0);
  assert.ok(stray);
  const notReady = await dispatch(c, stray.id);
  assert.deepEqual([notReady.status, notReady.body], [409, { error: 'only a ready card can be dispatched (this one is backlog)' }]);
  const missing = await dispatch(c, 'no-such-card');
  assert.deepEqual([missing.status, missing.body], [404, { error: 'card not found' }]);

  c.gw.model.release();
  const done = await waitFor(async () => {
    const card = await cardOf(c, id);
    return card?.status === 'review' ? card : null;
  }, { what: 'the dispatched card to end in review', timeoutMs: RUN_WAIT_MS, intervalMs: 500 });
  assert.deepEqual([done.column, done.sessionKey, done.runId], ['in_review', sessionKey, runId]);
  const served = JSON.stringify(await board(c));
  assert.doesNotMatch(served, /redacted|claim|token/i, 'no claim state (or its token) is served');
});

void test('Delegation (issue 23, item 5): the gateway going away reads as enabled:false (200) and a move as 409; once it is back, svc reads the board again on reconnect', async () => {
  const c = setup();
  const before = (await board(c)).cards.map((x) => x.id).sort();
  assert.ok(before.length > 0);
  await c.gw.kill();
  await waitFor(async () => !(await board(c)).enabled, { what: 'svc to see the gateway gone', timeoutMs: 60_000, intervalMs: 250 });
  assert.deepEqual(await board(c, c.teamId), { enabled: false, cards: [], statuses: [] });
  const refused = await move(c, before[0] as string, { status: 'done' });
  assert.deepEqual([refused.status, refused.body], [409, { error: 'Workboard is not enabled on the gateway' }]);

  await c.gw.start();
  const back = await waitFor(async () => {
    const v = await board(c);
    return v.enabled ? v : null;
  }, { what: 'svc to read the Workboard again after reconnecting', timeoutMs: RUN_WAIT_MS, intervalMs: 500 });
  assert.deepEqual(back.cards.map((x) => x.id).sort(), before, 'the same cards, read again');
});
