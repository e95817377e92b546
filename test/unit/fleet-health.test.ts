// Spec "Fleet health" and "Fleet-health entry": the fold (shared/obs/health.ts)
// against a deliberately simple model, over random event sequences. The
// model replays the whole history for each agent separately, keeps open
// executions as a plain list of { task, openedAt } and states the thresholds
// itself; `now` is injected, so time is the test's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import type { EventKind } from '../../shared/events/kinds.ts';
import { foldHealth, type WindowRow } from '../../shared/obs/index.ts';
import { BUILT_IN_PRICES } from '../../shared/pricing/index.ts';

const MIN = 60_000;
const NOW = 1_800_000_000_000;

function model(rows: readonly WindowRow[], now: number) {
  const agentIds = [...new Set(rows.map((r) => r.agentId).filter((a): a is string => a !== null))].sort();
  return agentIds.map((agentId) => {
    const mine = rows.filter((r) => r.agentId === agentId);
    let open: Array<{ task: string | null; openedAt: number }> = [];
    mine.forEach((r, i) => {
      if (r.kind === 'execution_started') open.push({ task: r.taskId, openedAt: i });
      if (r.kind === 'execution_completed' && open.length > 0) {
        const same = open.filter((o) => o.task === r.taskId);
        const pick = (same.length > 0 ? same : open).reduce((a, b) => (b.openedAt > a.openedAt ? b : a));
        open = open.filter((o) => o !== pick);
      }
    });
    const lastEventTs = Math.max(...mine.map((r) => r.ts));
    const quiet = now - lastEventTs;
    const status = open.length === 0 ? 'idle' : quiet > 30 * MIN ? 'zombie' : quiet > 5 * MIN ? 'stalled' : 'working';
    const newest = open.reduce<{ task: string | null; openedAt: number } | null>((a, b) => (a === null || b.openedAt > a.openedAt ? b : a), null);
    const costUsd = mine.filter((r) => r.kind === 'cost').reduce((s, r) => s + (JSON.parse(r.data) as { usd: number }).usd, 0);
    return { agentId, status, lastEventTs, activeTaskId: newest?.task ?? null, openExecutions: open.length, costUsd };
  });
}

const kind = fc.constantFrom<EventKind>('execution_started', 'execution_completed', 'execution_started', 'execution_completed', 'tool_call', 'cost');
const event = fc.record({
  kind,
  agentId: fc.constantFrom('a', 'b', 'c', null),
  taskId: fc.constantFrom('t1', 't2', 't3', null),
  // Ages around the 5- and 30-minute edges, in no particular order.
  age: fc.oneof(fc.integer({ min: 0, max: 45 * MIN }), fc.constantFrom(5 * MIN, 5 * MIN + 1, 30 * MIN, 30 * MIN + 1)),
  usd: fc.integer({ min: 0, max: 1000 }).map((c) => c / 100),
});

const toRows = (events: Array<{ kind: EventKind; agentId: string | null; taskId: string | null; age: number; usd: number }>): WindowRow[] =>
  events.map((e, i) => ({
    seq: i + 1,
    ts: NOW - e.age,
    kind: e.kind,
    teamId: null,
    taskId: e.taskId,
    agentId: e.agentId,
    runtime: null,
    data: e.kind === 'cost' ? JSON.stringify({ usd: e.usd }) : '{}',
  }));

void test('Fleet health: the fold agrees with a simple model over random event sequences (property)', () => {
  fc.assert(
    fc.property(fc.array(event, { maxLength: 60 }), (events) => {
      const rows = toRows(events);
      const got = foldHealth(rows, NOW, BUILT_IN_PRICES).map((h) => ({ ...h, costUsd: Math.round(h.costUsd * 100) }));
      const want = model(rows, NOW).map((h) => ({ ...h, costUsd: Math.round(h.costUsd * 100) }));
      assert.deepEqual(got, want);
    }),
    { numRuns: 1000 },
  );
});

void test('Fleet health: quiet for exactly 5 or 30 minutes is not yet stalled or zombie', () => {
  const at = (age: number) => toRows([{ kind: 'execution_started', agentId: 'a', taskId: 't', age, usd: 0 }]);
  assert.equal(foldHealth(at(5 * MIN), NOW, BUILT_IN_PRICES)[0]?.status, 'working');
  assert.equal(foldHealth(at(5 * MIN + 1), NOW, BUILT_IN_PRICES)[0]?.status, 'stalled');
  assert.equal(foldHealth(at(30 * MIN), NOW, BUILT_IN_PRICES)[0]?.status, 'stalled');
  assert.equal(foldHealth(at(30 * MIN + 1), NOW, BUILT_IN_PRICES)[0]?.status, 'zombie');
});
