// Issue 30 on the gateway a person already runs: a REAL OpenClaw gateway
// (openclaw@2026.9.6 on Node 24, from the test cache) started by the test
// itself, outside svc, with its own agents (main, Bob, Cy and Dee, created
// with agents.create as `openclaw agents add` does), its own MCP server
// entry, provider and agent settings, and the fake model priced in its
// config the way a person prices a custom model. svc starts with its own,
// empty gateway state folder and is connected to that gateway only through
// POST /api/settings (URL and token), as a person does in Settings. Then:
// svc wires itself in (its MCP servers per agent, the roster lists, model
// routing), a lead hands work to a member through svc's own attach and
// through the spec's unbound snippet pasted by hand, a team's cap stops
// spend, a gateway restart writes nothing twice, a gateway whose config is
// read-only degrades svc's health and nothing else, and the undo leaves
// openclaw.json as it was. One gateway for the file; the tests run in order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sendChat } from '../../shared/gateway/chat.ts';
import { entryName } from '../../shared/gateway-wiring/attach-names.ts';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';
import { call, chat, createTeam, executions, openChatStream, teamKey, untilEvent, type ChatStream, type Entry } from '../helpers/team-chat-api.ts';
import { startTeamChatGateway, type TeamChatGateway } from '../helpers/team-chat-gateway.ts';
import { startServer, tempHome, removeHome, type RunningServer } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const RUN_MS = 180_000;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies and gateway config

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let svcHome = '';
/** Gateway agent ids: main (the gateway's default agent) and the three the person added. */
const ids = { main: 'main', bob: '', cy: '', dee: '' };
let teamA = '';
let teamC = '';
/** openclaw.json and .env as the person had them before svc was connected. */
let original: { config: Json; env: Record<string, string> } = { config: {}, env: {} };

const gateway = () => gw as TeamChatGateway;
const base = () => (svc as RunningServer).base;
const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json; text: string }> => {
  const r = await call<Json>(base(), method, path, body);
  return { ...r, text: JSON.stringify(r.body) };
};
/** The config as the running gateway reports it (the file as written). */
const gatewayConfig = async (): Promise<{ parsed: Json; hash: string }> => {
  const got = (await (await gateway().session()).request('config.get', {})) as { parsed: Json; hash: string };
  return { parsed: got.parsed, hash: got.hash };
};
const fileConfig = (): Json => JSON.parse(readFileSync(join(gateway().stateDir, 'openclaw.json'), 'utf8')) as Json;
const envFile = (): Record<string, string> => parseDotenv(readFileSync(join(gateway().stateDir, '.env'), 'utf8'));
/** The gateway writes its own bookkeeping (`meta`) on every config write; everything else is the person's or svc's. */
const withoutMeta = (c: Json): Json => {
  const { meta: _meta, ...rest } = c;
  return rest;
};
const wiring = async (): Promise<Json> => {
  const r = await api('GET', '/api/system/gateway-wiring');
  assert.equal(r.status, 200, r.text);
  return r.body;
};
const agentRow = (view: Json, id: string): Json => (view.agents as Json[]).find((a) => a.gatewayId === id) as Json;
const svcEntries = (config: Json): Array<[string, Json]> =>
  Object.entries((config.mcp?.servers ?? {}) as Record<string, Json>).filter(([, e]) => typeof e.url === 'string' && e.url.startsWith(`${base()}/api/mcp/`));
const recheck = async (): Promise<Json> => (await api('POST', '/api/health/recheck')).body;

before(async () => {
  gw = await startTeamChatGateway('svc-own-gateway-e2e-');
  await gw.start();
  // The person's gateway as they set it up: three more agents, an MCP server and agent settings of their own.
  [ids.bob, ids.cy, ids.dee] = (await gw.createAgents(['Bob', 'Cy', 'Dee'])) as [string, string, string];
  gw.mergeConfig({
    mcp: { servers: { 'user-notes': { enabled: false, transport: 'streamable-http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'ours' } } } },
    agents: { entries: { [ids.bob]: { tools: { deny: ['browser'] } } } },
  });
  await waitFor(async () => (await gatewayConfig()).parsed.mcp?.servers?.['user-notes'] !== undefined, { what: 'the gateway to load the person\'s own config' });
  original = { config: fileConfig(), env: envFile() };

  // svc with a state folder of its own (empty): it finds this gateway only through Settings.
  svcHome = tempHome('svc-own-gateway-svc-');
  svc = await startServer({ home: svcHome, env: { OPENCLAW_STATE_DIR: join(svcHome, 'no-gateway-here') }, timeoutMs: 120_000 });
  const saved = await api('POST', '/api/settings', { gatewayUrl: gw.url, gatewayToken: gw.token });
  assert.deepEqual([saved.status, saved.body], [200, { ok: true }]);
  await waitFor(async () => {
    const v = await wiring();
    return v.gateway.connected === true && v.last?.reason === 'gateway connected' && v.last.ok === true;
  }, { what: 'svc to connect to the gateway and wire it', timeoutMs: RUN_MS });

  teamA = await createTeam(base(), 'Team A', [{ id: ids.main, name: 'Main' }, { id: ids.bob, name: 'Bob' }], ids.main);
  teamC = await createTeam(base(), 'Team C', [{ id: ids.cy, name: 'Cy' }], ids.cy);
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await gw?.close();
  if (svcHome) removeHome(svcHome);
});

/** Waits until the gateway runs `agent`'s turns with the config svc wrote (it hot-reloads; a turn during the swap can fail). */
async function untilAnswering(agent: string): Promise<void> {
  const session = await gateway().session();
  await waitFor(async () => (await sendChat(session, { sessionKey: `agent:${agent}:warm-${randomBytes(3).toString('hex')}`, message: 'ready?', timeoutMs: 90_000 })).state === 'final', {
    what: `${agent} to answer`, timeoutMs: RUN_MS, intervalMs: 500,
  });
}

void test('Issue 30 #1 and #2: connected only through Settings, svc wires itself into the person\'s gateway: its four MCP servers per team agent with that agent\'s binding, each agent denied the others\' entries, the roster list, routing; the person\'s own entries kept; a copy of openclaw.json from before', async () => {
  const { parsed } = await gatewayConfig();
  const entries = svcEntries(parsed);
  // Main, Bob and Cy are on teams: four entries each. Dee is on no team.
  assert.equal(entries.length, 12, JSON.stringify(entries.map(([n]) => n)));
  for (const agent of [ids.main, ids.bob, ids.cy]) {
    for (const server of ['tasks', 'memory', 'tools', 'teamchat'] as const) {
      const entry = parsed.mcp.servers[entryName(agent, server)] as Json;
      assert.equal(entry?.transport, 'streamable-http');
      assert.equal(entry.url, `${base()}/api/mcp/${server}`);
      const ref = /^\$\{(SVC_MCP_BINDING_[A-Z0-9_]+)\}$/.exec(entry.headers['X-Svc-Mcp-Binding'] as string)?.[1];
      assert.ok(ref, `${agent}'s ${server} entry names its binding by reference: ${JSON.stringify(entry)}`);
      assert.ok(envFile()[ref], `the binding ${ref} is in the gateway's .env`);
    }
  }
  assert.equal(entries.filter(([n]) => n.includes(ids.dee)).length, 0, 'an agent on no team gets no entry');
  // Each agent denies every svc entry that is not its own; Bob keeps his own deny.
  const denyOf = (agent: string): string[] => parsed.agents.entries[agent]?.tools?.deny ?? [];
  assert.ok(denyOf(ids.bob).includes('browser'), 'the person\'s own pattern stays');
  for (const agent of [ids.main, ids.bob, ids.cy, ids.dee]) {
    const own = new Set((['tasks', 'memory', 'tools', 'teamchat'] as const).map((server) => entryName(agent, server)));
    const others = entries.filter(([n]) => !own.has(n)).map(([n]) => `${n}__*`);
    assert.deepEqual(denyOf(agent).filter((p) => p.startsWith('svc-')).sort(), others.sort(), `${agent} denies the others' entries`);
  }
  assert.deepEqual(parsed.agents.entries[ids.main]?.subagents?.allowAgents, [ids.bob], 'the lead may hand work to its member');
  // Routing: every agent's model through svc; the provider key moved into svc's vault.
  for (const agent of [ids.main, ids.bob, ids.cy, ids.dee]) {
    const model = parsed.agents.entries[agent]?.model as string | { primary?: string } | undefined;
    assert.match(String(typeof model === 'string' ? model : model?.primary), new RegExp(`^svc-${agent}/`), `${agent}'s model goes through svc`);
  }
  assert.equal(envFile().FAKELLM_API_KEY, undefined);
  // The person's own MCP entry and provider are as they were (in the file: config.get masks header values).
  const file = fileConfig();
  assert.deepEqual(file.mcp.servers['user-notes'], original.config.mcp.servers['user-notes']);
  assert.deepEqual({ ...file.models.providers.fakellm, apiKey: undefined }, { ...original.config.models.providers.fakellm, apiKey: undefined });
  assert.equal(file.models.providers.fakellm.apiKey, undefined, 'the key reference went with the key, into svc\'s vault');
  // The copy from before svc's first change.
  const copy = join(gateway().stateDir, 'openclaw.json.before-svc');
  assert.ok(existsSync(copy));
  assert.deepEqual(JSON.parse(readFileSync(copy, 'utf8')), original.config);

  const view = await wiring();
  assert.deepEqual([view.enabled, view.attach, view.routing, view.gateway.filesReachable], [true, true, true, true]);
  assert.equal(view.gateway.configPath, join(gateway().stateDir, 'openclaw.json'), 'svc found the config through the gateway');
  for (const agent of [ids.main, ids.bob, ids.cy]) {
    const row = agentRow(view, agent);
    assert.deepEqual([row.attached.ok, row.routed.ok, row.metered.how], [true, true, 'before-each-call'], JSON.stringify(row));
  }
  const dee = agentRow(view, ids.dee);
  assert.deepEqual([dee.attached.ok, dee.attached.reason], [false, "not on one of svc's teams"]);
  const health = await recheck();
  assert.equal(health.checks.find((c: Json) => c.id === 'gatewayWiring')?.ok, true, JSON.stringify(health.checks));
  assert.ok(!JSON.stringify(view).includes(gateway().token) && !JSON.stringify(view).includes('sk-fake-local'), 'no secret in the view');
  for (const agent of [ids.main, ids.bob, ids.cy]) await untilAnswering(agent);
});

async function replyOf(stream: ChatStream, agent: string, what: string, pred: (t: string) => boolean): Promise<Entry> {
  return stream.row(`${agent}'s reply: ${what}`, (e) => e.role === 'assistant' && e.sessionKey === teamKey(agent, teamA) && e.runId !== null && pred(e.text));
}

/** The delegation loop as a person sees it: the task on the board, delivered to Bob, Bob's answer back to the lead, the lead's run going on. */
async function delegationLoop(stream: ChatStream, title: string, toolMessage: string, creator: string | null): Promise<void> {
  await chat(base(), teamA, { message: toolMessage });
  const task = await waitFor(async () => {
    const r = await api('GET', `/api/tasks?teamId=${teamA}`);
    return (r.body.tasks as Json[]).find((t) => t.title === title);
  }, { what: `the task "${title}" on the board`, timeoutMs: RUN_MS });
  assert.equal(task.createdByAgentId, creator);
  assert.equal(task.assigneeAgentId, ids.bob);
  const delivered = await replyOf(stream, ids.bob, 'the answer to the task', (t) => t.startsWith('ECHO: Task ') && t.includes(task.id as string) && t.includes(title));
  assert.equal(delivered.trigger, 'delegation');
  await untilEvent(base(), 'speaker_selected for the task', { teamId: teamA, kinds: 'speaker_selected' }, (e) => e.data.to === ids.bob && e.data.reason === `task: ${title}`);
  const result = await replyOf(stream, ids.main, 'the answer to the result', (t) => t.startsWith('ECHO: Result of task') && t.includes(task.id as string));
  assert.equal(result.trigger, 'result');
  assert.equal((await api('GET', `/api/tasks/${task.id as string}`)).body.task.status, 'done');
  const runs = executions((svc as RunningServer).home, teamA);
  assert.ok(runs.some((r) => r.agent_id === ids.bob && r.task_id === task.id && r.status === 'completed'), 'the member\'s run is recorded');
  assert.ok(runs.some((r) => r.agent_id === ids.main && r.trigger === 'result' && r.status === 'completed'), 'the lead\'s run on the result is recorded');
}

void test('Issue 30 #2: the lead hands work to the member through svc\'s own attach: the task is created as the lead, delivered to the member, the answer goes back to the lead and its run goes on', async () => {
  const title = 'Own attach: write the summary';
  const args = { title, description: 'One line', teamId: teamA, assigneeAgentId: ids.bob };
  const stream = await openChatStream(base(), teamA);
  try {
    await delegationLoop(stream, title, `TOOL: create_task ${JSON.stringify(args)}`, ids.main);
  } finally {
    await stream.close();
  }
  const asked = gateway().model.requests.find((r) => 'toolCall' in r.reply && r.reply.toolCall.name.endsWith('__create_task') && r.prompt.includes(title));
  assert.equal(asked && 'toolCall' in asked.reply ? asked.reply.toolCall.name : null, `${entryName(ids.main, 'tasks')}__create_task`, 'the lead called its own entry');
  assert.ok(asked?.tools.every((t) => !t.startsWith(`svc-${ids.bob}-`)), 'the lead is not offered the member\'s entries');
});

void test('Issue 30 #3: the spec\'s unbound snippet pasted by hand into openclaw.json: a task created through it for a member is delivered like an agent\'s, and the result reaches the lead', async () => {
  const snippet = await api('GET', '/api/mcp/config?server=tasks&runtime=gateway');
  assert.equal(snippet.status, 200, snippet.text);
  gateway().mergeConfig(snippet.body.config.structured as Json);
  const session = await gateway().session();
  await waitFor(async () => {
    const t = await sendChat(session, { sessionKey: `agent:${ids.main}:paste-probe-${randomBytes(3).toString('hex')}`, message: 'TOOL: svc-tasks__list_tasks {}', timeoutMs: 90_000 });
    return t.state === 'final' && t.text.startsWith('Tool said:');
  }, { what: 'the gateway to offer the pasted svc-tasks entry', timeoutMs: RUN_MS, intervalMs: 500 });
  const title = 'Pasted snippet: check the numbers';
  const args = { title, teamId: teamA, assigneeAgentId: ids.bob };
  const stream = await openChatStream(base(), teamA);
  try {
    await delegationLoop(stream, title, `TOOL: svc-tasks__create_task ${JSON.stringify(args)}`, null);
  } finally {
    await stream.close();
  }
  // svc left the pasted entry alone: it is the person's.
  assert.deepEqual(fileConfig().mcp.servers['svc-tasks'], (snippet.body.config.structured as Json).mcp.servers['svc-tasks']);
});

void test('Issue 30 #4: a 30-cent cap on a team pauses it within one model call of the limit; no answer while paused; a resume with grace answers again; the spend equals the gateway-reported usage at the gateway\'s configured price', async () => {
  const created = await api('POST', '/api/governance/budgets', { scope: 'team', scopeId: teamC, limitUsdCents: 30, mode: 'cap' });
  assert.equal(created.status, 200, created.text);
  const budget = async (): Promise<Json> => ((await api('GET', '/api/governance/budgets')).body as Json[]).find((b) => b.scope === 'team' && b.scopeId === teamC) as Json;
  const home = (svc as RunningServer).home;
  /** Sends a message to the team and waits until its run (the team's next execution row) has ended. */
  const send = async (message: string) => {
    const n = executions(home, teamC).length;
    await chat(base(), teamC, { message });
    return waitFor(() => {
      const rows = executions(home, teamC);
      return rows.length > n && rows.every((r) => r.status !== 'running') ? rows[n] : undefined;
    }, { what: `the run of "${message}" to end`, timeoutMs: RUN_MS });
  };
  const stream = await openChatStream(base(), teamC);
  try {
    for (let i = 0; i < 12 && (await budget()).status !== 'paused'; i++) await send(`Message ${i}`);
    const answered = stream.rows().filter((e) => e.role === 'assistant' && /^ECHO: Message \d+$/.test(e.text)).length;
    const paused = await budget();
    assert.equal(paused.status, 'paused', JSON.stringify(paused));
    assert.ok(answered >= 2, `${answered} messages answered before the cap`);
    const calls = (await api('GET', `/api/model-calls?teamId=${teamC}&limit=500`)).body.calls as Json[];
    const refused = calls.filter((c) => c.outcome === 'refused');
    assert.equal(refused.length, 1, 'one call refused, before it reached the provider');
    assert.ok(paused.spentUsd <= 0.3 + 1e-9, `never past the cap: ${paused.spentUsd}`);
    assert.ok(0.3 - paused.spentUsd < (refused[0] as Json).estimateUsd, 'paused within one call of the limit');
    // The spend is what the gateway itself reports for the team's session, at the price in its config (3 and 15 USD per million).
    const history = (await (await gateway().session()).request('chat.history', { sessionKey: teamKey(ids.cy, teamC), limit: 200 })) as { messages: Json[] };
    const reported = history.messages
      .filter((m) => m.role === 'assistant' && m.usage)
      .reduce((sum, m) => sum + ((m.usage.input as number) * 3 + (m.usage.output as number) * 15) / 1e6, 0);
    assert.ok(reported > 0);
    assert.ok(Math.abs(paused.spentUsd - reported) < 1e-5, `spend ${paused.spentUsd} USD = gateway-reported usage at the configured price ${reported} USD`);

    // Paused: the next message reaches no provider; the chat says why.
    const before = gateway().model.requests.length;
    const blocked = await send('Still there?');
    assert.deepEqual([blocked.status, blocked.run_id], ['cancelled', null]);
    assert.match(String(blocked.error), /team .+ budget reached its cap/);
    await stream.row('the note for the paused team', (e) => e.kind === 'meta' && e.entryId.includes(blocked.id) && /budget reached its cap/.test(e.text));
    assert.equal(gateway().model.requests.length, before, 'no model call while paused');

    const resumed = await api('POST', `/api/governance/budgets/team/${teamC}/resume`, { graceUsdCents: 50 });
    assert.equal(resumed.status, 200, resumed.text);
    await send('Back to work');
    await stream.row('the answer after the resume', (e) => e.role === 'assistant' && e.text === 'ECHO: Back to work');
  } finally {
    await stream.close();
  }
});

void test('Issue 30 #1: the gateway restarts: svc reconnects and finds its wiring in place; nothing is written twice, nothing is lost', async () => {
  const before = { config: withoutMeta(fileConfig()), env: envFile(), at: (await wiring()).last.at as string };
  await gateway().kill();
  await gateway().start();
  const view = await waitFor(async () => {
    const v = await wiring();
    return v.gateway.connected && v.last?.reason === 'gateway connected' && v.last.at > before.at ? v : undefined;
  }, { what: 'svc to reconnect and run its round', timeoutMs: RUN_MS });
  assert.deepEqual([view.last.ok, view.last.changed.config, view.last.changed.env], [true, 0, []], JSON.stringify(view.last));
  assert.deepEqual(withoutMeta(fileConfig()), before.config);
  assert.deepEqual(envFile(), before.env);
  await untilAnswering(ids.main);
});

void test('Issue 30 #1: a gateway whose config svc may not write (OPENCLAW_CONFIG_READONLY): adding a member writes nothing, health says what is missing, the chat still works; once writable, svc completes it', async () => {
  await gateway().kill();
  await gateway().start({ OPENCLAW_CONFIG_READONLY: '1' });
  await waitFor(async () => (await wiring()).gateway.connected === true, { what: 'svc to reconnect', timeoutMs: RUN_MS });
  const before = { config: withoutMeta(fileConfig()), env: envFile() };
  const added = await api('POST', `/api/teams/${teamA}/agents`, { agentId: ids.dee, agentName: 'Dee' });
  assert.equal(added.status, 200, added.text);
  const view = await wiring();
  assert.equal(view.last.ok, false);
  assert.match(view.last.error, /externally managed|read-?only|immutable/i);
  assert.deepEqual(agentRow(view, ids.dee).attached.ok, false);
  assert.deepEqual(withoutMeta(fileConfig()), before.config, 'the config is unchanged');
  assert.deepEqual(envFile(), before.env, 'no binding was left in .env for the refused change');
  const health = await recheck();
  const check = health.checks.find((c: Json) => c.id === 'gatewayWiring') as Json;
  assert.equal(check.ok, false);
  assert.ok(health.degraded.includes('gatewayWiring') && health.ok === true, 'degraded, not fatal');
  assert.match(check.message, /externally managed|read-?only|immutable/i);
  assert.ok(!JSON.stringify(health).includes(gateway().token));

  const stream = await openChatStream(base(), teamA);
  try {
    await chat(base(), teamA, { message: 'Are we still talking?' });
    await replyOf(stream, ids.main, 'the answer while the config is read-only', (t) => t === 'ECHO: Are we still talking?');
  } finally {
    await stream.close();
  }

  await gateway().kill();
  await gateway().start();
  await waitFor(async () => {
    const v = await wiring();
    return v.gateway.connected && v.last?.ok === true && agentRow(v, ids.dee).attached.ok === true;
  }, { what: 'svc to attach Dee once the config is writable', timeoutMs: RUN_MS });
  assert.ok(svcEntries((await gatewayConfig()).parsed).some(([n]) => n === entryName(ids.dee, 'tasks')));
});

void test('Issue 30 #2: the undo takes out exactly what svc wrote: openclaw.json equals the copy from before (the gateway\'s own meta aside), the .env holds the person\'s key again, the person\'s entries stay', async () => {
  const undone = await api('POST', '/api/system/gateway-wiring/undo');
  assert.equal(undone.status, 200, undone.text);
  assert.equal(undone.body.enabled, false);
  assert.equal(undone.body.last.ok, true, JSON.stringify(undone.body.last));
  assert.deepEqual(undone.body.owned, { servers: 0, lists: 0, denyLists: 0, envNames: 0 });
  const copy = JSON.parse(readFileSync(join(gateway().stateDir, 'openclaw.json.before-svc'), 'utf8')) as Json;
  const pasted = 'svc-tasks';
  const now = withoutMeta(fileConfig());
  // The snippet the person pasted by hand after svc's first change is theirs: it stays.
  assert.ok(now.mcp.servers[pasted]);
  delete now.mcp.servers[pasted];
  assert.deepEqual(now, withoutMeta(copy));
  assert.deepEqual(envFile(), original.env);
  const health = await recheck();
  assert.equal(health.checks.some((c: Json) => c.id === 'gatewayWiring'), false, 'nothing to check with the wiring off');
  // The gateway answers on its own provider again.
  await untilAnswering(ids.main);
});
