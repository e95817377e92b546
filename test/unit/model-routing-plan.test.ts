// Issue 22 item 2: the routing rule (shared/model-routing/plan.ts) applied by
// the gateway reconciler to a gateway state folder on disk (the rig:
// model-routing-rig.ts). The live config.patch path is the e2e's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keysInGatewayFiles } from '../../shared/model-routing/gateway-keys.ts';
import { createFromDefaultStore, FROM_DEFAULT_KEY } from '../../shared/model-routing/from-default.ts';
import { ANT_KEY, baseConfig, ENV_ALL, FAKE_KEY, fakeAnthropicProvider, fakeProvider, OPENAI_KEY, PORT, rig, routeRows, twoUpstreams, type Json, type RigSync } from './model-routing-rig.ts';

void test('Budgets (issue 22, item 2): a custom provider with a ${VAR} key is routed: svc-<agent> providers, tokens in .env, the key moved to the vault', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { researcher: { workspace: '/w' } }), env: `OPENCLAW_GATEWAY_TOKEN=gw\nFAKELLM_API_KEY=${FAKE_KEY}\n# mine\nKEEP=1\n` });
  const out = await r.sync();
  assert.deepEqual(out.agents.map((a) => [a.agentId, a.reason]), [['main', null], ['researcher', null]]);
  const config = r.config();
  for (const id of ['main', 'researcher']) {
    assert.equal(config.agents.entries[id].model, `svc-${id}/svc-e2e-llm`);
    const p = config.models.providers[`svc-${id}`];
    assert.equal(p.baseUrl, `http://127.0.0.1:${PORT}/model/${id}/v1`);
    assert.equal(p.apiKey, `\${SVC_MODEL_TOKEN_${id.toUpperCase()}}`);
    assert.equal(p.api, 'openai-completions');
    // The upstream's model entry is copied: the gateway's own cost estimate stays the same.
    assert.deepEqual(p.models, config.models.providers.fakellm.models);
    const token = r.env()[`SVC_MODEL_TOKEN_${id.toUpperCase()}`] as string;
    assert.equal(r.agentTokens.verify('model', token)?.agentId, id);
  }
  assert.equal(config.models.providers.fakellm.apiKey, undefined, 'the ${VAR} reference is gone with the key');
  assert.equal(config.agents.entries.researcher.workspace, '/w');
  assert.deepEqual(config.custom, { kept: true });
  assert.equal(r.vaultMap.get('FAKELLM_API_KEY'), FAKE_KEY);
  assert.ok(!r.envText().includes(FAKE_KEY), 'no real key left in .env');
  assert.ok(!readFileSync(join(r.stateDir, 'openclaw.json'), 'utf8').includes(FAKE_KEY));
  assert.match(r.envText(), /# mine\nKEEP=1\n/);
  assert.deepEqual(r.registry.read(), {
    agents: { main: { upstream: 'fakellm', models: ['svc-e2e-llm'], via: {} }, researcher: { upstream: 'fakellm', models: ['svc-e2e-llm'], via: {} } },
    upstreams: { fakellm: { api: 'openai-completions', baseUrl: 'http://127.0.0.1:9999/v1', keyName: 'FAKELLM_API_KEY', headers: {} } },
    keyHosts: { FAKELLM_API_KEY: ['http://127.0.0.1:9999'] },
  });
  assert.equal(r.registry.resolve('researcher')?.apiKey, FAKE_KEY);
  assert.deepEqual(keysInGatewayFiles(config, r.env(), r.registry.read()), []);
  assert.ok(existsSync(join(r.stateDir, 'openclaw.json.svc-bak')));
});

void test('Budgets (issue 22, item 2): a second sync changes nothing and mints no token', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { researcher: {} }), env: `FAKELLM_API_KEY=${FAKE_KEY}\n` });
  await r.sync();
  const before = { config: readFileSync(join(r.stateDir, 'openclaw.json'), 'utf8'), env: r.envText(), minted: r.minted.length };
  const again = await r.sync();
  assert.deepEqual(again.changed, { config: 0, env: [], minted: [] });
  assert.equal(again.via, 'none');
  assert.equal(r.minted.length, before.minted);
  assert.equal(readFileSync(join(r.stateDir, 'openclaw.json'), 'utf8'), before.config);
  assert.equal(r.envText(), before.env);
  for (const id of ['main', 'researcher']) assert.equal(r.agentTokens.verify('model', r.env()[`SVC_MODEL_TOKEN_${id.toUpperCase()}`] as string)?.agentId, id, 'the tokens still verify');
});

void test('Budgets (issue 22, item 2): a literal key in openclaw.json moves to the vault under <PROVIDER>_API_KEY', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider(FAKE_KEY) }), env: '' });
  const before = keysInGatewayFiles(JSON.parse(readFileSync(join(r.stateDir, 'openclaw.json'), 'utf8')), {}, { upstreams: {} });
  assert.deepEqual(before, ['models.providers.fakellm.apiKey'], 'the literal key is found by its path');
  await r.sync();
  assert.equal(r.vaultMap.get('FAKELLM_API_KEY'), FAKE_KEY);
  assert.ok(!readFileSync(join(r.stateDir, 'openclaw.json'), 'utf8').includes(FAKE_KEY));
  assert.equal(r.config().agents.entries.main.model, 'svc-main/svc-e2e-llm');
});

void test('Budgets (issue 22, item 2): a built-in provider is routed by its env key to its public endpoint', async (t) => {
  const r = rig(t, { config: baseConfig({}, { coder: {} }, 'openai/gpt-5.5'), env: `OPENAI_API_KEY=${OPENAI_KEY}\n` });
  const out = await r.sync();
  assert.deepEqual(out.agents.map((a) => [a.agentId, a.upstream, a.model, a.reason]), [['main', 'openai', 'gpt-5.5', null], ['coder', 'openai', 'gpt-5.5', null]]);
  const config = r.config();
  assert.equal(config.agents.entries.coder.model, 'svc-coder/gpt-5.5');
  assert.deepEqual(config.models.providers['svc-coder'].models.map((m: Json) => m.id), ['gpt-5.5']);
  assert.equal(r.env().OPENAI_API_KEY, undefined);
  assert.equal(r.vaultMap.get('OPENAI_API_KEY'), OPENAI_KEY);
  assert.deepEqual(r.registry.read().upstreams.openai, { api: 'openai-completions', baseUrl: 'https://api.openai.com/v1', keyName: 'OPENAI_API_KEY', headers: {} });
});

void test('Budgets (issue 22, item 2): an agent on an OAuth login is not routed and keeps its model', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { codexer: { model: 'openai-codex/gpt-5.5' } }), env: `FAKELLM_API_KEY=${FAKE_KEY}\n` });
  const out = await r.sync();
  assert.deepEqual(out.agents.map((a) => [a.agentId, a.reason]), [['main', null], ['codexer', 'oauth']]);
  const config = r.config();
  assert.equal(config.agents.entries.codexer.model, 'openai-codex/gpt-5.5');
  assert.equal(config.models.providers['svc-codexer'], undefined);
  assert.equal(r.env().SVC_MODEL_TOKEN_CODEXER, undefined);
  assert.equal(r.minted.includes('codexer'), false);
});

void test('Budgets (issue 22, item 2): routing off restores the models, the providers and the keys; routing on again reuses the same tokens', async (t) => {
  const original = baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { researcher: { model: 'fakellm/svc-e2e-llm' } });
  const r = rig(t, { config: original, env: `OPENCLAW_GATEWAY_TOKEN=gw\nFAKELLM_API_KEY=${FAKE_KEY}\n` });
  await r.sync();
  const tokens = Object.entries(r.env()).filter(([k]) => k.startsWith('SVC_MODEL_TOKEN_')).map(([, v]) => v);
  assert.equal(tokens.length, 2);
  const out = await r.sync(false);
  assert.ok(out.agents.every((a) => a.reason === 'disabled'));
  const config = r.config();
  assert.equal(config.agents.entries.researcher.model, 'fakellm/svc-e2e-llm');
  // main had no model of its own, nor an entry: the entry svc made for it is gone again.
  assert.equal(config.agents.entries.main, undefined);
  assert.deepEqual(config.agents, original.agents);
  assert.deepEqual(config.models.providers, original.models.providers);
  assert.deepEqual(r.env(), { OPENCLAW_GATEWAY_TOKEN: 'gw', FAKELLM_API_KEY: FAKE_KEY });
  // The key stays bound to its host after routing off: a base URL moved meanwhile is not sent it when routing comes back.
  assert.deepEqual(r.registry.read(), { agents: {}, upstreams: {}, keyHosts: { FAKELLM_API_KEY: ['http://127.0.0.1:9999'] } });
  const again = await r.sync(false);
  assert.equal(again.changed.config, 0);
  // Routing on again gives the gateway the same token values: it never takes a new value for a name it has read.
  const minted = r.minted.length;
  await r.sync(true);
  assert.equal(r.minted.length, minted, 'no token minted');
  assert.deepEqual(Object.entries(r.env()).filter(([k]) => k.startsWith('SVC_MODEL_TOKEN_')).map(([, v]) => v).sort(), [...tokens].sort());
  for (const token of tokens) assert.ok(r.agentTokens.verify('model', token), 'the token still verifies');
});

void test('Budgets (issue 22, item 2): a token in .env that no longer verifies is replaced; a deleted agent loses its provider and token', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { researcher: {} }), env: `FAKELLM_API_KEY=${FAKE_KEY}\n` });
  await r.sync();
  const old = r.env().SVC_MODEL_TOKEN_RESEARCHER as string;
  r.agentTokens.revoke(r.agentTokens.verify('model', old)?.id as string);
  await r.sync();
  const fresh = r.env().SVC_MODEL_TOKEN_RESEARCHER as string;
  assert.notEqual(fresh, old);
  assert.equal(r.vaultMap.get('SVC_MODEL_TOKEN_RESEARCHER'), fresh);
  assert.equal(r.agentTokens.verify('model', fresh)?.agentId, 'researcher');
  // The agent goes away (its entry removed, as agents.delete does).
  const config = r.config();
  delete config.agents.entries.researcher;
  writeFileSync(join(r.stateDir, 'openclaw.json'), JSON.stringify(config));
  await r.sync();
  assert.equal(r.config().models.providers['svc-researcher'], undefined);
  assert.equal(r.env().SVC_MODEL_TOKEN_RESEARCHER, undefined);
  assert.equal(r.agentTokens.verify('model', fresh), null);
  assert.equal(r.vaultMap.has('SVC_MODEL_TOKEN_RESEARCHER'), false);
});

void test('Budgets (issue 22, item 2): an agent on the default model follows a new default at the next sync; one with its own model keeps it', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { pinned: { model: 'fakellm/svc-e2e-llm' } }), env: `FAKELLM_API_KEY=${FAKE_KEY}\nOPENAI_API_KEY=${OPENAI_KEY}\n` });
  await r.sync();
  const config = r.config();
  config.agents.defaults.model.primary = 'openai/gpt-5.5'; // configure-gateway with another provider
  writeFileSync(join(r.stateDir, 'openclaw.json'), JSON.stringify(config));
  const out = await r.sync();
  assert.deepEqual(out.agents.map((a) => [a.agentId, a.upstream, a.model]), [['main', 'openai', 'gpt-5.5'], ['pinned', 'fakellm', 'svc-e2e-llm']]);
  assert.equal(r.config().agents.entries.main.model, 'svc-main/gpt-5.5');
  assert.equal(r.config().agents.entries.pinned.model, 'svc-pinned/svc-e2e-llm');
  assert.equal(r.registry.resolve('main')?.apiKey, OPENAI_KEY);
});

void test('Budgets (issue 31, item 2): the registry lists each routed agent\'s model ids, the ones its svc provider entry names; a stored registry without them lists none', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { pinned: { model: 'fakellm/svc-e2e-llm' } }, 'openai/gpt-5.5'), env: `FAKELLM_API_KEY=${FAKE_KEY}\nOPENAI_API_KEY=${OPENAI_KEY}\n` });
  await r.sync();
  const config = r.config();
  for (const id of ['main', 'pinned']) {
    const listed = (config.models.providers[`svc-${id}`].models as Json[]).map((m) => m.id as string);
    assert.deepEqual(r.registry.read().agents[id]?.models, listed);
    assert.deepEqual(r.registry.resolve(id)?.models, listed);
  }
  assert.deepEqual(r.registry.resolve('main')?.models, ['gpt-5.5']);
  assert.deepEqual(r.registry.resolve('pinned')?.models, ['svc-e2e-llm']);
  // A registry written before the field existed: the agent stays routed, with no model to forward until the next sync.
  const stored = r.registry.read();
  r.registry.write({ agents: { pinned: { upstream: 'fakellm' } }, upstreams: stored.upstreams });
  assert.deepEqual(r.registry.resolve('pinned')?.models, []);
  await r.sync();
  assert.deepEqual(r.registry.resolve('pinned')?.models, ['svc-e2e-llm']);
});

// Fallbacks (OpenClaw: an entry's `model.fallbacks`, else the defaults' when the entry names no primary of its own).
const fallbackRows = (out: RigSync, id: string) => routeRows(out, id, 'fallbacks');

void test('Budgets (issue 22, item 2): a fallback on the primary\'s upstream goes through svc-<agent>: one more model of its entry and of the registry', async (t) => {
  const r = rig(t, { config: twoUpstreams({ researcher: { model: { primary: 'fakellm/svc-e2e-llm', fallbacks: ['fakellm/fake-mini'] } } }), env: ENV_ALL });
  const out = await r.sync();
  const config = r.config();
  assert.deepEqual(config.agents.entries.researcher.model, { primary: 'svc-researcher/svc-e2e-llm', fallbacks: ['svc-researcher/fake-mini'] });
  assert.deepEqual(config.models.providers['svc-researcher'].models.map((m: Json) => m.id), ['svc-e2e-llm', 'fake-mini']);
  assert.equal(config.models.providers['svc-researcher~fakellm'], undefined, 'no second entry for the same upstream');
  assert.deepEqual(r.registry.read().agents.researcher, { upstream: 'fakellm', models: ['svc-e2e-llm', 'fake-mini'], via: {} });
  assert.deepEqual(r.registry.resolve('researcher')?.models, ['svc-e2e-llm', 'fake-mini']);
  assert.deepEqual(fallbackRows(out, 'researcher'), [['fakellm/fake-mini', 'svc-researcher/fake-mini', null]]);
});

void test('Budgets (issue 22, item 2): a fallback on another upstream goes through svc-<agent>~<upstream> at /model/<agent>/via/<upstream>/v1 with the agent\'s token; its key moves to the vault bound to its host', async (t) => {
  const r = rig(t, { config: twoUpstreams({ researcher: { model: { primary: 'fakellm/svc-e2e-llm', fallbacks: ['fakeant/claude-fake', 'openai/gpt-5-mini'] } } }), env: ENV_ALL });
  const out = await r.sync();
  const config = r.config();
  assert.deepEqual(config.agents.entries.researcher.model.fallbacks, ['svc-researcher~fakeant/claude-fake', 'svc-researcher~openai/gpt-5-mini']);
  assert.deepEqual(config.models.providers['svc-researcher~fakeant'], {
    baseUrl: `http://127.0.0.1:${PORT}/model/researcher/via/fakeant/v1`,
    apiKey: '${SVC_MODEL_TOKEN_RESEARCHER}',
    api: 'anthropic-messages',
    models: fakeAnthropicProvider().models,
  });
  const viaOpenai = config.models.providers['svc-researcher~openai'];
  assert.deepEqual([viaOpenai.baseUrl, viaOpenai.apiKey, viaOpenai.api, viaOpenai.models.map((m: Json) => m.id)], [`http://127.0.0.1:${PORT}/model/researcher/via/openai/v1`, '${SVC_MODEL_TOKEN_RESEARCHER}', 'openai-completions', ['gpt-5-mini']]);
  // main has no fallbacks: nothing of researcher's reaches it.
  assert.equal(config.agents.entries.main.model, 'svc-main/svc-e2e-llm');
  assert.deepEqual(Object.keys(config.models.providers).filter((p) => p.startsWith('svc-')).sort(), ['svc-main', 'svc-researcher', 'svc-researcher~fakeant', 'svc-researcher~openai']);

  // Keys: out of the gateway's files, into the vault, each bound to its own origin.
  assert.deepEqual(r.env(), { OPENCLAW_GATEWAY_TOKEN: 'gw', SVC_MODEL_TOKEN_MAIN: r.env().SVC_MODEL_TOKEN_MAIN, SVC_MODEL_TOKEN_RESEARCHER: r.env().SVC_MODEL_TOKEN_RESEARCHER });
  assert.equal(config.models.providers.fakeant.apiKey, undefined);
  assert.deepEqual([r.vaultMap.get('FAKEANT_API_KEY'), r.vaultMap.get('OPENAI_API_KEY')], [ANT_KEY, OPENAI_KEY]);
  const registry = r.registry.read();
  assert.deepEqual(registry.agents.researcher, { upstream: 'fakellm', models: ['svc-e2e-llm'], via: { fakeant: ['claude-fake'], openai: ['gpt-5-mini'] } });
  assert.deepEqual(registry.keyHosts, { FAKELLM_API_KEY: ['http://127.0.0.1:9999'], FAKEANT_API_KEY: ['http://127.0.0.1:9998'], OPENAI_API_KEY: ['https://api.openai.com'] });
  assert.deepEqual(keysInGatewayFiles(config, r.env(), registry), []);

  // resolve(agent, upstream): only an upstream the agent's entry lists, with its own models and key.
  const ant = r.registry.resolve('researcher', 'fakeant');
  assert.deepEqual([ant?.id, ant?.api, ant?.apiKey, ant?.models, ant?.hostConfirmed], ['fakeant', 'anthropic-messages', ANT_KEY, ['claude-fake'], true]);
  assert.equal(r.registry.resolve('researcher', 'openai')?.apiKey, OPENAI_KEY);
  assert.equal(r.registry.resolve('main', 'fakeant'), null, "another agent's fallback upstream is not main's");
  assert.equal(r.registry.resolve('researcher', 'fakellm'), null, 'the primary\'s upstream is reached by the agent\'s own path');
  assert.deepEqual(fallbackRows(out, 'researcher'), [['fakeant/claude-fake', 'svc-researcher~fakeant/claude-fake', null], ['openai/gpt-5-mini', 'svc-researcher~openai/gpt-5-mini', null]]);

  // A registry stored before fallbacks were routed (no `via`) still parses: the agent's own path works, no via-path does.
  r.registry.write({ agents: { researcher: { upstream: 'fakellm', models: ['svc-e2e-llm'] } }, upstreams: registry.upstreams, keyHosts: registry.keyHosts });
  assert.deepEqual(r.registry.resolve('researcher')?.models, ['svc-e2e-llm']);
  assert.equal(r.registry.resolve('researcher', 'fakeant'), null);
});

void test('Budgets (issue 22, item 2): the defaults\' fallbacks become each agent\'s own through svc, follow the defaults, and routing off puts the agents back on the defaults', async (t) => {
  const original = twoUpstreams({ researcher: { workspace: '/w' }, pinned: { model: 'fakellm/svc-e2e-llm' } });
  original.agents.defaults.model.fallbacks = ['fakellm/fake-mini', 'fakeant/claude-fake'];
  const r = rig(t, { config: original, env: ENV_ALL });
  const out = await r.sync();
  const config = r.config();
  for (const id of ['main', 'researcher']) {
    assert.deepEqual(config.agents.entries[id].model, { primary: `svc-${id}/svc-e2e-llm`, fallbacks: [`svc-${id}/fake-mini`, `svc-${id}~fakeant/claude-fake`] });
    assert.equal(config.models.providers[`svc-${id}~fakeant`].apiKey, `\${SVC_MODEL_TOKEN_${id.toUpperCase()}}`, 'each agent through its own token');
    assert.deepEqual(r.registry.read().agents[id]?.via, { fakeant: ['claude-fake'] });
  }
  // pinned names its own model as a string: OpenClaw gives it no fallbacks, and svc gives it none either.
  assert.equal(config.agents.entries.pinned.model, 'svc-pinned/svc-e2e-llm');
  assert.equal(config.models.providers['svc-pinned~fakeant'], undefined);
  assert.deepEqual(fallbackRows(out, 'pinned'), []);
  assert.deepEqual(config.agents.defaults, original.agents.defaults, 'the shared defaults are left as they are');
  assert.equal(config.agents.entries.researcher.workspace, '/w');

  // A new list in the defaults is taken at the next sync: the fakeant fallback and its entry go.
  config.agents.defaults.model.fallbacks = ['fakellm/fake-mini'];
  r.writeConfig(config);
  await r.sync();
  assert.deepEqual(r.config().agents.entries.main.model, { primary: 'svc-main/svc-e2e-llm', fallbacks: ['svc-main/fake-mini'] });
  assert.equal(r.config().models.providers['svc-main~fakeant'], undefined);
  assert.deepEqual(r.registry.read().agents.main?.via, {});

  await r.sync(false);
  const off = r.config();
  assert.deepEqual(off.agents, { ...original.agents, defaults: { model: { primary: 'fakellm/svc-e2e-llm', fallbacks: ['fakellm/fake-mini'] } } });
  assert.deepEqual(off.models.providers, original.models.providers);
  assert.deepEqual(r.env(), { OPENCLAW_GATEWAY_TOKEN: 'gw', FAKELLM_API_KEY: FAKE_KEY, FAKEANT_API_KEY: ANT_KEY, OPENAI_API_KEY: OPENAI_KEY });
});

void test('Budgets (issue 22, item 2): routing off gives an agent its own fallbacks back as they were; a second round either way changes nothing', async (t) => {
  const original = twoUpstreams({ researcher: { model: { primary: 'fakellm/svc-e2e-llm', fallbacks: ['fakellm/fake-mini', 'fakeant/claude-fake', 'openai/gpt-5-mini', 'openai-codex/gpt-5.5'] } } });
  original.agents.defaults.model.fallbacks = ['fakeant/claude-fake'];
  const r = rig(t, { config: original, env: ENV_ALL });
  await r.sync();
  const routed = readFileSync(join(r.stateDir, 'openclaw.json'), 'utf8');
  assert.deepEqual(JSON.parse(routed).agents.entries.researcher.model.fallbacks, ['svc-researcher/fake-mini', 'svc-researcher~fakeant/claude-fake', 'svc-researcher~openai/gpt-5-mini', 'openai-codex/gpt-5.5']);
  const again = await r.sync();
  assert.deepEqual(again.changed, { config: 0, env: [], minted: [] });
  assert.equal(readFileSync(join(r.stateDir, 'openclaw.json'), 'utf8'), routed);

  await r.sync(false);
  const off = r.config();
  assert.deepEqual(off.agents, original.agents);
  assert.deepEqual(off.models.providers, original.models.providers);
  assert.deepEqual(r.env(), { OPENCLAW_GATEWAY_TOKEN: 'gw', FAKELLM_API_KEY: FAKE_KEY, FAKEANT_API_KEY: ANT_KEY, OPENAI_API_KEY: OPENAI_KEY });
  assert.equal((await r.sync(false)).changed.config, 0);

  // On again: the same result as the first time.
  await r.sync(true);
  assert.deepEqual(r.config().agents, JSON.parse(routed).agents);
  assert.equal((await r.sync()).changed.config, 0);
});

void test('Budgets (issue 22, item 2): a fallback svc cannot route (an OAuth login, no key, an alias) is left as it is and reported with why', async (t) => {
  const fallbacks = ['openai-codex/gpt-5.5', 'groq/llama-4', 'sonnet', 'fakellm/fake-mini'];
  const codexer = { model: { primary: 'openai-codex/gpt-5.5', fallbacks: ['fakellm/fake-mini'] } };
  const r = rig(t, { config: twoUpstreams({ researcher: { model: { primary: 'fakellm/svc-e2e-llm', fallbacks } }, codexer }), env: `FAKELLM_API_KEY=${FAKE_KEY}\n` });
  const out = await r.sync();
  const config = r.config();
  assert.deepEqual(config.agents.entries.researcher.model.fallbacks, ['openai-codex/gpt-5.5', 'groq/llama-4', 'sonnet', 'svc-researcher/fake-mini']);
  assert.deepEqual(fallbackRows(out, 'researcher'), [
    ['openai-codex/gpt-5.5', null, 'oauth'],
    ['groq/llama-4', null, 'no-upstream'],
    ['sonnet', null, 'no-upstream'],
    ['fakellm/fake-mini', 'svc-researcher/fake-mini', null],
  ]);
  assert.deepEqual(Object.keys(config.models.providers).filter((p) => p.startsWith('svc-researcher')), ['svc-researcher']);
  assert.deepEqual(r.registry.read().agents.researcher?.via, {});
  // An agent svc does not route keeps its fallbacks as they are: they go with it.
  assert.deepEqual(config.agents.entries.codexer, codexer);
  assert.deepEqual(fallbackRows(out, 'codexer'), [['fakellm/fake-mini', null, 'oauth']]);
  assert.equal((await r.sync()).changed.config, 0);
});

void test('Budgets (issue 22, item 2): the kept list of what came from the defaults reads a list stored before fallbacks or sub-agent models were routed', (t) => {
  const { settings } = rig(t, { config: baseConfig({}), env: '' });
  settings.set(FROM_DEFAULT_KEY, '["main","bob"]');
  const store = createFromDefaultStore(settings, { warn: () => {} });
  assert.deepEqual(store.read(), { primary: ['main', 'bob'], fallbacks: [], subagents: [] });
  store.write({ primary: ['main'], fallbacks: ['main'], subagents: [] });
  assert.deepEqual(store.read(), { primary: ['main'], fallbacks: ['main'], subagents: [] });
  // One stored before sub-agent models were routed names none.
  settings.set(FROM_DEFAULT_KEY, '{"primary":["main"],"fallbacks":["bob"]}');
  assert.deepEqual(store.read(), { primary: ['main'], fallbacks: ['bob'], subagents: [] });
});
