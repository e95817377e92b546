// Issue 31, item 3: a cap binds inside the call. Streams that write far past
// their estimate (no max_tokens, an answer ten times the default) run
// against one cap at once: each is metered as it passes and ended at the
// chunk that reaches the cap, with a normal length finish the official SDK
// reads as a result. Spend passes the cap by at most one chunk per stream.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import OpenAI from 'openai';
import { priceBookFor } from '../../shared/pricing/index.ts';
import { startBillingUpstream } from '../helpers/billing-upstream.ts';
import { PRICED_MODEL, budgetsOf, callsOf, createBudget, post, sseData, startEndpoint } from './model-endpoint-fixture.ts';

const STREAMS = 20;
/** A whole answer: 40,000 tokens, 2.4 cents on gpt-4o-mini, more than any headroom below. */
const CHUNKS = 400;
/** 100 tokens a chunk as svc counts streamed text (4 characters a token). */
const CHUNK_CHARS = 400;
const CAP_CENTS = 10;

void test(`Spend (issue 31, item 3): ${STREAMS} concurrent streams against one cap overshoot it by at most one chunk each, and end with a normal finish`, async (t) => {
  const e = await startEndpoint(t);
  const upstream = await startBillingUpstream({ chunks: CHUNKS, chunkChars: CHUNK_CHARS, gated: false });
  t.after(() => upstream.close());
  const registry = e.runtime.deps.modelRouting.registry;
  const now = registry.read();
  registry.write({
    agents: { ...now.agents, alice: { upstream: 'long', models: [PRICED_MODEL] } },
    upstreams: { ...now.upstreams, long: { api: 'openai-completions', baseUrl: upstream.url, keyName: 'OPENAI_API_KEY', headers: {} } },
  });
  const budget = await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: CAP_CENTS, mode: 'cap' });

  const run = async (i: number) => {
    const res = await post(e, '/model/alice/v1/chat/completions', e.tokens.alice, { model: PRICED_MODEL, stream: true, messages: [{ role: 'user', content: `stream ${i}` }] });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.ok(text.endsWith('data: [DONE]\n\n'), `stream ${i} ended with [DONE]`);
    const finishes = sseData(text).flatMap((d) => ((d.choices as Array<{ finish_reason: string | null }> | undefined) ?? []).map((c) => c.finish_reason)).filter((f) => f !== null);
    return finishes;
  };
  const finishes = await Promise.all(Array.from({ length: STREAMS }, (_, i) => run(i)));
  const capped = finishes.filter((f) => f.includes('length')).length;
  assert.ok(capped > 0, 'some streams were ended at the cap');
  for (const f of finishes) assert.equal(f.length, 1, `one finish per stream (${f.join(', ')})`);

  const calls = await callsOf(e, '?agentId=alice');
  assert.equal(calls.filter((c) => c.outcome === 'capped').length, capped);
  const prices = priceBookFor(e.runtime.deps.db);
  const chunkUsd = prices.costOf({ model: `long/${PRICED_MODEL}`, inputTokens: 0, outputTokens: CHUNK_CHARS / 4 });
  const [after] = (await budgetsOf(e)).filter((b) => b.id === budget.id);
  const spent = after?.spentUsd as number;
  const overshoot = spent - CAP_CENTS / 100;
  assert.ok(overshoot <= STREAMS * chunkUsd + 1e-6, `spend ${spent} passes the $${CAP_CENTS / 100} cap by ${overshoot}, more than ${STREAMS} chunks of ${chunkUsd}`);
  assert.equal(after?.status, 'paused');
  assert.equal(after?.reservedUsdCents, 0);

  // The official SDK's stream helper reads a capped answer as a finished one.
  const client = new OpenAI({ apiKey: e.tokens.alice, baseURL: `${e.base}/model/alice/v1`, maxRetries: 0 });
  // A higher cap un-pauses the budget; the next long answer reaches it again.
  await createBudget(e, { scope: 'agent', scopeId: 'alice', limitUsdCents: Math.ceil(spent * 100) + 1, mode: 'cap' });
  const stream = client.chat.completions.stream({ model: PRICED_MODEL, messages: [{ role: 'user', content: 'one more' }] });
  const final = await stream.finalChatCompletion();
  assert.equal(final.choices[0]?.finish_reason, 'length');
  assert.ok((final.choices[0]?.message.content ?? '').length > 0);
});
