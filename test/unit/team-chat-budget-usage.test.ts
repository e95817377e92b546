// Issue 22 #5: nothing counted twice. A run's model calls as chat.history
// reports them are split: calls whose provider is one of svc's routing
// providers (`svc-<agent>`) went through svc's model endpoint, which records
// their cost; the others are recorded (and metered) by the run itself. The
// executions row still shows the whole run.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCostRecords } from '../../shared/costs/index.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createDomain } from '../../shared/domain.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createLogger } from '../../shared/log.ts';
import { REGISTRY_KEY } from '../../shared/model-routing/registry.ts';
import { costUsd, GATEWAY_PRICES_KEY, pricesFromGatewayConfig, serializePrices } from '../../shared/pricing/index.ts';
import { recordCompletion } from '../../shared/team-chat/runs/completion.ts';
import type { TeamChatContext } from '../../shared/team-chat/context.ts';
import { createExecutions } from '../../shared/team-chat/runs/executions.ts';
import { isRoutedProvider, usageOfRun } from '../../shared/team-chat/runs/usage.ts';

const call = (runId: string, provider: string, model: string, input: number, output: number, cache: { cacheRead?: number; cacheWrite?: number } = {}) => ({
  role: 'assistant',
  provider,
  model,
  usage: { input, output, ...cache },
  __openclaw: { runId },
});

const HISTORY = {
  messages: [
    { role: 'user', content: 'hi' },
    call('r1', 'svc-writer', 'gpt-4o', 1000, 10),
    call('r1', 'svc-writer', 'gpt-4o', 1200, 20),
    call('r1', 'openai-codex', 'gpt-4o', 500, 5),
    call('r2', 'openai', 'gpt-4o', 7, 7),
  ],
};

void test('Budgets (issue 22, item 5): a run\'s calls are split into routed (provider svc-*) and unrouted; the whole run is their sum', () => {
  const u = usageOfRun(HISTORY, 'r1');
  assert.deepEqual(u.routed, { calls: 2, inputTokens: 2200, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, model: 'svc-writer/gpt-4o' });
  assert.deepEqual(u.unrouted, { calls: 1, inputTokens: 500, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, model: 'openai-codex/gpt-4o' });
  assert.equal(u.inputTokens, 2700);
  assert.equal(u.outputTokens, 35);
  assert.equal(isRoutedProvider('SVC-writer'), true);
  assert.equal(isRoutedProvider('svcx'), false);
  assert.equal(isRoutedProvider(undefined), false);
  const none = usageOfRun({ messages: 'nope' }, 'r1');
  assert.deepEqual([none.routed.calls, none.unrouted.calls, none.inputTokens], [0, 0, 0]);
});

function fixture(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tc-budget-usage-'));
  const db = openDatabase(join(dir, 'svc.db'));
  const logger = createLogger({ level: 'warn' }, { write: () => undefined });
  const tx = createTx(db, (err) => logger.error({ err }, 'hook'));
  const now = () => 1_800_000_000_000;
  const eventLog = createEventLog({ db, tx, logger, now });
  const settings = createSettingsTable(db, now);
  const domain = createDomain({ db, tx, settingsTable: settings, eventLog, logger, now });
  const executions = createExecutions(db);
  const ctx = { db, tx, logger, now, domain, eventLog, executions, costs: createCostRecords({ db, tx, agents: domain.agents, now }) } as unknown as TeamChatContext;
  t.after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const teamId = domain.teams.create({ name: 'Blue', icon: 'x', color: 'blue', leaderAgentId: null }).id;
  domain.agents.create({ id: 'writer', name: 'Writer', teamId });
  let n = 0;
  const run = (history: unknown, runId: string) => {
    const id = `exec-${++n}`;
    executions.start({ id, teamId, agentId: 'writer', sessionKey: `agent:writer:team:${teamId}`, taskId: null, trigger: 'user', chainId: 'c', traceId: 't'.repeat(32), spanId: 's'.repeat(16), parentSpanId: null, startedAt: now() });
    const done = tx.run(() =>
      recordCompletion(ctx, { executionId: id, teamId, agentId: 'writer', runId, sessionKey: `agent:writer:team:${teamId}`, trigger: 'user', usage: usageOfRun(history, runId), base: { teamId, agentId: 'writer' }, setIdle: true }),
    );
    return { done, row: executions.get(id) };
  };
  const costRows = (runId: string) => db.prepare('SELECT model, input_tokens AS i, output_tokens AS o, cost_usd AS usd FROM cost_records WHERE run_id = ?').all(runId) as Array<{ model: string; i: number; o: number; usd: number }>;
  const costEvents = (runId: string) =>
    (db.prepare(`SELECT data FROM events WHERE kind = 'cost'`).pluck().all() as string[]).map((d) => JSON.parse(d) as Record<string, unknown>).filter((d) => d.runId === runId);
  return { run, costRows, costEvents, settings };
}

void test('Budgets (issue 22, item 5): a mixed run records a cost row and a cost event for its unrouted calls only; the executions row shows the whole run', (t) => {
  const f = fixture(t);
  const { done, row } = f.run(HISTORY, 'r1');
  const unroutedUsd = costUsd('openai-codex/gpt-4o', 500, 5);
  const wholeUsd = unroutedUsd + costUsd('svc-writer/gpt-4o', 2200, 30);
  assert.deepEqual(f.costRows('r1'), [{ model: 'openai-codex/gpt-4o', i: 500, o: 5, usd: unroutedUsd }]);
  const events = f.costEvents('r1');
  assert.equal(events.length, 1);
  assert.deepEqual([events[0]?.inputTokens, events[0]?.outputTokens, events[0]?.usd], [500, 5, unroutedUsd]);
  assert.equal(row?.status, 'completed');
  assert.deepEqual([row?.inputTokens, row?.outputTokens], [2700, 35]);
  assert.ok(Math.abs((row?.costUsd ?? 0) - wholeUsd) < 1e-12);
  assert.equal(done.unroutedUsd, unroutedUsd, 'what fallback metering spends: the unrouted calls only');
});

void test('Budgets (issue 22, item 5): a run whose every call went through svc records no cost row and no cost event of its own', (t) => {
  const f = fixture(t);
  const history = { messages: [call('r9', 'svc-writer', 'gpt-4o', 900, 9)] };
  const { done, row } = f.run(history, 'r9');
  assert.deepEqual(f.costRows('r9'), []);
  assert.deepEqual(f.costEvents('r9'), []);
  assert.equal(done.unroutedUsd, 0);
  assert.deepEqual([row?.status, row?.inputTokens, row?.outputTokens], ['completed', 900, 9]);
  assert.ok((row?.costUsd ?? 0) > 0, 'the row still shows what the run cost');
});

void test('Budgets (issue 22, item 5): an unrouted run records as before (one cost row for the whole run)', (t) => {
  const f = fixture(t);
  const history = { messages: [call('r3', 'openai', 'gpt-4o', 100, 1), call('r3', 'openai', 'gpt-4o', 200, 2)] };
  f.run(history, 'r3');
  assert.deepEqual(f.costRows('r3'), [{ model: 'openai/gpt-4o', i: 300, o: 3, usd: costUsd('gpt-4o', 300, 3) }]);
  assert.equal(f.costEvents('r3').length, 1);
});

void test('Pricing (issue 30 #4): a run is priced at the gateway\'s configured prices: its unrouted calls by <provider>/<model> with cache tokens at the cache prices, its routed calls by their upstream', (t) => {
  const f = fixture(t);
  // What the supervisor publishes from the gateway's config; the registry says svc-writer stands for `acme`.
  f.settings.set(GATEWAY_PRICES_KEY, serializePrices(pricesFromGatewayConfig({
    models: {
      providers: {
        anthropic: { models: [{ id: 'claude-sonnet-4-5', cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }] },
        acme: { models: [{ id: 'gpt-4o', cost: { input: 10, output: 40 } }] },
        other: { models: [{ id: 'gpt-4o', cost: { input: 1, output: 1 } }] },
      },
    },
  })));
  f.settings.set(REGISTRY_KEY, JSON.stringify({ agents: { writer: { upstream: 'acme' } }, upstreams: {} }));
  // The gateway counts cache tokens apart from `input`: 1,000 plain, 8,000 read, 500 written.
  const history = { messages: [call('r5', 'anthropic', 'claude-sonnet-4-5', 1000, 50, { cacheRead: 8000, cacheWrite: 500 }), call('r5', 'svc-writer', 'gpt-4o', 300, 3)] };
  const { done, row } = f.run(history, 'r5');
  const unrouted = (1000 * 3 + 8000 * 0.3 + 500 * 3.75 + 50 * 15) / 1e6;
  assert.deepEqual(f.costRows('r5'), [{ model: 'anthropic/claude-sonnet-4-5', i: 9500, o: 50, usd: unrouted }], 'input tokens count the cache tokens, priced apart');
  assert.equal(done.unroutedUsd, unrouted);
  assert.deepEqual([row?.inputTokens, row?.outputTokens], [9800, 53]);
  assert.ok(Math.abs((row?.costUsd ?? 0) - (unrouted + (300 * 10 + 3 * 40) / 1e6)) < 1e-12, `the routed call at acme's price: ${row?.costUsd}`);
});
