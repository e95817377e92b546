// Issue 16 #3: the gateway settings sync as plain functions
// (shared/gateway/settings-sync.ts), on temp folders with a recording target.
// What it must do is spec "POST /api/system/gateway" and "GET
// /api/system/status": settings follow the gateway's env-file token (as a
// `${NAME}` reference) and, after a start, its loopback port.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigLog } from '../../shared/gateway/config-file.ts';
import {
  connectSettingsTo, gatewaySettingsDrift, syncAfterGatewayStart, syncGatewaySettings,
  type GatewaySettingsSources, type GatewaySettingsTarget,
} from '../../shared/gateway/settings-sync.ts';
import { saveSettings, type LookupEnv, type SettingsPatch } from '../../shared/settings/index.ts';

const TOKEN = 'gw-token-0123456789abcdef0123456789';

function setup(t: TestContext, opts: { env?: string; settings?: SettingsPatch; lookupEnv?: LookupEnv } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-settings-sync-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const gatewayStateDir = join(dir, 'openclaw');
  mkdirSync(gatewayStateDir);
  if (opts.env !== undefined) writeFileSync(join(gatewayStateDir, '.env'), opts.env);
  const settingsFile = join(dir, 'svc', 'settings.json');
  if (opts.settings) saveSettings(settingsFile, opts.settings);
  const src: GatewaySettingsSources = { gatewayStateDir, settingsFile, lookupEnv: opts.lookupEnv ?? (() => undefined) };
  const calls: string[] = [];
  const lines: string[] = [];
  const log: ConfigLog = { info: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`), warn: (f, m) => void lines.push(`${m} ${JSON.stringify(f)}`) };
  const target: GatewaySettingsTarget = {
    save: (patch) => {
      calls.push(`save ${JSON.stringify(patch)}`);
      saveSettings(settingsFile, patch);
    },
    reconnect: () => void calls.push('reconnect'),
  };
  const stored = () => (JSON.parse(readFileSync(settingsFile, 'utf8')) as { gateway: { url?: string; token?: string } }).gateway;
  return { src, calls, lines, log, target, stored };
}

void test('Clean seams (issue 16 #3): the env-file token lands in settings as a ${NAME} reference, once, and its value is never logged', (t) => {
  const s = setup(t, { env: `OPENCLAW_GATEWAY_TOKEN=${TOKEN}\n` });
  assert.deepEqual(gatewaySettingsDrift(s.src, null), { patch: { gatewayToken: '${OPENCLAW_GATEWAY_TOKEN}' }, tokenVariable: 'OPENCLAW_GATEWAY_TOKEN' });
  assert.equal(syncGatewaySettings(s.src, null, s.target.save, s.log), true);
  assert.equal(s.stored().token, '${OPENCLAW_GATEWAY_TOKEN}');
  assert.equal(syncGatewaySettings(s.src, null, s.target.save, s.log), false, 'settings already resolve to the token');
  assert.deepEqual(s.calls, ['save {"gatewayToken":"${OPENCLAW_GATEWAY_TOKEN}"}'], 'one save, no reconnect');
  assert.equal(s.lines.length, 1);
  assert.match(s.lines[0] ?? '', /^gateway settings synced .*"tokenVariable":"OPENCLAW_GATEWAY_TOKEN"/);
  assert.ok(!s.lines.some((l) => l.includes(TOKEN)), 'no token value in a log line');
});

void test('Clean seams (issue 16 #3): the legacy GATEWAY_AUTH_TOKEN is referenced when it is the only one; an environment value that already matches changes nothing', (t) => {
  const legacy = setup(t, { env: `GATEWAY_AUTH_TOKEN=${TOKEN}\nOPENCLAW_GATEWAY_TOKEN=  \n` });
  assert.deepEqual(gatewaySettingsDrift(legacy.src, null).patch, { gatewayToken: '${GATEWAY_AUTH_TOKEN}' });

  // svc's environment wins over the file (the gateway inherits it): settings that resolve to it are right.
  const fromEnv = setup(t, {
    env: 'OPENCLAW_GATEWAY_TOKEN=from-the-file\n',
    settings: { gatewayToken: '${OPENCLAW_GATEWAY_TOKEN}' },
    lookupEnv: (n) => (n === 'OPENCLAW_GATEWAY_TOKEN' ? TOKEN : undefined),
  });
  assert.deepEqual(gatewaySettingsDrift(fromEnv.src, null), { patch: {}, tokenVariable: null });

  const none = setup(t);
  assert.equal(syncGatewaySettings(none.src, null, none.target.save, none.log), false, 'no env file: nothing to sync');
  assert.deepEqual(none.calls, []);
});

void test('Clean seams (issue 16 #3): after a start, a loopback settings URL follows the port; a remote URL is kept', (t) => {
  const local = setup(t, { settings: { gatewayUrl: 'ws://127.0.0.1:18789' } });
  assert.deepEqual(gatewaySettingsDrift(local.src, 19001).patch, { gatewayUrl: 'ws://localhost:19001', rebindToken: true });
  assert.deepEqual(gatewaySettingsDrift(local.src, 18789).patch, {}, 'same port');
  assert.deepEqual(gatewaySettingsDrift(local.src, null).patch, {}, 'no port known (status): the URL is not touched');

  const remote = setup(t, { settings: { gatewayUrl: 'wss://gateway.example.test' } });
  assert.deepEqual(gatewaySettingsDrift(remote.src, 19001).patch, {});
  const loopbackTls = setup(t, { settings: { gatewayUrl: 'wss://localhost' } });
  assert.deepEqual(gatewaySettingsDrift(loopbackTls.src, 443).patch, {}, 'wss without a port is 443');
});

void test('Clean seams (issue 16 #3): after a start settings are saved, then svc reconnects, even when nothing changed', (t) => {
  const s = setup(t, { env: `OPENCLAW_GATEWAY_TOKEN=${TOKEN}\n`, settings: { gatewayUrl: 'ws://localhost:18789' } });
  syncAfterGatewayStart(s.src, 19002, s.target, s.log);
  assert.deepEqual(s.calls, ['save {"gatewayToken":"${OPENCLAW_GATEWAY_TOKEN}","gatewayUrl":"ws://localhost:19002","rebindToken":true}', 'reconnect']);
  assert.deepEqual(s.stored(), { url: 'ws://localhost:19002', token: '${OPENCLAW_GATEWAY_TOKEN}' });
  s.calls.length = 0;
  syncAfterGatewayStart(s.src, 19002, s.target, s.log);
  assert.deepEqual(s.calls, ['reconnect'], 'a restarted gateway is a new process');
});

void test('Clean seams (issue 16 #3): a failing settings save after a start is logged and does not throw (best effort)', (t) => {
  const s = setup(t, { env: `OPENCLAW_GATEWAY_TOKEN=${TOKEN}\n` });
  const target: GatewaySettingsTarget = {
    save: () => {
      throw new Error('EACCES: settings.json');
    },
    reconnect: () => void s.calls.push('reconnect'),
  };
  assert.doesNotThrow(() => syncAfterGatewayStart(s.src, null, target, s.log));
  assert.equal(s.lines.length, 1);
  assert.match(s.lines[0] ?? '', /^token sync after gateway start failed /);
  assert.deepEqual(s.calls, [], 'no reconnect to settings that were not saved');
});

void test('Clean seams (issue 16 #3): connecting settings to a configured gateway saves URL and token, then reconnects', (t) => {
  const s = setup(t);
  connectSettingsTo({ gatewayUrl: 'ws://localhost:18800', gatewayToken: TOKEN }, s.target);
  connectSettingsTo({ gatewayUrl: 'ws://localhost:18801' }, s.target);
  assert.deepEqual(s.calls, [
    `save {"gatewayUrl":"ws://localhost:18800","gatewayToken":"${TOKEN}"}`,
    'reconnect',
    'save {"gatewayUrl":"ws://localhost:18801","rebindToken":true}',
    'reconnect',
  ]);
  assert.deepEqual(s.stored(), { url: 'ws://localhost:18801', token: TOKEN }, 'a URL-only change keeps the token');
});
