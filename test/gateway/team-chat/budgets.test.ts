// Issue 22 in the team chat on a REAL OpenClaw gateway with routing OFF (the
// fallback: svc meters the gateway's per-call usage, `session.message`, and
// halts a run after the call that paused a budget; a native delegation's
// child run too), the kit's fake model as the provider. svc runs in this
// process (workers on, a real port) so a test can also call the service's
// haltForBudget the way the model endpoint does when it refuses a call;
// everything else goes through svc's HTTP API. One gateway and one svc for
// the file; the tests run in order, each leaving the team idle.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../shared/config.ts';
import { openDatabase } from '../../../shared/db/open.ts';
import { createSettingsTable } from '../../../shared/db/settings-table.ts';
import { createLogger } from '../../../shared/log.ts';
import { ENABLED_KEY } from '../../../shared/model-routing/status.ts';
import { createLateRedactor } from '../../../shared/redact.ts';
import { buildApp } from '../../../supervisor/http/app.ts';
import { createRuntime, type Runtime } from '../../../supervisor/runtime.ts';
import { call, chat, createTeam, events, executions, openChatStream, teamKey, type Entry } from '../../helpers/team-chat-api.ts';
import { allowSpawns, startTeamChatGateway, type TeamChatGateway } from '../../helpers/team-chat-gateway.ts';
import { testEnv } from '../../helpers/server.ts';
import { waitFor } from '../../helpers/wait.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const RUN_MS = 120_000;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies

let gw: TeamChatGateway | undefined;
let runtime: Runtime | undefined;
let app: FastifyInstance | undefined;
let base = '';
let teamId = '';
let writer = '';
let slow = '';

before(async () => {
  gw = await startTeamChatGateway('svc-budgets-e2e-');
  await gw.start();
  // Routing off from the first connect: this file proves the fallback, the gateway keeps calling the fake model itself.
  const seed = openDatabase(join(gw.home, 'svc.db'));
  createSettingsTable(seed).set(ENABLED_KEY, 'false');
  seed.close();
  const config = loadConfig(testEnv(gw.home, gw.env));
  const redactor = createLateRedactor();
  const logger = createLogger({ level: config.logLevel, redactor });
  runtime = createRuntime(config, logger, { startWorkers: true });
  redactor.set(runtime.deps.redactor);
  app = buildApp(runtime.deps);
  await app.ready();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  runtime.setBoundPort(port);
  base = `http://127.0.0.1:${port}`;
  [writer, slow] = (await gw.createAgents(['Writer', 'Slowpoke'])) as [string, string];
  teamId = await createTeam(base, 'Budget Team', [{ id: writer, name: 'Writer' }, { id: slow, name: 'Slowpoke' }], writer);
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await app?.close();
  await runtime?.close();
  await gw?.close();
});

const budgets = async (): Promise<Json[]> => {
  const r = await call<Json[]>(base, 'GET', '/api/governance/budgets');
  assert.equal(r.status, 200);
  return r.body;
};
const budgetOf = async (scope: string, scopeId: string) => (await budgets()).find((b) => b.scope === scope && b.scopeId === scopeId);
const notesOf = (entries: readonly Entry[], agentId: string) => entries.filter((e) => e.kind === 'meta' && e.sessionKey === teamKey(agentId, teamId));
const stopNote = (name: string, label: string) => `${name} stopped: the ${label} budget reached its cap. Resume it on the Budgets page.`;
const modelCalls = () => (gw as TeamChatGateway).model.requests.length;
const idle = () => waitFor(() => executions((gw as TeamChatGateway).home, teamId).every((r) => r.status !== 'running'), { what: 'the team to be idle', timeoutMs: RUN_MS });

void test('Budgets (issue 22, item 2): routing off, a cap budget on an agent that one model call crosses is paused after that call and the run halted; the next message to the agent makes no model call and shows the note; after a resume the agent answers again', async () => {
  const gateway = gw as TeamChatGateway;
  const providers = Object.keys((JSON.parse(readFileSync(join(gateway.stateDir, 'openclaw.json'), 'utf8')) as Json).models?.providers ?? {});
  assert.ok(providers.length > 0 && providers.every((p) => !p.startsWith('svc-')), `routing is off: no svc-* provider in the gateway config (${providers.join()})`);
  // 2 cents: the echoed reply of a long message alone is thousands of output tokens at the default 15 USD per million.
  const created = await call<Json>(base, 'POST', '/api/governance/budgets', { scope: 'agent', scopeId: writer, limitUsdCents: 2, mode: 'cap' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.equal(created.body.status, 'active');
  const label = `agent ${writer}`;
  const stream = await openChatStream(base, teamId);
  try {
    const before1 = modelCalls();
    // Few long words: the fake model streams its echo word by word, and 16,000 characters are ~4,000 tokens each way.
    await chat(base, teamId, { message: `Please repeat this back: ${Array.from({ length: 8 }, (_, i) => String(i).repeat(2000)).join(' ')}` });
    const paused = await waitFor(async () => {
      const b = await budgetOf('agent', writer);
      return b?.status === 'paused' ? b : undefined;
    }, { what: "the writer's budget to pause", timeoutMs: RUN_MS });
    assert.ok(paused.spentUsdCents >= 2, JSON.stringify(paused));
    const note = await stream.row('the budget note after the run', (e) => e.kind === 'meta' && e.text === stopNote('Writer', label));
    assert.equal(note.sessionKey, teamKey(writer, teamId));
    const exceeded = (await events(base, { teamId })).filter((e) => e.kind === 'error' && e.data.errorClass === 'BudgetExceeded');
    assert.equal(exceeded.length, 1);
    assert.equal(exceeded[0]?.agentId, writer);
    assert.ok(modelCalls() > before1, 'the run called the model');
    await idle();
    // The call's session.message reaches svc before the run's end: the run is halted after that call, not completed.
    const [first] = executions(gateway.home, teamId);
    assert.deepEqual([first?.status, first?.error], ['cancelled', `the ${label} budget reached its cap`]);
    assert.ok((first?.input_tokens ?? 0) > 0, 'the halted run still shows what its call used');

    // Paused: the next message to the writer is not sent to the gateway at all.
    const before2 = modelCalls();
    await chat(base, teamId, { message: 'Are you still there?' });
    await waitFor(() => executions(gateway.home, teamId).length === 2 && executions(gateway.home, teamId)[1]?.status !== 'running', { what: 'the blocked turn to end', timeoutMs: RUN_MS });
    const blocked = executions(gateway.home, teamId)[1];
    assert.deepEqual([blocked?.status, blocked?.error, blocked?.run_id], ['cancelled', `the ${label} budget reached its cap`, null]);
    await stream.row('the second note', (e) => e.kind === 'meta' && e.text === stopNote('Writer', label) && e.entryId.includes(blocked?.id as string));
    assert.equal(modelCalls(), before2, 'no model call for a paused agent');

    // Resume with grace: the next message is answered.
    const resumed = await call<Json>(base, 'POST', `/api/governance/budgets/agent/${writer}/resume`, { graceUsdCents: 10_000 });
    assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
    assert.deepEqual([resumed.body.status, resumed.body.willRepause], ['active', false]);
    await chat(base, teamId, { message: 'Back to work' });
    await stream.row('the reply after the resume', (e) => e.role === 'assistant' && e.sessionKey === teamKey(writer, teamId) && e.text.includes('Back to work'));
    assert.ok(modelCalls() > before2);
    await idle();
  } finally {
    await stream.close();
  }
});

void test('Budgets (issue 22, item 4): haltForBudget on a running SLOW turn writes the note naming the budget, aborts the run at the gateway and ends its row cancelled; the agent is idle again', async () => {
  const gateway = gw as TeamChatGateway;
  const stream = await openChatStream(base, teamId);
  try {
    await chat(base, teamId, { message: `SLOW: think about it for a while ${Date.now()}`, targetAgentId: slow });
    await gateway.model.untilHeld(1, RUN_MS);
    const running = await waitFor(() => executions(gateway.home, teamId).find((r) => r.agent_id === slow && r.status === 'running'), { what: "Slowpoke's run", timeoutMs: RUN_MS });
    // As the model endpoint names it: the gateway's session key, from the call's Runtime line.
    await (runtime as Runtime).deps.teamChat.haltForBudget({ agentId: slow, sessionKey: teamKey(slow, teamId), budgetLabel: 'global', budgetId: 'b-e2e' });
    await stream.row('the halt note', (e) => e.kind === 'meta' && e.text === stopNote('Slowpoke', 'global'));
    const ended = await waitFor(() => {
      const r = executions(gateway.home, teamId).find((x) => x.id === running.id);
      return r && r.status !== 'running' ? r : undefined;
    }, { what: 'the halted run to end', timeoutMs: RUN_MS });
    assert.deepEqual([ended.status, ended.error], ['cancelled', 'the global budget reached its cap']);
    await waitFor(() => gateway.model.requests.some((q) => q.state === 'closed'), { what: 'the gateway to close the held model stream (the abort)', timeoutMs: RUN_MS });
    assert.equal(notesOf(stream.rows(), slow).filter((e) => e.text === stopNote('Slowpoke', 'global')).length, 1, 'one note per budget and run');
  } finally {
    gateway.model.release();
    await stream.close();
  }
  await idle();
});

void test("Budgets (issue 22, item 2; issue 23): routing off, a native delegation's child run is metered per call: the call that crosses the child agent's cap pauses it and halts the child (row cancelled naming the budget, a note under the child's key); the lead is idle again", async () => {
  const gateway = gw as TeamChatGateway;
  await allowSpawns(gateway, writer, [slow]);
  const created = await call<Json>(base, 'POST', '/api/governance/budgets', { scope: 'agent', scopeId: slow, limitUsdCents: 2, mode: 'cap' });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const label = `agent ${slow}`;
  const stream = await openChatStream(base, teamId);
  try {
    // The child echoes its long task: one call of thousands of tokens each way crosses 2 cents.
    const task = `Repeat this back: ${Array.from({ length: 8 }, (_, i) => String(i).repeat(2000)).join(' ')}`;
    await chat(base, teamId, { message: `TOOL@${writer}: sessions_spawn ${JSON.stringify({ task, agentId: slow, label: 'Echo' })}`, targetAgentId: writer });
    const hand = await stream.row('the hand-over', (e) => e.trigger === 'spawn' && e.kind === 'meta' && e.label === 'Echo' && typeof e.childSessionKey === 'string', RUN_MS);
    const childKey = hand.childSessionKey as string;
    const paused = await waitFor(async () => {
      const b = await budgetOf('agent', slow);
      return b?.status === 'paused' ? b : undefined;
    }, { what: "the child agent's budget to pause", timeoutMs: RUN_MS });
    assert.ok(paused.spentUsdCents >= 2, JSON.stringify(paused));
    const reason = `the ${label} budget reached its cap`;
    const note = await stream.row('the note under the child\'s key', (e) => e.kind === 'meta' && e.sessionKey === childKey, RUN_MS);
    assert.equal(note.text, `Slowpoke's work on “Echo” ended: ${reason}`);
    assert.equal(note.agentId, slow);
    await idle();
    const child = executions(gateway.home, teamId).find((r) => r.session_key === childKey && r.trigger === 'spawn');
    assert.deepEqual([child?.agent_id, child?.status, child?.error], [slow, 'cancelled', reason]);
    const exceeded = (await events(base, { teamId })).filter((e) => e.kind === 'error' && e.data.errorClass === 'BudgetExceeded' && e.agentId === slow);
    assert.equal(exceeded.length, 1, 'one BudgetExceeded for the child agent');
    assert.ok(!stream.rows().some((e) => e.role === 'assistant' && e.sessionKey === childKey && e.trigger === 'spawn' && typeof e.costUsd === 'number'), 'no completed child reply');
  } finally {
    await stream.close();
  }
  const resumed = await call<Json>(base, 'POST', `/api/governance/budgets/agent/${slow}/resume`, {});
  assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
});
