// Security (issue 15 #4), end to end: svc runs as a child process with its
// own secrets in its environment, its vault and the gateway's .env, and its
// gateway URL pointing at a loopback WebSocket server that records every
// frame it receives. Whatever `${NAME}` the gateway token names, the gateway
// link never carries one of those secrets: a template naming one resolves to
// nothing and the literal text goes out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { SVC_SECRET_ENV_NAMES } from '../../shared/config.ts';
import { svcPaths } from '../../shared/paths.ts';
import { createVault } from '../../shared/vault/index.ts';
import { startServer, stopAfter, tempHome } from '../helpers/server.ts';

/** A stand-in gateway: challenges, accepts any connect, then closes (svc reconnects at once); keeps every frame. */
async function startRecorder() {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(server, 'listening');
  const frames: string[] = [];
  const tokens: unknown[] = [];
  const connects = new EventEmitter();
  server.on('connection', (ws) => {
    ws.on('message', (data) => {
      const text = data.toString();
      frames.push(text);
      let frame: { type?: string; id?: string; method?: string; params?: { auth?: { token?: unknown } } };
      try {
        frame = JSON.parse(text) as typeof frame;
      } catch {
        return; // recorded above; nothing to answer
      }
      if (frame.type !== 'req' || frame.method !== 'connect') return;
      ws.send(JSON.stringify({ type: 'res', id: frame.id, ok: true, payload: { server: { version: 'recorder' } } }));
      ws.close(1000, 'recorded');
      tokens.push(frame.params?.auth?.token ?? '');
      connects.emit('connect', frame.params?.auth?.token ?? '');
    });
    ws.send(JSON.stringify({ type: 'event', event: 'connect.challenge', payload: { nonce: randomBytes(16).toString('hex'), ts: Date.now() } }));
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    frames,
    /** Every connect's token, in order. */
    tokens,
    /**
     * Resolves at the first connect from now on that carries `expected`. svc
     * connects twice (the gateway link and the team-chat worker's own
     * connection), and a connection may reconnect with the settings it had
     * before it reads the new ones: what each token may be is checked over
     * all of `tokens` instead.
     */
    nextToken: (expected: string) =>
      new Promise<void>((resolve) => {
        const on = (seen: string) => {
          if (seen !== expected) return;
          connects.off('connect', on);
          resolve();
        };
        connects.on('connect', on);
      }),
    close: () => new Promise<void>((resolve) => {
      for (const c of server.clients) c.terminate();
      server.close(() => resolve());
    }),
  };
}

const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`;

void test('Security (issue 15 #4): a gateway token template never sends svc\'s secrets, provider keys or vault values to the gateway URL', { timeout: 120_000 }, async (t) => {
  const recorder = await startRecorder();
  t.after(() => recorder.close());
  const home = tempHome('svc-token-templates-');
  const stateDir = join(home, 'gateway-state');
  mkdirSync(stateDir, { recursive: true });

  // svc's own secret variables, each set in svc's environment.
  const env: Record<string, string> = {
    STUDIO_ACCESS_TOKEN: secret('access'),
    SVC_SECRETS_MASTER_KEY: randomBytes(32).toString('hex'),
    SVC_SEARCH_API_KEY: secret('search'),
    SVC_EMBEDDINGS_API_KEY: secret('embed'),
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${secret('otlp')}`,
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: `x-api-key=${secret('otlptraces')}`,
    // A provider key in the environment, and a name svc keeps in its vault (also exported).
    ANTHROPIC_API_KEY: secret('sk-ant'),
    MY_RUNTIME_KEY: secret('vault'),
  };
  assert.deepEqual(SVC_SECRET_ENV_NAMES.filter((n) => env[n] === undefined), [], 'every svc secret variable is set');
  const vault = createVault({ paths: svcPaths({ svcHome: home, dbPath: join(home, 'svc.db') }), masterKeyOverride: env.SVC_SECRETS_MASTER_KEY ?? null });
  vault.set('MY_RUNTIME_KEY', env.MY_RUNTIME_KEY ?? '');
  // Provider keys the gateway holds in its .env (a mapped one and an unmapped `<PROVIDER>_API_KEY`), and the control.
  const gatewayEnv = { GROQ_API_KEY: secret('gsk'), MYCORP_API_KEY: secret('corp'), GW_TOKEN_OK: secret('control') };
  writeFileSync(join(stateDir, '.env'), Object.entries(gatewayEnv).map(([k, v]) => `${k}=${v}`).join('\n'));

  const settingsFile = join(home, 'settings.json');
  const setToken = (token: string) => writeFileSync(settingsFile, JSON.stringify({ gateway: { url: recorder.url, token } }));
  const names = [...SVC_SECRET_ENV_NAMES, 'ANTHROPIC_API_KEY', 'MY_RUNTIME_KEY', 'GROQ_API_KEY', 'MYCORP_API_KEY'];
  const literal = (name: string) => `\${${name}}`;
  const [first, ...rest] = names as [string, ...string[]];
  // The first name is in place before svc starts; each later one is picked up on a reconnect.
  setToken(literal(first));
  const firstSent = recorder.nextToken(literal(first));
  const svc = stopAfter(t, await startServer({ home, env }));
  await firstSent;
  /** Sets the token and waits for a connect that carries `expected`. */
  const step = async (token: string, expected: string) => {
    const next = recorder.nextToken(expected);
    setToken(token);
    await next;
  };
  for (const name of rest) await step(literal(name), literal(name));
  // Every connect so far carried one of the templates as its literal text: none resolved.
  const literals = new Set(names.map(literal));
  assert.ok(recorder.tokens.every((x) => typeof x === 'string' && literals.has(x)), 'a template went out as something other than its literal text');
  // The same template in openclaw.json's gateway.auth.token, with no token in settings: nothing goes out.
  writeFileSync(join(stateDir, 'openclaw.json'), JSON.stringify({ gateway: { auth: { mode: 'token', token: '${STUDIO_ACCESS_TOKEN}' } } }));
  const beforeEmpty = recorder.tokens.length;
  await step('', '');
  assert.ok(recorder.tokens.slice(beforeEmpty).every((x) => x === '' || (typeof x === 'string' && literals.has(x))), 'a config template naming STUDIO_ACCESS_TOKEN sent a token');
  // Control: a template naming an ordinary variable does resolve, so the recorder would see a leak.
  await step('${GW_TOKEN_OK}', gatewayEnv.GW_TOKEN_OK);
  const received = recorder.frames.join('\n');
  assert.ok(received.includes(gatewayEnv.GW_TOKEN_OK), 'the recorder sees a resolved token');
  const secrets = { ...env, GROQ_API_KEY: gatewayEnv.GROQ_API_KEY, MYCORP_API_KEY: gatewayEnv.MYCORP_API_KEY };
  for (const [name, value] of Object.entries(secrets)) {
    // OTLP header values are compared by their credential part.
    const needle = value.includes('=') ? value.slice(value.indexOf('=') + 1).replace(/^Bearer /, '') : value;
    assert.ok(!received.includes(needle), `${name}'s value reached the gateway URL`);
    assert.ok(!svc.output().includes(needle), `${name}'s value is in svc's log`);
  }
  // The refusal is logged by name, once per name.
  for (const name of names) {
    const lines = svc.output().split('\n').filter((l) => l.includes('"variable":"' + name + '"'));
    assert.equal(lines.length, 1, `${name} is logged once: ${lines.length}`);
  }
});
