// Spec "Smaller resources" → "Cost records": the summary's 30-day window
// and zero-filled series at fixed instants (UTC midnight edges, a leap day),
// which the HTTP tests cannot pin because they run at the wall-clock time.
import { test } from 'node:test';
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentStore } from '../../shared/agents/store.ts';
import { createCostRecords, summaryWindow, zeroFill } from '../../shared/costs/index.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { createTx } from '../../shared/db/tx.ts';
import { GATEWAY_PRICES_KEY, pricesFromGatewayConfig, serializePrices } from '../../shared/pricing/index.ts';

const S = 'Smaller resources → Cost records';
const DAY_MS = 86_400_000;
const at = (iso: string) => Date.parse(iso);

function setup(t: TestContext, now: number) {
  const db = openDatabase(':memory:');
  t.after(() => db.close());
  const tx = createTx(db, () => undefined);
  const settings = createSettingsTable(db);
  const agents = createAgentStore(db, tx, settings, () => now);
  // The model is free because the gateway's config says so (nothing is free by name).
  const free = { models: { providers: { local: { models: [{ id: 'fake-model', cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }] } } } };
  settings.set(GATEWAY_PRICES_KEY, serializePrices(pricesFromGatewayConfig(free)));
  let clock = now;
  const costs = createCostRecords({ db, tx, agents, now: () => clock });
  /** Records usage as if at `when`, then returns the clock to `now`. */
  const recordAt = (when: number, agentId: string, inputTokens: number, outputTokens: number) => {
    clock = when;
    const row = costs.record({ agentId, inputTokens, outputTokens, model: 'local/fake-model', teamId: null, runId: null, sessionKey: null });
    clock = now;
    return row;
  };
  return { costs, recordAt };
}

void test(`${S}: the summary window is 30 whole UTC days ending with today`, () => {
  const now = at('2024-03-01T15:30:00.000Z');
  const w = summaryWindow(now);
  assert.equal(w.until, at('2024-03-02T00:00:00.000Z'));
  assert.equal(w.since, at('2024-02-01T00:00:00.000Z'), '2024 is a leap year: Feb has 29 days');
  assert.deepEqual(summaryWindow(at('2024-03-01T00:00:00.000Z')), w, 'midnight belongs to the day it starts');
  assert.deepEqual(summaryWindow(at('2024-03-01T23:59:59.999Z')), w);
});

void test(`${S}: zero-fill gives every day oldest first, keeping the days that have rows`, () => {
  const since = at('2024-02-01T00:00:00.000Z');
  const row = { date: '2024-02-29', costUsd: 2, inputTokens: 3, outputTokens: 4, records: 1 };
  const days = zeroFill([row], since, 30);
  assert.equal(days.length, 30);
  assert.equal(days[0]?.date, '2024-02-01');
  assert.equal(days[28], row);
  assert.equal(days[29]?.date, '2024-03-01');
  assert.deepEqual(days[29], { date: '2024-03-01', costUsd: 0, inputTokens: 0, outputTokens: 0, records: 0 });
});

void test(`${S}: the summary counts the window's edges exactly and agrees with its series`, (t) => {
  const now = at('2024-03-01T12:00:00.000Z');
  const { costs, recordAt } = setup(t, now);
  recordAt(at('2024-02-01T00:00:00.000Z'), 'first', 1, 0); // first instant of the window: in
  recordAt(at('2024-01-31T23:59:59.999Z'), 'first', 100, 0); // the instant before: out
  recordAt(at('2024-03-01T23:59:59.999Z'), 'late', 10, 0); // the last instant of today: in
  recordAt(at('2024-03-02T00:00:00.000Z'), 'late', 1000, 0); // tomorrow (a skewed clock): out
  recordAt(at('2024-02-29T08:00:00.000Z'), 'leap', 5, 5);
  recordAt(at('2024-02-29T09:00:00.000Z'), 'leap', 5, 5);

  const s = costs.summary();
  assert.deepEqual(s.totals, { costUsd: 0, inputTokens: 21, outputTokens: 10, records: 4 });
  // Equal spend (a model configured free): ties go by agent id.
  assert.deepEqual(s.byAgent.map((a) => [a.agentId, a.name, a.records, a.inputTokens]), [
    ['first', 'first', 1, 1],
    ['late', 'late', 1, 10],
    ['leap', 'leap', 2, 10],
  ]);
  assert.equal(s.daily.length, 30);
  const nonZero = s.daily.filter((d) => d.records > 0).map((d) => [d.date, d.records, d.inputTokens]);
  assert.deepEqual(nonZero, [
    ['2024-02-01', 1, 1],
    ['2024-02-29', 2, 10],
    ['2024-03-01', 1, 10],
  ]);
  assert.equal(s.until - s.since, 30 * DAY_MS);
});
