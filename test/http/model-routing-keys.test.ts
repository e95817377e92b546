// Issue 31 items 6 and 10 through the routes: the routing view redacts
// upstream URLs and shows a moved baseUrl as `key-unconfirmed`; POST
// .../upstreams/:id/confirm-host binds the key to the origin shown; POST
// .../agents/:id/token/rotate and .../revoke end an agent's model token at
// once (its calls are 401) and never answer with a token. In-process against
// a temp gateway state folder (the gateway is not running: svc writes the files).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';

const KEY = 'sk-fake-upstream-key-0123456789abcdef';
const PORT = 45124;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary config shapes

async function routed(t: TestContext, baseUrl = 'http://127.0.0.1:9/v1') {
  const ta = await buildTestApp(t);
  ta.runtime.setBoundPort(PORT);
  const dir = ta.config.gatewayStateDir;
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, 'openclaw.json');
  const envFile = join(dir, '.env');
  writeFileSync(configFile, JSON.stringify({
    gateway: { mode: 'local', port: 18789, bind: 'loopback', auth: { mode: 'token', token: '${OPENCLAW_GATEWAY_TOKEN}' } },
    models: { mode: 'merge', providers: { fakellm: { baseUrl, apiKey: '${FAKELLM_API_KEY}', api: 'openai-completions', models: [{ id: 'svc-e2e-llm', name: 'Fake' }] } } },
    agents: { defaults: { model: { primary: 'fakellm/svc-e2e-llm' } }, entries: { bob: {} } },
  }));
  writeFileSync(envFile, `OPENCLAW_GATEWAY_TOKEN=gw-token-abcdef\nFAKELLM_API_KEY=${KEY}\n`);
  const sync = await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' });
  assert.equal(sync.statusCode, 200, sync.body);
  return {
    ta,
    config: (): Json => JSON.parse(readFileSync(configFile, 'utf8')) as Json,
    writeConfig: (c: Json) => writeFileSync(configFile, JSON.stringify(c)),
    env: () => parseDotenv(readFileSync(envFile, 'utf8')),
  };
}

const noSecret = (ta: TestApp, bodies: string[], secrets: string[]) => {
  for (const s of secrets) {
    for (const b of bodies) assert.ok(!b.includes(s), 'a body holds a secret');
    assert.ok(!ta.logs.some((l) => l.includes(s)), 'a log line holds a secret');
  }
};

void test('Budgets (issue 31, item 10): the routing view shows upstream URLs without user-info or query credentials', async (t) => {
  const { ta } = await routed(t, 'https://user:hunter2@llm.example:8443/v1?key=abc123&api-key=def456');
  const res = await ta.app.inject('/api/system/model-routing');
  const up = res.json().upstreams[0];
  assert.equal(up.baseUrl, 'https://llm.example:8443/v1?key=redacted&api-key=redacted');
  assert.equal(up.origin, 'https://llm.example:8443');
  for (const s of ['hunter2', 'user:', 'abc123', 'def456']) assert.ok(!res.body.includes(s), `the view holds ${s}`);
});

void test('Budgets (issue 31, item 6): a moved baseUrl shows key-unconfirmed and gets no key until the operator confirms its origin', async (t) => {
  const { ta, config, writeConfig } = await routed(t);
  const c = config();
  c.models.providers.fakellm.baseUrl = 'https://collector.example/v1';
  writeConfig(c);
  const view = (await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' })).json();
  assert.deepEqual(view.upstreams, [{ id: 'fakellm', api: 'openai-completions', baseUrl: 'https://collector.example/v1', origin: 'https://collector.example', keyHeld: true, hostConfirmed: false, state: 'key-unconfirmed' }]);
  const resolved = ta.runtime.deps.modelRouting.registry.resolve('bob');
  assert.deepEqual([resolved?.apiKey, resolved?.hostConfirmed], [null, false]);

  const url = '/api/system/model-routing/upstreams/fakellm/confirm-host';
  for (const payload of [{}, { origin: 7 }, [1]]) assert.equal((await ta.app.inject({ method: 'POST', url, payload })).statusCode, 400, JSON.stringify(payload));
  const wrong = await ta.app.inject({ method: 'POST', url, payload: { origin: 'https://other.example' } });
  assert.equal(wrong.statusCode, 409);
  assert.deepEqual(wrong.json(), { error: "the upstream's base URL moved to another origin since: reload and confirm again" });
  const unknown = await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/upstreams/nope/confirm-host', payload: { origin: 'https://collector.example' } });
  assert.equal(unknown.statusCode, 404);
  assert.equal(ta.runtime.deps.modelRouting.registry.resolve('bob')?.apiKey, null, 'refused confirmations bound nothing');

  const ok = await ta.app.inject({ method: 'POST', url, payload: { origin: 'https://collector.example' } });
  assert.equal(ok.statusCode, 200);
  assert.equal(ok.json().upstreams[0].state, 'ok');
  assert.equal(ta.runtime.deps.modelRouting.registry.resolve('bob')?.apiKey, KEY);
  await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' });
  assert.equal(ta.runtime.deps.modelRouting.registry.resolve('bob')?.hostConfirmed, true, 'the next sync keeps the confirmation');
  noSecret(ta, [ok.body, wrong.body], [KEY]);
});

const call = (ta: TestApp, token: string) =>
  ta.app.inject({ method: 'POST', url: '/model/bob/v1/chat/completions', headers: { authorization: `Bearer ${token}` }, payload: { model: 'svc-e2e-llm', messages: [] } });

void test('Budgets (issue 31, item 6): revoke ends an agent\'s token at once (401) and mints none; rotate gives a new token under a new name', async (t) => {
  const { ta, env, config } = await routed(t);
  const old = env().SVC_MODEL_TOKEN_BOB as string;
  assert.equal(ta.runtime.deps.agentTokens.verify('model', old)?.agentId, 'bob');

  for (const action of ['rotate', 'revoke']) {
    const res = await ta.app.inject({ method: 'POST', url: `/api/system/model-routing/agents/nobody/token/${action}` });
    assert.equal(res.statusCode, 404, action);
    assert.deepEqual(res.json(), { error: 'no model token for this agent' });
  }

  const revoked = await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/agents/bob/token/revoke' });
  assert.equal(revoked.statusCode, 200);
  assert.deepEqual(revoked.json().tokens.find((x: Json) => x.agentId === 'bob'), { agentId: 'bob', state: 'revoked', envName: 'SVC_MODEL_TOKEN_BOB' });
  assert.equal((await call(ta, old)).statusCode, 401);
  await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' });
  assert.equal(ta.runtime.deps.agentTokens.verify('model', env().SVC_MODEL_TOKEN_BOB as string), null, 'a sync mints nothing for a revoked agent');
  assert.equal(ta.runtime.deps.agentTokens.verify('model', env().SVC_MODEL_TOKEN_MAIN as string)?.agentId, 'main', "main's token is untouched");

  const rotated = await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/agents/bob/token/rotate' });
  assert.equal(rotated.statusCode, 200);
  assert.deepEqual(rotated.json().tokens.find((x: Json) => x.agentId === 'bob'), { agentId: 'bob', state: 'live', envName: 'SVC_MODEL_TOKEN_BOB__R2' });
  const fresh = env().SVC_MODEL_TOKEN_BOB__R2 as string;
  assert.equal(ta.runtime.deps.agentTokens.verify('model', fresh)?.agentId, 'bob');
  assert.equal(env().SVC_MODEL_TOKEN_BOB, undefined);
  assert.equal(config().models.providers['svc-bob'].apiKey, '${SVC_MODEL_TOKEN_BOB__R2}');
  assert.notEqual((await call(ta, fresh)).statusCode, 401, 'the new token is accepted');

  const again = await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/agents/bob/token/rotate' });
  assert.equal((await call(ta, fresh)).statusCode, 401, 'the rotated-away token is refused at once');
  noSecret(ta, [revoked.body, rotated.body, again.body], [old, fresh, env().SVC_MODEL_TOKEN_BOB__R3 as string]);
});
