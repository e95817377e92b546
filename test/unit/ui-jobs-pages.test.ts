// Issue 18 unit tests for the pure helpers of the setup and gateway pages
// (ui/src/pages/gateway): the provider list read from GET
// /api/system/gateway-config's presence flags, the fallback-model list, and
// the uptime shown on the status card.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUptime, parseModelList } from '../../ui/src/pages/gateway/format.ts';
import { providersFromFlags } from '../../ui/src/lib/providers.ts';

void test('Dashboard (issue 18, Gateway): providers come from the has<Provider>Key flags, ids as configure-gateway takes them; the token flag is not a provider', () => {
  const env = { hasAnthropicKey: true, hasOpenAIKey: false, hasDeepSeekKey: false, hasXaiKey: true, hasOpenRouterKey: false, hasGatewayToken: true };
  assert.deepEqual(providersFromFlags(env), [
    { id: 'anthropic', name: 'Anthropic', hasKey: true },
    { id: 'openai', name: 'OpenAI', hasKey: false },
    { id: 'deepseek', name: 'DeepSeek', hasKey: false },
    { id: 'xai', name: 'xAI', hasKey: true },
    { id: 'openrouter', name: 'OpenRouter', hasKey: false },
  ]);
  assert.deepEqual(providersFromFlags({}), []);
});

void test('Dashboard (issue 18, Gateway): fallbacks are model refs separated by commas or lines; blanks are dropped', () => {
  assert.deepEqual(parseModelList(' openai/gpt-5.5, anthropic/claude-opus-5 ,,\ngroq/openai/gpt-oss-120b '), ['openai/gpt-5.5', 'anthropic/claude-opus-5', 'groq/openai/gpt-oss-120b']);
  assert.deepEqual(parseModelList('  '), []);
});

void test('Dashboard (issue 18, Gateway): uptime reads in seconds, minutes, hours or days', () => {
  assert.equal(formatUptime(null), '—');
  assert.equal(formatUptime(4_900), '4 s');
  assert.equal(formatUptime(93_000), '1 min 33 s');
  assert.equal(formatUptime(7_380_000), '2 h 3 min');
  assert.equal(formatUptime(3 * 86_400_000 + 5 * 3_600_000), '3 d 5 h');
});
