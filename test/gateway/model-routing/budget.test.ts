// Issue 22 items 3 and 4 on a REAL OpenClaw gateway routed through svc
// (one gateway, one svc for the file; the tests run in order): 20
// concurrent runs against one cap budget, a refusal that leaves the
// provider usable (resume, and the same agent is answered), and a kill -9
// of svc in the middle of a call with no reservation left open after the
// restart; a native delegation's child refused at its first call, and one
// that runs on its configured sub-agent model through svc. The fake model
// is the provider.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../../shared/db/open.ts';
import { sendChat, type ChatTurn } from '../../../shared/gateway/chat.ts';
import { allowSpawns, startTeamChatGateway, type TeamChatGateway } from '../../helpers/team-chat-gateway.ts';
import { ingestWorkerStats, startServer, type RunningServer } from '../../helpers/server.ts';
import { waitFor } from '../../helpers/wait.ts';
import { call, chat, createTeam, executions, openChatStream } from '../../helpers/team-chat-api.ts';

const SETUP_TIMEOUT_MS = 20 * 60_000;
const CHAT_MS = 180_000;
const RUNS = 20;
const REFUSAL = /svc stopped this call: the agent \S+ budget reached its cap/;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API bodies

let gw: TeamChatGateway | undefined;
let svc: RunningServer | undefined;
let worker = '';

const base = () => (svc as RunningServer).base;
const gateway = () => gw as TeamChatGateway;
/** svc's API through the shared helper; `text` is the body again, for assertion messages. */
const api = async (path: string, init?: { method: string; body?: unknown }): Promise<{ status: number; body: Json; text: string }> => {
  const r = await call<Json>(base(), init?.method ?? 'GET', path, init?.body);
  return { ...r, text: JSON.stringify(r.body) };
};
/** svc's rows, read from its database file as a person with sqlite3 would. */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = openDatabase(join((svc as RunningServer).home, 'svc.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const openCalls = () => query<{ n: number }>("SELECT count(*) AS n FROM model_calls WHERE outcome = 'open'")[0]?.n ?? 0;
const openReservations = () => query<{ n: number }>("SELECT count(*) AS n FROM budget_reservations WHERE state = 'open'")[0]?.n ?? 0;
const workerCalls = async (): Promise<Json[]> => (await api(`/api/model-calls?agentId=${encodeURIComponent(worker)}&limit=500`)).body.calls as Json[];
const budgetOf = async (): Promise<Json> => ((await api('/api/governance/budgets')).body as Json[]).find((b) => b.scope === 'agent' && b.scopeId === worker) as Json;
const chatWorker = async (key: string, message: string): Promise<ChatTurn> =>
  sendChat(await gateway().session(), { sessionKey: `agent:${worker}:${key}`, message, timeoutMs: CHAT_MS });

async function startSvc(port?: number): Promise<void> {
  svc = await startServer({ home: gateway().home, env: gateway().env, timeoutMs: 120_000, ...(port === undefined ? {} : { port }) });
}

before(async () => {
  gw = await startTeamChatGateway('svc-model-budget-e2e-');
  await gw.start();
  await startSvc();
  [worker] = (await gw.createAgents(['Worker'])) as [string];
  const res = await api('/api/system/model-routing/sync', { method: 'POST' });
  assert.equal(res.body.lastSync?.ok, true, res.text);
  assert.ok(!readFileSync(join(gw.stateDir, '.env'), 'utf8').includes('FAKELLM_API_KEY'), 'the key left the gateway .env');
  // The gateway runs the worker through svc before any budget exists.
  await waitFor(async () => (await chatWorker('warm-up', 'warm up')).state === 'final' && (await workerCalls()).some((c) => c.outcome === 'ok'), {
    what: 'a first call of the worker through svc', timeoutMs: CHAT_MS, intervalMs: 1000,
  });
}, { timeout: SETUP_TIMEOUT_MS });

after(async () => {
  await svc?.stop();
  await gw?.close();
});

void test(`Budgets (issue 22, item 3): ${RUNS} concurrent runs against one cap: the overshoot is at most one call's actual minus estimate, every reservation is settled or released`, async () => {
  const [warm] = (await workerCalls()).filter((c) => c.outcome === 'ok') as [Json];
  // Room for three reservations at once: calls race for it, settle below their estimate, and the last ones are refused.
  const limitUsdCents = Math.ceil((3 * warm.estimateUsd + 2 * warm.costUsd) * 100);
  const created = await api('/api/governance/budgets', { method: 'POST', body: { scope: 'agent', scopeId: worker, limitUsdCents, mode: 'cap' } });
  assert.equal(created.status, 200, created.text);
  const since = new Set((await workerCalls()).map((c) => c.id));

  const turns = await Promise.all(Array.from({ length: RUNS }, (_, i) => chatWorker(`race-${i}`, `race number ${i}`)));
  for (const t of turns) assert.equal(t.state, 'final', `every run ends normally: ${JSON.stringify(t)}`);
  const refused = turns.filter((t) => REFUSAL.test(t.text));
  const answered = turns.filter((t) => /ECHO: race number/.test(t.text));
  assert.ok(answered.length >= 1, 'some runs were answered');
  assert.ok(refused.length >= 1, 'some runs were refused');

  await waitFor(() => openCalls() === 0, { what: 'every model call to end' });
  assert.equal(openReservations(), 0, 'every reservation settled or released');
  const calls = (await workerCalls()).filter((c) => !since.has(c.id));
  const ok = calls.filter((c) => c.outcome === 'ok');
  const budget = await budgetOf();
  assert.equal(budget.status, 'paused');
  assert.equal(budget.reservedUsdCents, 0);
  const spent = ok.reduce((sum, c) => sum + (c.costUsd as number), 0);
  assert.ok(Math.abs(budget.spentUsd - spent) < 1e-5 * (ok.length + 1), `spent ${budget.spentUsd} = the ok calls' cost ${spent}`);
  const worstDelta = Math.max(0, ...ok.map((c) => (c.costUsd as number) - (c.estimateUsd as number)));
  const overshoot = budget.spentUsd - limitUsdCents / 100;
  assert.ok(overshoot <= worstDelta + 1e-6, `overshoot ${overshoot} USD > one call's actual minus estimate ${worstDelta} USD`);
  // Each answered call's cost event and cost row, written by the ingest worker off the endpoint's thread.
  const costEvents = () => query<{ id: string }>("SELECT json_extract(data, '$.modelCallId') AS id FROM events WHERE kind = 'cost'").map((r) => r.id);
  await waitFor(() => ok.every((c) => costEvents().includes(c.id as string)), { what: "every answered call's cost event" });
  const costRows = query<{ n: number; usd: number }>('SELECT count(*) AS n, sum(cost_usd) AS usd FROM cost_records WHERE agent_id = ?', worker)[0];
  assert.ok((costRows?.n ?? 0) >= ok.length, `a cost row per answered call (${costRows?.n} rows, ${ok.length} calls)`);
  await waitFor(async () => ((await ingestWorkerStats(base()))?.calls ?? 0) >= ok.length, { what: 'the ingest worker to have recorded the answered calls' });
  // The closing note's figures.
  console.log(`# overshoot: limit ${limitUsdCents} cents, spent ${budget.spentUsd} USD, overshoot ${overshoot.toFixed(6)} USD, worst actual-minus-estimate ${worstDelta.toFixed(6)} USD, ${ok.length} calls answered, ${calls.filter((c) => c.outcome === 'refused').length} refused`);
});

void test('Budgets (issue 22, item 4): a refusal ends the chat normally with svc text; after a resume with grace the same agent is answered (no provider cooldown)', async () => {
  const refusedTurn = await chatWorker('refused-1', 'are you there');
  assert.equal(refusedTurn.state, 'final', JSON.stringify(refusedTurn));
  assert.match(refusedTurn.text, REFUSAL);
  assert.equal((await budgetOf()).status, 'paused');

  const resumed = await api(`/api/governance/budgets/agent/${encodeURIComponent(worker)}/resume`, { method: 'POST', body: { graceUsdCents: 500 } });
  assert.equal(resumed.status, 200, resumed.text);
  assert.equal(resumed.body.status, 'active');
  assert.equal(resumed.body.willRepause, false);
  const answered = await chatWorker('after-resume', 'back again');
  assert.equal(answered.state, 'final', JSON.stringify(answered));
  assert.match(answered.text, /ECHO: back again/);
});

void test('Budgets (issue 22, item 3): kill -9 of svc in the middle of a call, then a restart: no reservation and no call stays open', async () => {
  const turn = chatWorker('killed', 'SLOW: hold this one').catch((err: unknown) => ({ state: 'error', text: String(err) }) as ChatTurn);
  await gateway().model.untilHeld(1, CHAT_MS);
  await waitFor(() => openReservations() >= 1, { what: 'the held call to hold a reservation' });
  const port = (svc as RunningServer).port;
  (svc as RunningServer).proc.kill('SIGKILL');
  await waitFor(() => (svc as RunningServer).proc.exitCode !== null || (svc as RunningServer).proc.signalCode !== null, { what: 'svc to die' });
  gateway().model.release();
  await startSvc(port);
  assert.equal(openReservations(), 0, 'the open reservation was settled at boot');
  assert.equal(openCalls(), 0, 'the open call was closed at boot');
  const [row] = query<{ outcome: string }>('SELECT outcome FROM model_calls WHERE agent_id = ? ORDER BY started_at DESC LIMIT 1', worker);
  assert.equal(row?.outcome, 'interrupted');
  await turn;
  // The restarted svc re-applies routing on connect without a new token: the gateway keeps the values it read.
  const again = await waitFor(async () => {
    const t = await chatWorker('after-restart', 'still there');
    return t.state === 'error' && /superseded/.test(t.errorMessage ?? '') ? undefined : t;
  }, { what: 'a chat after the restart', timeoutMs: CHAT_MS, intervalMs: 500 });
  assert.equal(again.state, 'final', JSON.stringify(again));
  assert.match(again.text, /ECHO: still there/);
});

void test("Budgets (issue 22, items 4 and 5; issue 23): routed, a native delegation's child whose agent's cap is below one call's estimate is refused at its first model call: the provider is not reached, the child's row ends cancelled naming the budget with a note under its key", async () => {
  const [lead, kid] = (await gateway().createAgents(['Lead', 'Kid'])) as [string, string];
  const synced = await api('/api/system/model-routing/sync', { method: 'POST' });
  assert.equal(synced.body.lastSync?.ok, true, synced.text);
  const teamId = await createTeam(base(), 'Routed Team', [{ id: lead, name: 'Lead' }, { id: kid, name: 'Kid' }], lead);
  await allowSpawns(gateway(), lead, [kid]);
  // One cent: below any single call's estimate, so the child's first call is refused before it is forwarded.
  const created = await api('/api/governance/budgets', { method: 'POST', body: { scope: 'agent', scopeId: kid, limitUsdCents: 1, mode: 'cap' } });
  assert.equal(created.status, 200, created.text);
  const kidCalls = async () => (await api(`/api/model-calls?agentId=${encodeURIComponent(kid)}&limit=500`)).body.calls as Json[];
  const before = new Set((await kidCalls()).map((c) => c.id));

  const stream = await openChatStream(base(), teamId);
  try {
    await chat(base(), teamId, { message: `TOOL@${lead}: sessions_spawn ${JSON.stringify({ task: 'count the beans', agentId: kid, label: 'Beans' })}`, targetAgentId: lead });
    const hand = await stream.row('the hand-over', (e) => e.trigger === 'spawn' && e.kind === 'meta' && e.label === 'Beans' && typeof e.childSessionKey === 'string', CHAT_MS);
    const childKey = hand.childSessionKey as string;
    const reason = `the agent ${kid} budget reached its cap`;
    const note = await stream.row("the note under the child's key", (e) => e.kind === 'meta' && e.sessionKey === childKey, CHAT_MS);
    assert.equal(note.text, `Kid's work on “Beans” ended: ${reason}`);
    const child = await waitFor(() => {
      const r = executions((svc as RunningServer).home, teamId).find((x) => x.session_key === childKey && x.trigger === 'spawn');
      return r && r.status !== 'running' ? r : undefined;
    }, { what: "the child's row to end", timeoutMs: CHAT_MS });
    assert.deepEqual([child.agent_id, child.status, child.error], [kid, 'cancelled', reason]);
    const refused = (await kidCalls()).filter((c) => !before.has(c.id));
    // Every call of the child was refused by svc: none was forwarded to the provider.
    assert.ok(refused.length >= 1 && refused.every((c) => c.outcome === 'refused'), JSON.stringify(refused));
    await waitFor(() => executions((svc as RunningServer).home, teamId).every((r) => r.status !== 'running'), { what: 'the team to be idle', timeoutMs: CHAT_MS });
  } finally {
    await stream.close();
  }
});

void test("Budgets (issue 31, item 2): routed, a delegation's child runs on the sub-agent model its entry names, through svc under its own token: the call is the child's, on that model", async () => {
  const [lead, kid] = (await gateway().createAgents(['Lead Two', 'Kid Two'])) as [string, string];
  // The operator gives the kid a sub-agent model of its own on the same provider, priced in the gateway's config.
  const file = join(gateway().stateDir, 'openclaw.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Json;
  const fake = config.models.providers.fakellm as Json;
  fake.models.push({ ...fake.models[0], id: 'sub-mini', name: 'Sub Mini' });
  config.agents.entries[kid] = { ...config.agents.entries[kid], subagents: { model: 'fakellm/sub-mini' } };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });

  const synced = await api('/api/system/model-routing/sync', { method: 'POST' });
  assert.equal(synced.body.lastSync?.ok, true, synced.text);
  const after = JSON.parse(readFileSync(file, 'utf8')) as Json;
  assert.deepEqual(after.agents.entries[kid].subagents, { model: `svc-${kid}/sub-mini` });
  const route = (synced.body.agents as Json[]).find((a) => a.agentId === kid) as Json;
  assert.deepEqual(route.subagentModel, [{ ref: 'fakellm/sub-mini', upstream: 'fakellm', model: 'sub-mini', routed: true, reason: null }]);

  const kidCalls = async () => (await api(`/api/model-calls?agentId=${encodeURIComponent(kid)}&limit=500`)).body.calls as Json[];
  const asked = gateway().model.requests.length;
  // The lead spawns the kid (allowSpawns probes with a spawn until the gateway accepts one).
  await allowSpawns(gateway(), lead, [kid]);
  const call = await waitFor(async () => (await kidCalls()).find((c) => c.model === 'sub-mini' && c.outcome === 'ok'), {
    what: "the kid's first call on its sub-agent model through svc", timeoutMs: CHAT_MS, intervalMs: 500,
  });
  assert.equal(call.provider, 'fakellm');
  assert.ok(call.costUsd > 0, `priced by the gateway's config: ${JSON.stringify(call)}`);
  assert.ok(gateway().model.requests.slice(asked).some((r) => r.model === 'sub-mini'), 'the provider was asked for the sub-agent model');
});
