// shared/config.ts: the one reader of the environment. Spec "State directory",
// "Authentication" 1 and 7, "Command-line launcher" (port discovery), "Limits";
// issue 15 #2 (children's environments) and #19 (no default update package).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fc } from '../helpers/fc.ts';
import {
  childEnv, childEnvFrom, DEFAULT_APPROVAL_TTL_MS, expandTilde, isSvcOwnEnvName, loadConfig, parsePort, SVC_SECRET_ENV_NAMES, svcSelfEnv, type ChildKind,
} from '../../shared/config.ts';

const HOME = homedir();
const PKG_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

void test('State directory: the state directory defaults to ~/.svc and the database to <home>/svc.db', () => {
  const c = loadConfig({});
  assert.equal(c.svcHome, join(HOME, '.svc'));
  assert.equal(c.dbPath, join(HOME, '.svc', 'svc.db'));
  assert.equal(loadConfig({ SVC_HOME: '   ' }).svcHome, join(HOME, '.svc'), 'blank means unset');
  assert.ok(Object.isFrozen(c));
});

void test('State directory: SVC_HOME expands a leading tilde and resolves relative paths', () => {
  assert.equal(loadConfig({ SVC_HOME: '~/state-x' }).svcHome, join(HOME, 'state-x'));
  assert.equal(loadConfig({ SVC_HOME: '~' }).svcHome, HOME);
  assert.equal(loadConfig({ SVC_HOME: '/tmp/svc-abs' }).svcHome, '/tmp/svc-abs');
  assert.equal(loadConfig({ SVC_HOME: 'rel/dir' }).svcHome, resolve('rel/dir'));
  assert.equal(loadConfig({ SVC_HOME: '/tmp/h1' }).dbPath, '/tmp/h1/svc.db');
  assert.equal(expandTilde('~user/x'), '~user/x', 'only ~ and ~/ expand');
});

void test('State directory: SVC_DB_PATH overrides the database path, with tilde expansion', () => {
  assert.equal(loadConfig({ SVC_HOME: '/tmp/h2', SVC_DB_PATH: '/tmp/other.db' }).dbPath, '/tmp/other.db');
  assert.equal(loadConfig({ SVC_DB_PATH: '~/d/x.db' }).dbPath, join(HOME, 'd', 'x.db'));
  assert.equal(loadConfig({ SVC_HOME: '/tmp/h3', SVC_DB_PATH: '' }).dbPath, '/tmp/h3/svc.db');
});

void test('Command-line launcher: SVC_API_PORT pins a valid port; 0, 70000, abc and blank mean "scan"', () => {
  assert.equal(loadConfig({ SVC_API_PORT: '18795' }).apiPort, 18795);
  assert.equal(loadConfig({ SVC_API_PORT: ' 1 ' }).apiPort, 1);
  assert.equal(loadConfig({ SVC_API_PORT: '65535' }).apiPort, 65535);
  for (const bad of ['0', '70000', '65536', 'abc', '', '  ', '-1', '80.5', '0x50', '1e3', '+80', '123456']) {
    assert.equal(loadConfig({ SVC_API_PORT: bad }).apiPort, null, bad);
  }
  assert.equal(loadConfig({}).apiPort, null);
});

void test('Command-line launcher: parsePort accepts exactly the decimal integers 1..65535 (property)', () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 65535 }), fc.constantFrom('', ' ', '\t'), (n, pad) => {
    assert.equal(parsePort(`${pad}${n}${pad}`), n);
  }));
  fc.assert(fc.property(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 65536 })), (n) => {
    assert.equal(parsePort(String(n)), null);
  }));
  fc.assert(fc.property(fc.string(), (s) => {
    const p = parsePort(s);
    if (p === null) return;
    assert.ok(Number.isInteger(p) && p >= 1 && p <= 65535);
    assert.match(s.trim(), /^\d+$/);
    assert.equal(Number(s.trim()), p);
  }), { numRuns: 1000 });
  assert.equal(parsePort(undefined), null);
});

void test('Authentication 7: HOST sets the bind address (default 127.0.0.1); HOSTNAME is ignored', () => {
  assert.equal(loadConfig({}).host, '127.0.0.1');
  assert.equal(loadConfig({ HOSTNAME: 'box.example' }).host, '127.0.0.1');
  assert.equal(loadConfig({ HOST: ' 0.0.0.0 ', HOSTNAME: 'box.example' }).host, '0.0.0.0');
  assert.equal(loadConfig({ HOST: '' }).host, '127.0.0.1');
});

void test('Authentication 1: STUDIO_ACCESS_TOKEN unset or blank is null; a value is trimmed', () => {
  assert.equal(loadConfig({}).accessToken, null);
  assert.equal(loadConfig({ STUDIO_ACCESS_TOKEN: '' }).accessToken, null);
  assert.equal(loadConfig({ STUDIO_ACCESS_TOKEN: ' \t ' }).accessToken, null);
  assert.equal(loadConfig({ STUDIO_ACCESS_TOKEN: ' tok-1 ' }).accessToken, 'tok-1');
});

void test('Authentication 7: SVC_ALLOW_INSECURE is on only for exactly 1', () => {
  assert.equal(loadConfig({ SVC_ALLOW_INSECURE: '1' }).allowInsecure, true);
  for (const v of ['true', 'yes', '0', '', ' 1', '01']) assert.equal(loadConfig({ SVC_ALLOW_INSECURE: v }).allowInsecure, false, v);
  assert.equal(loadConfig({}).allowInsecure, false);
});

void test('Config: LOG_LEVEL is case-insensitive; an invalid level falls back to info', () => {
  assert.equal(loadConfig({ LOG_LEVEL: 'DEBUG' }).logLevel, 'debug');
  assert.equal(loadConfig({ LOG_LEVEL: 'silent' }).logLevel, 'silent');
  for (const v of ['verbose', '', '42']) assert.equal(loadConfig({ LOG_LEVEL: v }).logLevel, 'info', v);
  assert.equal(loadConfig({}).logLevel, 'info');
});

void test('State directory: the gateway state dir prefers OPENCLAW_STATE_DIR, then GATEWAY_STATE_DIR', () => {
  const both = loadConfig({ OPENCLAW_STATE_DIR: '/tmp/oc', GATEWAY_STATE_DIR: '/tmp/gw', CLAWDBOT_STATE_DIR: '/tmp/cb' });
  assert.equal(both.gatewayStateDir, '/tmp/oc');
  assert.equal(loadConfig({ GATEWAY_STATE_DIR: '/tmp/gw', CLAWDBOT_STATE_DIR: '/tmp/cb' }).gatewayStateDir, '/tmp/gw');
  assert.equal(loadConfig({ OPENCLAW_STATE_DIR: ' ', GATEWAY_STATE_DIR: '~/gw' }).gatewayStateDir, join(HOME, 'gw'));
  const fallback = loadConfig({}).gatewayStateDir;
  assert.ok(['.openclaw', '.clawdbot', '.moltbot'].map((d) => join(HOME, d)).includes(fallback), fallback);
});

void test('Limits: SVC_APPROVAL_TTL_MS takes a positive integer; anything else is the default', () => {
  assert.equal(DEFAULT_APPROVAL_TTL_MS, 600_000);
  assert.equal(loadConfig({ SVC_APPROVAL_TTL_MS: '1500' }).approvalTtlMs, 1500);
  for (const v of ['garbage', '0', '-5', '1.5', '', 'Infinity']) {
    assert.equal(loadConfig({ SVC_APPROVAL_TTL_MS: v }).approvalTtlMs, DEFAULT_APPROVAL_TTL_MS, v);
  }
});

void test('Limits: the stream poll interval defaults to 750 ms and rejects out-of-range values', () => {
  assert.equal(loadConfig({}).tailIntervalMs, 750);
  assert.equal(loadConfig({ SVC_TAIL_INTERVAL_MS: '50' }).tailIntervalMs, 50);
  assert.equal(loadConfig({ SVC_TAIL_INTERVAL_MS: '5' }).tailIntervalMs, 750);
});

void test('Command-line launcher: CI disables opening a browser even with a display', () => {
  assert.equal(loadConfig({ DISPLAY: ':0', CI: 'true' }).canOpenBrowser, false);
  assert.equal(loadConfig({ DISPLAY: ':0', CI: '1' }).canOpenBrowser, false);
  assert.equal(loadConfig({ WAYLAND_DISPLAY: 'wayland-0', CI: 'TRUE' }).canOpenBrowser, false);
  assert.equal(loadConfig({ DISPLAY: ':0' }).canOpenBrowser, true);
  assert.equal(loadConfig({ DISPLAY: ':0', CI: '0' }).canOpenBrowser, true);
  if (process.platform === 'linux') assert.equal(loadConfig({}).canOpenBrowser, false, 'no display on linux');
});

void test('Versioning: SVC_VERSION wins; otherwise the package version; NODE_ENV defaults to production', () => {
  assert.equal(loadConfig({ SVC_VERSION: '9.9.9' }).version, '9.9.9');
  assert.equal(loadConfig({}).version, PKG_VERSION);
  const c = loadConfig({});
  assert.equal(c.nodeEnv, 'production');
  assert.equal(c.isDevelopment, false);
  assert.equal(loadConfig({ NODE_ENV: 'development' }).isDevelopment, true);
});

void test('Config: OTLP headers are parsed as the OpenTelemetry spec writes them; the traces variable wins', () => {
  const c = loadConfig({
    OTEL_EXPORTER_OTLP_HEADERS: 'x-ignored=1',
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'Authorization=Basic%20cGs6c2s=, x-tenant = acme ,broken,=nokey',
  });
  assert.deepEqual({ ...c.otlpHeaders }, { Authorization: 'Basic cGs6c2s=', 'x-tenant': 'acme' });
  assert.deepEqual({ ...loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: 'a=b' }).otlpHeaders }, { a: 'b' });
  assert.deepEqual({ ...loadConfig({}).otlpHeaders }, {});
});

void test("Security (issue 15 #2): a child's environment is built from the allowlist for its kind, never svc's own variables", () => {
  const source: NodeJS.ProcessEnv = {
    PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8', LC_TIME: 'en_GB.UTF-8', TZ: 'UTC', https_proxy: 'http://proxy:3128',
    NODE_EXTRA_CA_CERTS: '/ca.pem', XDG_CONFIG_HOME: '/home/u/.config', SystemRoot: 'C:\\Windows',
    npm_config_prefix: '/p', NPM_CONFIG_CACHE: '/c', OPENCLAW_STATE_DIR: '/s', OPENCLAW_GATEWAY_TOKEN: 'gw-tok',
    ANTHROPIC_API_KEY: 'sk-ant', DISPLAY: ':0', AWS_SECRET_ACCESS_KEY: 'aws', GITHUB_TOKEN: 'ghp', NODE_OPTIONS: '--require x',
    STUDIO_ACCESS_TOKEN: 'access', SVC_SECRETS_MASTER_KEY: 'vault', SVC_SEARCH_API_KEY: 'search', SVC_EMBEDDINGS_API_KEY: 'emb',
    OTEL_EXPORTER_OTLP_HEADERS: 'authorization=x', otel_exporter_otlp_traces_headers: 'authorization=y', SVC_HOME: '/h', svc_other: 'o',
  };
  const base = ['HOME', 'LANG', 'LC_TIME', 'NODE_EXTRA_CA_CERTS', 'PATH', 'SystemRoot', 'TZ', 'XDG_CONFIG_HOME', 'https_proxy'];
  const keys = (kind: ChildKind) => Object.keys(childEnvFrom(source, {}, kind)).sort();
  assert.deepEqual(keys('system'), [...base].sort());
  assert.deepEqual(keys('npm'), [...base, 'NPM_CONFIG_CACHE', 'npm_config_prefix'].sort());
  assert.deepEqual(keys('gateway-cli'), [...base, 'OPENCLAW_GATEWAY_TOKEN', 'OPENCLAW_STATE_DIR'].sort());
  assert.deepEqual(keys('gateway'), [...base, 'ANTHROPIC_API_KEY', 'DISPLAY', 'OPENCLAW_GATEWAY_TOKEN', 'OPENCLAW_STATE_DIR'].sort());
  assert.deepEqual(keys('opener'), [...base, 'DISPLAY'].sort(), 'the browser opener: the desktop session only');
  assert.equal(childEnvFrom(source).HOME, '/home/u', 'values are copied as they are');
  // Overrides: added, replaced, removed; svc's own names are refused.
  const env = childEnvFrom(source, { OPENCLAW_STATE_DIR: '/other', HOME: undefined, EXTRA: '1' }, 'gateway-cli');
  assert.equal(env.OPENCLAW_STATE_DIR, '/other');
  assert.equal(env.HOME, undefined);
  assert.equal(env.EXTRA, '1');
  for (const name of ['STUDIO_ACCESS_TOKEN', 'SVC_SECRETS_MASTER_KEY', 'svc_home', 'OTEL_EXPORTER_OTLP_HEADERS']) {
    assert.throws(() => childEnvFrom(source, { [name]: 'x' }), /svc's own variable/, name);
  }
});

void test("Security (issue 15 #2): no secret or SVC_* variable ever reaches a child of any kind (property)", () => {
  const kinds: ChildKind[] = ['system', 'npm', 'gateway-cli', 'gateway', 'opener'];
  const own = fc.oneof(
    fc.constantFrom(...SVC_SECRET_ENV_NAMES),
    fc.stringMatching(/^[A-Za-z0-9_]{0,12}$/).map((rest) => `SVC_${rest}`),
  ).chain((n) => fc.constantFrom(n, n.toLowerCase()));
  fc.assert(fc.property(fc.dictionary(own, fc.string()), fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/), fc.string()), (mine, other) => {
    for (const kind of kinds) {
      const env = childEnvFrom({ ...other, ...mine }, {}, kind);
      for (const name of Object.keys(env)) assert.ok(!isSvcOwnEnvName(name), `${name} reached a ${kind} child`);
    }
  }));
});

void test("Security (issue 15 #2): svc starting svc (launcher, self-update's restart) keeps svc's settings: the one exception", () => {
  const saved = process.env.STUDIO_ACCESS_TOKEN;
  process.env.STUDIO_ACCESS_TOKEN = 'tok-for-the-restarted-server';
  try {
    assert.equal(svcSelfEnv().STUDIO_ACCESS_TOKEN, 'tok-for-the-restarted-server');
    assert.equal(svcSelfEnv({ SVC_HOME: '/h' }).SVC_HOME, '/h');
    assert.equal(childEnv().STUDIO_ACCESS_TOKEN, undefined);
  } finally {
    if (saved === undefined) delete process.env.STUDIO_ACCESS_TOKEN;
    else process.env.STUDIO_ACCESS_TOKEN = saved;
  }
});

void test('Security (issue 15 #19): SVC_UPDATE_PACKAGE has no default; a set value is used as written', () => {
  assert.equal(loadConfig({}).updatePackage, null);
  assert.equal(loadConfig({ SVC_UPDATE_PACKAGE: '  ' }).updatePackage, null, 'blank means unset');
  assert.equal(loadConfig({ SVC_UPDATE_PACKAGE: '@acme/svc' }).updatePackage, '@acme/svc');
});
