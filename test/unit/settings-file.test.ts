// Settings file, POST /api/settings validation and gateway token resolution
// (spec "Settings file", "POST /api/settings", "Gateway files").
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc } from '../helpers/fc.ts';
import {
  DEFAULT_GATEWAY_URL,
  parseDotenv,
  readGatewayConfig,
  readGatewayEnv,
  readSettings,
  readStudioAccessToken,
  resolveGatewaySettings,
  saveSettings,
  settingsView,
  validateSettingsPatch,
  type LookupEnv,
} from '../../shared/settings/index.ts';
import { SVC_SECRET_ENV_NAMES } from '../../shared/config.ts';
import { raceWriters } from '../helpers/concurrent-writer.ts';

const TOKEN = 'tok-5f2c9e81aa';

function setup(t: TestContext) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-settings-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const gatewayStateDir = join(dir, 'gateway');
  mkdirSync(gatewayStateDir);
  const settingsFile = join(dir, 'state', 'settings.json');
  return { dir, settingsFile, gatewayStateDir };
}

const envOf = (vars: Record<string, string>): LookupEnv => (name) => vars[name];
const noEnv: LookupEnv = () => undefined;
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const writeSettings = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
};

void test('Settings file: defaults with no file, and reading does not create it', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  const view = settingsView({ settingsFile, gatewayStateDir, lookupEnv: noEnv });
  assert.deepEqual(view, { gatewayUrl: 'ws://localhost:18789', hasToken: false, firstRunDismissedAt: null });
  assert.deepEqual(resolveGatewaySettings({ settingsFile, gatewayStateDir, lookupEnv: noEnv }), {
    gatewayUrl: DEFAULT_GATEWAY_URL, token: '', tokenSource: 'none',
  });
  assert.equal(readSettings(settingsFile).corrupt, false);
  assert.equal(existsSync(settingsFile), false);
});

void test('Settings file: created on first save, 0600 in a 0700 directory, no temp file left', (t) => {
  const { settingsFile } = setup(t);
  saveSettings(settingsFile, { gatewayToken: TOKEN });
  assert.equal(statSync(settingsFile).mode & 0o777, 0o600);
  assert.equal(statSync(join(settingsFile, '..')).mode & 0o777, 0o700);
  assert.deepEqual(readdirSync(join(settingsFile, '..')), ['settings.json']);
  assert.deepEqual(readJson(settingsFile), { gateway: { token: TOKEN } });
});

void test('Settings file: a save writes only provided fields and keeps others and unknown keys', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  writeSettings(settingsFile, {
    gateway: { url: 'wss://gw.example:9000', token: TOKEN, extra: 1 },
    studioAccessToken: 'acc',
    firstRunDismissedAt: 5,
    custom: { keep: true },
  });
  saveSettings(settingsFile, { firstRunDismissedAt: 42 });
  saveSettings(settingsFile, { gatewayUrl: 'ws://10.0.0.7:1234/path' });
  // The URL moved to another origin without a token: the token stays, bound to the origin it was given for (issue 31, item 6).
  assert.deepEqual(readJson(settingsFile), {
    gateway: { url: 'ws://10.0.0.7:1234/path', token: TOKEN, tokenFor: 'wss://gw.example:9000', extra: 1 },
    studioAccessToken: 'acc',
    firstRunDismissedAt: 42,
    custom: { keep: true },
  });
  assert.deepEqual(settingsView({ settingsFile, gatewayStateDir, lookupEnv: noEnv }), {
    gatewayUrl: 'ws://10.0.0.7:1234/path', hasToken: false, tokenNeededFor: 'ws://10.0.0.7:1234', firstRunDismissedAt: 42,
  });
});

void test('POST /api/settings: empty strings clear the URL (back to default) and the token', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  saveSettings(settingsFile, { gatewayUrl: 'wss://x.example', gatewayToken: TOKEN });
  const v = validateSettingsPatch({ gatewayUrl: '', gatewayToken: '' });
  assert.deepEqual(v, { ok: true, patch: { gatewayUrl: '', gatewayToken: '' } });
  if (v.ok) saveSettings(settingsFile, v.patch);
  assert.deepEqual(settingsView({ settingsFile, gatewayStateDir, lookupEnv: noEnv }), {
    gatewayUrl: DEFAULT_GATEWAY_URL, hasToken: false, firstRunDismissedAt: null,
  });
});

void test('POST /api/settings: firstRunDismissedAt applies only when a finite number', (t) => {
  const { settingsFile } = setup(t);
  saveSettings(settingsFile, { firstRunDismissedAt: 7 });
  for (const bad of ['123', null, true, NaN, Infinity, {}]) {
    const v = validateSettingsPatch({ firstRunDismissedAt: bad });
    assert.deepEqual(v, { ok: true, patch: {} }, String(bad));
    if (v.ok) saveSettings(settingsFile, v.patch);
  }
  assert.equal(readSettings(settingsFile).settings.firstRunDismissedAt, 7);
  assert.deepEqual(validateSettingsPatch({ firstRunDismissedAt: 0 }), { ok: true, patch: { firstRunDismissedAt: 0 } });
});

void test('POST /api/settings: exact error messages; ws/wss accepted, http and garbage rejected', () => {
  for (const body of [null, undefined, [], [1], 'x', 3, true]) {
    assert.deepEqual(validateSettingsPatch(body), { ok: false, error: 'JSON body required' }, JSON.stringify(body));
  }
  const badUrl = { ok: false, error: 'gatewayUrl must be a ws:// or wss:// URL' };
  for (const gatewayUrl of ['http://localhost:18789', 'https://x', 'localhost:18789', 'not a url', 'ws://', 42, null]) {
    assert.deepEqual(validateSettingsPatch({ gatewayUrl }), badUrl, String(gatewayUrl));
  }
  for (const gatewayUrl of ['ws://localhost:18789', 'wss://gw.example.com/x', 'ws://[::1]:9', ' WS://host ']) {
    const v = validateSettingsPatch({ gatewayUrl });
    assert.equal(v.ok, true, gatewayUrl);
  }
  // A non-string token is ignored, not rejected; the other fields still apply.
  assert.deepEqual(validateSettingsPatch({ gatewayToken: 5, gatewayUrl: 'ws://h' }), {
    ok: true, patch: { gatewayUrl: 'ws://h' },
  });
  assert.deepEqual(validateSettingsPatch({}), { ok: true, patch: {} });
});

void test('Settings file: a ${NAME} token resolves from the environment first', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  saveSettings(settingsFile, { gatewayToken: '${MY_TOKEN}' });
  writeFileSync(join(gatewayStateDir, '.env'), 'MY_TOKEN=from-file\n');
  const lookupEnv = envOf({ MY_TOKEN: TOKEN });
  assert.deepEqual(resolveGatewaySettings({ settingsFile, gatewayStateDir, lookupEnv }), {
    gatewayUrl: DEFAULT_GATEWAY_URL, token: TOKEN, tokenSource: 'env',
  });
});

void test('Settings file: an unset ${NAME} resolves from the gateway .env file', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  saveSettings(settingsFile, { gatewayToken: '${MY_TOKEN}', gatewayUrl: 'ws://gw:1' });
  writeFileSync(join(gatewayStateDir, '.env'), `# gateway\nexport MY_TOKEN="${TOKEN}"\n`);
  writeFileSync(join(gatewayStateDir, 'openclaw.json'), '{"gateway":{"port":1,"auth":{"token":"cfg"}}}');
  assert.deepEqual(resolveGatewaySettings({ settingsFile, gatewayStateDir, lookupEnv: noEnv }), {
    gatewayUrl: 'ws://gw:1', token: TOKEN, tokenSource: 'gateway-env',
  });
});

void test('Settings file: with no usable token the gateway config supplies token and port', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  saveSettings(settingsFile, { gatewayToken: '${UNSET_VAR}', gatewayUrl: 'wss://stored:1' });
  writeFileSync(join(gatewayStateDir, 'openclaw.json'), JSON.stringify({ gateway: { port: 19001, auth: { token: TOKEN } } }));
  const opts = { settingsFile, gatewayStateDir, lookupEnv: noEnv };
  assert.deepEqual(resolveGatewaySettings(opts), { gatewayUrl: 'ws://localhost:19001', token: TOKEN, tokenSource: 'gateway-config' });
  // An empty stored token falls back the same way.
  saveSettings(settingsFile, { gatewayToken: '' });
  assert.equal(resolveGatewaySettings(opts).tokenSource, 'gateway-config');
  // Without a numeric port the stored URL is kept.
  writeFileSync(join(gatewayStateDir, 'openclaw.json'), JSON.stringify({ gateway: { port: '19001', auth: { token: TOKEN } } }));
  assert.deepEqual(resolveGatewaySettings(opts), { gatewayUrl: 'wss://stored:1', token: TOKEN, tokenSource: 'gateway-config' });
});

void test('Settings file: a literal stored token wins over the gateway config', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  saveSettings(settingsFile, { gatewayToken: TOKEN });
  writeFileSync(join(gatewayStateDir, 'openclaw.json'), '{"gateway":{"port":2,"auth":{"token":"other"}}}');
  assert.deepEqual(resolveGatewaySettings({ settingsFile, gatewayStateDir, lookupEnv: noEnv }), {
    gatewayUrl: DEFAULT_GATEWAY_URL, token: TOKEN, tokenSource: 'settings',
  });
});

void test('Settings file: an unresolvable template with no config is used literally', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  saveSettings(settingsFile, { gatewayToken: '${NOPE}' });
  const opts = { settingsFile, gatewayStateDir, lookupEnv: noEnv };
  assert.deepEqual(resolveGatewaySettings(opts), { gatewayUrl: DEFAULT_GATEWAY_URL, token: '${NOPE}', tokenSource: 'literal' });
  assert.equal(settingsView(opts).hasToken, true);
});

void test('Gateway files: a config token that is itself a template resolves via env, then .env', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  writeFileSync(join(gatewayStateDir, 'openclaw.json'), '{"gateway":{"port":18800,"auth":{"token":"${OPENCLAW_GATEWAY_TOKEN}"}}}');
  const opts = { settingsFile, gatewayStateDir };
  const viaEnv = resolveGatewaySettings({ ...opts, lookupEnv: envOf({ OPENCLAW_GATEWAY_TOKEN: TOKEN }) });
  assert.deepEqual(viaEnv, { gatewayUrl: 'ws://localhost:18800', token: TOKEN, tokenSource: 'gateway-config' });
  // Unresolvable config template: the config supplies nothing.
  assert.equal(resolveGatewaySettings({ ...opts, lookupEnv: noEnv }).tokenSource, 'none');
  writeFileSync(join(gatewayStateDir, '.env'), `OPENCLAW_GATEWAY_TOKEN='${TOKEN}'\n`);
  assert.deepEqual(resolveGatewaySettings({ ...opts, lookupEnv: noEnv }).token, TOKEN);
});

void test('Gateway files: config with comments and trailing commas; strings keep // and commas', (t) => {
  const { gatewayStateDir } = setup(t);
  writeFileSync(join(gatewayStateDir, 'openclaw.json'), `{
  // the gateway
  "gateway": { /* inline */ "port": 18789,
    "auth": { "token": "a//b,}" , }, // trailing
    "bind": "http://x/*y*/", },
  "list": [1, 2, /* c */ ],
}`);
  const r = readGatewayConfig(gatewayStateDir);
  assert.equal(r.corrupt, false);
  assert.deepEqual(r.config, { gateway: { port: 18789, auth: { token: 'a//b,}' }, bind: 'http://x/*y*/' }, list: [1, 2] });
  assert.deepEqual(readGatewayConfig(join(gatewayStateDir, 'absent')), { config: null, corrupt: false });
  writeFileSync(join(gatewayStateDir, 'openclaw.json'), '{"gateway": ');
  assert.deepEqual(readGatewayConfig(gatewayStateDir), { config: null, corrupt: true });
  writeFileSync(join(gatewayStateDir, 'openclaw.json'), '[1]');
  assert.deepEqual(readGatewayConfig(gatewayStateDir), { config: null, corrupt: true });
});

void test('Settings file: a corrupt settings.json reads as defaults, is reported without its contents, and is replaced on save', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  for (const text of [`{"gateway":{"token":"${TOKEN}"`, `xx ${TOKEN}`, '[1,2]', 'null']) {
    writeSettings(settingsFile, text);
    const errors: Error[] = [];
    const opts = { settingsFile, gatewayStateDir, lookupEnv: noEnv, onCorrupt: (e: Error) => errors.push(e) };
    assert.deepEqual(settingsView(opts), { gatewayUrl: DEFAULT_GATEWAY_URL, hasToken: false, firstRunDismissedAt: null });
    assert.equal(readSettings(settingsFile).corrupt, true);
    assert.ok(errors.length > 0, text);
    for (const e of errors) assert.ok(!e.message.includes(TOKEN) && !String(e.stack).includes(TOKEN));
  }
  saveSettings(settingsFile, { firstRunDismissedAt: 1 });
  assert.deepEqual(readJson(settingsFile), { firstRunDismissedAt: 1 });
});

void test('Settings file: readStudioAccessToken reads the top-level value, blank is null', (t) => {
  const { settingsFile } = setup(t);
  assert.equal(readStudioAccessToken(settingsFile), null);
  writeSettings(settingsFile, { studioAccessToken: '  acc-1  ' });
  assert.equal(readStudioAccessToken(settingsFile), 'acc-1');
  writeSettings(settingsFile, { studioAccessToken: '   ' });
  assert.equal(readStudioAccessToken(settingsFile), null);
  writeSettings(settingsFile, '{oops');
  assert.equal(readStudioAccessToken(settingsFile), null);
});

void test('Gateway files: dotenv with quotes, export, comments and blank lines', (t) => {
  const text = [
    '# comment', '', 'A=1', 'export B = two words ', 'C="quoted # not comment"', "D='single $X'",
    'E=value # trailing comment', 'F=', 'G="line\\nbreak"', 'not a line', 'A=last-wins', 'H=a=b', 'I="x" # c',
  ].join('\r\n');
  assert.deepEqual(parseDotenv(text), {
    A: 'last-wins', B: 'two words', C: 'quoted # not comment', D: 'single $X', E: 'value', F: '',
    G: 'line\nbreak', H: 'a=b', I: 'x',
  });
  const { gatewayStateDir } = setup(t);
  assert.deepEqual(readGatewayEnv(gatewayStateDir), {});
  writeFileSync(join(gatewayStateDir, '.env'), 'K=v\n');
  assert.deepEqual(readGatewayEnv(gatewayStateDir), { K: 'v' });
});

void test('Gateway files: a serialised map of safe keys and values parses back (property)', () => {
  const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);
  const value = fc.stringMatching(/^[A-Za-z0-9 #=:/.@$_-]{0,20}$/);
  const entry = fc.record({ value, style: fc.constantFrom('plain', 'single', 'double'), exported: fc.boolean() });
  fc.assert(
    fc.property(fc.dictionary(key, entry), fc.boolean(), (map, withNoise) => {
      const lines: string[] = [];
      for (const [k, { value: v, style, exported }] of Object.entries(map)) {
        // Unquoted values are trimmed and lose a ` #` comment, so those need quotes.
        const plainSafe = v === v.trim() && !/\s#/.test(v) && !v.startsWith('#');
        const q = style === 'single' ? "'" : style === 'double' || !plainSafe ? '"' : '';
        if (withNoise) lines.push('# note', '');
        lines.push(`${exported ? 'export ' : ''}${k}=${q}${v}${q}`);
      }
      const expected = Object.fromEntries(Object.entries(map).map(([k, e]) => [k, e.value]));
      assert.deepEqual(parseDotenv(lines.join('\n')), expected);
    }),
  );
});

void test('Security (issue 15 #4): a ${NAME} template naming svc\'s own secrets, a provider key or a vault name never resolves', (t) => {
  const { settingsFile, gatewayStateDir } = setup(t);
  const secretNames = [...SVC_SECRET_ENV_NAMES, 'studio_access_token', 'ANTHROPIC_API_KEY', 'GOOGLE_API_KEY', 'CUSTOM_API_KEY', 'MYCORP_API_KEY', 'MY_VAULT_KEY'];
  const values = Object.fromEntries(secretNames.map((n, i) => [n, `secret-value-${i}-abcdef`]));
  // Set everywhere a template reads from: the process environment and the gateway's .env.
  writeFileSync(join(gatewayStateDir, '.env'), secretNames.map((n) => `${n}=${values[n]}`).join('\n'));
  const refused: string[] = [];
  const policy = { heldSecretNames: () => ['my_vault_key'], onRefused: (n: string) => void refused.push(n) };
  for (const [i, name] of secretNames.entries()) {
    saveSettings(settingsFile, { gatewayToken: `\${${name}}` });
    for (const lookupEnv of [envOf(values), noEnv]) {
      const r = resolveGatewaySettings({ settingsFile, gatewayStateDir, lookupEnv, policy });
      assert.deepEqual(r, { gatewayUrl: DEFAULT_GATEWAY_URL, token: `\${${name}}`, tokenSource: 'literal' }, name);
      assert.ok(!Object.values(values).includes(r.token));
    }
    assert.equal(refused.at(-1), name);
    assert.equal(refused.length, 2 * (i + 1));
  }
  // The same names in openclaw.json's gateway.auth.token: nothing from the config either.
  saveSettings(settingsFile, { gatewayToken: '' });
  for (const name of secretNames) {
    writeFileSync(join(gatewayStateDir, 'openclaw.json'), JSON.stringify({ gateway: { port: 19002, auth: { token: `\${${name}}` } } }));
    const r = resolveGatewaySettings({ settingsFile, gatewayStateDir, lookupEnv: envOf(values), policy });
    assert.deepEqual(r, { gatewayUrl: DEFAULT_GATEWAY_URL, token: '', tokenSource: 'none' }, name);
  }
  // The gateway's own token variable still resolves, from either place.
  writeFileSync(join(gatewayStateDir, 'openclaw.json'), '{"gateway":{"port":19002,"auth":{"token":"${OPENCLAW_GATEWAY_TOKEN}"}}}');
  const ok = resolveGatewaySettings({ settingsFile, gatewayStateDir, lookupEnv: envOf({ OPENCLAW_GATEWAY_TOKEN: TOKEN }), policy });
  assert.deepEqual(ok, { gatewayUrl: 'ws://localhost:19002', token: TOKEN, tokenSource: 'gateway-config' });
});

void test('Security (issue 15 #18): two processes saving settings.json at once lose no update (lock file)', async (t) => {
  const { settingsFile } = setup(t);
  const count = 150;
  const lost = await raceWriters('settings', settingsFile, ['a', 'b'], count);
  assert.deepEqual(lost, [0, 0], 'a read right after a save found that save undone');
  const final = readSettings(settingsFile).settings;
  assert.equal(final.gatewayToken, `a-${count - 1}`);
  assert.equal(final.firstRunDismissedAt, count - 1);
  assert.deepEqual(readdirSync(join(settingsFile, '..')), ['settings.json'], 'no lock or temp file left');
});
