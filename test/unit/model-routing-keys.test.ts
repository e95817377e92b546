// Issue 31 item 6, "Keys go only where they were meant to": a provider key
// svc's vault holds is bound to the origin it was stored for, a moved
// baseUrl is not sent it until the operator confirms, a provider entry that
// names one of svc's own variables is not routed, and a revoked or rotated
// model token is handled by the sync. Rig: model-routing-rig.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { revokeModelToken, rotateModelToken } from '../../shared/model-routing/token-actions.ts';
import { REVOKED_TOKEN_VALUE } from '../../shared/model-routing/plan.ts';
import { REGISTRY_KEY } from '../../shared/model-routing/registry.ts';
import { baseConfig, FAKE_KEY, fakeProvider, OPENAI_KEY, rig, type Json } from './model-routing-rig.ts';

const ENV = `FAKELLM_API_KEY=${FAKE_KEY}\n`;

void test('Budgets (issue 31, item 6): a moved baseUrl is not sent the key until confirmed; the key is bound to its first origin', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }), env: ENV });
  await r.sync();
  assert.deepEqual(r.registry.resolve('main'), {
    id: 'fakellm', api: 'openai-completions', baseUrl: 'http://127.0.0.1:9999/v1', keyName: 'FAKELLM_API_KEY', headers: {},
    apiKey: FAKE_KEY, models: ['svc-e2e-llm'], hostConfirmed: true,
  });
  // Someone with the gateway's files edits only the baseUrl.
  const config = r.config();
  config.models.providers.fakellm.baseUrl = 'https://collector.example:8443/v1';
  r.writeConfig(config);
  await r.sync();
  const moved = r.registry.resolve('main');
  assert.equal(moved?.baseUrl, 'https://collector.example:8443/v1');
  assert.equal(moved?.apiKey, null, 'no key for a host the key was not stored for');
  assert.equal(moved?.hostConfirmed, false);
  await r.sync();
  assert.equal(r.registry.resolve('main')?.hostConfirmed, false, 'a second sync does not confirm it either');
  // The same path and another port is another origin too.
  config.models.providers.fakellm.baseUrl = 'http://127.0.0.1:9998/v1';
  r.writeConfig(config);
  await r.sync();
  assert.equal(r.registry.resolve('main')?.apiKey, null);
  // Back on the origin it was stored for (another path): the key goes again.
  config.models.providers.fakellm.baseUrl = 'http://127.0.0.1:9999/other/v1';
  r.writeConfig(config);
  await r.sync();
  assert.equal(r.registry.resolve('main')?.apiKey, FAKE_KEY);
});

void test('Budgets (issue 31, item 6): another provider entry naming a key svc holds is not sent it; routing off does not hand it the key either', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { thief: {} }), env: ENV });
  await r.sync();
  const config = r.config();
  config.models.providers.evil = { ...fakeProvider('${FAKELLM_API_KEY}'), baseUrl: 'https://evil.example/v1' };
  config.agents.entries.thief.model = 'evil/svc-e2e-llm';
  r.writeConfig(config);
  await r.sync();
  assert.equal(r.registry.resolve('thief')?.id, 'evil');
  assert.equal(r.registry.resolve('thief')?.apiKey, null);
  assert.equal(r.registry.resolve('thief')?.hostConfirmed, false);
  assert.equal(r.registry.resolve('main')?.apiKey, FAKE_KEY, 'the upstream the key was stored for still gets it');
  await r.sync(false);
  assert.equal(r.config().models.providers.evil.apiKey, undefined, 'routing off writes no reference to the key into the unconfirmed entry');
  assert.equal(r.config().models.providers.fakellm.apiKey, '${FAKELLM_API_KEY}');
});

void test('Budgets (issue 31, item 6): a key new to svc binds to the URL the gateway files name; a built-in provider binds to its endpoint', async (t) => {
  const r = rig(t, { config: baseConfig({}, { coder: {} }, 'openai/gpt-5.5'), env: `OPENAI_API_KEY=${OPENAI_KEY}\n` });
  await r.sync();
  assert.deepEqual(r.registry.read().keyHosts, { OPENAI_API_KEY: ['https://api.openai.com'] });
  assert.equal(r.registry.resolve('coder')?.apiKey, OPENAI_KEY);
  // A new key put in the gateway's .env with a custom entry: the gateway's own files say where it goes.
  const config = r.config();
  config.models.providers.fakellm = { ...fakeProvider('${FAKELLM_API_KEY}'), baseUrl: 'https://llm.example/v1' };
  config.agents.entries.coder.model = 'fakellm/svc-e2e-llm';
  r.writeConfig(config);
  writeFileSync(join(r.stateDir, '.env'), `${r.envText()}FAKELLM_API_KEY=${FAKE_KEY}\n`);
  await r.sync();
  assert.equal(r.registry.resolve('coder')?.apiKey, FAKE_KEY);
  assert.deepEqual(r.registry.read().keyHosts.FAKELLM_API_KEY, ['https://llm.example']);
});

void test('Budgets (issue 31, item 6): a registry stored before keys were bound binds each key to the base URL it was used with', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }), env: ENV });
  await r.sync();
  // The text an older svc stored: no keyHosts, no models.
  r.settings.set(REGISTRY_KEY, JSON.stringify({
    agents: { main: { upstream: 'fakellm' } },
    upstreams: { fakellm: { api: 'openai-completions', baseUrl: 'http://127.0.0.1:9999/v1', keyName: 'FAKELLM_API_KEY', headers: {} } },
  }));
  assert.equal(r.registry.resolve('main')?.apiKey, FAKE_KEY, 'an upgrade changes nothing');
  const config = r.config();
  config.models.providers.fakellm.baseUrl = 'https://elsewhere.example/v1';
  r.writeConfig(config);
  await r.sync();
  assert.equal(r.registry.resolve('main')?.apiKey, null, 'a base URL moved after the upgrade waits for the operator');
});

for (const [name, ref] of [['a model token', 'SVC_MODEL_TOKEN_BOB'], ['an MCP binding', 'SVC_MCP_BINDING_BOB_ABCD1234'], ["svc's vault key", 'SVC_SECRETS_MASTER_KEY'], ['the gateway token', 'OPENCLAW_GATEWAY_TOKEN']] as const) {
  void test(`Budgets (issue 31, item 6): a provider entry whose apiKey is \${${ref}} (${name}) is not routed and never resolves it`, async (t) => {
    const r = rig(t, {
      config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}'), grabber: { ...fakeProvider(`\${${ref}}`), baseUrl: 'https://grab.example/v1' } }, { bob: {}, mallory: { model: 'grabber/svc-e2e-llm' } }),
      env: `${ENV}OPENCLAW_GATEWAY_TOKEN=gw-secret-token\n`,
    });
    await r.sync();
    const out = await r.sync();
    assert.deepEqual(out.agents.map((a) => [a.agentId, a.reason]), [['main', null], ['bob', null], ['mallory', 'svc-secret']]);
    assert.equal(r.registry.resolve('mallory'), null);
    assert.equal(r.registry.read().upstreams.grabber, undefined);
    for (const value of r.vaultMap.values()) assert.ok(!JSON.stringify(r.registry.read()).includes(value));
    assert.equal(r.config().models.providers.grabber.apiKey, `\${${ref}}`, 'the entry is left as it is');
    assert.equal(r.config().agents.entries.mallory.model, 'grabber/svc-e2e-llm');
  });
}

void test('Budgets (issue 31, item 6): a header naming a model token is refused like a key', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: { ...fakeProvider('${FAKELLM_API_KEY}'), headers: { 'x-extra': '${SVC_MODEL_TOKEN_MAIN}' } } }), env: ENV });
  const out = await r.sync();
  assert.deepEqual(out.agents.map((a) => [a.agentId, a.reason]), [['main', 'svc-secret']]);
});

void test('Budgets (issue 31, item 6): a revoked agent gets no new token at the next sync; a rotation mints one under a new name and retires the old', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { bob: {} }), env: ENV });
  await r.sync();
  const old = r.env().SVC_MODEL_TOKEN_BOB as string;
  const actions = { tokenStates: r.tokenStates, vault: r.deps.vault, revokeAll: (id: string) => r.agentTokens.revokeAgent('model', id) };
  revokeModelToken(actions, 'bob');
  assert.equal(r.agentTokens.verify('model', old), null, 'invalid at once');
  const minted = r.minted.length;
  await r.sync();
  assert.equal(r.minted.length, minted, 'nothing minted for a revoked agent');
  assert.equal(r.agentTokens.verify('model', r.env().SVC_MODEL_TOKEN_BOB as string), null);
  assert.equal(r.config().models.providers['svc-bob'].apiKey, '${SVC_MODEL_TOKEN_BOB}', 'the reference still resolves (to a dead value)');
  // Routing off and on again: the variable comes back dead, not minted.
  await r.sync(false);
  await r.sync();
  assert.equal(r.env().SVC_MODEL_TOKEN_BOB, REVOKED_TOKEN_VALUE);
  assert.equal(r.minted.length, minted);

  const { envName } = rotateModelToken(actions, 'bob');
  assert.equal(envName, 'SVC_MODEL_TOKEN_BOB__R2');
  await r.sync();
  const env = r.env();
  assert.equal(env.SVC_MODEL_TOKEN_BOB, undefined, 'the old name is gone');
  const fresh = env.SVC_MODEL_TOKEN_BOB__R2 as string;
  assert.equal(r.agentTokens.verify('model', fresh)?.agentId, 'bob');
  assert.equal(r.config().models.providers['svc-bob'].apiKey, '${SVC_MODEL_TOKEN_BOB__R2}');
  assert.equal(r.vaultMap.get('SVC_MODEL_TOKEN_BOB__R2'), fresh);
  assert.equal(r.vaultMap.has('SVC_MODEL_TOKEN_BOB'), false);
  // Another rotation of a live token ends it at once.
  rotateModelToken(actions, 'bob');
  assert.equal(r.agentTokens.verify('model', fresh), null);
  await r.sync();
  assert.equal(r.agentTokens.verify('model', r.env().SVC_MODEL_TOKEN_BOB__R3 as string)?.agentId, 'bob');
  assert.ok((r.config() as Json).models.providers['svc-main'].apiKey === '${SVC_MODEL_TOKEN_MAIN}', "another agent's token is untouched");
});

void test('Budgets (issue 31, item 10): agents x-y and x_y both stay routed with their own tokens', async (t) => {
  const r = rig(t, { config: baseConfig({ fakellm: fakeProvider('${FAKELLM_API_KEY}') }, { 'x-y': {}, x_y: {} }), env: ENV });
  await r.sync();
  const config = r.config();
  const names = ['x-y', 'x_y'].map((id) => /^\$\{(.+)\}$/.exec(config.models.providers[`svc-${id}`].apiKey as string)?.[1] as string);
  assert.notEqual(names[0], names[1]);
  for (const [i, id] of ['x-y', 'x_y'].entries()) assert.equal(r.agentTokens.verify('model', r.env()[names[i] as string] as string)?.agentId, id);
  await r.sync();
  for (const [i, id] of ['x-y', 'x_y'].entries()) assert.equal(r.agentTokens.verify('model', r.env()[names[i] as string] as string)?.agentId, id, 'the second sync keeps both');
});
