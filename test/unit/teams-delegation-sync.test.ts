// Issue 23 item 1: the roster rule (who may spawn whom on the gateway) and
// the roster part of the gateway reconciler (issue 30 item 1) that writes it:
// only agents with an entry, lists compared as sets, the value before svc's
// first write recorded and put back when the wiring goes off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readAllowAgents } from '../../shared/gateway/subagents-config.ts';
import { applyOps } from '../../shared/gateway-wiring/config-ops.ts';
import { emptyLedger } from '../../shared/gateway-wiring/ledger.ts';
import { planRoster } from '../../shared/gateway-wiring/roster.ts';
import { allowAgentsFor, type KnownAgent, type TeamPolicy } from '../../shared/teams/delegation-sync.ts';
import type { RosterAgent } from '../../shared/team-chat/routing/answerer.ts';

const agent = (id: string, gatewayId: string | null = id): RosterAgent => ({ id, name: id, gatewayId });
const team = (members: RosterAgent[], lead: RosterAgent | null, subDelegation = false): TeamPolicy => ({
  roster: { teamId: 't', members, lead },
  subDelegation,
});
const asObject = (m: Map<string, string[]>) => Object.fromEntries([...m].map(([k, v]) => [k, [...v].sort()]));

void test('Delegation (issue 23, item 1): a lead may spawn its team members; members and others get []', () => {
  const lead = agent('boss');
  const [a, b] = [agent('a'), agent('b')];
  const known: KnownAgent[] = [lead, a, b, agent('loner')];
  assert.deepEqual(asObject(allowAgentsFor(known, [team([lead, a, b], lead)])), {
    boss: ['a', 'b'],
    a: [],
    b: [],
    loner: [],
  });
});

void test('Delegation (issue 23, item 1): sub-delegation on lets members spawn the other members (never themselves)', () => {
  const lead = agent('boss');
  const [a, b] = [agent('a'), agent('b')];
  const out = asObject(allowAgentsFor([lead, a, b], [team([a, b], lead, true)]));
  assert.deepEqual(out, { boss: ['a', 'b'], a: ['b'], b: ['a'] });
});

void test('Delegation (issue 23, item 1): a lead of two teams gets both rosters; gateway ids are used, not svc ids', () => {
  const lead = agent('svc-lead', 'coordinator');
  const r = agent('svc-r', 'researcher');
  const w = agent('w', null);
  const out = asObject(allowAgentsFor([lead, r, w], [team([r], lead), team([w], lead)]));
  assert.deepEqual(out, { coordinator: ['researcher', 'w'], researcher: [], w: [] });
});

void test('Delegation (issue 23, item 1): a team with no lead grants nothing; sub-delegation off grants members nothing', () => {
  const [a, b] = [agent('a'), agent('b')];
  assert.deepEqual(asObject(allowAgentsFor([a, b], [team([a, b], null)])), { a: [], b: [] });
});

void test('Delegation (issue 23, item 1): the diff touches only agents with an entry, compares as sets, keeps the rest', () => {
  const config = {
    agents: {
      entries: {
        coordinator: { subagents: { allowAgents: ['writer', 'researcher'], delegationMode: 'prefer' } },
        writer: { subagents: { allowAgents: [] } },
        reviewer: {},
      },
    },
  };
  assert.deepEqual([...readAllowAgents(config)], [['coordinator', ['writer', 'researcher']], ['writer', []], ['reviewer', null]]);
  const want = new Map<string, string[]>([
    ['coordinator', ['researcher', 'writer']], // same set, other order: no change
    ['writer', []],
    ['reviewer', []], // unset -> [] is a change
    ['ghost', ['a']], // no entry: never created
  ]);
  const plan = planRoster(config, want, emptyLedger(), []);
  assert.deepEqual(plan.ops, [{ path: ['agents', 'entries', 'reviewer', 'subagents', 'allowAgents'], value: [] }]);
  assert.deepEqual(plan.allowBefore, [{ agent: 'reviewer', before: null }], 'only the list svc changed is svc\'s');
  assert.deepEqual(planRoster({}, want, emptyLedger(), []).ops, []);
  assert.deepEqual(planRoster({}, want, emptyLedger(), ['ghost']).ops, [{ path: ['agents', 'entries', 'ghost', 'subagents', 'allowAgents'], value: ['a'] }], 'an agent the gateway has, without an entry yet');
});

void test('Issue 30 #1: the wiring off puts back exactly what each list held before svc first wrote it', () => {
  const config = structuredClone({ agents: { entries: { lead: { subagents: { allowAgents: ['old'], delegationMode: 'prefer' } }, a: {} } } });
  const before = structuredClone(config);
  const on = planRoster(config, new Map([['lead', ['a']], ['a', []]]), emptyLedger(), []);
  applyOps(config, on.ops);
  assert.deepEqual(readAllowAgents(config).get('lead'), ['a']);
  const ledger = { ...emptyLedger(), allowBefore: on.allowBefore };
  // A second round over its own result changes nothing and keeps the original values.
  const again = planRoster(config, new Map([['lead', ['a']], ['a', []]]), ledger, []);
  assert.deepEqual(again.ops, []);
  assert.deepEqual(again.allowBefore, on.allowBefore);
  const off = planRoster(config, null, ledger, []);
  applyOps(config, off.ops);
  assert.deepEqual(off.allowBefore, []);
  assert.deepEqual(config.agents.entries.lead, before.agents.entries.lead);
  assert.deepEqual(config.agents.entries.a, { subagents: {} }, 'the container is pruned by the reconciler, not here');
});
