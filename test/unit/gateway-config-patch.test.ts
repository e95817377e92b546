// Issue 16 #3: the gateway-config write sequences as plain functions
// (shared/gateway/config-patch.ts), on a temp state folder with a recording
// settings target. What they must write is spec "System (host and gateway)":
// configure-gateway, auto-configure-gateway and PATCH gateway-config.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../../shared/errors.ts';
import type { ConfigLog } from '../../shared/gateway/config-file.ts';
import { autoConfigureAndConnect, configureAndConnect, patchGatewayConfig, RESERVED_AGENT_ID } from '../../shared/gateway/config-patch.ts';
import type { GatewaySettingsTarget } from '../../shared/gateway/settings-sync.ts';
import { parseDotenv } from '../../shared/settings/gateway-files.ts';

const KEY = 'sk-ant-test-0123456789abcdefghij';

function setup(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-patch-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const stateDir = join(dir, 'openclaw');
  mkdirSync(stateDir);
  const calls: string[] = [];
  const lines: string[] = [];
  const log: ConfigLog = { info: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`), warn: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`) };
  const target: GatewaySettingsTarget = { save: (p) => void calls.push(`save ${JSON.stringify(p)}`), reconnect: () => void calls.push('reconnect') };
  const configFile = join(stateDir, 'openclaw.json');
  const envFile = join(stateDir, '.env');
  return {
    stateDir, calls, lines, log, target, configFile, envFile,
    // JSON.parse's own type: these tests read arbitrary config shapes.
    config: () => JSON.parse(readFileSync(configFile, 'utf8')),
    env: () => parseDotenv(readFileSync(envFile, 'utf8')),
  };
}

void test('Clean seams (issue 16 #3): PATCH gateway-config writes keys to .env, fields to openclaw.json, and a new port to settings, then reconnects', (t) => {
  const s = setup(t);
  writeFileSync(s.envFile, 'OPENAI_API_KEY=old\nKEEP=1\n');
  writeFileSync(s.configFile, JSON.stringify({ custom: { kept: true }, gateway: { port: 18789 } }));
  const port = patchGatewayConfig({
    stateDir: s.stateDir,
    apiKeys: [{ provider: 'anthropic', key: KEY }, { provider: 'openai', key: '' }],
    patch: { model: 'anthropic/claude', gatewayPort: 19010, exec: { ask: 'always' } },
    target: s.target,
    log: s.log,
  });
  assert.equal(port, 19010);
  assert.deepEqual(s.env(), { KEEP: '1', ANTHROPIC_API_KEY: KEY }, 'an empty key removes its variable');
  const cfg = s.config();
  assert.deepEqual(cfg.custom, { kept: true });
  assert.equal(cfg.gateway.port, 19010);
  assert.equal(cfg.agents.defaults.model.primary, 'anthropic/claude');
  assert.equal(cfg.tools.exec.ask, 'always');
  assert.deepEqual(s.calls, ['save {"gatewayUrl":"ws://localhost:19010","rebindToken":true}', 'reconnect']);
  assert.ok(!s.lines.some((l) => l.includes(KEY)), 'no key in a log line');
});

void test('Clean seams (issue 16 #3): PATCH gateway-config without a port leaves settings alone; keys only leave openclaw.json unwritten', (t) => {
  const s = setup(t);
  assert.equal(patchGatewayConfig({ stateDir: s.stateDir, apiKeys: [{ provider: 'openai', key: KEY }], patch: {}, target: s.target, log: s.log }), 18789);
  assert.equal(existsSync(s.configFile), false, 'no field: no config write');
  assert.deepEqual(s.env(), { OPENAI_API_KEY: KEY });
  writeFileSync(s.configFile, JSON.stringify({ gateway: { port: 18850 } }));
  assert.equal(patchGatewayConfig({ stateDir: s.stateDir, apiKeys: [], patch: { agentToAgent: { enabled: false } }, target: s.target, log: s.log }), 18850);
  assert.equal(s.config().tools.agentToAgent.enabled, false);
  assert.deepEqual(s.calls, [], 'no save, no reconnect');
});

void test('Clean seams (issue 16 #3): PATCH gateway-config refuses a reserved agent id as invalid before writing anything', (t) => {
  const s = setup(t);
  for (const agentId of ['__proto__', 'constructor', 'prototype']) {
    assert.throws(
      () => patchGatewayConfig({
        stateDir: s.stateDir, apiKeys: [{ provider: 'openai', key: KEY }], patch: { agentModel: { agentId, model: 'x/y' }, gatewayPort: 19011 }, target: s.target, log: s.log,
      }),
      (err: unknown) => err instanceof DomainError && err.kind === 'invalid' && err.message === RESERVED_AGENT_ID,
    );
  }
  assert.equal(existsSync(s.envFile), false);
  assert.equal(existsSync(s.configFile), false);
  assert.deepEqual(s.calls, []);
});

void test('Clean seams (issue 16 #3): configure-gateway saves the minted token it wrote to .env, then reconnects; the token is never logged', (t) => {
  const s = setup(t);
  const conn = configureAndConnect(s.stateDir, { provider: 'anthropic', apiKey: KEY, model: null, gatewayPort: 18900 }, s.target, s.log);
  assert.equal(conn.gatewayUrl, 'ws://localhost:18900');
  assert.equal(s.env().OPENCLAW_GATEWAY_TOKEN, conn.gatewayToken);
  assert.deepEqual(s.calls, [`save ${JSON.stringify({ gatewayUrl: conn.gatewayUrl, gatewayToken: conn.gatewayToken })}`, 'reconnect']);
  assert.ok(s.lines.some((l) => l.startsWith('gateway configured ')));
  assert.ok(!s.lines.some((l) => l.includes(conn.gatewayToken) || l.includes(KEY)), 'no secret in a log line');
});

void test('Clean seams (issue 16 #3): auto-configure points settings at what it wrote, and touches nothing when no rung matched', (t) => {
  const s = setup(t);
  const home = join(s.stateDir, '..', 'home');
  mkdirSync(home);
  const none = autoConfigureAndConnect({ stateDir: s.stateDir, vault: { get: () => null }, userHome: home, log: s.log }, s.target);
  assert.deepEqual(none, { ok: false, needsKey: true });
  assert.deepEqual(s.calls, []);

  const vault = { get: (name: string) => (name === 'ANTHROPIC_API_KEY' ? KEY : null) };
  const result = autoConfigureAndConnect({ stateDir: s.stateDir, vault, userHome: home, log: s.log }, s.target);
  assert.ok(result.ok);
  assert.equal(result.provider, 'anthropic');
  assert.deepEqual(s.calls, [`save ${JSON.stringify(result.settings)}`, 'reconnect']);
  assert.equal(s.env().OPENCLAW_GATEWAY_TOKEN, result.settings.gatewayToken);
  assert.ok(!s.lines.some((l) => l.includes(result.settings.gatewayToken) || l.includes(KEY)), 'no secret in a log line');
});
