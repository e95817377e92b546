// The one pricing truth (shared/pricing.ts): the built-in table, provider
// prefixes, dated snapshots, local models, and the spec's default of 3 / 15
// USD per million tokens for a model it does not know.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import { DEFAULT_PRICE, costUsd, priceOf } from '../../shared/pricing.ts';

void test('Pricing: table entries price input and output per million tokens', () => {
  assert.deepEqual(priceOf('claude-opus-4-1'), { input: 15, output: 75 });
  assert.deepEqual(priceOf('claude-haiku-4-5'), { input: 1, output: 5 });
  assert.deepEqual(priceOf('gpt-4o-mini'), { input: 0.15, output: 0.6 });
  assert.deepEqual(priceOf('o3'), { input: 2, output: 8 });
  assert.deepEqual(priceOf('fake-model'), { input: 0, output: 0 });
  assert.equal(costUsd('gpt-4o', 1_000_000, 1_000_000), 12.5);
  assert.equal(costUsd('gpt-5', 2_000, 1_000), (2_000 * 1.25 + 1_000 * 10) / 1e6);
});

void test('Pricing: provider prefixes, case and dated snapshots resolve to the family price', () => {
  assert.deepEqual(priceOf('anthropic/claude-sonnet-4-5'), { input: 3, output: 15 });
  assert.deepEqual(priceOf('openai/GPT-4o'), { input: 2.5, output: 10 });
  assert.deepEqual(priceOf('  Claude-Haiku-4-5-20251001 '), { input: 1, output: 5 });
  // The longest key wins: gpt-4.1-mini, not gpt-4.1.
  assert.deepEqual(priceOf('gpt-4.1-mini-2025-04-14'), { input: 0.4, output: 1.6 });
  assert.deepEqual(priceOf('claude-opus-4-5@20251101'), { input: 5, output: 25 });
  assert.deepEqual(priceOf('ollama/llama3'), { input: 0, output: 0 });
});

void test('Pricing: an unknown or missing model is priced at 3 / 15', () => {
  assert.deepEqual(DEFAULT_PRICE, { input: 3, output: 15 });
  for (const m of ['my-own-model', 'gpt-4ox', '', null, undefined, 'openai/unknown']) assert.deepEqual(priceOf(m), { input: 3, output: 15 }, String(m));
  assert.equal(costUsd('nope', 1_000_000, 1_000_000), 18);
  // Names of Object.prototype members are models like any other (found by the property below).
  for (const m of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    assert.deepEqual(priceOf(m), { input: 3, output: 15 }, m);
    assert.equal(costUsd(m, 1_000_000, 0), 3, m);
  }
});

void test('Pricing: negative or non-finite token counts count as 0; cost is never negative (property)', () => {
  const count = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(NaN, Infinity, -Infinity));
  fc.assert(fc.property(fc.string({ maxLength: 30 }), count, count, (model, i, o) => {
    const usd = costUsd(model, i, o);
    assert.ok(Number.isFinite(usd) && usd >= 0);
    const p = priceOf(model);
    const n = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);
    assert.equal(usd, (n(i) * p.input + n(o) * p.output) / 1e6);
  }));
});
