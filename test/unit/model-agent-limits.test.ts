// The endpoint's per-agent limits (issue 31, item 10) on an injected clock:
// calls in flight at once, and call starts in a sliding minute.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAgentLimits } from '../../shared/model-proxy/agent-limits.ts';

void test('Limits (issue 31, item 10): an agent past its calls in flight is refused until one ends; other agents are not affected', () => {
  const limits = createAgentLimits({ maxInflight: 2, perMinute: 100, now: () => 0 });
  const a = limits.admit('ada');
  const b = limits.admit('ada');
  assert.ok(a.ok && b.ok);
  const refused = limits.admit('ada');
  assert.deepEqual(refused, { ok: false, message: 'agent ada already has 2 model calls in flight (the most svc allows at once)', retryAfterS: 1 });
  assert.ok(limits.admit('bob').ok, 'another agent has its own count');
  a.release();
  a.release();
  const c = limits.admit('ada');
  assert.ok(c.ok, 'a released slot is free again, once');
  assert.equal(limits.admit('ada').ok, false);
});

void test('Limits (issue 31, item 10): call starts are counted over a sliding minute; retry-after says when the oldest leaves it', () => {
  let now = 0;
  const limits = createAgentLimits({ maxInflight: 100, perMinute: 3, now: () => now });
  for (const at of [0, 10_000, 20_000]) {
    now = at;
    const r = limits.admit('ada');
    assert.ok(r.ok);
    r.release();
  }
  now = 30_000;
  const refused = limits.admit('ada');
  assert.deepEqual(refused, { ok: false, message: 'agent ada started 3 model calls in the last minute (the most svc allows)', retryAfterS: 30 });
  now = 60_001;
  assert.ok(limits.admit('ada').ok, 'the call from 0 ms has left the minute');
});
