// Issue 22 #2, #4, #6 in the team chat: the host over a real SQLite file and
// the real budget ledger, with a scripted gateway connection in place of the
// gateway (test/helpers/team-chat-scripted.ts; what the real gateway does is proved in
// test/gateway/team-chat/budgets.test.ts). A run halted for a budget, a turn a
// paused budget blocks before its send, fallback metering that pauses a
// budget with a run's unrouted spend, and exchange turns halted both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { budgetStopText } from '../../shared/team-chat/budgets/budget-halt.ts';
import { teamSessionKey } from '../../shared/team-chat/schemas.ts';
import { fixture } from '../helpers/team-chat-scripted.ts';
import { waitFor } from '../helpers/wait.ts';

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

void test('Budgets (issue 22, item 2): per-call fallback metering into a cap budget that is paused already (a per-model one, which no send can check first) halts that run after its call too', async (t) => {
  const f = fixture(t);
  const key = teamSessionKey('writer', f.teamId);
  f.budgets.upsert({ scope: 'agent', scopeId: 'writer', mode: 'cap', period: 'none', limitUsdCents: 10, model: 'svc-e2e-llm' });
  f.host.ingest({ teamId: f.teamId, message: 'work', entryId: 'user-1' });
  const first = await waitFor(() => f.gw.sends[0]?.runId, { what: 'the first send' });
  f.gw.callEnded(first, { provider: 'fake', input: 20_000, output: 0, responseId: 'c1' });
  f.gw.callEnded(first, { provider: 'fake', input: 20_000, output: 0, responseId: 'c2' });
  await waitFor(() => f.executions()[0]?.status === 'cancelled', { what: 'the first run halted' });
  assert.equal(f.budgets.list()[0]?.status, 'paused');

  // The next message is sent: the model its calls will use is not known before they are made.
  f.host.ingest({ teamId: f.teamId, message: 'more work', entryId: 'user-2' });
  const second = await waitFor(() => f.gw.sends[1]?.runId, { what: 'the second send' });
  f.gw.callEnded(second, { provider: 'fake', input: 20_000, output: 0, responseId: 'c3' });
  await waitFor(() => f.executions()[1]?.status === 'cancelled', { what: 'the second run halted after its call' });
  assert.deepEqual(f.gw.aborts, [first, second]);
  assert.equal(f.executions()[1]?.error, 'the agent writer for svc-e2e-llm budget reached its cap');
  assert.deepEqual(f.notes(key), [noteText('agent writer for svc-e2e-llm'), noteText('agent writer for svc-e2e-llm')]);
  assert.equal(f.budgets.list()[0]?.spentUsdCents, 18, 'the call after the pause is still counted');
  assert.equal(f.errorEvents().filter((e) => e.errorClass === 'BudgetExceeded').length, 1, 'one pause, one BudgetExceeded');
});

/** After the exchange's halted turn: a person's message is sent, and no further exchange turn was. */
async function noFurtherExchangeTurn(f: ReturnType<typeof fixture>, sendsBefore: number): Promise<void> {
  f.host.ingest({ teamId: f.teamId, message: 'anyone?', entryId: 'user-after' });
  await waitFor(() => f.gw.sends.some((s, i) => i >= sendsBefore && s.sessionKey === teamSessionKey('writer', f.teamId)), { what: "the person's message sent" });
  assert.deepEqual(f.gw.sends.slice(sendsBefore).filter((s) => s.sessionKey.includes(':peer:')), [], 'the exchange ended: no further turn');
}

void test('Budgets (issue 22, item 4): haltForBudget on an exchange turn halts it (row cancelled naming the budget, the note in the agent\'s team transcript) and ends the exchange', async (t) => {
  const f = fixture(t);
  const { exchangeId } = f.host.exchange({ teamId: f.teamId, fromAgentId: 'writer', toAgentId: 'editor', topic: 'the plan', turns: 4 });
  const runId = await waitFor(() => f.gw.sends[0]?.runId, { what: 'the first exchange turn' });
  const peerKey = f.gw.sends[0]?.sessionKey as string;
  assert.ok(peerKey.endsWith(`:peer:${exchangeId}`), peerKey);
  assert.deepEqual(f.host.haltForBudget({ agentId: 'writer', sessionKey: peerKey, budgetLabel: 'global', budgetId: 'b-g' }), { halted: true });
  await waitFor(() => f.executions()[0]?.status === 'cancelled', { what: 'the exchange turn halted' });
  assert.deepEqual(f.gw.aborts, [runId]);
  assert.deepEqual([f.executions()[0]?.trigger, f.executions()[0]?.error], ['exchange', 'the global budget reached its cap']);
  assert.deepEqual(f.notes(teamSessionKey('writer', f.teamId)), [noteText('global')]);
  await noFurtherExchangeTurn(f, 1);
});

void test('Budgets (issue 22, item 2): per-call fallback metering of an exchange turn that crosses a cap halts it and ends the exchange', async (t) => {
  const f = fixture(t);
  f.budgets.upsert({ scope: 'agent', scopeId: 'editor', mode: 'cap', period: 'none', limitUsdCents: 10, model: null });
  f.host.exchange({ teamId: f.teamId, fromAgentId: 'writer', toAgentId: 'editor', topic: 'the plan', turns: 4 });
  f.gw.finish(await waitFor(() => f.gw.sends[0]?.runId, { what: "the writer's turn" }), 'Shall we plan?');
  const editorRun = await waitFor(() => f.gw.sends[1]?.runId, { what: "the editor's turn" });
  f.gw.callEnded(editorRun, { provider: 'fake', input: 20_000, output: 0, responseId: 'e1' });
  f.gw.callEnded(editorRun, { provider: 'fake', input: 20_000, output: 0, responseId: 'e2' });
  await waitFor(() => f.executions()[1]?.status === 'cancelled', { what: "the editor's turn halted after the call" });
  assert.deepEqual(f.gw.aborts, [editorRun]);
  assert.equal(f.executions()[1]?.error, 'the agent editor budget reached its cap');
  assert.deepEqual(f.notes(teamSessionKey('editor', f.teamId)), [budgetStopText('Editor', 'agent editor')]);
  assert.equal(f.budgets.list()[0]?.status, 'paused');
  await noFurtherExchangeTurn(f, 2);
});
