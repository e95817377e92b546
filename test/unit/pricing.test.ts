// Issue 30 item 4, issue 31 item 1: one pricing truth (shared/pricing). The
// lookup order: the operator's price (set in svc, then the gateway's
// configured price for `<provider>/<model>`, then, for a model without its
// provider or a provider that configures nothing, the one configured entry
// with that model id), then the price library, then none: an unpriced model,
// recorded at the spec's 3 / 15 per million and refused under a cap
// (isPriced). Cache tokens at the cache prices where known, else as input.
// Nothing is free by name. The library's own figures: pricing-library.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import { BUILT_IN_PRICES, DEFAULT_PRICE, costUsd, createPrices, priceOf, type ModelPrice } from '../../shared/pricing/index.ts';

const configured = (entries: Array<[string, ModelPrice]>) => createPrices(new Map(entries));
const io = (p: ModelPrice) => ({ input: p.input, output: p.output });

void test('Pricing (issue 31 #1): list prices come from the library, per million tokens', () => {
  assert.deepEqual(io(priceOf('claude-opus-4-1')), { input: 15, output: 75 });
  assert.deepEqual(io(priceOf('claude-haiku-4-5')), { input: 1, output: 5 });
  assert.deepEqual(io(priceOf('gpt-4o-mini')), { input: 0.15, output: 0.6 });
  assert.deepEqual(io(priceOf('o3')), { input: 2, output: 8 });
  assert.equal(costUsd('gpt-4o', 1_000_000, 1_000_000), 12.5);
  assert.equal(costUsd('gpt-5', 2_000, 1_000), (2_000 * 1.25 + 1_000 * 10) / 1e6);
});

void test('Pricing (issue 31 #1): provider prefixes, case and dated snapshots resolve to the family price', () => {
  assert.deepEqual(io(priceOf('anthropic/claude-sonnet-4-5')), { input: 3, output: 15 });
  assert.deepEqual(io(priceOf('openai/GPT-4o')), { input: 2.5, output: 10 });
  assert.deepEqual(io(priceOf('  Claude-Haiku-4-5-20251001 ')), { input: 1, output: 5 });
  // gpt-4.1-mini, not gpt-4.1.
  assert.deepEqual(io(priceOf('gpt-4.1-mini-2025-04-14')), { input: 0.4, output: 1.6 });
  assert.deepEqual(io(priceOf('claude-opus-4-5@20251101')), { input: 5, output: 25 });
});

void test('Pricing (issue 31 #1): an unknown or missing model is unpriced, and recorded at 3 / 15', () => {
  assert.deepEqual(DEFAULT_PRICE, { input: 3, output: 15 });
  for (const m of ['my-own-model', 'gpt-4ox', '', null, undefined, 'openai/unknown', 'ollama/llama3']) {
    assert.equal(BUILT_IN_PRICES.isPriced(m), false, String(m));
    assert.equal(BUILT_IN_PRICES.sourceOf(m), null, String(m));
    assert.deepEqual(priceOf(m), { input: 3, output: 15 }, String(m));
  }
  assert.equal(costUsd('nope', 1_000_000, 1_000_000), 18);
  // Names of Object.prototype members are models like any other (found by the property below).
  for (const m of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    assert.equal(BUILT_IN_PRICES.isPriced(m), false, m);
    assert.deepEqual(priceOf(m), { input: 3, output: 15 }, m);
    assert.equal(costUsd(m, 1_000_000, 0), 3, m);
  }
});

void test('Pricing (issue 30 #4): a test model is not free by name: fake-model unconfigured is unpriced, at the default 3 / 15', () => {
  for (const m of ['fake-model', 'fakellm/fake-model', 'FAKE-MODEL']) {
    assert.equal(BUILT_IN_PRICES.isPriced(m), false, m);
    assert.deepEqual(priceOf(m), { input: 3, output: 15 }, m);
  }
  assert.equal(costUsd('fakellm/fake-model', 98_533, 119), 0.297384);
});

void test('Pricing (issue 30 #4): the configured price of <provider>/<model> comes first, the gateway\'s own figure to the micro-dollar', () => {
  const prices = configured([['fakellm/svc-e2e-llm', { input: 3, output: 15 }], ['openai/gpt-4o', { input: 5, output: 20 }]]);
  // The gateway reported 0.297384 USD for this call at 3 / 15.
  assert.equal(prices.costOf({ model: 'fakellm/svc-e2e-llm', inputTokens: 98_533, outputTokens: 119 }), 0.297384);
  // Configured beats the library (gpt-4o is 2.5 / 10 there), for the model's snapshots too; case does not matter.
  assert.deepEqual(prices.priceOf('OpenAI/GPT-4o'), { input: 5, output: 20 });
  assert.deepEqual(prices.priceOf('openai/gpt-4o-2024-08-06'), { input: 5, output: 20 });
  assert.equal(prices.sourceOf('openai/gpt-4o'), 'gateway');
  assert.deepEqual(io(priceOf('openai/gpt-4o')), { input: 2.5, output: 10 });
});

void test('Pricing (issue 30 #4): a price configured as zero is zero: the operator said so', () => {
  const prices = configured([['local/fake-model', { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }]]);
  assert.equal(prices.costOf({ model: 'local/fake-model', inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 10, cacheWriteTokens: 10 }), 0);
  assert.equal(prices.isPriced('local/fake-model'), true, 'priced at zero is priced');
  // Unconfigured elsewhere, the same name is not free.
  assert.deepEqual(BUILT_IN_PRICES.priceOf('local/fake-model'), { input: 3, output: 15 });
});

void test('Pricing (issue 30 #4): a model without its provider, or a provider that configures nothing, takes the one configured entry with its id', () => {
  const prices = configured([
    ['acme/house-model', { input: 1, output: 2 }],
    ['acme/gpt-4o', { input: 7, output: 7 }],
    ['proxy/shared-model', { input: 4, output: 4 }],
    ['other/shared-model', { input: 5, output: 5 }],
  ]);
  assert.deepEqual(prices.priceOf('house-model'), { input: 1, output: 2 }, 'no provider');
  assert.deepEqual(prices.priceOf('elsewhere/house-model'), { input: 1, output: 2 }, 'a provider that configures nothing');
  // The provider configures prices, just not for this model: its configured entries say nothing about it.
  assert.equal(prices.isPriced('proxy/house-model'), false);
  // Two providers configure the id: neither is chosen; the library does not know it either.
  assert.equal(prices.isPriced('shared-model'), false);
  assert.deepEqual(prices.priceOf('openai/gpt-4o'), { input: 7, output: 7 }, 'one configured gpt-4o wins over the library');
  assert.deepEqual(io(prices.priceOf('proxy/gpt-4o')), { input: 2.5, output: 10 }, 'a configuring provider without it: the library');
});

void test('Pricing (issue 30 #4): a svc-<agent> provider is priced as the upstream it stands for', () => {
  const upstreamOf = (p: string) => (p === 'svc-writer' ? 'acme' : null);
  const prices = createPrices(new Map([['acme/gpt-4o', { input: 6, output: 6 }], ['other/gpt-4o', { input: 9, output: 9 }]]), upstreamOf);
  assert.deepEqual(prices.priceOf('svc-writer/gpt-4o'), { input: 6, output: 6 });
  // An agent the registry does not know: two providers configure gpt-4o, so the library prices it.
  assert.deepEqual(io(prices.priceOf('svc-ghost/gpt-4o')), { input: 2.5, output: 10 });
});

void test('Pricing (issue 30 #4): cache tokens at the configured cache prices, else as input tokens', () => {
  const prices = configured([
    ['anthropic/claude-sonnet-4-5', { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }],
    ['plain/model', { input: 2, output: 8 }],
  ]);
  // 10,000 input tokens, of which 6,000 read from the cache and 1,000 written to it.
  const call = { inputTokens: 10_000, outputTokens: 100, cacheReadTokens: 6_000, cacheWriteTokens: 1_000 };
  assert.equal(prices.costOf({ model: 'anthropic/claude-sonnet-4-5', ...call }), (3_000 * 3 + 6_000 * 0.3 + 1_000 * 3.75 + 100 * 15) / 1e6);
  assert.equal(prices.costOf({ model: 'plain/model', ...call }), (10_000 * 2 + 100 * 8) / 1e6);
  assert.equal(BUILT_IN_PRICES.costOf({ model: 'nope', ...call }), (10_000 * 3 + 100 * 15) / 1e6);
});

void test('Pricing (issue 30 #4): prototype names are data: a configured `__proto__` provider or model prices like any other', () => {
  const prices = configured([['__proto__/constructor', { input: 1, output: 1 }], ['toString/m', { input: 2, output: 2 }]]);
  assert.deepEqual(prices.priceOf('__proto__/constructor'), { input: 1, output: 1 });
  assert.deepEqual(prices.priceOf('constructor'), { input: 1, output: 1 }, 'the one configured id');
  assert.deepEqual(prices.priceOf('toString/m'), { input: 2, output: 2 });
  assert.equal(prices.isPriced('__proto__'), false);
  assert.equal(prices.isPriced('hasOwnProperty/x'), false);
});

void test('Pricing: negative or non-finite token counts count as 0; cost is never negative (property)', () => {
  // Under 128k input tokens: no library price is tiered below that, so priceOf (the base tier) is the call's price.
  const count = fc.oneof(fc.integer({ min: -1e9, max: 128_000 }), fc.constantFrom(NaN, -Infinity));
  fc.assert(fc.property(fc.string({ maxLength: 30 }), count, count, (model, i, o) => {
    const usd = costUsd(model, i, o);
    assert.ok(Number.isFinite(usd) && usd >= 0);
    const p = priceOf(model);
    const n = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);
    assert.equal(usd, (n(i) * p.input + n(o) * p.output) / 1e6);
  }));
});

void test('Pricing (issue 30 #4): with cache counts, a cost is finite, not negative, and never more than every token at the dearest price (property)', () => {
  const count = fc.oneof(fc.integer({ min: -1e7, max: 1e7 }), fc.constantFrom(NaN, Infinity, -Infinity));
  const usd = fc.double({ min: 0, max: 100, noNaN: true });
  fc.assert(fc.property(usd, usd, usd, usd, count, count, count, count, (input, output, cacheRead, cacheWrite, i, o, r, w) => {
    const prices = configured([['p/m', { input, output, cacheRead, cacheWrite }]]);
    const cost = prices.costOf({ model: 'p/m', inputTokens: i, outputTokens: o, cacheReadTokens: r, cacheWriteTokens: w });
    const n = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);
    assert.ok(Number.isFinite(cost) && cost >= 0);
    assert.ok(cost <= ((n(i) + n(r) + n(w)) * Math.max(input, cacheRead, cacheWrite) + n(o) * output) / 1e6 + 1e-9);
  }));
});
