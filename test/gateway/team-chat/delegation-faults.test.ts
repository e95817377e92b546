// Issue 23 items 2 and 4, the faults: native delegations (the gateway's own
// `sessions_spawn`, followed by svc) past the turn bound, past svc's run
// timeout, and cut off by a gateway crash. One REAL gateway for the file (the
// last test kills it); svc is restarted on the same home between tests that
// need other limits (the turn bound, the run timeout are process settings).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, chat, createTeam, executions, openChatStream, teamKey, untilEvent, type ChatStream, type Entry } from '../../helpers/team-chat-api.ts';
import { allowSpawns, startTeamChatGateway, type TeamChatGateway } from '../../helpers/team-chat-gateway.ts';
import { startServer, type RunningServer } from '../../helpers/server.ts';
import { waitFor } from '../../helpers/wait.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const WAIT_MS = 180_000;
/** Long enough for the lead's own (unheld) runs on two busy cores; a held child passes it. */
const RUN_TIMEOUT_MS = 20_000;

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let teamId = '';
let lead = '';
let kid = '';

const startSvc = async (env: Record<string, string>) => {
  const g = gw as TeamChatGateway;
  svc = await startServer({ home: g.home, env: { ...g.env, ...env }, timeoutMs: 120_000 });
};

before(async () => {
  gw = await startTeamChatGateway('svc-delegation-faults-');
  await gw.start();
  await startSvc({ SVC_TEAM_CHAT_TURN_BOUND: '1' });
  [lead, kid] = (await gw.createAgents(['Lead', 'Kid'])) as [string, string];
  teamId = await createTeam(svc!.base, 'Team Faults', [{ id: lead, name: 'Lead' }, { id: kid, name: 'Kid' }], lead);
  await allowSpawns(gw, lead, [kid]);
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await gw?.close();
});

const base = () => (svc as RunningServer).base;
const home = () => (svc as RunningServer).home;
const spawnPrompt = (task: string, label: string) => `TOOL@${lead}: sessions_spawn ${JSON.stringify({ task, agentId: kid, label })}`;

async function spawnHeld(stream: ChatStream, task: string, label: string): Promise<Entry> {
  await chat(base(), teamId, { message: spawnPrompt(task, label) });
  const hand = await stream.row(`the hand-over of “${label}”`, (e) => e.trigger === 'spawn' && e.label === label && typeof e.childSessionKey === 'string', WAIT_MS);
  await waitFor(() => (gw as TeamChatGateway).model.held().some((r) => r.prompt.includes(task)), { what: `the child's model stream for “${label}” to be held`, timeoutMs: WAIT_MS });
  return hand;
}

void test('Delegation (issue 23, item 4): a spawn counts against the turn bound: past it the child is aborted at once, turn_bound_hit and the bound note, no child run', async () => {
  const stream = await openChatStream(base(), teamId);
  try {
    await chat(base(), teamId, { message: spawnPrompt('SLOW: never mind', 'Over the bound') });
    const hit = await untilEvent(base(), 'turn_bound_hit', { teamId }, (e) => e.kind === 'turn_bound_hit');
    assert.deepEqual([hit.agentId, (hit.data.dropped as { trigger?: string }).trigger], [kid, 'spawn']);
    const note = await stream.row('the bound note', (e) => e.kind === 'meta' && e.text.startsWith('Turn bound reached'));
    assert.equal(note.sessionKey, teamKey(lead, teamId));
    assert.match(note.text, /the spawn to Kid was not delivered/);
    await waitFor(() => executions(home(), teamId).every((r) => r.status !== 'running'), { what: 'the lead\'s run to end' });
    assert.equal(executions(home(), teamId).filter((r) => r.trigger === 'spawn').length, 0, 'no child row');
    assert.ok(!stream.rows().some((e) => e.trigger === 'spawn' && e.childSessionKey), 'no hand-over');
    // The gateway was told: the child's model stream, if it started, does not stay open.
    await waitFor(() => (gw as TeamChatGateway).model.held().length === 0, { what: 'no child stream left held' });
  } finally {
    await stream.close();
  }
  await svc?.stop();
  await startSvc({ SVC_TEAM_CHAT_TURN_BOUND: '8', SVC_TEAM_CHAT_RUN_TIMEOUT_MS: String(RUN_TIMEOUT_MS) });
});

void test('Delegation (issue 23, item 4): a child past svc\'s run timeout is aborted at the gateway: its row error "timed out", a note under its key, status error', async () => {
  const stream = await openChatStream(base(), teamId);
  try {
    const hand = await spawnHeld(stream, 'SLOW: too long', 'Too long');
    const childKey = hand.childSessionKey as string;
    const row = await waitFor(() => executions(home(), teamId).find((r) => r.session_key === childKey && r.status !== 'running'), { what: 'the child row to end', timeoutMs: WAIT_MS });
    assert.deepEqual([row.status, row.error, row.trigger], ['error', `timed out after ${RUN_TIMEOUT_MS} ms`, 'spawn']);
    const note = await stream.row('the timeout note', (e) => e.kind === 'meta' && e.sessionKey === childKey);
    assert.match(note.text, /^Kid's work on “Too long” ended: timed out after/);
    await stream.until('status error of the child', (f) => f.type === 'status' && f.agentId === kid && f.status === 'error');
    await waitFor(() => !(gw as TeamChatGateway).model.requests.some((r) => r.prompt.includes('SLOW: too long') && r.state === 'held'), { what: 'the gateway to close the timed-out child\'s stream' });
  } finally {
    await stream.close();
  }
});

void test('Delegation (issue 23, item 4): the gateway crashing while a child runs ends the child\'s run `error` in svc; nothing stays running', async () => {
  const stream = await openChatStream(base(), teamId);
  try {
    const hand = await spawnHeld(stream, 'SLOW: the crash', 'Crash');
    const childKey = hand.childSessionKey as string;
    await (gw as TeamChatGateway).kill();
    const row = await waitFor(() => executions(home(), teamId).find((r) => r.session_key === childKey && r.status !== 'running'), { what: 'the child row to end', timeoutMs: WAIT_MS });
    assert.deepEqual([row.status, row.error], ['error', 'the gateway connection was lost during the run']);
    const note = await stream.row('the lost-connection note', (e) => e.kind === 'meta' && e.sessionKey === childKey);
    assert.match(note.text, /ended: the gateway connection was lost during the run$/);
    await waitFor(() => executions(home(), teamId).every((r) => r.status !== 'running'), { what: 'nothing running' });
    const agents = await call<{ agents: Array<{ id: string; status: string }> }>(base(), 'GET', `/api/agents?teamId=${teamId}`);
    assert.equal(agents.body.agents.find((a) => a.id === kid)?.status, 'error');
  } finally {
    await stream.close();
  }
});
