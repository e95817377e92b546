// Issue 23 (native delegation): the pure parts of following a gateway's own
// `sessions_spawn` (shared/team-chat/spawns/spawn-keys.ts): which keys are a team's
// or a child's, what an announce run id names, what the tool events say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { announceSource, isAnnounceRunId, spawnArgsOf, spawnLabel, spawnResultOf, subagentKeyAgent, teamKeyParts } from '../../shared/team-chat/spawns/spawn-keys.ts';

const CHILD = 'agent:kid:subagent:331f162a-f8f0-4063-8bbe-faaabf39c1ec';
const RUN = 'c512ddf0-9175-4286-8649-8b05e1571331';

void test('Delegation (issue 23, item 2): team keys and child keys are told apart and split', () => {
  assert.deepEqual(teamKeyParts('agent:lead:team:01abc'), { gatewayAgentId: 'lead', teamId: '01abc' });
  assert.equal(teamKeyParts('agent:lead:main'), null);
  assert.equal(teamKeyParts(CHILD), null);
  assert.equal(subagentKeyAgent(CHILD), 'kid');
  assert.equal(subagentKeyAgent('agent:kid:subagent:workboard-default-card1'), 'kid', 'a Workboard dispatch is a child key too');
  assert.equal(subagentKeyAgent('agent:lead:team:t1'), null);
  assert.equal(subagentKeyAgent(`${CHILD}:more`), null);
});

void test('Delegation (issue 23, item 2): an announce run id names the child key and run it continues from', () => {
  assert.equal(isAnnounceRunId(`announce:v1:${CHILD}:${RUN}`), true);
  assert.equal(isAnnounceRunId(RUN), false);
  assert.deepEqual(announceSource(`announce:v1:${CHILD}:${RUN}`), { childSessionKey: CHILD, childRunId: RUN });
  assert.deepEqual(announceSource(`announce:requester-settle:${CHILD}:yield-1`), { childSessionKey: CHILD, childRunId: null });
  assert.equal(announceSource('announce:requester-settle:nothing'), null);
  assert.equal(announceSource(RUN), null);
});

void test('Delegation (issue 23, items 2 and 4): a sessions_spawn result is read from its details, else its JSON text; the label falls back to the task', () => {
  const accepted = { status: 'accepted', childSessionKey: CHILD, runId: RUN, mode: 'run' };
  assert.deepEqual(spawnResultOf({ content: [{ type: 'text', text: 'x' }], details: accepted }), { status: 'accepted', childSessionKey: CHILD, runId: RUN });
  const forbidden = { status: 'forbidden', error: 'agentId is not allowed for sessions_spawn (allowed: kid)', role: 'other' };
  assert.deepEqual(spawnResultOf({ content: [{ type: 'text', text: JSON.stringify(forbidden, null, 2) }] }), { status: 'forbidden', error: forbidden.error });
  assert.equal(spawnResultOf({ content: [{ type: 'text', text: 'not json' }] }), null);
  assert.equal(spawnResultOf(null), null);
  assert.deepEqual(spawnArgsOf({ task: 't', agentId: 'kid', label: 'L', extra: 1 }), { task: 't', agentId: 'kid', label: 'L' });
  assert.deepEqual(spawnArgsOf('nope'), {});
  assert.equal(spawnLabel({ label: '  Dig ', task: 'x' }), 'Dig');
  assert.equal(spawnLabel({ task: 'find\nthe   numbers' }), 'find the numbers');
  assert.equal(spawnLabel({ task: 'y'.repeat(100) }), `${'y'.repeat(79)}…`);
  assert.equal(spawnLabel({}), 'a task');
});
