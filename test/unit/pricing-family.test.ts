// Issue 31 item 1: a model's family (shared/pricing/family.ts), the one name
// rule prices and per-model budgets match by: a dated snapshot or alias is its
// family's model, a different model never is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import { bareModel, inModelFamily, modelFamilies } from '../../shared/pricing/family.ts';

const TABLE: Array<[string, string[]]> = [
  ['openai/gpt-4o-2024-08-06', ['gpt-4o-2024-08-06', 'gpt-4o']],
  ['gpt-4o-2024-11-20', ['gpt-4o-2024-11-20', 'gpt-4o']],
  ['gpt-4o', ['gpt-4o']],
  ['gpt-4o-mini', ['gpt-4o-mini']],
  ['gpt-4o-mini-2024-07-18', ['gpt-4o-mini-2024-07-18', 'gpt-4o-mini']],
  ['claude-3-5-sonnet-20241022', ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet']],
  ['claude-sonnet-4-5@20250929', ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5']],
  ['anthropic/claude-3-5-sonnet-latest', ['claude-3-5-sonnet-latest', 'claude-3-5-sonnet']],
  ['mistral/mistral-large-latest', ['mistral-large-latest', 'mistral-large']],
  ['mistral-large-2411', ['mistral-large-2411', 'mistral-large']],
  ['o1-pro-2025-03-19', ['o1-pro-2025-03-19', 'o1-pro']],
  ['o1-pro', ['o1-pro']],
  ['o1-2024-12-17', ['o1-2024-12-17', 'o1']],
  ['gpt-4-0613', ['gpt-4-0613', 'gpt-4']],
  ['google/gemini-1.5-pro-002', ['gemini-1.5-pro-002', 'gemini-1.5-pro']],
  ['gemini-2.5-flash-preview-05-20', ['gemini-2.5-flash-preview-05-20', 'gemini-2.5-flash-preview']],
  ['ollama/llama3.1:latest', ['llama3.1:latest', 'llama3.1']],
  ['ollama/llama3.1:8b', ['llama3.1:8b']],
  ['openrouter/openai/gpt-4o-2024-08-06', ['gpt-4o-2024-08-06', 'gpt-4o']],
  ['openrouter/meta-llama/llama-3.3-70b-instruct:free', ['llama-3.3-70b-instruct:free']],
  ['  OpenAI/GPT-4o-2024-08-06 ', ['gpt-4o-2024-08-06', 'gpt-4o']],
  ['gpt-5-pro', ['gpt-5-pro']],
  ['o3-pro-2025-06-10', ['o3-pro-2025-06-10', 'o3-pro']],
  ['deepseek-reasoner', ['deepseek-reasoner']],
  ['grok-2-1212', ['grok-2-1212', 'grok-2']],
  ['2024-08-06', ['2024-08-06']],
  ['latest', ['latest']],
  ['', []],
  ['openai/', []],
];

void test('Model family (issue 31 #1): snapshots and aliases name their family, most specific first', () => {
  for (const [model, want] of TABLE) assert.deepEqual(modelFamilies(model), want, model);
});

void test('Model family (issue 31 #1): a different model is never in the family', () => {
  const notIn: Array<[string, string]> = [
    ['gpt-4o-mini', 'gpt-4o'],
    ['gpt-4o-mini-2024-07-18', 'gpt-4o'],
    ['o1-pro', 'o1'],
    ['o1-pro-2025-03-19', 'o1'],
    ['o3-pro', 'o3'],
    ['gpt-5-pro', 'gpt-5'],
    ['claude-3-5-haiku-20241022', 'claude-3-5-sonnet'],
    ['gpt-4.1-mini', 'gpt-4.1'],
    ['gpt-4o', 'gpt-4o-2024-08-06'],
    ['gpt-4o-2024-11-20', 'gpt-4o-2024-08-06'],
  ];
  for (const [model, family] of notIn) assert.equal(inModelFamily(model, family), false, `${model} in ${family}`);
  const isIn: Array<[string, string]> = [
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['openai/gpt-4o-2024-11-20', 'gpt-4o'],
    ['openai/gpt-4o-2024-11-20', 'openai/gpt-4o'],
    ['GPT-4o', 'gpt-4o'],
    ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5'],
  ];
  for (const [model, family] of isIn) assert.equal(inModelFamily(model, family), true, `${model} in ${family}`);
  assert.equal(inModelFamily('gpt-4o', ''), false);
});

const segment = fc.stringMatching(/^[a-z][a-z0-9.]{0,6}$/);
const baseName = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('-'));
const suffix = fc.constantFrom('-2024-08-06', '-20241022', '@20250929', '-latest', ':latest', '-0613', '-2411', '-001', '-05-20');

void test('Model family (issue 31 #1): properties: first is the bare name, each next is a prefix, the family is stable', () => {
  fc.assert(
    fc.property(fc.option(fc.constantFrom('openai/', 'OpenRouter/anthropic/', 'svc-bob/')), baseName, fc.array(suffix, { maxLength: 2 }), (prefix, base, suffixes) => {
      const model = `${prefix ?? ''}${base}${suffixes.join('')}`;
      const fams = modelFamilies(model);
      assert.equal(fams[0], bareModel(model));
      for (let i = 1; i < fams.length; i++) assert.ok(fams[i - 1]!.startsWith(fams[i]!) && fams[i]!.length < fams[i - 1]!.length);
      // The family of a family is itself: the last name has no suffix left to drop.
      const family = fams.at(-1)!;
      assert.deepEqual(modelFamilies(family), [family]);
      assert.ok(inModelFamily(model, family));
      // A versioned name always reaches its own base (when the base itself ends in no version-like tail).
      if (modelFamilies(base).length === 1) assert.equal(family, base);
    }),
  );
});

void test('Model family (issue 31 #1): property: appending a word never joins another family', () => {
  fc.assert(
    fc.property(baseName, fc.constantFrom('-mini', '-pro', '-nano', '-preview', '-turbo', ':free', ':8b', '-v2'), (base, word) => {
      assert.equal(inModelFamily(`${base}${word}`, base), false);
      assert.equal(inModelFamily(`${base}${word}-2024-08-06`, base), false);
    }),
  );
});
