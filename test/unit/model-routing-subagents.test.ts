// Issue 31 item 2: the model an agent runs on when spawned as a sub-agent
// (OpenClaw's `subagents.model`, in its entry or the defaults) goes through
// svc as its own model and fallbacks do; otherwise a configured sub-agent
// model calls its provider directly, past every budget (or fails without the
// key routing moved). The rig: model-routing-rig.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keysInGatewayFiles } from '../../shared/model-routing/gateway-keys.ts';
import { ENV_ALL, rig, routeRows, twoUpstreams, type Json } from './model-routing-rig.ts';

const subagentRows = (out: Parameters<typeof routeRows>[0], id: string) => routeRows(out, id, 'subagentModel');

void test("Budgets (issue 31, item 2): an agent's own sub-agent model goes through svc: its primary and fallbacks become svc refs the registry lists, and routing off gives them back", async (t) => {
  const subagents = { allowAgents: ['main'], model: { primary: 'fakellm/fake-mini', fallbacks: ['fakeant/claude-fake'] } };
  const original = twoUpstreams({ researcher: { subagents } });
  const r = rig(t, { config: original, env: ENV_ALL });
  const out = await r.sync();
  const config = r.config();
  assert.deepEqual(config.agents.entries.researcher.subagents, {
    allowAgents: ['main'],
    model: { primary: 'svc-researcher/fake-mini', fallbacks: ['svc-researcher~fakeant/claude-fake'] },
  });
  assert.deepEqual(config.models.providers['svc-researcher'].models.map((m: Json) => m.id), ['svc-e2e-llm', 'fake-mini']);
  assert.equal(config.models.providers['svc-researcher~fakeant'].apiKey, '${SVC_MODEL_TOKEN_RESEARCHER}', 'the sub-agent calls under the agent\'s own token');
  assert.deepEqual(r.registry.read().agents.researcher, { upstream: 'fakellm', models: ['svc-e2e-llm', 'fake-mini'], via: { fakeant: ['claude-fake'] } });
  // The endpoint serves exactly those models on those paths.
  assert.deepEqual(r.registry.resolve('researcher')?.models, ['svc-e2e-llm', 'fake-mini']);
  assert.deepEqual(r.registry.resolve('researcher', 'fakeant')?.models, ['claude-fake']);
  assert.deepEqual(subagentRows(out, 'researcher'), [
    ['fakellm/fake-mini', 'svc-researcher/fake-mini', null],
    ['fakeant/claude-fake', 'svc-researcher~fakeant/claude-fake', null],
  ]);
  assert.deepEqual(subagentRows(out, 'main'), [], 'main has no sub-agent model of its own');
  // The sub-agent's upstreams' keys are svc's now; only the key no agent uses stays where it was.
  assert.deepEqual(keysInGatewayFiles(config, r.env(), r.registry.read()), ['OPENAI_API_KEY']);
  assert.equal((await r.sync()).changed.config, 0, 'a second sync changes nothing');

  await r.sync(false);
  const off = r.config();
  assert.deepEqual(off.agents, original.agents);
  assert.deepEqual(off.models.providers, original.models.providers);
  assert.equal((await r.sync(false)).changed.config, 0);
});

void test("Budgets (issue 31, item 2): the defaults' sub-agent model is copied into each routed agent's entry with svc refs, follows the defaults, and routing off removes the copies", async (t) => {
  const original = twoUpstreams({ researcher: { subagents: { allowAgents: [] } }, own: { subagents: { model: 'fakellm/svc-e2e-llm' } } });
  original.agents.defaults.subagents = { model: 'fakeant/claude-fake' };
  const r = rig(t, { config: original, env: ENV_ALL });
  const out = await r.sync();
  const config = r.config();
  assert.deepEqual(config.agents.entries.main.subagents, { model: 'svc-main~fakeant/claude-fake' });
  assert.deepEqual(config.agents.entries.researcher.subagents, { allowAgents: [], model: 'svc-researcher~fakeant/claude-fake' });
  // An agent with a sub-agent model of its own keeps it (through svc).
  assert.deepEqual(config.agents.entries.own.subagents, { model: 'svc-own/svc-e2e-llm' });
  assert.equal(config.models.providers['svc-own~fakeant'], undefined);
  assert.deepEqual(config.agents.defaults, original.agents.defaults, 'the shared defaults are left as they are');
  assert.deepEqual(subagentRows(out, 'main'), [['fakeant/claude-fake', 'svc-main~fakeant/claude-fake', null]]);
  assert.deepEqual(r.registry.read().agents.main?.via, { fakeant: ['claude-fake'] });
  assert.equal((await r.sync()).changed.config, 0);

  // A new sub-agent model in the defaults is taken at the next sync.
  config.agents.defaults.subagents = { model: 'fakellm/fake-mini' };
  r.writeConfig(config);
  await r.sync();
  assert.deepEqual(r.config().agents.entries.main.subagents, { model: 'svc-main/fake-mini' });
  assert.equal(r.config().models.providers['svc-main~fakeant'], undefined);
  assert.deepEqual(r.registry.read().agents.main, { upstream: 'fakellm', models: ['svc-e2e-llm', 'fake-mini'], via: {} });

  await r.sync(false);
  const off = r.config();
  assert.deepEqual(off.agents.entries, original.agents.entries, 'the copies are gone, the agents\' own settings kept');
  assert.deepEqual(off.models.providers, original.models.providers);
});

void test('Budgets (issue 31, item 2): a sub-agent model svc cannot route is left as it is and reported with why', async (t) => {
  const r = rig(t, { config: twoUpstreams({ researcher: { subagents: { model: { primary: 'groq/llama-4', fallbacks: ['sonnet'] } } } }), env: ENV_ALL });
  const out = await r.sync();
  assert.deepEqual(r.config().agents.entries.researcher.subagents, { model: { primary: 'groq/llama-4', fallbacks: ['sonnet'] } });
  assert.deepEqual(subagentRows(out, 'researcher'), [
    ['groq/llama-4', null, 'no-upstream'],
    ['sonnet', null, 'no-upstream'],
  ]);
  assert.deepEqual(r.registry.read().agents.researcher, { upstream: 'fakellm', models: ['svc-e2e-llm'], via: {} });
});
