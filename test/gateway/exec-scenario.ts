// Spec "Smaller resources", exec settings and standing exec grants, against
// the real gateway svc is connected to. Not a test file: an e2e test that has
// a running svc and gateway calls execScenario(). It seeds the gateway's exec
// approvals document through the gateway itself, reads it through svc (which
// reads the gateway's database read-only), revokes, and writes an ask value.
// The document found at the start is written back at the end.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { waitFor } from '../helpers/wait.ts';

export interface ExecScenarioContext {
  svcBase: string;
  gatewayStateDir: string;
  call: (method: string, params?: unknown) => Promise<unknown>;
}

interface Snapshot {
  hash: string;
  file: { agents?: Record<string, Record<string, unknown>> } & Record<string, unknown>;
}

const GATEWAY_AGENT = 'main';
const RETRY_FOR_MS = 20_000;

const keyOf = (pattern: string, argPattern: string | null, source: string | null) =>
  createHash('sha256').update(JSON.stringify([pattern, argPattern, source])).digest('hex').slice(0, 16);
const markerOf = (command: string) => `=node-command:${createHash('sha256').update(command).digest('hex').slice(0, 16)}`;

async function snapshot(ctx: ExecScenarioContext): Promise<Snapshot> {
  const s = (await ctx.call('exec.approvals.get', {})) as Snapshot;
  assert.equal(typeof s.hash, 'string');
  assert.equal(typeof s.file, 'object');
  return s;
}

async function http(ctx: ExecScenarioContext, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${ctx.svcBase}${path}`, {
    method,
    signal: AbortSignal.timeout(30_000),
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
}

/** The gateway link may still be coming up: a 502 that says so is retried, as the spec advises. */
async function untilConnected(ctx: ExecScenarioContext, path: string, body: unknown) {
  let last: Awaited<ReturnType<typeof http>> | undefined;
  const notYet = (r: Awaited<ReturnType<typeof http>>) => r.status === 502 && (r.body.code === 'UNAVAILABLE' || r.body.gateway === 'unreachable');
  return waitFor(async () => {
    last = await http(ctx, 'POST', path, body);
    return notYet(last) ? undefined : last;
  }, { what: `the gateway link for POST ${path}`, timeoutMs: RETRY_FOR_MS, intervalMs: 500 }).catch((err: Error) => {
    // Still not connected: the caller's assertions show the last answer; with none at all, the wait's own error.
    if (last === undefined) throw err;
    return last;
  });
}

function socketToken(stateDir: string): string | null {
  const db = new Database(join(stateDir, 'state', 'openclaw.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const raw = db.prepare(`SELECT raw_json FROM exec_approvals_config WHERE config_key = 'current'`).pluck().get() as string | undefined;
    const token = raw === undefined ? undefined : (JSON.parse(raw) as { socket?: { token?: unknown } }).socket?.token;
    return typeof token === 'string' && token.length > 0 ? token : null;
  } finally {
    db.close();
  }
}

export async function execScenario(ctx: ExecScenarioContext): Promise<void> {
  const agentId = `exec-e2e-${Date.now().toString(36)}`;
  const created = await http(ctx, 'POST', '/api/agents', { id: agentId, name: 'Exec e2e', runtime: 'gateway', gatewayId: GATEWAY_AGENT });
  assert.equal(created.status, 200, created.text);

  const original = await snapshot(ctx);
  try {
    // Seed: two rows (one with a node-marker companion) in main, one in the wildcard.
    const agents = { ...(original.file.agents ?? {}) };
    agents[GATEWAY_AGENT] = {
      ...(agents[GATEWAY_AGENT] ?? {}),
      allowlist: [
        { pattern: '/usr/bin/uname', source: 'allow-always', lastUsedCommand: 'uname -m' },
        { pattern: markerOf('uname -m'), source: 'allow-always' },
        { pattern: '/usr/bin/git', argPattern: '^status$', source: 'allow-always' },
      ],
    };
    agents['*'] = { ...(agents['*'] ?? {}), allowlist: [{ pattern: '/usr/bin/date' }] };
    await ctx.call('exec.approvals.set', { file: { ...original.file, agents }, baseHash: original.hash });

    const UNAME = keyOf('/usr/bin/uname', null, 'allow-always');
    const MARKER = keyOf(markerOf('uname -m'), null, 'allow-always');
    const GIT = keyOf('/usr/bin/git', '^status$', 'allow-always');
    const DATE = keyOf('/usr/bin/date', null, null);

    // Read: ok, own bucket and wildcard apart, never the socket token.
    const token = socketToken(ctx.gatewayStateDir);
    assert.ok(token, 'the gateway keeps a socket token in its stored document');
    const read = await http(ctx, 'GET', `/api/exec-allowlist?agentId=${agentId}`);
    assert.equal(read.status, 200, read.text);
    assert.ok(!read.text.includes(token), 'the socket token is never returned');
    assert.equal(read.body.state, 'ok');
    assert.equal(read.body.gatewayAgentId, GATEWAY_AGENT);
    const keys = (list: unknown) => (list as Array<{ key: string }>).map((e) => e.key);
    assert.deepEqual(keys(read.body.entries), [UNAME, MARKER, GIT]);
    assert.ok(keys(read.body.wildcard).includes(DATE));
    assert.ok(!keys(read.body.entries).includes(DATE), 'the wildcard is never merged');

    // Revoke one row: its companion marker goes with it, verified against the gateway's reply.
    const revoked = await untilConnected(ctx, '/api/exec-allowlist/revoke', { agentId, keys: [UNAME] });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.body.outcome, 'revoked');
    assert.deepEqual(revoked.body.revokedKeys, [UNAME]);
    assert.deepEqual(revoked.body.companionKeys, [MARKER]);
    assert.equal(revoked.body.remaining, 1);
    assert.ok(!revoked.text.includes(token));
    const after = await snapshot(ctx);
    const rows = (after.file.agents?.[GATEWAY_AGENT]?.allowlist ?? []) as Array<{ pattern: string }>;
    assert.deepEqual(rows.map((r) => r.pattern), ['/usr/bin/git']);
    assert.ok(((after.file.agents?.['*']?.allowlist ?? []) as Array<{ pattern: string }>).some((r) => r.pattern === '/usr/bin/date'));

    const again = await http(ctx, 'POST', '/api/exec-allowlist/revoke', { agentId, keys: [UNAME] });
    assert.deepEqual([again.status, again.body.outcome, again.body.keys], [409, 'already-absent', [UNAME]], again.text);
    const wild = await http(ctx, 'POST', '/api/exec-allowlist/revoke', { agentId, keys: [GIT, DATE] });
    assert.deepEqual([wild.status, wild.body.outcome, wild.body.keys], [409, 'blocked-wildcard', [DATE]], wild.text);
    assert.equal((await http(ctx, 'GET', `/api/exec-allowlist?agentId=${agentId}`)).body.entries instanceof Array, true);

    // Exec settings: the ask value reaches the gateway's policy.
    const saved = await untilConnected(ctx, '/api/exec-settings', { agentId, values: { execAsk: 'always', execSecurity: 'allowlist' } });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.gateway, 'accepted');
    assert.equal((await snapshot(ctx)).file.agents?.[GATEWAY_AGENT]?.ask, 'always');
    const stored = await http(ctx, 'GET', `/api/exec-settings?agentId=${agentId}`);
    assert.deepEqual(stored.body, { execAsk: 'always', execSecurity: 'allowlist' });
    const invalid = await http(ctx, 'POST', '/api/exec-settings', { agentId, values: { execAsk: 'sometimes' } });
    assert.deepEqual([invalid.status, invalid.body], [400, { error: 'execAsk must be off, on-miss or always for a gateway agent' }]);
  } finally {
    // Leave the gateway's policy as it was found (its socket token is kept by the gateway).
    const now = await snapshot(ctx);
    await ctx.call('exec.approvals.set', { file: original.file, baseHash: now.hash });
  }
}
