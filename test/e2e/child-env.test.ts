// Issue 15 #2: svc's own secrets never reach the programs it runs. svc runs
// as a child process with its secrets in its environment (access token,
// vault key, search and embeddings keys, OTLP headers, another SVC_*
// setting) next to variables its children legitimately need. Stand-ins for
// the gateway CLI (SVC_GATEWAY_CLI) and for `npm` (first on PATH) write the
// environment they were given to a file; the real routes and the real
// gateway-host worker run them: status (`--version`), gateway start
// (`gateway run`), approve-device (`devices list --json`), install-gateway
// (`npm install -g`) and self-update (`npm install -g`, `npm prefix -g`, then
// svc's own launcher, the one child that keeps svc's settings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { startServer, stopAfter, tempHome } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

const tag = randomBytes(6).toString('hex');
/** svc's own secrets and settings: none may appear in what a child (other than svc itself) saw. */
const SECRETS: Record<string, string> = {
  STUDIO_ACCESS_TOKEN: `access-${tag}`,
  SVC_SECRETS_MASTER_KEY: randomBytes(32).toString('hex'),
  SVC_SEARCH_API_KEY: `search-${tag}`,
  SVC_EMBEDDINGS_API_KEY: `embeddings-${tag}`,
  OTEL_EXPORTER_OTLP_HEADERS: `authorization=otlp-${tag}`,
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: `authorization=otlp-traces-${tag}`,
  SVC_SOME_SETTING: `svc-setting-${tag}`,
};
/** What children may see, by who they are. */
const EVERYONE = { LANG: 'C.UTF-8', TZ: 'Europe/Paris', HTTPS_PROXY: 'http://127.0.0.1:9', LC_IDENTIFICATION: `lc-${tag}` };
const GATEWAY_ONLY = { ANTHROPIC_API_KEY: `sk-ant-${tag}` };
const GATEWAY_AND_CLI = { OPENCLAW_LOG_LEVEL: `oc-${tag}` };
const NPM_ONLY = { npm_config_svc_test_marker: `npm-${tag}` };

/** A shell script that writes its environment to `<dumps>/<name>-<pid>.env`, then does `body`. */
function standIn(file: string, dumps: string, cases: string): void {
  writeFileSync(file, `#!/bin/sh
# Written whole, then renamed: the test may be reading the folder meanwhile.
dump() { env > "${dumps}/.$1-$$.tmp" && mv "${dumps}/.$1-$$.tmp" "${dumps}/$1-$$.env"; }
${cases}
`);
  chmodSync(file, 0o755);
}

function readDumps(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.env'))) out.set(f.replace(/-\d+\.env$/, ''), readFileSync(join(dir, f), 'utf8'));
  return out;
}

const has = (env: string, vars: Record<string, string>) => Object.entries(vars).every(([k, v]) => env.includes(`${k}=${v}`));
const leaked = (env: string) => Object.entries(SECRETS).filter(([, v]) => env.includes(v)).map(([k]) => k);

async function frames(res: Response): Promise<Array<Record<string, unknown>>> {
  const text = await res.text();
  return text.split('\n\n').filter((b) => b.startsWith('data: ')).map((b) => JSON.parse(b.slice(6)) as Record<string, unknown>);
}

void test("Security (issue 15 #2): the gateway, its CLI and npm get an allowlisted environment without svc's secrets; only svc's own launcher keeps them", async (t) => {
  const home = tempHome('svc-child-env-');
  const dumps = join(home, 'dumps');
  const bin = join(home, 'bin');
  const prefix = join(home, 'prefix');
  mkdirSync(dumps);
  mkdirSync(bin);
  mkdirSync(join(prefix, 'bin'), { recursive: true });
  const cli = join(bin, 'openclaw');
  standIn(cli, dumps, `case "$1 $2" in
  "--version "*) dump cli-version; echo "OpenClaw 2026.9.6 (test)";;
  "devices list") dump cli-devices; echo '{"pending":[],"paired":[]}';;
  "gateway run") dump gateway; exit 3;;
  *) exit 9;;
esac`);
  standIn(join(bin, 'npm'), dumps, `case "$1" in
  install) dump npm-install; echo "added 1 package";;
  prefix) dump npm-prefix; echo "${prefix}";;
  *) exit 9;;
esac`);
  // The "new release" of svc that self-update restarts into.
  standIn(join(prefix, 'bin', 'svc'), dumps, 'dump svc-restart');

  const s = stopAfter(t, await startServer({
    home,
    env: {
      ...SECRETS, ...EVERYONE, ...GATEWAY_ONLY, ...GATEWAY_AND_CLI, ...NPM_ONLY,
      PATH: [bin, process.env.PATH ?? ''].join(delimiter),
      SVC_GATEWAY_CLI: cli,
      SVC_GATEWAY_PACKAGE: 'openclaw@2026.9.6',
      SVC_UPDATE_PACKAGE: '@acme/svc-test',
    },
  }));
  const token = SECRETS.STUDIO_ACCESS_TOKEN as string;
  const call = (path: string, body?: unknown) =>
    fetch(`${s.base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });

  const status = await call('/api/system/status');
  assert.equal(status.status, 200, await status.clone().text());
  assert.equal(((await status.json()) as { gatewayCli: { version: string } }).gatewayCli.version, '2026.9.6');
  const start = await frames(await call('/api/system/gateway', { action: 'start' }));
  assert.equal(start.at(-1)?.code, 'SPAWN_ERROR', JSON.stringify(start));
  assert.equal((await call('/api/system/approve-device', {})).status, 404);
  const install = await frames(await call('/api/system/install-gateway', {}));
  assert.deepEqual(install.at(-1), { type: 'complete', success: true, version: '2026.9.6' });
  const update = await frames(await call('/api/system/self-update', {}));
  assert.equal(update.at(-1)?.type, 'complete', JSON.stringify(update));
  // The restart runs a second after the stream ended: wait for its file.
  await waitFor(() => readdirSync(dumps).some((f) => f.startsWith('svc-restart-') && f.endsWith('.env')), { what: 'the restart launcher to record its environment' });

  const seen = readDumps(dumps);
  assert.deepEqual([...seen.keys()].sort(), ['cli-devices', 'cli-version', 'gateway', 'npm-install', 'npm-prefix', 'svc-restart']);
  for (const [who, env] of seen) {
    if (who === 'svc-restart') continue;
    assert.deepEqual(leaked(env), [], `${who} saw svc's own variables`);
    assert.ok(has(env, EVERYONE), `${who} got the locale, time zone and proxy`);
    assert.ok(env.includes(`PATH=${bin}${delimiter}`), `${who} got PATH`);
    assert.ok(/^HOME=/m.test(env), `${who} got HOME`);
  }
  const env = (who: string) => seen.get(who) as string;
  assert.ok(has(env('gateway'), GATEWAY_AND_CLI), 'the gateway gets its own variables');
  // Model routing is on (the default): the gateway's calls reach the provider through svc, which holds the keys (issue 31, item 10).
  assert.ok(!has(env('gateway'), GATEWAY_ONLY), 'while svc routes model calls, the gateway gets no provider key from svc');
  assert.ok(has(env('gateway'), { OPENCLAW_STATE_DIR: join(home, 'gateway-state') }));
  // svc supervises the gateway: a full restart stays in its process, with the pid svc holds.
  assert.ok(has(env('gateway'), { OPENCLAW_NO_RESPAWN: '1' }), 'the gateway restarts in its process, never as a new pid');
  for (const who of ['cli-version', 'cli-devices']) {
    assert.ok(has(env(who), GATEWAY_AND_CLI), `${who}: the CLI gets the gateway's variables`);
    assert.ok(!has(env(who), GATEWAY_ONLY) && !has(env(who), NPM_ONLY), `${who}: but no provider key, no npm setting`);
  }
  for (const who of ['npm-install', 'npm-prefix']) {
    assert.ok(has(env(who), NPM_ONLY), `${who}: npm gets its own settings`);
    assert.ok(!has(env(who), GATEWAY_ONLY) && !has(env(who), GATEWAY_AND_CLI), `${who}: but nothing of the gateway's`);
  }
  // svc starting svc: the restarted server needs its access token and settings.
  assert.deepEqual(leaked(env('svc-restart')).sort(), Object.keys(SECRETS).sort(), env('svc-restart'));
});
