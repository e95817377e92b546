// Issue 22 #2, #4, #6 in the team chat: the host over a real SQLite file and
// the real budget ledger, with a scripted gateway connection in place of the
// gateway (what the real gateway does is proved in
// test/e2e/team-chat/budgets.test.ts). A run halted for a budget, a turn a
// paused budget blocks before its send, and fallback metering that pauses a
// budget with a run's unrouted spend.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBudgetStore } from '../../shared/budgets/index.ts';
import { openDatabase, type Db } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createDomain, type Domain } from '../../shared/domain.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import type { GatewaySession } from '../../shared/gateway/client.ts';
import type { ConnectionStatus, GatewayConnection } from '../../shared/gateway/connection.ts';
import { createEventHandlers } from '../../shared/gateway/event-handlers.ts';
import { createLogger } from '../../shared/log.ts';
import { budgetStopText } from '../../shared/team-chat/budget-halt.ts';
import { createExecutions, type Execution } from '../../shared/team-chat/executions.ts';
import { createTeamChatHost, type TeamChatHost } from '../../shared/team-chat/host.ts';
import { teamSessionKey } from '../../shared/team-chat/schemas.ts';
import { waitFor } from '../helpers/wait.ts';

/** A gateway that answers chat.send with a run the test finishes, chat.abort with `aborted`, chat.history from `history`. */
function scriptedGateway() {
  const handlers = createEventHandlers();
  const statusHandlers: Array<(s: ConnectionStatus) => void> = [];
  const sends: Array<{ sessionKey: string; runId: string }> = [];
  const aborts: string[] = [];
  const history: unknown[] = [];
  let seq = 0;
  const ended = new Set<string>();
  const chat = (payload: Record<string, unknown>) => {
    if (payload.state !== 'delta') ended.add(payload.runId as string);
    handlers.emit({ type: 'event', event: 'chat', payload });
  };
  const request = (method: string, params?: unknown): Promise<unknown> => {
    const p = (params ?? {}) as { sessionKey?: string; runId?: string };
    if (method === 'chat.send') {
      const runId = `run-${++seq}`;
      sends.push({ sessionKey: p.sessionKey as string, runId });
      return Promise.resolve({ runId });
    }
    if (method === 'chat.abort') {
      const run = sends.find((s) => s.runId === p.runId) ?? sends.findLast((s) => s.sessionKey === p.sessionKey);
      if (run) {
        aborts.push(run.runId);
        setImmediate(() => chat({ runId: run.runId, sessionKey: run.sessionKey, state: 'aborted' }));
      }
      return Promise.resolve({ ok: true });
    }
    if (method === 'chat.history') return Promise.resolve({ messages: history });
    return Promise.resolve({});
  };
  const session: GatewaySession = {
    hello: {},
    closed: false,
    request,
    on: (event, h) => handlers.on(event, h),
    onClose: () => undefined,
    close: () => Promise.resolve(),
  };
  const connected: ConnectionStatus = { state: 'connected', url: 'ws://stub', connectedAt: 1, lastError: null, failures: 0, serverVersion: 'stub' };
  const connection: GatewayConnection = {
    start: () => setImmediate(() => statusHandlers.forEach((h) => h(connected))),
    stop: () => Promise.resolve(),
    reconfigure: () => undefined,
    nudge: () => undefined,
    status: () => connected,
    settled: () => Promise.resolve(connected),
    request,
    session: () => session,
    on: (event, h) => handlers.on(event, h),
    onStatus: (h) => void statusHandlers.push(h),
  };
  return {
    connection,
    sends,
    aborts,
    /** Ends the runs still going (their send would otherwise hold its timeout timer past the test). */
    endAll() {
      for (const s of sends) if (!ended.has(s.runId)) chat({ runId: s.runId, sessionKey: s.sessionKey, state: 'aborted' });
    },
    /** One model call of a running run ended: in the history, and as a `session.message` event (what the gateway sends subscribers). */
    callEnded(runId: string, c: { provider: string; input: number; output: number; responseId: string }) {
      const run = sends.find((s) => s.runId === runId);
      if (!run) throw new Error(`no run ${runId}`);
      const message = { role: 'assistant', provider: c.provider, model: 'svc-e2e-llm', usage: { input: c.input, output: c.output }, responseId: c.responseId, __openclaw: { runId } };
      // A repeated event is one message of the transcript.
      if (!history.some((h) => (h as { responseId?: string }).responseId === c.responseId)) history.push(message);
      handlers.emit({ type: 'event', event: 'session.message', payload: { sessionKey: run.sessionKey, agentId: 'x', message } });
    },
    /** The run ends with `text`; its model calls (provider, tokens) go into the history first. */
    finish(runId: string, text: string, calls: Array<{ provider: string; input: number; output: number }> = []) {
      const run = sends.find((s) => s.runId === runId);
      if (!run) throw new Error(`no run ${runId}`);
      for (const c of calls) history.push({ role: 'assistant', provider: c.provider, model: 'svc-e2e-llm', usage: { input: c.input, output: c.output }, __openclaw: { runId } });
      chat({ runId, sessionKey: run.sessionKey, state: 'delta', deltaText: text });
      chat({ runId, sessionKey: run.sessionKey, state: 'final', message: { role: 'assistant', content: [{ type: 'text', text }] } });
    },
  };
}

interface Fixture {
  clock: { t: number };
  db: Db;
  domain: Domain;
  gw: ReturnType<typeof scriptedGateway>;
  host: TeamChatHost;
  teamId: string;
  budgets: ReturnType<typeof createBudgetStore>;
  notes(sessionKey: string): string[];
  entryIds(sessionKey: string): string[];
  executions(): Execution[];
  errorEvents(): Array<Record<string, unknown>>;
}

function fixture(t: TestContext): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tc-budget-'));
  const db = openDatabase(join(dir, 'svc.db'));
  const logger = createLogger({ level: 'warn' }, { write: () => undefined });
  const tx = createTx(db, (err) => logger.error({ err }, 'hook'));
  const clock = { t: 1_800_000_000_000 };
  const now = () => ++clock.t;
  const domain = createDomain({ db, tx, settingsTable: createSettingsTable(db, now), eventLog: createEventLog({ db, tx, logger, now }), logger, now });
  const gw = scriptedGateway();
  const host = createTeamChatHost({
    db,
    logger,
    identity: () => {
      throw new Error('the scripted gateway needs no identity');
    },
    version: 'test',
    turnBound: 8,
    idleMs: 30 * 60_000,
    runTimeoutMs: 60_000,
    emit: () => undefined,
    now,
    connect: () => gw.connection,
    reconnectWaitMs: 5,
  });
  host.configure({ gateway: { url: 'ws://stub', token: 't' }, secrets: [] });
  t.after(async () => {
    gw.endAll();
    await host.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const teamId = domain.teams.create({ name: 'Blue', icon: 'x', color: 'blue', leaderAgentId: 'writer' }).id;
  domain.agents.create({ id: 'writer', name: 'Writer', teamId });
  domain.agents.create({ id: 'editor', name: 'Editor', teamId });
  const entries = (key: string) =>
    (db.prepare('SELECT entry FROM chat_messages WHERE session_key = ? ORDER BY id').pluck().all(key) as string[]).map((e) => JSON.parse(e) as { entryId: string; kind: string; text: string });
  return {
    clock,
    db,
    domain,
    gw,
    host,
    teamId,
    budgets: createBudgetStore({ db, tx, now, warnPct: 80, hardCapUsdCents: null }),
    notes: (key) => entries(key).filter((e) => e.kind === 'meta').map((e) => e.text),
    entryIds: (key) => entries(key).map((e) => e.entryId),
    executions: () => (db.prepare('SELECT id FROM executions ORDER BY started_at, id').pluck().all() as string[]).map((id) => createExecutions(db).get(id) as Execution),
    errorEvents: () => (db.prepare(`SELECT data FROM events WHERE kind = 'error' ORDER BY seq`).pluck().all() as string[]).map((d) => JSON.parse(d) as Record<string, unknown>),
  };
}

const noteText = (label: string) => budgetStopText('Writer', label);

void test('Budgets (issue 22, item 4): haltForBudget on a running turn writes the note once, aborts the run, ends its row cancelled naming the budget', async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.host.ingest({ teamId: f.teamId, message: 'write it', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the first send' });
  const runId = f.gw.sends[0]?.runId as string;
  // The endpoint names the gateway's session key as the Runtime line has it: any case.
  const halt = { agentId: 'writer', sessionKey: key.toUpperCase(), budgetLabel: 'agent writer', budgetId: 'b-1' };
  assert.deepEqual(f.host.haltForBudget(halt), { halted: true });
  assert.deepEqual(f.host.haltForBudget(halt), { halted: true }, 'a second halt of the same run finds it and writes nothing more');
  await waitFor(() => f.executions()[0]?.status !== 'running', { what: 'the halted run to end' });
  assert.deepEqual(f.gw.aborts, [runId]);
  const row = f.executions()[0];
  assert.equal(row?.status, 'cancelled');
  assert.equal(row?.error, 'the agent writer budget reached its cap');
  assert.deepEqual(f.notes(key), [noteText('agent writer')]);
  // One per budget and run: keyed by the run id when the gateway had named it, else by the run's row.
  assert.ok(f.entryIds(key).some((id) => id === `budget-b-1-${runId}` || id === `budget-b-1-${row?.id}`), f.entryIds(key).join());
  assert.equal(f.domain.agents.get('writer')?.status, 'idle');
  assert.equal(f.db.prepare('SELECT COUNT(*) FROM cost_records').pluck().get(), 0, 'a halted run that made no call records no zero cost row');
});

void test('Budgets (issue 22, item 4): haltForBudget for a session with no run going, or another agent, is a no-op', async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  assert.deepEqual(f.host.haltForBudget({ agentId: 'writer', sessionKey: key, budgetLabel: 'global', budgetId: 'b' }), { halted: false });
  f.host.ingest({ teamId: f.teamId, message: 'write it', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the send' });
  assert.deepEqual(f.host.haltForBudget({ agentId: 'editor', sessionKey: key, budgetLabel: 'global', budgetId: 'b' }), { halted: false });
  assert.deepEqual(f.host.haltForBudget({ agentId: 'writer', sessionKey: 'agent:writer:main', budgetLabel: 'global', budgetId: 'b' }), { halted: false });
  f.gw.finish(f.gw.sends[0]?.runId as string, 'done');
  await waitFor(() => f.executions()[0]?.status === 'completed', { what: 'the run to complete' });
  assert.deepEqual(f.notes(key), []);
  assert.deepEqual(f.gw.aborts, []);
});

void test('Budgets (issue 22, item 6): a paused cap budget that applies blocks the turn before its send: no chat.send, the note, the row cancelled naming the budget', async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.budgets.upsert({ scope: 'team', scopeId: f.teamId, mode: 'cap', period: 'none', limitUsdCents: 1, model: null });
  f.db.prepare(`UPDATE budgets SET status = 'paused'`).run();
  f.host.ingest({ teamId: f.teamId, message: 'write it', entryId: 'user-1' });
  await waitFor(() => f.executions()[0]?.status === 'cancelled', { what: 'the blocked turn to end' });
  assert.equal(f.gw.sends.length, 0, 'no model call: nothing was sent');
  // A team budget is named by the team's name (shared/budgets budgetLabel).
  assert.equal(f.executions()[0]?.error, 'the team “Blue” budget reached its cap');
  assert.deepEqual(f.notes(key), [noteText('team “Blue”')]);
  // The other budgets' agents are not blocked: a warn budget never blocks.
  f.db.prepare(`UPDATE budgets SET mode = 'warn'`).run();
  f.host.ingest({ teamId: f.teamId, message: 'again', entryId: 'user-2' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'a send once no cap is paused' });
});

void test('Budgets (issue 22, item 2): fallback metering: a run\'s unrouted spend pauses a cap budget; the error event, the note, then the agent\'s next message makes no call; routed calls are not metered again', async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  // 3 USD per million input tokens (the default price): 40,000 tokens are 12 cents, over a 10-cent cap.
  f.budgets.upsert({ scope: 'agent', scopeId: 'writer', mode: 'cap', period: 'none', limitUsdCents: 10, model: null });
  f.host.ingest({ teamId: f.teamId, message: 'first', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the first send' });
  // A routed call costs as much again: svc's endpoint counted it, the run must not.
  f.gw.finish(f.gw.sends[0]?.runId as string, 'first reply', [{ provider: 'svc-writer', input: 40_000, output: 0 }]);
  await waitFor(() => f.executions()[0]?.status === 'completed', { what: 'the first run' });
  assert.equal(f.budgets.list()[0]?.status, 'active', 'routed calls were counted by the endpoint, not here');
  f.host.ingest({ teamId: f.teamId, message: 'second', entryId: 'user-2' });
  await waitFor(() => f.gw.sends.length === 2, { what: 'the second send' });
  f.gw.finish(f.gw.sends[1]?.runId as string, 'second reply', [{ provider: 'fake', input: 40_000, output: 0 }]);
  await waitFor(() => f.budgets.list()[0]?.status === 'paused', { what: 'the budget to pause' });
  const row = f.budgets.list()[0];
  assert.equal(row?.spentUsdCents, 12);
  await waitFor(() => f.notes(key).length === 1, { what: 'the note' });
  assert.deepEqual(f.notes(key), [noteText('agent writer')]);
  assert.equal(f.executions()[1]?.status, 'completed', 'the run itself completed: the fallback halts after the run');
  const errors = f.errorEvents().filter((e) => e.errorClass === 'BudgetExceeded');
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]?.message), /budget agent writer reached its cap of \$0\.10/);
  f.host.ingest({ teamId: f.teamId, message: 'third', entryId: 'user-3' });
  await waitFor(() => f.executions()[2]?.status === 'cancelled', { what: 'the blocked third turn' });
  assert.equal(f.gw.sends.length, 2, 'no model call for the third message');
  assert.equal(f.notes(key).length, 2);
});

void test('Budgets (issue 22, item 4): once a budget halted an agent in a message, no later turn of that message goes to it, even after a resume; other agents still get theirs', async (t) => {
  const f = fixture(t);
  f.budgets.upsert({ scope: 'agent', scopeId: 'editor', mode: 'cap', period: 'none', limitUsdCents: 10, model: null });
  f.host.ingest({ teamId: f.teamId, message: '@Editor check this', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: "the editor's send" });
  // The editor's unrouted spend pauses its budget; its reply still hands the floor to the writer.
  f.gw.finish(f.gw.sends[0]?.runId as string, '@Writer over to you', [{ provider: 'fake', input: 40_000, output: 0 }]);
  await waitFor(() => f.gw.sends.length === 2, { what: "the writer's send" });
  assert.equal(f.budgets.list()[0]?.status, 'paused');
  f.budgets.resume('agent', 'editor', { graceUsdCents: 1000 });
  f.gw.finish(f.gw.sends[1]?.runId as string, '@Editor back to you', []);
  await waitFor(() => f.executions()[1]?.status === 'completed', { what: "the writer's run" });
  await waitFor(() => f.host.stats().running === 0 && f.host.stats().queued === 0, { what: 'the host to settle' });
  assert.equal(f.gw.sends.length, 2, 'the hand-over back to the halted editor was not delivered');
  assert.deepEqual(f.executions().map((e) => e.agentId), ['editor', 'writer']);
  // A new message is a new chain: the resumed editor answers it.
  f.host.ingest({ teamId: f.teamId, message: '@Editor again', entryId: 'user-2' });
  await waitFor(() => f.gw.sends.length === 3, { what: 'a send for the new message' });
});

void test('Budgets (issue 22, item 6): fallback metering into a warn budget: crossing 80 % writes a BudgetWarning event and nothing else; the agent is never halted', async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.budgets.upsert({ scope: 'agent', scopeId: 'writer', mode: 'warn', period: 'none', limitUsdCents: 10, model: null });
  f.host.ingest({ teamId: f.teamId, message: 'first', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the first send' });
  // 30,000 input tokens at 3 USD per million: 9 cents of a 10-cent budget.
  f.gw.finish(f.gw.sends[0]?.runId as string, 'first reply', [{ provider: 'fake', input: 30_000, output: 0 }]);
  await waitFor(() => f.errorEvents().some((e) => e.errorClass === 'BudgetWarning'), { what: 'the warning event' });
  const warning = f.errorEvents().find((e) => e.errorClass === 'BudgetWarning');
  assert.match(String(warning?.message), /^budget agent writer at 80 % of \$0\.10$/);
  assert.deepEqual([f.budgets.list()[0]?.status, f.budgets.list()[0]?.warnedPct], ['active', 80]);
  // Over 100 %: soft-capped, warned again, still never blocking.
  f.host.ingest({ teamId: f.teamId, message: 'second', entryId: 'user-2' });
  await waitFor(() => f.gw.sends.length === 2, { what: 'the second send' });
  f.gw.finish(f.gw.sends[1]?.runId as string, 'second reply', [{ provider: 'fake', input: 30_000, output: 0 }]);
  await waitFor(() => f.budgets.list()[0]?.status === 'soft_capped', { what: 'soft_capped' });
  assert.equal(f.errorEvents().filter((e) => e.errorClass === 'BudgetWarning').length, 2);
  f.host.ingest({ teamId: f.teamId, message: 'third', entryId: 'user-3' });
  await waitFor(() => f.gw.sends.length === 3, { what: 'the third send: warn budgets never block' });
  assert.deepEqual(f.notes(key), []);
  assert.equal(f.errorEvents().filter((e) => e.errorClass === 'BudgetExceeded').length, 0);
});

void test('Budgets (issue 22, item 2): per-call fallback metering: the session.message of an unrouted call that crosses a cap halts the run right after that call; the run\'s end does not count it again; routed calls are not metered', async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.budgets.upsert({ scope: 'agent', scopeId: 'writer', mode: 'cap', period: 'none', limitUsdCents: 10, model: null });
  f.host.ingest({ teamId: f.teamId, message: 'work', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the send' });
  const runId = f.gw.sends[0]?.runId as string;
  // A routed call (svc's endpoint counted it) and a first unrouted one of 6 cents: under the cap, the run goes on.
  f.gw.callEnded(runId, { provider: 'svc-writer', input: 40_000, output: 0, responseId: 'c0' });
  f.gw.callEnded(runId, { provider: 'fake', input: 20_000, output: 0, responseId: 'c1' });
  f.gw.callEnded(runId, { provider: 'fake', input: 20_000, output: 0, responseId: 'c1' });
  await waitFor(() => f.budgets.list()[0]?.spentUsdCents === 6, { what: 'the first call metered once' });
  assert.equal(f.executions()[0]?.status, 'running');
  assert.deepEqual(f.gw.aborts, []);
  // The next unrouted call crosses the cap: the run is halted at once, before it ends by itself.
  f.gw.callEnded(runId, { provider: 'fake', input: 20_000, output: 0, responseId: 'c2' });
  await waitFor(() => f.executions()[0]?.status === 'cancelled', { what: 'the run halted after the call' });
  assert.deepEqual(f.gw.aborts, [runId]);
  assert.equal(f.executions()[0]?.error, 'the agent writer budget reached its cap');
  assert.deepEqual(f.notes(key), [noteText('agent writer')]);
  const row = f.budgets.list()[0];
  assert.deepEqual([row?.status, row?.spentUsdCents], ['paused', 12], 'the run end metered nothing twice');
  assert.equal(f.errorEvents().filter((e) => e.errorClass === 'BudgetExceeded').length, 1);
  // The run's cost row still records its unrouted calls (the routed one is the endpoint's).
  assert.deepEqual(f.db.prepare('SELECT input_tokens FROM cost_records').pluck().all(), [40_000]);
});

void test('Budgets (issue 22, item 4): a halt that comes just after the refused run ended still writes its note, once; a run that ended long before is not noted', async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.host.ingest({ teamId: f.teamId, message: 'work', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the send' });
  const runId = f.gw.sends[0]?.runId as string;
  // The refusal is a normal completion: the run may end before the endpoint's halt reaches the worker.
  f.gw.finish(runId, 'Budget agent writer reached its cap.');
  await waitFor(() => f.executions()[0]?.status === 'completed', { what: 'the run to end' });
  const halt = { agentId: 'writer', sessionKey: key, budgetLabel: 'agent writer', budgetId: 'b-late' };
  assert.deepEqual(f.host.haltForBudget(halt), { halted: false }, 'nothing left to abort');
  f.host.haltForBudget(halt);
  assert.deepEqual(f.notes(key), [noteText('agent writer')]);
  assert.ok(f.entryIds(key).includes(`budget-b-late-${runId}`));
  assert.deepEqual(f.gw.aborts, []);
  f.clock.t += 61_000;
  f.host.haltForBudget({ ...halt, budgetId: 'b-old' });
  assert.equal(f.notes(key).length, 1, 'a run that ended a minute ago is not the refused one');
});
