// Issue 31 item 1: list prices come from a maintained price library
// (@pydantic/genai-prices, its bundled data), not from a hand-kept table:
// expensive models at their list price, dated snapshots, cache, tiered and
// time-of-day prices, and svc's own default models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PROVIDERS } from '../../shared/gateway/providers.ts';
import { BUILT_IN_PRICES as P, createPrices, libraryPrice, PRICE_LIBRARY, type ModelPrice } from '../../shared/pricing/index.ts';

const io = (p: ModelPrice) => ({ input: p.input, output: p.output });
const json = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as Record<string, unknown>;

void test('Price library (issue 31 #1): the models the old table underpriced cost their list price', () => {
  // The figures: o1-pro was $3/$15 in the table (list $150/$600), o3-pro $2/$8 (list $20/$80), gpt-5-pro $1.25/$10 (list $15/$120).
  assert.deepEqual(io(P.priceOf('openai/o1-pro')), { input: 150, output: 600 });
  assert.deepEqual(io(P.priceOf('openai/o3-pro')), { input: 20, output: 80 });
  assert.deepEqual(io(P.priceOf('openai/gpt-5-pro')), { input: 15, output: 120 });
  assert.equal(P.costOf({ model: 'openai/o1-pro-2025-03-19', inputTokens: 10_000, outputTokens: 1_000 }), (10_000 * 150 + 1_000 * 600) / 1e6);
});

void test('Price library (issue 31 #1): a dated snapshot has its own list price where it differs, else its family\'s', () => {
  assert.deepEqual(io(P.priceOf('openai/gpt-4o-2024-08-06')), { input: 2.5, output: 10 });
  assert.deepEqual(io(P.priceOf('openai/gpt-4o-2024-11-20')), { input: 2.5, output: 10 });
  // The first gpt-4o snapshot is dearer than its family: the library's exact entry wins.
  assert.deepEqual(io(P.priceOf('openai/gpt-4o-2024-05-13')), { input: 5, output: 15 });
  // A snapshot or alias the library does not list takes its family's price (family.ts).
  assert.deepEqual(io(P.priceOf('openai/gpt-4o-latest')), { input: 2.5, output: 10 });
  assert.deepEqual(io(P.priceOf('anthropic/claude-sonnet-4-5@20250929')), { input: 3, output: 15 });
  assert.notDeepEqual(io(P.priceOf('openai/gpt-4o-mini-2024-07-18')), io(P.priceOf('openai/gpt-4o')), 'gpt-4o-mini is not gpt-4o');
});

void test('Price library (issue 31 #1): cache reads and writes at the library\'s cache prices', () => {
  const p = P.priceOf('anthropic/claude-sonnet-4-5');
  assert.deepEqual(p, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
  const call = { model: 'anthropic/claude-sonnet-4-5', inputTokens: 10_000, outputTokens: 100, cacheReadTokens: 6_000, cacheWriteTokens: 1_000 };
  assert.equal(P.costOf(call), (3_000 * 3 + 6_000 * 0.3 + 1_000 * 3.75 + 100 * 15) / 1e6);
  // OpenAI bills cache reads and never cache writes: writes are input.
  assert.equal(P.priceOf('openai/gpt-4o').cacheWrite, undefined);
});

void test('Price library (issue 31 #1): a tiered price applies the tier the call\'s input reaches to the whole call', () => {
  // Anthropic's long-context rate: past 200,000 input tokens, every token of the call at 6 / 22.5.
  assert.equal(P.costOf({ model: 'anthropic/claude-sonnet-4-5', inputTokens: 200_000, outputTokens: 1_000 }), (200_000 * 3 + 1_000 * 15) / 1e6);
  assert.equal(P.costOf({ model: 'anthropic/claude-sonnet-4-5', inputTokens: 200_001, outputTokens: 1_000 }), (200_001 * 6 + 1_000 * 22.5) / 1e6);
  assert.deepEqual(io(P.priceOf('anthropic/claude-sonnet-4-5')), { input: 3, output: 15 }, 'priceOf: the base tier');
});

void test('Price library (issue 31 #1): a price that depends on the hour is the one in force at the call', () => {
  // DeepSeek's discount window (16:30 to 00:30 UTC in the library's data) against its standard hours.
  const at = (iso: string) => createPrices(new Map(), undefined, { now: () => Date.parse(iso) });
  const day = at('2026-11-28T12:00:00Z').priceOf('deepseek/deepseek-chat');
  const night = at('2026-11-28T20:00:00Z').priceOf('deepseek/deepseek-chat');
  assert.notDeepEqual(day, night);
  assert.ok(night.input < day.input, 'the off-peak price is lower');
  assert.deepEqual(libraryPrice('deepseek', 'deepseek-chat', 0, new Date('2026-11-28T12:00:00Z')), day);
});

void test('Price library (issue 31 #1): svc\'s own default models are priced, but for the three the library cannot know', () => {
  const unpriced = PROVIDERS.map((p) => p.defaultModel).filter((m) => !P.isPriced(m));
  // A router whose price depends on the model it picks, a local model, and one the library does not list yet:
  // each needs an operator's price (docs/budgets.md), and is refused under a cap until it has one.
  assert.deepEqual(unpriced.sort(), ['ollama/gemma4', 'openrouter/auto', 'xai/grok-4.7']);
  // Together does not list Kimi-K2.6 in the library: its maker's (Moonshot's) list price prices it.
  assert.deepEqual(io(P.priceOf('together/moonshotai/Kimi-K2.6')), { input: 0.95, output: 4 });
  for (const m of ['anthropic/claude-opus-5', 'openai/gpt-5.5', 'google/gemini-3.1-pro-preview', 'deepseek/deepseek-v4-pro']) assert.equal(P.sourceOf(m), 'library', m);
});

void test('Price library (issue 31 #1): the providers the gateway names map to the library\'s; a model its provider does not list is looked up by its vendor or its name', () => {
  assert.deepEqual(io(P.priceOf('xai/grok-4')), { input: 3, output: 15 });
  assert.deepEqual(io(P.priceOf('mistral/mistral-large-latest')), { input: 2, output: 6 });
  assert.deepEqual(io(P.priceOf('groq/llama-3.3-70b-versatile')), { input: 0.59, output: 0.79 });
  assert.deepEqual(io(P.priceOf('openrouter/openai/gpt-4o')), { input: 2.5, output: 10 });
  assert.deepEqual(io(P.priceOf('google/gemini-2.5-flash')), { input: 0.3, output: 2.5 });
  // A provider id the library does not know (an OpenAI-compatible proxy): the model's own name prices it.
  assert.deepEqual(io(P.priceOf('mycorp/gpt-4o')), { input: 2.5, output: 10 });
  // ... or by the vendor its model id names (a proxy's `openai/gpt-4o-2024-11-20` is OpenAI's snapshot).
  assert.deepEqual(io(P.priceOf('fake/openai/gpt-4o-2024-11-20')), { input: 2.5, output: 10 });
  assert.deepEqual(io(P.priceOf('fake/anthropic/claude-opus-4-1')), { input: 15, output: 75 });
  // A model its provider's list lacks is the same model at its maker's price; a name nobody lists is unpriced.
  assert.deepEqual(io(P.priceOf('anthropic/gpt-4o-mini')), { input: 0.15, output: 0.6 });
  assert.equal(P.isPriced('anthropic/claude-nonexistent-9'), false);
});

void test('Price library (issue 31 #1): the version docs/budgets.md names is the one installed and pinned', () => {
  const installed = json('../../node_modules/@pydantic/genai-prices/package.json');
  const pkg = json('../../package.json') as { dependencies: Record<string, string> };
  assert.equal(installed.version, PRICE_LIBRARY.version);
  assert.equal(pkg.dependencies[PRICE_LIBRARY.name], PRICE_LIBRARY.version, 'pinned exactly: a new price list is a deliberate upgrade');
  const doc = readFileSync(new URL('../../docs/budgets.md', import.meta.url), 'utf8');
  assert.ok(doc.includes(`${PRICE_LIBRARY.name} ${PRICE_LIBRARY.version}`), 'docs/budgets.md names the version');
});
