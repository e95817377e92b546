// Spec "System (host and gateway)": configure-gateway, auto-configure-gateway,
// GET/PATCH gateway-config, against temp state dirs. Every test also checks
// that no secret (minted token, provider key) reaches a body or a log line.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';

const KEY = 'sk-ant-test-0123456789abcdefghij';

/** A temp HOME for the codex-CLI rung, so the machine's own ~/.codex cannot leak in. */
function tempUserHome(t: TestContext): string {
  const home = mkdtempSync(join(tmpdir(), 'svc-user-home-'));
  const saved = process.env.HOME;
  process.env.HOME = home;
  t.after(() => {
    process.env.HOME = saved;
    rmSync(home, { recursive: true, force: true });
  });
  return home;
}

const files = (ta: TestApp) => {
  const dir = ta.config.gatewayStateDir;
  return {
    dir,
    configFile: join(dir, 'openclaw.json'),
    envFile: join(dir, '.env'),
    // JSON.parse's own type: these tests read arbitrary config shapes.
    config: () => JSON.parse(readFileSync(join(dir, 'openclaw.json'), 'utf8')),
    env: () => parseDotenv(readFileSync(join(dir, '.env'), 'utf8')),
    settings: () => JSON.parse(readFileSync(join(ta.home, 'settings.json'), 'utf8')) as { gateway: { url: string; token: string } },
  };
};

/** Neither a body nor a captured log line holds any of `secrets`. */
function assertNoSecrets(ta: TestApp, bodies: string[], secrets: string[]): void {
  for (const secret of secrets) {
    for (const body of bodies) assert.ok(!body.includes(secret), `a response body holds a secret: ${body}`);
    assert.ok(!ta.logs.some((l) => l.includes(secret)), 'a log line holds a secret');
  }
}

const post = (ta: TestApp, url: string, payload?: unknown) =>
  ta.app.inject({ method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) });
const patch = (ta: TestApp, payload: unknown) => ta.app.inject({ method: 'PATCH', url: '/api/system/gateway-config', payload: payload as object });

function seedAgentProfiles(stateDir: string, agentId: string, store: unknown): void {
  const dir = join(stateDir, 'agents', agentId, 'agent');
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, 'openclaw-agent.sqlite'));
  db.exec('CREATE TABLE auth_profile_store (store_key TEXT NOT NULL PRIMARY KEY, store_json TEXT NOT NULL, updated_at INTEGER NOT NULL) STRICT');
  db.prepare('insert into auth_profile_store values (?, ?, ?)').run('primary', JSON.stringify(store), Date.now());
  db.close();
}

void test('System: configure-gateway 400s carry the spec messages and write nothing', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'JSON body required'],
    ['[1,2]', 'JSON body required'],
    ['{"provider":', 'JSON body required'],
    ['{}', 'provider is required'],
    ['{"provider":"  "}', 'provider is required'],
    ['{"provider":42}', 'provider is required'],
    ['{"provider":"anthropic"}', 'apiKey is required for non-ollama providers'],
    ['{"provider":"mycorp","apiKey":""}', 'apiKey is required for non-ollama providers'],
  ];
  for (const [payload, error] of cases) {
    const res = await ta.app.inject({
      method: 'POST',
      url: '/api/system/configure-gateway',
      ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload }),
    });
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error }, String(payload));
  }
  assert.equal(existsSync(f.configFile), false);
  assert.equal(existsSync(f.envFile), false);
  assert.equal(existsSync(join(ta.home, 'settings.json')), false);
});

void test('System: configure-gateway writes config, .env and settings; the token is never returned or logged', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  mkdirSync(f.dir, { recursive: true });
  writeFileSync(f.configFile, '// mine\n{ "logging": { "file": "/tmp/x.log" }, "gateway": { "port": 1, "bind": "loopback" }, }');
  writeFileSync(f.envFile, '# my notes\nOTHER=keep-me\n');
  const res = await post(ta, '/api/system/configure-gateway', { provider: 'anthropic', apiKey: KEY, gatewayPort: 19001 });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true, gatewayUrl: 'ws://localhost:19001' });

  const config = f.config();
  assert.deepEqual(config.gateway, { port: 19001, bind: 'loopback', mode: 'local', auth: { mode: 'token', token: '${OPENCLAW_GATEWAY_TOKEN}' } });
  assert.deepEqual(config.logging, { file: '/tmp/x.log' }, 'unknown keys survive');
  assert.deepEqual(config.agents.defaults.model, { primary: 'anthropic/claude-opus-5' });
  assert.deepEqual(config.tools, { agentToAgent: { enabled: true }, sessions: { visibility: 'all' } });

  const envText = readFileSync(f.envFile, 'utf8');
  assert.ok(envText.startsWith('# my notes\nOTHER=keep-me\n'), 'other lines and comments kept');
  const env = f.env();
  assert.equal(env.ANTHROPIC_API_KEY, KEY);
  const token = env.OPENCLAW_GATEWAY_TOKEN ?? '';
  assert.ok(token.length >= 32, 'a minted token');
  assert.equal(statSync(f.envFile).mode & 0o777, 0o600);
  assert.equal(statSync(f.configFile).mode & 0o777, 0o600);
  assert.deepEqual(f.settings().gateway, { url: 'ws://localhost:19001', token });

  const view = await ta.app.inject('/api/settings');
  assert.deepEqual(view.json(), { gatewayUrl: 'ws://localhost:19001', hasToken: true, firstRunDismissedAt: null });
  const gc = await ta.app.inject('/api/system/gateway-config');
  assertNoSecrets(ta, [res.body, view.body, gc.body], [token, KEY]);
});

void test('System: configure-gateway defaults: port 18789, per-provider model, ollama keyless, unmapped provider uses CUSTOM_API_KEY and <provider>/default', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  let res = await post(ta, '/api/system/configure-gateway', { provider: 'ollama' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true, gatewayUrl: 'ws://localhost:18789' });
  assert.equal(f.config().gateway.port, 18789);
  assert.equal(f.config().agents.defaults.model.primary, 'ollama/gemma4');
  assert.deepEqual(Object.keys(f.env()), ['OPENCLAW_GATEWAY_TOKEN'], 'no key for the keyless provider');
  const firstToken = f.env().OPENCLAW_GATEWAY_TOKEN;

  res = await post(ta, '/api/system/configure-gateway', { provider: 'mycorp', apiKey: 'custom-secret-value-123', gatewayPort: 'nope' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true, gatewayUrl: 'ws://localhost:18789' }, 'a wrong-typed port is ignored');
  assert.equal(f.env().CUSTOM_API_KEY, 'custom-secret-value-123');
  assert.equal(f.config().agents.defaults.model.primary, 'mycorp/default');
  assert.notEqual(f.env().OPENCLAW_GATEWAY_TOKEN, firstToken, 'a fresh token each time');

  res = await post(ta, '/api/system/configure-gateway', { provider: 'gemini', apiKey: 'gm-key-0123456789', model: 'google/gemini-2.5-pro' });
  assert.equal(f.env().GEMINI_API_KEY, 'gm-key-0123456789', 'an alias maps to the canonical env var');
  assert.equal(f.config().agents.defaults.model.primary, 'google/gemini-2.5-pro');
  assertNoSecrets(ta, [res.body], ['custom-secret-value-123', 'gm-key-0123456789', f.env().OPENCLAW_GATEWAY_TOKEN ?? '']);
});

void test('System: auto-configure rung 4: nothing connected → needsKey, nothing written', async (t) => {
  const ta = await buildTestApp(t);
  tempUserHome(t);
  const res = await post(ta, '/api/system/auto-configure-gateway');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: false, needsKey: true });
  assert.equal(existsSync(files(ta).dir), false);
  assert.equal(existsSync(join(ta.home, 'settings.json')), false);
});

void test('System: auto-configure rung 3: codex CLI logged in → needsCodexAuth with a login command, nothing written', async (t) => {
  const ta = await buildTestApp(t);
  const home = tempUserHome(t);
  mkdirSync(join(home, '.codex'));
  writeFileSync(join(home, '.codex', 'auth.json'), JSON.stringify({ OPENAI_API_KEY: null, tokens: { access_token: 'codex-access-abc123', refresh_token: 'r' } }));
  const res = await post(ta, '/api/system/auto-configure-gateway', {});
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: false, needsCodexAuth: true, loginCommand: 'openclaw models auth login --provider openai' });
  assert.equal(existsSync(files(ta).configFile), false);
  assertNoSecrets(ta, [res.body], ['codex-access-abc123']);
});

void test('System: auto-configure rung 2: an openai-codex OAuth profile in the agent SQLite → config written, no key written', async (t) => {
  const ta = await buildTestApp(t);
  tempUserHome(t);
  const f = files(ta);
  seedAgentProfiles(f.dir, 'main', {
    version: 1,
    profiles: { 'openai-codex:default': { type: 'oauth', provider: 'openai-codex', access: 'oauth-access-secret-1', refresh: 'x', expires: 1 } },
  });
  const res = await post(ta, '/api/system/auto-configure-gateway');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true, gatewayUrl: 'ws://localhost:18789', provider: 'openai-codex' });
  const config = f.config();
  assert.equal(config.gateway.mode, 'local');
  assert.equal(config.gateway.bind, 'loopback');
  assert.equal(config.agents.defaults.model.primary, 'openai/gpt-5.5');
  const env = f.env();
  assert.deepEqual(Object.keys(env), ['OPENCLAW_GATEWAY_TOKEN'], 'only the token');
  assert.equal(f.settings().gateway.token, env.OPENCLAW_GATEWAY_TOKEN);
  assert.equal(existsSync(join(f.dir, 'agents', 'main', 'agent', 'auth-profiles.json')), false, 'never writes auth-profiles.json');
  assertNoSecrets(ta, [res.body], [env.OPENCLAW_GATEWAY_TOKEN ?? '', 'oauth-access-secret-1']);
});

void test('System: auto-configure rung 2 also reads a legacy auth-profiles.json (read only)', async (t) => {
  const ta = await buildTestApp(t);
  tempUserHome(t);
  const dir = join(files(ta).dir, 'agents', 'helper', 'agent');
  mkdirSync(dir, { recursive: true });
  const legacy = JSON.stringify({ profiles: { 'openai-codex:me': { type: 'oauth', provider: 'openai-codex' } } });
  writeFileSync(join(dir, 'auth-profiles.json'), legacy);
  const res = await post(ta, '/api/system/auto-configure-gateway');
  assert.deepEqual(res.json(), { ok: true, gatewayUrl: 'ws://localhost:18789', provider: 'openai-codex' });
  assert.equal(readFileSync(join(dir, 'auth-profiles.json'), 'utf8'), legacy, 'left as it was');
});

void test('System: auto-configure rung 1: a vault key goes to .env; a non-destructive read-modify-write', async (t) => {
  const ta = await buildTestApp(t);
  tempUserHome(t);
  const f = files(ta);
  ta.runtime.deps.vault.set('OPENAI_API_KEY', 'sk-vault-openai-0123456789abcdef');
  mkdirSync(f.dir, { recursive: true });
  writeFileSync(f.configFile, JSON.stringify({
    gateway: { mode: 'remote', port: 19555 },
    agents: { defaults: { model: { primary: 'openai/gpt-4.1' } } },
    tools: { agentToAgent: { enabled: false } },
    custom: { keep: true },
  }));
  writeFileSync(f.envFile, 'GATEWAY_AUTH_TOKEN=existing-token-123456\n');
  const res = await post(ta, '/api/system/auto-configure-gateway');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true, gatewayUrl: 'ws://localhost:19555', provider: 'openai' });
  const config = f.config();
  assert.deepEqual(config.gateway, { mode: 'local', port: 19555, auth: { mode: 'token', token: '${OPENCLAW_GATEWAY_TOKEN}' }, bind: 'loopback' });
  assert.equal(config.agents.defaults.model.primary, 'openai/gpt-4.1', 'an existing default model stays');
  assert.deepEqual(config.tools, { agentToAgent: { enabled: false }, sessions: { visibility: 'all' } }, 'filled only when missing');
  assert.deepEqual(config.custom, { keep: true });
  const env = f.env();
  assert.equal(env.OPENAI_API_KEY, 'sk-vault-openai-0123456789abcdef');
  assert.equal(env.OPENCLAW_GATEWAY_TOKEN, 'existing-token-123456', 'the GATEWAY_AUTH_TOKEN value is reused');
  assert.equal(env.GATEWAY_AUTH_TOKEN, 'existing-token-123456');
  assert.deepEqual(f.settings().gateway, { url: 'ws://localhost:19555', token: 'existing-token-123456' });
  assertNoSecrets(ta, [res.body], ['existing-token-123456', 'sk-vault-openai-0123456789abcdef']);
});

void test('System: auto-configure rung 1: a key already in the gateway .env; the token there is reused; an existing auth block stays', async (t) => {
  const ta = await buildTestApp(t);
  tempUserHome(t);
  const f = files(ta);
  mkdirSync(f.dir, { recursive: true });
  writeFileSync(f.envFile, 'GROQ_API_KEY=gsk-env-0123456789\nOPENCLAW_GATEWAY_TOKEN=env-token-abcdef\n');
  writeFileSync(f.configFile, JSON.stringify({ gateway: { auth: { mode: 'token', token: '${OPENCLAW_GATEWAY_TOKEN}', allowTailscale: false } } }));
  const res = await post(ta, '/api/system/auto-configure-gateway');
  assert.deepEqual(res.json(), { ok: true, gatewayUrl: 'ws://localhost:18789', provider: 'groq' });
  const config = f.config();
  assert.deepEqual(config.gateway.auth, { mode: 'token', token: '${OPENCLAW_GATEWAY_TOKEN}', allowTailscale: false });
  assert.equal(config.gateway.port, 18789);
  assert.equal(config.agents.defaults.model.primary, 'groq/openai/gpt-oss-120b');
  assert.equal(readFileSync(f.envFile, 'utf8'), 'GROQ_API_KEY=gsk-env-0123456789\nOPENCLAW_GATEWAY_TOKEN=env-token-abcdef\n', '.env unchanged');
  assert.equal(f.settings().gateway.token, 'env-token-abcdef');
  assertNoSecrets(ta, [res.body], ['env-token-abcdef', 'gsk-env-0123456789']);
});

void test('System: GET gateway-config: null config when missing, presence flags, masked secrets, version null offline', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  let res = await ta.app.inject('/api/system/gateway-config');
  assert.equal(res.statusCode, 200);
  const empty = res.json();
  assert.equal(empty.config, null);
  assert.equal(empty.version, null);
  assert.equal(empty.execAsk, null);
  assert.equal(empty.execSecurity, null);
  assert.equal(Object.keys(empty.env).length, 14, 'thirteen provider flags plus hasGatewayToken');
  assert.ok(Object.values(empty.env).every((v) => v === false));

  mkdirSync(f.dir, { recursive: true });
  writeFileSync(f.configFile, JSON.stringify({
    gateway: { auth: { mode: 'token', token: 'literal-gateway-token-xyz' } },
    models: { providers: { mine: { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-literal-provider-key-0123456789', api: 'openai-completions' } } },
    env: { vars: { XAI_API_KEY: 'xai-inline-secret-123' } },
    tools: { exec: { ask: 'on-miss', security: 'allowlist' } },
  }));
  writeFileSync(f.envFile, `ANTHROPIC_API_KEY=${KEY}\nGOOGLE_API_KEY=g-alt-key-123456\n`);
  seedAgentProfiles(f.dir, 'main', { profiles: { 'mistral:default': { type: 'api_key', provider: 'mistral', key: 'mistral-secret-999999' } } });
  res = await ta.app.inject('/api/system/gateway-config');
  const body = res.json();
  assert.deepEqual(body.config.gateway, {}, 'no auth block (issue 15 #13: an allowlist)');
  assert.equal(body.config.env, undefined);
  assert.deepEqual(body.config.models.providers.mine, { api: 'openai-completions', baseUrl: 'http://127.0.0.1:1/v1' }, 'no apiKey');
  assert.equal(body.execAsk, 'on-miss');
  assert.equal(body.execSecurity, 'allowlist');
  assert.equal(body.env.hasAnthropicKey, true);
  assert.equal(body.env.hasGoogleKey, true, 'GOOGLE_API_KEY counts for google');
  assert.equal(body.env.hasMistralKey, true, 'an auth profile counts');
  assert.equal(body.env.hasOpenAIKey, false);
  assert.equal(body.env.hasGatewayToken, true, 'a literal token in the config');
  assertNoSecrets(ta, [res.body], ['literal-gateway-token-xyz', 'sk-literal-provider-key-0123456789', 'xai-inline-secret-123', KEY, 'g-alt-key-123456', 'mistral-secret-999999']);

  writeFileSync(f.configFile, '{ not json');
  res = await ta.app.inject('/api/system/gateway-config');
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().config, null, 'corrupt reads as null');
});

void test('System: PATCH gateway-config: each field lands in openclaw.json; agentModel in agents.entries and pruned on null', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  mkdirSync(f.dir, { recursive: true });
  writeFileSync(f.configFile, JSON.stringify({ agents: { entries: { helper: { name: 'Helper' } } }, extra: [1, 2] }));
  const res = await patch(ta, {
    model: 'anthropic/claude-opus-5',
    fallbacks: ['openai/gpt-5.5', 7, null, 'groq/openai/gpt-oss-120b'],
    exec: { ask: 'always', security: 'full' },
    agentToAgent: { enabled: true },
    agentModel: { agentId: 'main', model: 'fakellm/fake-model' },
  });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true });
  let config = f.config();
  assert.deepEqual(config.agents.defaults.model, { primary: 'anthropic/claude-opus-5', fallbacks: ['openai/gpt-5.5', 'groq/openai/gpt-oss-120b'] });
  assert.deepEqual(config.tools, { exec: { ask: 'always', security: 'full' }, agentToAgent: { enabled: true }, sessions: { visibility: 'all' } });
  assert.deepEqual(config.agents.entries, { helper: { name: 'Helper' }, main: { model: 'fakellm/fake-model' } });
  assert.equal(config.agents.list, undefined, 'never the legacy agents.list');
  assert.deepEqual(config.extra, [1, 2]);
  assert.equal(config.gateway.bind, 'loopback');

  await patch(ta, { agentModel: { agentId: 'helper', model: 'x/y' } });
  await patch(ta, { agentModel: { agentId: 'main', model: null } });
  config = f.config();
  assert.deepEqual(config.agents.entries, { helper: { name: 'Helper', model: 'x/y' } }, 'an entry left empty is pruned');
  await patch(ta, { agentModel: { agentId: 'helper', model: '' } });
  assert.deepEqual(f.config().agents.entries, { helper: { name: 'Helper' } }, 'an entry with other fields stays');

  await patch(ta, { agentToAgent: { enabled: false }, model: 42, exec: 'no' });
  config = f.config();
  assert.equal(config.tools.agentToAgent.enabled, false);
  assert.equal(config.agents.defaults.model.primary, 'anthropic/claude-opus-5', 'a wrong-typed field is ignored');
});

void test('System: PATCH gateway-config: gatewayPort updates the config and the settings URL; apiKeys go to .env only', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  const res = await patch(ta, {
    gatewayPort: 19123,
    apiKeys: [
      { provider: 'openai', key: 'sk-openai-patch-0123456789abcdef' },
      { provider: 'my-corp', key: 'corp-key-0123456789' },
      { provider: 'broken' },
      'junk',
    ],
  });
  assert.equal(res.statusCode, 200);
  assert.equal(f.config().gateway.port, 19123);
  assert.equal(f.settings().gateway.url, 'ws://localhost:19123');
  const env = f.env();
  assert.deepEqual(env, { OPENAI_API_KEY: 'sk-openai-patch-0123456789abcdef', MY_CORP_API_KEY: 'corp-key-0123456789' });
  assert.equal(existsSync(join(f.dir, 'agents')), false, 'no auth-profiles.json anywhere');
  const gc = await ta.app.inject('/api/system/gateway-config');
  assert.equal(gc.json().env.hasOpenAIKey, true);

  const removed = await patch(ta, { apiKeys: [{ provider: 'openai', key: '' }] });
  assert.equal(removed.statusCode, 200);
  assert.deepEqual(f.env(), { MY_CORP_API_KEY: 'corp-key-0123456789' }, 'an empty key removes the variable');
  assertNoSecrets(ta, [res.body, removed.body, gc.body], ['sk-openai-patch-0123456789abcdef', 'corp-key-0123456789']);
});

void test('System: PATCH gateway-config: 400 JSON body required; hotReloadHint only when the gateway port answers', async (t) => {
  const ta = await buildTestApp(t);
  for (const payload of [undefined, '[]', '"x"', '{bad']) {
    const res = await ta.app.inject({
      method: 'PATCH',
      url: '/api/system/gateway-config',
      ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload }),
    });
    assert.equal(res.statusCode, 400, String(payload));
    assert.deepEqual(res.json(), { error: 'JSON body required' });
  }
  const server = createServer((s) => s.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  t.after(() => server.close());
  const port = (server.address() as { port: number }).port;
  let res = await patch(ta, { gatewayPort: port });
  assert.deepEqual(res.json(), { ok: true, hotReloadHint: true });
  await new Promise<void>((r) => server.close(() => r()));
  res = await patch(ta, { model: 'a/b' });
  assert.deepEqual(res.json(), { ok: true }, 'nothing listening: no hint');
});

void test('System: PATCH gateway-config on a corrupt file starts from {} but keeps the old file aside (0600) and logs it', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  mkdirSync(f.dir, { recursive: true });
  const corrupt = '{ gateway: { port: 1 }, precious: "user data", }';
  writeFileSync(f.configFile, corrupt);
  const res = await patch(ta, { model: 'openai/gpt-5.5' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(f.config(), { agents: { defaults: { model: { primary: 'openai/gpt-5.5' } } }, gateway: { bind: 'loopback' } });
  const aside = readdirSync(f.dir).filter((n) => n.startsWith('openclaw.json.corrupt-'));
  assert.equal(aside.length, 1);
  const asideFile = join(f.dir, aside[0] ?? '');
  assert.equal(readFileSync(asideFile, 'utf8'), corrupt, 'nothing lost');
  assert.equal(statSync(asideFile).mode & 0o777, 0o600);
  assert.ok(ta.logs.some((l) => l.includes('kept aside') && l.includes(asideFile)), 'the log says where');
});

void test('System: a deliberate non-loopback gateway.bind is kept, with a warning in the log', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  mkdirSync(f.dir, { recursive: true });
  writeFileSync(f.configFile, JSON.stringify({ gateway: { bind: 'lan' } }));
  const res = await patch(ta, { exec: { ask: 'off' } });
  assert.equal(res.statusCode, 200);
  assert.equal(f.config().gateway.bind, 'lan');
  assert.ok(ta.logs.some((l) => l.includes('gateway.bind is not') && l.includes('"lan"')));
});

void test('Security (issue 15 #13): GET gateway-config shows an allowlisted projection; secrets in unexpected places never leave', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  mkdirSync(f.dir, { recursive: true });
  // Values the old denylist let through: none sits under a credential-named key or has a known key shape.
  const hidden = ['hf_q8W2kLm4Nx7Rt1Yu5Io9Pa3Sd6Fg0Hj2', 'hunter2-plugin-pass', 'tg-bot-123456:AAE-qwerty', 'corp-user:corp-pass', 'q-key-0987654321', 'frag-secret-55'];
  writeFileSync(f.configFile, JSON.stringify({
    gateway: { port: 19001, bind: 'loopback', mode: 'local', auth: { mode: 'password', password: 'pw-0123456789' }, remote: { url: 'wss://x', tk: hidden[0] } },
    agents: {
      defaults: { model: { primary: 'anthropic/claude-opus-5', fallbacks: ['openai/gpt-5.5', 3] }, workspace: '/home/me/ws' },
      entries: { main: { model: 'x/y', identity: { pin: hidden[1] } }, helper: { model: { primary: 'a/b' } } },
      list: [{ id: 'legacy', model: 'c/d', extra: hidden[2] }, 'junk'],
    },
    tools: { exec: { ask: 'on-miss', security: 'allowlist', env: { K: hidden[3] } }, agentToAgent: { enabled: true, allow: ['*'] }, sessions: { visibility: 'all' } },
    models: {
      providers: {
        mine: {
          api: 'openai-completions',
          baseUrl: `http://${hidden[3]}@127.0.0.1:1/v1?key=${hidden[4]}#${hidden[5]}`,
          headers: { 'X-Api': hidden[4] },
          models: [{ id: 'm1', name: 'Model one', contextWindow: 8192, reasoning: false, cost: { input: 1 } }],
        },
      },
    },
    plugins: { entries: { matrix: { enabled: true, config: { homeserver: 'https://m.example', pass: hidden[1] } } } },
    channels: { telegram: { bot: hidden[2] } },
    custom: { note: hidden[0] },
    env: { vars: { XAI_API_KEY: 'xai-inline-secret-123' } },
  }));
  const res = await ta.app.inject('/api/system/gateway-config');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json().config, {
    gateway: { port: 19001, bind: 'loopback', mode: 'local' },
    agents: {
      defaults: { model: { primary: 'anthropic/claude-opus-5', fallbacks: ['openai/gpt-5.5'] } },
      entries: { main: { model: 'x/y' }, helper: { model: { primary: 'a/b' } } },
      list: [{ id: 'legacy', model: 'c/d' }],
    },
    tools: { exec: { ask: 'on-miss', security: 'allowlist' }, agentToAgent: { enabled: true }, sessions: { visibility: 'all' } },
    models: { providers: { mine: { api: 'openai-completions', baseUrl: 'http://127.0.0.1:1/v1', models: [{ id: 'm1', name: 'Model one', contextWindow: 8192, reasoning: false }] } } },
  });
  assertNoSecrets(ta, [res.body], [...hidden, 'pw-0123456789', 'xai-inline-secret-123']);

  // execAsk and execSecurity are scalars or null: an object there is not shown.
  writeFileSync(f.configFile, JSON.stringify({ tools: { exec: { ask: { note: hidden[0] }, security: ['x', hidden[1]] } } }));
  const odd = await ta.app.inject('/api/system/gateway-config');
  assert.equal(odd.json().execAsk, null);
  assert.equal(odd.json().execSecurity, null);
  assertNoSecrets(ta, [odd.body], hidden);
});

void test('Security (issue 15 #5): PATCH gateway-config refuses agentModel.agentId __proto__, constructor and prototype with 400 and changes nothing', async (t) => {
  const ta = await buildTestApp(t);
  const f = files(ta);
  mkdirSync(f.dir, { recursive: true });
  const before = JSON.stringify({ agents: { entries: { main: { model: 'a/b' } } } });
  writeFileSync(f.configFile, before);
  for (const agentId of ['__proto__', 'constructor', 'prototype', ' __proto__ ']) {
    for (const model of ['evil/model', null]) {
      const res = await patch(ta, { agentModel: { agentId, model }, apiKeys: [{ provider: 'openai', key: 'sk-should-not-land-0123456789' }], model: 'x/y' });
      assert.equal(res.statusCode, 400, agentId);
      assert.deepEqual(res.json(), { error: "agentModel.agentId must not be '__proto__', 'constructor' or 'prototype'" });
    }
  }
  assert.equal(readFileSync(f.configFile, 'utf8'), before, 'openclaw.json untouched');
  assert.equal(existsSync(f.envFile), false, 'nothing written to .env');
  assert.equal(({} as Record<string, unknown>).model, undefined, 'Object.prototype untouched');
  // Other keys that name inherited members are ordinary agent ids.
  const ok = await patch(ta, { agentModel: { agentId: 'hasOwnProperty', model: 'p/q' } });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(f.config().agents.entries, { main: { model: 'a/b' }, hasOwnProperty: { model: 'p/q' } });
  assert.equal(typeof ({} as { hasOwnProperty: unknown }).hasOwnProperty, 'function');
});

void test('Errors (issue 16 #1, #3): a gateway-config write that fails answers its fixed 500 message, never the cause; the cause is logged', async (t) => {
  const ta = await buildTestApp(t);
  tempUserHome(t);
  const f = files(ta);
  // The gateway state folder is a file: every write under it fails (EEXIST, ENOTDIR), naming the path.
  mkdirSync(join(f.dir, '..'), { recursive: true });
  writeFileSync(f.dir, 'not a folder');
  ta.runtime.deps.vault.set('OPENAI_API_KEY', 'sk-vault-openai-0123456789abcdef');
  const cases = [
    { res: await post(ta, '/api/system/configure-gateway', { provider: 'anthropic', apiKey: KEY }), error: 'Failed to configure gateway' },
    { res: await post(ta, '/api/system/auto-configure-gateway'), error: 'Failed to auto-configure gateway' },
    { res: await patch(ta, { apiKeys: [{ provider: 'openai', key: KEY }] }), error: 'Failed to update gateway config' },
    { res: await patch(ta, { model: 'a/b' }), error: 'Failed to update gateway config' },
  ];
  for (const { res, error } of cases) {
    assert.equal(res.statusCode, 500, error);
    assert.deepEqual(res.json(), { error });
    assert.ok(!res.body.includes(f.dir), 'no path in the body');
  }
  for (const { error } of cases) {
    assert.ok(ta.logs.some((l) => l.includes(`internal error: ${error}`) && l.includes(f.dir) && l.includes('"stack"')), `the cause of '${error}' is logged`);
  }
  assert.ok(!existsSync(join(ta.home, 'settings.json')) || !f.settings().gateway?.token, 'settings not pointed at a gateway that was not configured');
  assertNoSecrets(ta, cases.map((c) => c.res.body), [KEY, 'sk-vault-openai-0123456789abcdef']);
});
