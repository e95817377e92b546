// Issue 17 end to end: team chat orchestrated by svc on a REAL OpenClaw
// gateway (openclaw@2026.9.6 on Node 24, from the test cache) whose only
// model is the fake one in test/helpers/fake-model.ts. One gateway for the
// file, started by the test; svc runs as a child process on a loopback port
// and finds the gateway the way a user's installation does (OPENCLAW_STATE_DIR).
// The agents are created on the gateway (agents.create) and assigned to two
// svc teams; svc's tasks MCP server (for the lead) and teamchat MCP server
// (for the member) are attached the way a user attaches them: the gateway
// snippet of GET /api/mcp/config?...&agentId= merged into openclaw.json, with
// `tools.toolSearch: false` so the model is offered the tools directly.
// The tests run in order (each leaves the teams idle for the next).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sendChat } from '../../shared/gateway/chat.ts';
import { createTeam, gatewaySnippet } from '../helpers/team-chat-api.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';
import type { TeamChatContext } from './team-chat/context.ts';
import { delegationScenario, stopScenario } from './team-chat/delegation-scenario.ts';
import { replyScenario } from './team-chat/reply-scenario.ts';
import { handoverScenario, targetingScenario, turnBoundScenario } from './team-chat/routing-scenario.ts';
import { roomScenario, twoTeamsScenario } from './team-chat/teams-room-scenario.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
/** Low enough that a ping-pong of hand-overs reaches it in a few runs, high enough for the delegation loop (3 runs). */
const TURN_BOUND = 4;

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let ctx: TeamChatContext | undefined;

before(async () => {
  // A price of the operator's own (not the default 3 / 15): the run's cost shows svc read it from the gateway's config.
  gw = await startTeamChatGateway('svc-team-chat-e2e-', { modelCost: { input: 2, output: 8, cacheRead: 0.2, cacheWrite: 2.5 } });
  await gw.start();
  svc = await startServer({ home: gw.home, env: { ...gw.env, SVC_TEAM_CHAT_TURN_BOUND: String(TURN_BOUND) }, timeoutMs: 120_000 });
  const [ada, bob, cy, dee] = await gw.createAgents(['Ada', 'Bob', 'Cy', 'Dee']);
  const a = { lead: { id: ada as string, name: 'Ada' }, member: { id: bob as string, name: 'Bob' } };
  const b = { lead: { id: cy as string, name: 'Cy' }, member: { id: dee as string, name: 'Dee' } };
  const teamA = await createTeam(svc.base, 'Team A', [a.lead, a.member], a.lead.id);
  const teamB = await createTeam(svc.base, 'Team B', [b.lead, b.member], b.lead.id);
  ctx = { base: svc.base, home: svc.home, gw, a: { id: teamA, ...a }, b: { id: teamB, ...b }, turnBound: TURN_BOUND };
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await gw?.close();
});

function context(): TeamChatContext {
  if (!ctx) throw new Error('no setup (did before() fail?)');
  return ctx;
}

void test('Tools broker and MCP (issue 17): the gateway snippets of GET /api/mcp/config?agentId= attach svc\'s tasks and teamchat servers to the real gateway; the model is offered their tools and a call reaches svc', async () => {
  const c = context();
  c.gw.mergeConfig(await gatewaySnippet(c.base, 'tasks', c.a.lead.id));
  c.gw.mergeConfig(await gatewaySnippet(c.base, 'teamchat', c.a.member.id, c.a.id));
  const session = await c.gw.session();
  // The gateway hot-reloads the file; a turn that starts while it swaps its runtime fails, so a probe turn repeats until one completes.
  const turn = await waitFor(async () => {
    const t = await sendChat(session, { sessionKey: `agent:${c.a.lead.id}:attach-probe-${randomBytes(3).toString('hex')}`, message: 'TOOL: list_tasks {}', timeoutMs: 90_000 });
    return t.state === 'final' && !t.text.startsWith('NO TOOL') ? t : null;
  }, { what: 'a turn that calls svc\'s list_tasks through the gateway', timeoutMs: 120_000, intervalMs: 500 });
  assert.match(turn.text, /^Tool said: .*"tasks"/);
  const offered = c.gw.model.requests.at(-1)?.tools ?? [];
  for (const tool of ['list_tasks', 'create_task', 'claim_task', 'add_comment', 'team_chat_post', 'team_chat_subscribe']) {
    assert.ok(offered.some((n) => n.endsWith(`__${tool}`)), `${tool} offered to the model: ${offered.join(',')}`);
  }
  // Every agent answers once the new configuration is in place.
  for (const agent of [c.a.member, c.b.lead, c.b.member]) {
    await waitFor(async () => (await sendChat(session, { sessionKey: `agent:${agent.id}:warm-up`, message: 'ready?', timeoutMs: 90_000 })).state === 'final', { what: `${agent.name} to answer`, timeoutMs: 120_000, intervalMs: 500 });
  }
});

void test('Teams (issue 17 #3): a message in, the reply out: 202, the user entry, status running, deltas with the full running text, the reply with its run id, idle; a resume replays rows only; the execution row, its events, trace, cost record and fleet health', async () => {
  await replyScenario(context());
});

void test('Teams (issue 17 #2): a roster targetAgentId, a leading @mention (also alone, any case) reach the member; a longer name, an unknown mention, a later mention and an off-roster target go to the lead; 10,000 characters arrive whole', async () => {
  await targetingScenario(context());
});

void test('Teams (issue 17 #4): the lead starting a line with @<member> hands over: the member answers the lead\'s reply, speaker_selected, one chain and trace', async () => {
  await handoverScenario(context());
});

void test('Teams (issue 17 #4): the whole delegation loop: the lead\'s model creates a task through svc\'s tasks MCP server, the member is delivered it and answers, the task is done, the lead gets the result; board frames on the stream', async () => {
  await delegationScenario(context());
});

void test('Events (issue 17 #4): the turn bound stops a ping-pong of hand-overs: turn_bound_hit, a meta entry, no run past the bound', async () => {
  await turnBoundScenario(context());
});

void test('Team chat run effects (issue 17 #5): stop mid-run aborts the run at the gateway, releases the claimed tasks to todo, writes cancelled rows for the run and the queued delegation; 200 when idle', async () => {
  await stopScenario(context());
});

void test('SSE streams (issue 17 #6): two teams chatting at once never cross: each stream sees only its own rows, deltas and statuses', async () => {
  await twoTeamsScenario(context());
});

void test('Teams (issue 17 #7): the peer-chat room: an exchange\'s turns in GET /api/team-chat and as event: room frames; a post through the teamchat MCP server too', async () => {
  await roomScenario(context());
});
