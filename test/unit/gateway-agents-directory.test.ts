// shared/gateway/agents-directory.ts: a create answers once agents.list shows
// the new agent (the gateway hot-reloads it about a second after
// agents.create), or says it has not loaded yet; the waits go through an
// injected sleep, never the clock.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CREATE_LOAD_WAIT, createGatewayAgent } from '../../shared/gateway/agents-directory.ts';

function fakeGateway(listedAfter: number) {
  const calls: string[] = [];
  let lists = 0;
  const call = async (method: string, params: unknown) => {
    calls.push(method);
    if (method === 'agents.create') return { ok: true, agentId: 'gus', name: (params as { name: string }).name };
    lists += 1;
    return { defaultId: 'main', agents: [{ id: 'main' }, ...(lists > listedAfter ? [{ id: 'gus', name: 'Gus' }] : [])] };
  };
  return { call, calls };
}

void test('Gateway agents (issue 18): a create waits until agents.list shows the new agent', async () => {
  const gw = fakeGateway(2);
  const slept: number[] = [];
  const r = await createGatewayAgent(gw.call, 'Gus', async (ms) => void slept.push(ms));
  assert.deepEqual(r, { agent: { id: 'gus', name: 'Gus' }, loaded: true });
  assert.deepEqual(gw.calls, ['agents.create', 'agents.list', 'agents.list', 'agents.list']);
  assert.deepEqual(slept, [CREATE_LOAD_WAIT.everyMs, CREATE_LOAD_WAIT.everyMs]);
});

void test('Gateway agents (issue 18): an agent the gateway never lists within the wait is answered as not loaded yet', async () => {
  const gw = fakeGateway(Infinity);
  const slept: number[] = [];
  const r = await createGatewayAgent(gw.call, 'Gus', async (ms) => void slept.push(ms));
  assert.deepEqual(r, { agent: { id: 'gus', name: 'Gus' }, loaded: false });
  assert.equal(slept.length, CREATE_LOAD_WAIT.attempts);
});
