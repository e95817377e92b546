// Issue 23 item 1 and issue 30 item 1: changes as the gateway's
// config.patch takes them (one merge patch; every array a change replaces or
// removes named in replacePaths; the config's hash from config.get as
// baseHash), and the one retry when the config changed between the two
// calls. The real gateway's answer is checked in the e2e tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergePatchOf, replacePathsOf } from '../../shared/gateway-wiring/config-ops.ts';
import { patchThroughGateway } from '../../shared/gateway/config-rpc.ts';

const patchOf = (config: unknown, ops: Array<{ path: string[]; value: unknown }>) => ({ raw: JSON.stringify(mergePatchOf(ops)), replacePaths: replacePathsOf(config, ops) });

void test('Delegation (issue 23, item 1): the lists are one merge patch with each list in replacePaths', () => {
  const config = { agents: { entries: { lead: { subagents: { allowAgents: ['x'] } }, a: {} } } };
  const ops = [
    { path: ['agents', 'entries', 'lead', 'subagents', 'allowAgents'], value: ['a', 'b'] },
    { path: ['agents', 'entries', 'a', 'subagents', 'allowAgents'], value: [] },
  ];
  const p = patchOf(config, ops);
  assert.deepEqual(JSON.parse(p.raw), { agents: { entries: { lead: { subagents: { allowAgents: ['a', 'b'] } }, a: { subagents: { allowAgents: [] } } } } });
  assert.deepEqual(p.replacePaths, ['agents.entries.lead.subagents.allowAgents'], 'a list that did not exist loses no entries');
  assert.deepEqual(JSON.parse(patchOf({}, [{ path: ['agents', 'entries', '__proto__', 'subagents', 'allowAgents'], value: ['x'] }]).raw).agents.entries.__proto__, { subagents: { allowAgents: ['x'] } }, 'an id is an own key, never the prototype');
});

void test('Issue 30 #1: removing an object names the arrays inside it (the gateway refuses the patch otherwise); a removal is null in the patch', () => {
  const config = { models: { providers: { 'svc-a': { baseUrl: 'u', models: [{ id: 'm', input: ['text'] }] } } }, mcp: { servers: { 'svc-a-tasks': { url: 'u' } } } };
  const ops = [
    { path: ['models', 'providers', 'svc-a'], value: undefined },
    { path: ['mcp', 'servers', 'svc-a-tasks'], value: undefined },
  ];
  const p = patchOf(config, ops);
  assert.deepEqual(p.replacePaths, ['models.providers.svc-a.models']);
  assert.deepEqual(JSON.parse(p.raw), { models: { providers: { 'svc-a': null } }, mcp: { servers: { 'svc-a-tasks': null } } });
});

void test('Delegation (issue 23, item 1): config.patch carries config.get\'s hash; a config changed meanwhile is read again, up to three attempts in all; other refusals are thrown', async () => {
  const calls: Array<[string, unknown]> = [];
  let refuse: string[] = ['config changed since last load; re-run config.get and retry'];
  const call = async (method: string, params: unknown) => {
    calls.push([method, params]);
    if (method === 'config.get') return { hash: `h${calls.length}` };
    const why = refuse.shift();
    if (why) throw new Error(why);
    return { ok: true };
  };
  const patch = patchOf({}, [{ path: ['agents', 'entries', 'lead', 'subagents', 'allowAgents'], value: ['a'] }]);
  await patchThroughGateway(call, patch, 'test');
  assert.deepEqual(calls.map(([m]) => m), ['config.get', 'config.patch', 'config.get', 'config.patch']);
  assert.equal((calls[3]?.[1] as { baseHash: string }).baseHash, 'h3');
  assert.deepEqual((calls[3]?.[1] as { replacePaths: string[] }).replacePaths, patch.replacePaths);

  calls.length = 0;
  refuse = ['config changed since last load', 'config changed since last load'];
  await patchThroughGateway(call, patch, 'test');
  assert.deepEqual(calls.map(([m]) => m), ['config.get', 'config.patch', 'config.get', 'config.patch', 'config.get', 'config.patch'], 'the third attempt lands');

  calls.length = 0;
  refuse = ['config changed since last load', 'config changed since last load', 'config changed since last load'];
  await assert.rejects(patchThroughGateway(call, patch, 'test'), /config changed since last load/);
  assert.equal(calls.length, 6, 'three attempts, not more');
  refuse = ['config.patch would remove entries from array path(s)'];
  await assert.rejects(patchThroughGateway(call, patch, 'test'), /would remove entries/);
});
