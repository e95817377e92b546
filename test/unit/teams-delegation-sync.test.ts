// Issue 23 item 1: the roster rule (who may spawn whom on the gateway) and the
// allowAgents diff the config edit is built on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowAgentsChanges, readAllowAgents } from '../../shared/gateway/subagents-config.ts';
import { allowAgentsFor, type KnownAgent, type TeamPolicy } from '../../shared/teams/delegation-sync.ts';
import type { RosterAgent } from '../../shared/team-chat/target.ts';

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
  assert.deepEqual(allowAgentsChanges(config, want), [['reviewer', []]]);
  assert.deepEqual(allowAgentsChanges({}, want), []);
});
