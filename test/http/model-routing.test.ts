// Issue 22 item 2: GET/PUT /api/system/model-routing, POST .../sync and the
// health report's `model-keys` check, in-process against a temp gateway
// state folder (the gateway is not running: svc writes the files). The real
// gateway taking these files is test/gateway/model-routing/.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';

const KEY = 'sk-fake-upstream-key-0123456789abcdef';
const PORT = 45123;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary config shapes

function gatewayFiles(ta: TestApp) {
  const dir = ta.config.gatewayStateDir;
  mkdirSync(dir, { recursive: true });
  const configFile = join(dir, 'openclaw.json');
  const envFile = join(dir, '.env');
  writeFileSync(configFile, JSON.stringify({
    gateway: { mode: 'local', port: 18789, bind: 'loopback', auth: { mode: 'token', token: '${OPENCLAW_GATEWAY_TOKEN}' } },
    models: { mode: 'merge', providers: { fakellm: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: '${FAKELLM_API_KEY}', api: 'openai-completions', models: [{ id: 'svc-e2e-llm', name: 'Fake' }] } } },
    agents: { defaults: { model: { primary: 'fakellm/svc-e2e-llm' } }, entries: { researcher: { workspace: '/tmp/w' } } },
  }));
  writeFileSync(envFile, `OPENCLAW_GATEWAY_TOKEN=gw-token-abcdef\nFAKELLM_API_KEY=${KEY}\n`);
  return {
    config: (): Json => JSON.parse(readFileSync(configFile, 'utf8')) as Json,
    envText: () => readFileSync(envFile, 'utf8'),
    env: () => parseDotenv(readFileSync(envFile, 'utf8')),
    envFile,
    configFile,
  };
}

async function routedApp(t: TestContext) {
  const ta = await buildTestApp(t);
  ta.runtime.setBoundPort(PORT);
  return { ta, files: gatewayFiles(ta) };
}

const noSecret = (ta: TestApp, bodies: string[]) => {
  for (const b of bodies) assert.ok(!b.includes(KEY), `a body holds the provider key: ${b}`);
  assert.ok(!ta.logs.some((l) => l.includes(KEY)), 'a log line holds the provider key');
};

void test('Budgets (issue 22, item 2): with no gateway, GET shows routing on and nothing routed; PUT and sync are 409; a bad PUT is 400', async (t) => {
  const ta = await buildTestApp(t);
  const get = await ta.app.inject('/api/system/model-routing');
  assert.equal(get.statusCode, 200);
  assert.deepEqual(get.json(), { enabled: true, endpoint: null, agents: [], upstreams: [], tokens: [], keysInGatewayFiles: [], lastSync: null });
  for (const payload of [{ enabled: 'yes' }, {}, [true]]) {
    const bad = await ta.app.inject({ method: 'PUT', url: '/api/system/model-routing', payload });
    assert.equal(bad.statusCode, 400, JSON.stringify(payload));
  }
  const put = await ta.app.inject({ method: 'PUT', url: '/api/system/model-routing', payload: { enabled: false } });
  assert.equal(put.statusCode, 409);
  assert.deepEqual(put.json(), { error: 'no gateway to route: configure the gateway first' });
  const sync = await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' });
  assert.equal(sync.statusCode, 409);
  assert.equal((await ta.app.inject('/api/system/model-routing')).json().enabled, true, 'the refused PUT changed nothing');
});

void test('Budgets (issue 22, item 2): POST sync routes every agent through svc; the key moves to the vault; the view shows presence only', async (t) => {
  const { ta, files } = await routedApp(t);
  const before = (await ta.app.inject('/api/system/model-routing')).json();
  assert.deepEqual(before.keysInGatewayFiles, ['FAKELLM_API_KEY']);
  assert.deepEqual(before.agents.map((a: Json) => [a.agentId, a.routed, a.reason]), [['main', false, null], ['researcher', false, null]]);

  const res = await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' });
  assert.equal(res.statusCode, 200);
  const view = res.json();
  assert.equal(view.enabled, true);
  assert.equal(view.endpoint, `http://127.0.0.1:${PORT}/model`);
  assert.deepEqual(view.agents, [
    { agentId: 'main', routed: true, reason: null, provider: 'svc-main', upstream: 'fakellm', model: 'svc-e2e-llm', fallbacks: [], subagentModel: [] },
    { agentId: 'researcher', routed: true, reason: null, provider: 'svc-researcher', upstream: 'fakellm', model: 'svc-e2e-llm', fallbacks: [], subagentModel: [] },
  ]);
  assert.deepEqual(view.upstreams, [{ id: 'fakellm', api: 'openai-completions', baseUrl: 'http://127.0.0.1:9/v1', origin: 'http://127.0.0.1:9', keyHeld: true, hostConfirmed: true, state: 'ok' }]);
  assert.deepEqual(view.tokens, [{ agentId: 'main', state: 'live', envName: 'SVC_MODEL_TOKEN_MAIN' }, { agentId: 'researcher', state: 'live', envName: 'SVC_MODEL_TOKEN_RESEARCHER' }]);
  assert.deepEqual(view.keysInGatewayFiles, []);
  assert.equal(view.lastSync.ok, true);
  assert.equal(view.lastSync.error, null);

  assert.equal(ta.runtime.deps.vault.get('FAKELLM_API_KEY'), KEY);
  assert.ok(!files.envText().includes(KEY));
  assert.ok(!readFileSync(files.configFile, 'utf8').includes(KEY));
  assert.equal(files.config().models.providers['svc-researcher'].baseUrl, `http://127.0.0.1:${PORT}/model/researcher/v1`);
  const token = files.env().SVC_MODEL_TOKEN_RESEARCHER as string;
  assert.equal(ta.runtime.deps.agentTokens.verify('model', token)?.agentId, 'researcher');
  assert.ok(!res.body.includes(token), 'the minted token is not in the reply');
  noSecret(ta, [res.body]);
});

void test('Budgets (issue 22, item 2): a provider key left in the gateway .env makes the health report degraded with its NAME, never its value', async (t) => {
  const { ta, files } = await routedApp(t);
  await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' });
  const clean = (await ta.app.inject({ method: 'POST', url: '/api/health/recheck' })).json();
  const ok = clean.checks.find((c: Json) => c.id === 'model-keys');
  assert.equal(ok?.ok, true, JSON.stringify(ok));
  assert.ok(!clean.degraded.includes('model-keys'));

  // Someone puts the key back by hand.
  writeFileSync(files.envFile, `${files.envText()}FAKELLM_API_KEY=${KEY}\n`);
  const res = await ta.app.inject({ method: 'POST', url: '/api/health/recheck' });
  const report = res.json();
  assert.ok(report.degraded.includes('model-keys'), JSON.stringify(report.degraded));
  assert.equal(report.ok, true, 'degraded, not fatal');
  const check = report.checks.find((c: Json) => c.id === 'model-keys');
  assert.match(check.message, /FAKELLM_API_KEY/);
  assert.deepEqual(check.detail, { names: ['FAKELLM_API_KEY'] });
  const get = await ta.app.inject('/api/system/model-routing');
  assert.deepEqual(get.json().keysInGatewayFiles, ['FAKELLM_API_KEY']);
  noSecret(ta, [res.body, get.body, (await ta.app.inject('/api/health')).body]);

  // A sync takes it again.
  await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' });
  const after = (await ta.app.inject({ method: 'POST', url: '/api/health/recheck' })).json();
  assert.ok(!after.degraded.includes('model-keys'));
});

void test('Budgets (issue 22, item 2): PUT enabled:false restores the gateway files; enabled:true routes again', async (t) => {
  const { ta, files } = await routedApp(t);
  await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' });
  const off = await ta.app.inject({ method: 'PUT', url: '/api/system/model-routing', payload: { enabled: false } });
  assert.equal(off.statusCode, 200);
  const view = off.json();
  assert.equal(view.enabled, false);
  assert.ok(view.agents.every((a: Json) => !a.routed && a.reason === 'disabled'), JSON.stringify(view.agents));
  assert.deepEqual(files.env(), { OPENCLAW_GATEWAY_TOKEN: 'gw-token-abcdef', FAKELLM_API_KEY: KEY });
  const config = files.config();
  assert.equal(config.models.providers.fakellm.apiKey, '${FAKELLM_API_KEY}');
  assert.deepEqual(Object.keys(config.models.providers), ['fakellm']);
  assert.equal(config.agents.entries.researcher.model, undefined, 'back on the defaults');
  // Routing off: the key in .env is where the gateway needs it, not a finding.
  const health = (await ta.app.inject({ method: 'POST', url: '/api/health/recheck' })).json();
  assert.equal(health.checks.some((c: Json) => c.id === 'model-keys'), false);

  const on = await ta.app.inject({ method: 'PUT', url: '/api/system/model-routing', payload: { enabled: true } });
  assert.ok(on.json().agents.every((a: Json) => a.routed));
  assert.ok(!files.envText().includes(KEY));
  noSecret(ta, [off.body, on.body]);
});

void test('Budgets (issue 22, item 2): a sync that cannot write shows in lastSync and the routes still answer 200', async (t) => {
  const { ta, files } = await routedApp(t);
  writeFileSync(files.configFile, '{ not json');
  const res = await ta.app.inject({ method: 'POST', url: '/api/system/model-routing/sync' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual({ ok: res.json().lastSync.ok, error: res.json().lastSync.error }, { ok: false, error: 'openclaw.json is not valid JSON: svc did not change it' });
  assert.equal(readFileSync(files.configFile, 'utf8'), '{ not json', 'the file is left as it was');
  assert.ok(files.envText().includes(KEY), 'the key stays where the gateway reads it');
});

void test('Budgets (issue 22, item 2): configure-gateway with routing on leaves the key in svc vault, not in the gateway files', async (t) => {
  const ta = await buildTestApp(t);
  ta.runtime.setBoundPort(PORT);
  const res = await ta.app.inject({ method: 'POST', url: '/api/system/configure-gateway', payload: { provider: 'openai', apiKey: KEY, gatewayPort: 19002 } });
  assert.equal(res.statusCode, 200);
  const dir = ta.config.gatewayStateDir;
  const env = parseDotenv(readFileSync(join(dir, '.env'), 'utf8'));
  assert.equal(env.OPENAI_API_KEY, undefined);
  assert.ok(env.SVC_MODEL_TOKEN_MAIN);
  assert.equal(ta.runtime.deps.vault.get('OPENAI_API_KEY'), KEY);
  const config = JSON.parse(readFileSync(join(dir, 'openclaw.json'), 'utf8')) as Json;
  assert.equal(config.agents.defaults.model.primary, 'openai/gpt-5.5');
  assert.equal(config.agents.entries.main.model, 'svc-main/gpt-5.5');
  assert.equal(config.models.providers['svc-main'].baseUrl, `http://127.0.0.1:${PORT}/model/main/v1`);
  const gc = await ta.app.inject('/api/system/gateway-config');
  assert.equal(gc.json().env.hasOpenAIKey, true, 'the key svc holds counts as the provider key');
  noSecret(ta, [res.body, gc.body]);
});
