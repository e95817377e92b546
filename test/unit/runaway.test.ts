// Runaway turns (issue 31, item 7): the two limits judged from a model call's
// body alone, in the three APIs svc's endpoint speaks, with the gateway's own
// additions (its internal-context user message after the latest tool result,
// fresh marker ids around tool output, its loop warnings) not mistaken for a
// new turn or for progress; and a team's limits as stored and resolved.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RoutedApi } from '../../shared/model-routing/registry.ts';
import { detectRunaway, RUNAWAY_DEFAULTS, RunawayLimits } from '../../shared/model-proxy/runaway.ts';
import { readTeamRunawayLimits, resolveRunawayLimits, runawayLimitsKey, writeTeamRunawayLimits } from '../../shared/model-proxy/runaway-limits.ts';

const USER = '[Sun 2026-11-22 03:57 UTC] TOOL: exec {"cmd":"ls"}\n\nRuntime: agent=main | session=agent:main:main';
const INTERNAL = '<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\nsome runtime context\n<<<END_OPENCLAW_INTERNAL_CONTEXT>>>';

/** One model call of a turn: a tool call (name, arguments) and the result it got; or plain text. */
type Step = { tool: string; args: Record<string, unknown>; result: string } | { text: string };

/** A request body in `api`'s shape: a real user message, then `steps`, then (like the gateway) its internal-context message. */
function body(api: RoutedApi, steps: Step[], opts: { internalAfter?: boolean; before?: Step[] } = {}): Record<string, unknown> {
  const items: unknown[] = [];
  const user = (text: string) => {
    if (api === 'openai-responses') items.push({ role: 'user', content: [{ type: 'input_text', text }] });
    else if (api === 'anthropic-messages') items.push({ role: 'user', content: [{ type: 'text', text }] });
    else items.push({ role: 'user', content: text });
  };
  const add = (s: Step, i: number) => {
    const id = `call_${i}`;
    if ('text' in s) {
      if (api === 'openai-responses') items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: s.text }] });
      else if (api === 'anthropic-messages') items.push({ role: 'assistant', content: [{ type: 'text', text: s.text }] });
      else items.push({ role: 'assistant', content: s.text });
      return;
    }
    if (api === 'openai-completions') {
      items.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: s.tool, arguments: JSON.stringify(s.args) } }] });
      items.push({ role: 'tool', tool_call_id: id, content: s.result });
    } else if (api === 'anthropic-messages') {
      items.push({ role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id, name: s.tool, input: s.args }] });
      items.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: s.result }] }] });
    } else {
      items.push({ type: 'reasoning', id: `rs_${i}`, summary: [] });
      items.push({ type: 'function_call', call_id: id, name: s.tool, arguments: JSON.stringify(s.args) });
      items.push({ type: 'function_call_output', call_id: id, output: s.result });
    }
  };
  if (opts.before) {
    user('an earlier turn');
    opts.before.forEach((s, i) => add(s, 1000 + i));
  }
  user(USER);
  steps.forEach(add);
  if (opts.internalAfter !== false) user(INTERNAL);
  return api === 'openai-responses' ? { model: 'm', input: items } : { model: 'm', messages: items };
}

const APIS: RoutedApi[] = ['openai-completions', 'anthropic-messages', 'openai-responses'];
const same = (n: number, result = 'file-a file-b'): Step[] => Array.from({ length: n }, () => ({ tool: 'exec', args: { cmd: 'ls', cwd: '/w' }, result }));
const limits = (maxCallsPerTurn: number, maxIdenticalRepeats: number): RunawayLimits => ({ maxCallsPerTurn, maxIdenticalRepeats });

for (const api of APIS) {
  void test(`Runaway (issue 31, item 7), ${api}: M identical tool call + result pairs end the next call; M-1 do not`, () => {
    assert.equal(detectRunaway(api, body(api, same(4)), limits(100, 5)), null);
    const hit = detectRunaway(api, body(api, same(5)), limits(100, 5), 'alice');
    assert.deepEqual(hit && { kind: hit.kind, count: hit.count, limit: hit.limit, tool: hit.tool }, { kind: 'repeated_tool_call', count: 5, limit: 5, tool: 'exec' });
    assert.equal(hit?.text, 'svc ended this turn: alice repeated the same exec call 5 times with the same result (the limit is 5).');
  });

  void test(`Runaway (issue 31, item 7), ${api}: the call after N calls in one turn is ended; the Nth is not`, () => {
    // N-1 calls in the body: this one is the Nth.
    const steps = (n: number): Step[] => Array.from({ length: n }, (_, i) => ({ tool: 'read', args: { page: i }, result: `page ${i}` }));
    assert.equal(detectRunaway(api, body(api, steps(9)), limits(10, 5)), null);
    const hit = detectRunaway(api, body(api, steps(10)), limits(10, 5));
    assert.equal(hit?.kind, 'calls_per_turn');
    assert.equal(hit?.count, 11);
    assert.equal(hit?.limit, 10);
    assert.equal(hit?.tool, undefined);
    assert.match(hit?.text ?? '', /^svc ended this turn: the agent reached 10 model calls in one turn/);
  });

  void test(`Runaway (issue 31, item 7), ${api}: a different result or different arguments break the run`, () => {
    const differentResult = [...same(3), { tool: 'exec', args: { cmd: 'ls', cwd: '/w' }, result: 'file-a file-b file-c' }, ...same(3)];
    assert.equal(detectRunaway(api, body(api, differentResult), limits(100, 4)), null);
    const differentArgs = [...same(3), { tool: 'exec', args: { cmd: 'ls -l', cwd: '/w' }, result: 'file-a file-b' }, ...same(3)];
    assert.equal(detectRunaway(api, body(api, differentArgs), limits(100, 4)), null);
    // An answer without a tool call in between: a Responses body shows no boundary between it and the next answer's items.
    const text = [...same(3), { text: 'Still looking.' }, ...same(3)];
    if (api !== 'openai-responses') assert.equal(detectRunaway(api, body(api, text), limits(100, 4)), null);
    // The same arguments in another key order are the same call.
    const reordered = [...same(2), { tool: 'exec', args: { cwd: '/w', cmd: 'ls' }, result: 'file-a file-b' }, ...same(1)];
    assert.equal(detectRunaway(api, body(api, reordered), limits(100, 4))?.count, 4);
  });

  void test(`Runaway (issue 31, item 7), ${api}: the turn starts at the last real user message; the gateway's internal-context messages are not one`, () => {
    // Earlier turns' calls do not count toward this turn's.
    assert.equal(detectRunaway(api, body(api, same(2), { before: same(8) }), limits(100, 5)), null);
    assert.equal(detectRunaway(api, body(api, same(2), { before: same(8) }), limits(3, 5)), null);
    assert.equal(detectRunaway(api, body(api, same(3), { before: same(8) }), limits(3, 5))?.kind, 'calls_per_turn');
    // With and without the trailing internal-context message, the count is the same.
    assert.equal(detectRunaway(api, body(api, same(5), { internalAfter: false }), limits(100, 5))?.count, 5);
    assert.equal(detectRunaway(api, body(api, same(5), { internalAfter: true }), limits(100, 5))?.count, 5);
  });
}

void test('Runaway (issue 31, item 7): the gateway\'s fresh marker ids and its loop warnings do not make identical results differ', () => {
  const wrapped = (id: string, warn = '') =>
    `SECURITY NOTICE: external content.\n<<<EXTERNAL_UNTRUSTED_CONTENT id="${id}">>>\nSource: Web Fetch\n---\nsame page\n<<<END_EXTERNAL_UNTRUSTED_CONTENT id="${id}">>>${warn}`;
  const steps: Step[] = [
    { tool: 'web_fetch', args: { url: 'https://x' }, result: wrapped('0123456789abcdef') },
    { tool: 'web_fetch', args: { url: 'https://x' }, result: wrapped('fedcba9876543210') },
    { tool: 'web_fetch', args: { url: 'https://x' }, result: wrapped('00112233445566ff', '\n\n[System note: Tool-loop warning after 10 repeated calls. Change your approach or stop if you are not making progress.]') },
  ];
  assert.equal(detectRunaway('openai-completions', body('openai-completions', steps), limits(100, 3))?.count, 3);
  // The page text itself still counts.
  const changed: Step[] = [...steps.slice(0, 2), { tool: 'web_fetch', args: { url: 'https://x' }, result: wrapped('00112233445566ff').replace('same page', 'new page') }];
  assert.equal(detectRunaway('openai-completions', body('openai-completions', changed), limits(100, 3)), null);
});

void test('Runaway (issue 31, item 7): parallel tool calls in one answer are one call; the repeat names every tool in it', () => {
  const messages: unknown[] = [{ role: 'user', content: USER }];
  for (let i = 0; i < 3; i++) {
    messages.push({
      role: 'assistant', content: null,
      tool_calls: [
        { id: `a${i}`, type: 'function', function: { name: 'read', arguments: '{"f":"x"}' } },
        { id: `b${i}`, type: 'function', function: { name: 'grep', arguments: '{"q":"y"}' } },
      ],
    });
    // Results in the other order: matched by id.
    messages.push({ role: 'tool', tool_call_id: `b${i}`, content: 'no match' }, { role: 'tool', tool_call_id: `a${i}`, content: 'x!' });
  }
  const hit = detectRunaway('openai-completions', { messages }, limits(100, 3));
  assert.equal(hit?.tool, 'read+grep');
  assert.equal(hit?.count, 3);
  assert.equal(detectRunaway('openai-completions', { messages }, limits(4, 4)), null);
  assert.equal(detectRunaway('openai-completions', { messages }, limits(3, 4))?.kind, 'calls_per_turn');
});

void test('Runaway (issue 31, item 7): a body with no conversation is a first call; a person\'s message in the middle starts a new turn', () => {
  assert.equal(detectRunaway('openai-responses', { input: 'hello' }, limits(1, 2)), null);
  assert.equal(detectRunaway('openai-completions', { messages: 'nonsense' }, limits(1, 2)), null);
  assert.equal(detectRunaway('anthropic-messages', {}, limits(1, 2)), null);
  // Anthropic: a user message with tool results and a person's text (a message sent mid-run) is a real one.
  const messages: unknown[] = [{ role: 'user', content: 'go' }];
  for (let i = 0; i < 3; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'exec', input: { cmd: 'ls' } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'a b' }, ...(i === 1 ? [{ type: 'text', text: 'try harder' }] : [])] });
  }
  assert.equal(detectRunaway('anthropic-messages', { messages }, limits(2, 2)), null);
  assert.equal(detectRunaway('anthropic-messages', { messages }, limits(1, 2))?.kind, 'calls_per_turn');
});

void test('Runaway (issue 31, item 7): limits are whole numbers in bounds; a team\'s own limits, the strictest of an agent\'s teams, the defaults on none', () => {
  assert.equal(RunawayLimits.safeParse({ maxCallsPerTurn: 0, maxIdenticalRepeats: 5 }).success, false);
  assert.equal(RunawayLimits.safeParse({ maxCallsPerTurn: 10, maxIdenticalRepeats: 1 }).success, false);
  assert.equal(RunawayLimits.safeParse({ maxCallsPerTurn: 10.5, maxIdenticalRepeats: 5 }).success, false);
  assert.equal(RunawayLimits.safeParse(RUNAWAY_DEFAULTS).success, true);

  const rows = new Map<string, string>();
  const settings = { get: (k: string) => rows.get(k) ?? null, set: (k: string, v: string) => (rows.set(k, v), 0), delete: (k: string) => void rows.delete(k) };
  assert.deepEqual(resolveRunawayLimits(settings, []), RUNAWAY_DEFAULTS);
  writeTeamRunawayLimits(settings, 'red', { maxCallsPerTurn: 30 });
  writeTeamRunawayLimits(settings, 'blue', { maxCallsPerTurn: 60, maxIdenticalRepeats: 3 });
  assert.deepEqual(readTeamRunawayLimits(settings, 'red'), { limits: { maxCallsPerTurn: 30, maxIdenticalRepeats: RUNAWAY_DEFAULTS.maxIdenticalRepeats }, custom: { maxCallsPerTurn: 30 }, defaults: RUNAWAY_DEFAULTS });
  assert.deepEqual(resolveRunawayLimits(settings, ['red', 'blue']), { maxCallsPerTurn: 30, maxIdenticalRepeats: 3 });
  assert.deepEqual(resolveRunawayLimits(settings, ['green']), RUNAWAY_DEFAULTS);
  // A broken entry is the defaults (and a warning), never a crash of the endpoint.
  rows.set(runawayLimitsKey('green'), '{not json');
  const warned: unknown[] = [];
  assert.deepEqual(resolveRunawayLimits(settings, ['green'], { warn: (o: unknown) => void warned.push(o) }), RUNAWAY_DEFAULTS);
  assert.equal(warned.length, 1);
  writeTeamRunawayLimits(settings, 'red', {});
  assert.equal(rows.has(runawayLimitsKey('red')), false);
});
