// Issue 23 item 1: the roster lists as the gateway's config.patch takes
// them (a merge patch naming each list in replacePaths, the config's hash
// from config.get as baseHash), and the one retry when the config changed
// between the two calls. The real gateway's answer is checked in
// test/e2e/gateway/team-preset.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowAgentsPatch, patchThroughGateway } from '../../shared/gateway/subagents-config.ts';

void test('Delegation (issue 23, item 1): the lists are one merge patch with each list in replacePaths', () => {
  const p = allowAgentsPatch([['lead', ['a', 'b']], ['a', []]]);
  assert.deepEqual(JSON.parse(p.raw), { agents: { entries: { lead: { subagents: { allowAgents: ['a', 'b'] } }, a: { subagents: { allowAgents: [] } } } } });
  assert.deepEqual(p.replacePaths, ['agents.entries.lead.subagents.allowAgents', 'agents.entries.a.subagents.allowAgents']);
  assert.deepEqual(JSON.parse(allowAgentsPatch([['__proto__', ['x']]]).raw).agents.entries.__proto__, { subagents: { allowAgents: ['x'] } }, 'an id is an own key, never the prototype');
});

void test('Delegation (issue 23, item 1): config.patch carries config.get\'s hash; a config changed meanwhile is read again once, other refusals are thrown', async () => {
  const calls: Array<[string, unknown]> = [];
  let refuse: string[] = ['config changed since last load; re-run config.get and retry'];
  const call = async (method: string, params: unknown) => {
    calls.push([method, params]);
    if (method === 'config.get') return { hash: `h${calls.length}` };
    const why = refuse.shift();
    if (why) throw new Error(why);
    return { ok: true };
  };
  const patch = allowAgentsPatch([['lead', ['a']]]);
  await patchThroughGateway(call, patch);
  assert.deepEqual(calls.map(([m]) => m), ['config.get', 'config.patch', 'config.get', 'config.patch']);
  assert.equal((calls[3]?.[1] as { baseHash: string }).baseHash, 'h3');
  assert.deepEqual((calls[3]?.[1] as { replacePaths: string[] }).replacePaths, patch.replacePaths);

  calls.length = 0;
  refuse = ['config changed since last load', 'config changed since last load'];
  await assert.rejects(patchThroughGateway(call, patch), /config changed since last load/);
  assert.equal(calls.length, 4, 'one retry, not more');
  refuse = ['config.patch would remove entries from array path(s)'];
  await assert.rejects(patchThroughGateway(call, patch), /would remove entries/);
});
