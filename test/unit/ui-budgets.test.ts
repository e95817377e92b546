// Issue 22, the budgets page and the run trace (brief D): the pure logic
// behind them. Dollars typed into a field become the cents the server takes
// (and a field's text reads back to the same cents), a spend bar's share, a
// budget's title, the per-field messages of a 400's details, and the call
// list's cost and time texts. No browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_LIMIT_USD_CENTS } from '../../shared/budgets/schemas.ts';
import { ApiError, fieldErrorsOf } from '../../ui/src/api/errors.ts';
import { budgetTitle, centsToField, formatCents, formatUsd, parseDollars, spendShare } from '../../ui/src/features/budgets/budget-format.ts';
import { formatMs, outcomeText } from '../../ui/src/pages/trace/call-format.ts';
import { fc } from '../helpers/fc.ts';

const S = 'Budgets (issue 22, item 7)';

void test(`${S}: dollars in a field become cents; what the edit dialog shows reads back to the same cents`, () => {
  for (const [text, cents] of [
    ['25', 2500],
    ['12.5', 1250],
    ['12.50', 1250],
    ['$1,200.05', 120_005],
    [' 0.07 ', 7],
    ['.5', 50],
    ['3.', 300],
  ] as const) {
    assert.deepEqual(parseDollars(text), { ok: true, cents }, text);
  }
  for (const bad of ['', 'abc', '-5', '1.005', '1e3', '12.5.1', '$']) {
    const r = parseDollars(bad);
    assert.equal(r.ok, false, bad);
    assert.equal(r.ok ? '' : r.message, 'Enter an amount in dollars, like 25 or 12.50.');
  }
  fc.assert(
    fc.property(fc.integer({ min: 0, max: MAX_LIMIT_USD_CENTS }), (cents) => {
      assert.deepEqual(parseDollars(centsToField(cents)), { ok: true, cents });
      assert.deepEqual(parseDollars(formatCents(cents)), { ok: true, cents });
    }),
  );
});

void test(`${S}: the spend bar measures spend against the limit plus grace, its value never past its maximum`, () => {
  assert.deepEqual(spendShare({ spentUsdCents: 250, limitUsdCents: 1000, graceUsdCents: 0 }), { max: 1000, now: 250, pct: 25 });
  assert.deepEqual(spendShare({ spentUsdCents: 1000, limitUsdCents: 800, graceUsdCents: 200 }), { max: 1000, now: 1000, pct: 100 });
  assert.deepEqual(spendShare({ spentUsdCents: 1500, limitUsdCents: 1000, graceUsdCents: 0 }), { max: 1000, now: 1000, pct: 150 });
  fc.assert(
    fc.property(fc.nat(10_000_000), fc.integer({ min: 1, max: MAX_LIMIT_USD_CENTS }), fc.nat(1_000_000), (spent, limit, grace) => {
      const s = spendShare({ spentUsdCents: spent, limitUsdCents: limit, graceUsdCents: grace });
      assert.ok(s.now >= 0 && s.now <= s.max);
      assert.equal(s.pct >= 100, spent >= limit + grace);
    }),
  );
});

void test(`${S}: a budget's title names its target by the team's and agent's names, and its model`, () => {
  const names = { teams: new Map([['t1', 'Ops']]), agents: new Map([['res', 'Researcher']]) };
  assert.equal(budgetTitle({ scope: 'global', scopeId: 'all', model: null }, names), 'Global');
  assert.equal(budgetTitle({ scope: 'team', scopeId: 't1', model: null }, names), 'Team “Ops”');
  assert.equal(budgetTitle({ scope: 'team', scopeId: 'gone', model: null }, names), 'Team “gone”');
  assert.equal(budgetTitle({ scope: 'agent', scopeId: 'res', model: 'gpt-4o' }, names), 'Agent Researcher for gpt-4o');
  assert.equal(budgetTitle({ scope: 'task', scopeId: 'T-12', model: null }, names), 'Task T-12');
});

void test(`${S}: a 400's flattened details become per-field messages; any other error has none`, () => {
  const body = { error: 'invalid budget', details: { formErrors: [], fieldErrors: { scopeId: ['no such team'], limitUsdCents: ['Too small', 42] } } };
  assert.deepEqual(fieldErrorsOf(new ApiError(400, 'invalid budget', body)), { scopeId: ['no such team'], limitUsdCents: ['Too small'] });
  assert.deepEqual(fieldErrorsOf(new ApiError(404, 'budget not found', { error: 'budget not found' })), {});
  assert.deepEqual(fieldErrorsOf(new ApiError(400, 'unknown budget scope: x', { error: 'unknown budget scope: x' })), {});
  assert.deepEqual(fieldErrorsOf(new Error('network')), {});
  assert.deepEqual(fieldErrorsOf(null), {});
});

void test(`${S}: a call's cost keeps sub-cent amounts readable; times read in ms or s`, () => {
  assert.equal(formatUsd(null), '—');
  assert.equal(formatUsd(0), '$0');
  assert.equal(formatUsd(0.000123), '$0.000123');
  assert.equal(formatUsd(0.0045), '$0.0045');
  assert.equal(formatUsd(1.5), '$1.50');
  assert.equal(formatMs(null), '—');
  assert.equal(formatMs(42.4), '42 ms');
  assert.equal(formatMs(12_345), '12.3 s');
  assert.equal(outcomeText({ outcome: 'upstream_error', httpStatus: 429 }), 'Provider error 429');
  assert.equal(outcomeText({ outcome: 'upstream_error', httpStatus: null }), 'Provider error');
  assert.equal(outcomeText({ outcome: 'refused', httpStatus: null }), 'Refused (budget)');
});
