// Issue 30 item 4 in the team chat: the per-call fallback metering of the
// gateway's `session.message` and the run's end price a call at the price
// the operator configured in the gateway (published into svc's settings
// table), over the host's own connection, with a scripted gateway
// (test/helpers/team-chat-scripted.ts) in place of the real one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSettingsTable } from '../../shared/db/settings-table.ts';
import { GATEWAY_PRICES_KEY, pricesFromGatewayConfig, serializePrices } from '../../shared/pricing/index.ts';
import { fixture } from '../helpers/team-chat-scripted.ts';
import { waitFor } from '../helpers/wait.ts';

void test('Pricing (issue 30 #4): a team-chat run\'s unrouted call is metered per call and recorded at its end at the configured price, once', async (t) => {
  const f = fixture(t);
  // The scripted gateway's model is `fake/svc-e2e-llm`: 10 USD per million input tokens, as the gateway's config says.
  createSettingsTable(f.db).set(GATEWAY_PRICES_KEY, serializePrices(pricesFromGatewayConfig({
    models: { providers: { fake: { models: [{ id: 'svc-e2e-llm', cost: { input: 10, output: 0, cacheRead: 0, cacheWrite: 0 } }] } } },
  })));
  f.budgets.upsert({ scope: 'agent', scopeId: 'writer', mode: 'cap', period: 'none', limitUsdCents: 10_000, model: null });
  f.host.ingest({ teamId: f.teamId, message: 'work', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the send' });
  const runId = f.gw.sends[0]?.runId as string;
  // 20,000 tokens are 20 cents at the configured price (6 at the default 3 / 15).
  f.gw.callEnded(runId, { provider: 'fake', input: 20_000, output: 0, responseId: 'c1' });
  await waitFor(() => f.budgets.list()[0]?.spentUsdCents === 20, { what: 'the call metered at the configured price' });
  f.gw.finish(runId, 'done');
  await waitFor(() => f.executions()[0]?.status === 'completed', { what: 'the run to end' });
  assert.deepEqual(f.db.prepare('SELECT model, input_tokens AS i, cost_usd AS usd FROM cost_records').all(), [{ model: 'fake/svc-e2e-llm', i: 20_000, usd: 0.2 }]);
  assert.equal(f.executions()[0]?.costUsd, 0.2);
  assert.equal(f.budgets.list()[0]?.spentUsdCents, 20, 'the run\'s end metered nothing twice');
});

void test('Pricing (issue 30 #4): a team-chat call of a model configured at zero spends nothing; the same model unconfigured is priced at the default', async (t) => {
  const f = fixture(t);
  const settings = createSettingsTable(f.db);
  settings.set(GATEWAY_PRICES_KEY, serializePrices(pricesFromGatewayConfig({
    models: { providers: { fake: { models: [{ id: 'svc-e2e-llm', cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }] } } },
  })));
  f.budgets.upsert({ scope: 'agent', scopeId: 'writer', mode: 'warn', period: 'none', limitUsdCents: 10_000, model: null });
  f.host.ingest({ teamId: f.teamId, message: 'free', entryId: 'user-1' });
  await waitFor(() => f.gw.sends.length === 1, { what: 'the first send' });
  f.gw.finish(f.gw.sends[0]?.runId as string, 'done', [{ provider: 'fake', input: 1_000_000, output: 0 }]);
  await waitFor(() => f.executions()[0]?.status === 'completed', { what: 'the first run' });
  assert.equal(f.executions()[0]?.costUsd, 0);
  assert.equal(f.budgets.list()[0]?.spentUsdCents, 0);

  // The operator removes the price: the model is no longer configured, and costs the default 3 / 15.
  settings.set(GATEWAY_PRICES_KEY, serializePrices(new Map()));
  f.host.ingest({ teamId: f.teamId, message: 'priced', entryId: 'user-2' });
  await waitFor(() => f.gw.sends.length === 2, { what: 'the second send' });
  f.gw.finish(f.gw.sends[1]?.runId as string, 'done', [{ provider: 'fake', input: 1_000_000, output: 0 }]);
  await waitFor(() => f.executions()[1]?.status === 'completed', { what: 'the second run' });
  assert.equal(f.executions()[1]?.costUsd, 3);
  assert.equal(f.budgets.list()[0]?.spentUsdCents, 300);
});
