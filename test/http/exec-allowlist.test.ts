// Spec "Smaller resources", standing exec grants: GET /api/exec-allowlist and
// POST /api/exec-allowlist/revoke over inject(). The gateway state databases
// are real SQLite files built with the recipe's exact table and documents of
// the real shape; the paths where the gateway must accept a write are in
// test/gateway/exec-scenario.ts.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { planRevoke } from '../../shared/exec/revoke-plan.ts';
import { buildTestApp } from '../helpers/app.ts';

const SOCKET_TOKEN = 'TW4fSocketTokenThatMustNeverLeave_9x';

const CREATE_TABLE = `CREATE TABLE exec_approvals_config (config_key TEXT PRIMARY KEY, raw_json TEXT NOT NULL, socket_path TEXT,
  has_socket_token INTEGER NOT NULL, default_security TEXT, default_ask TEXT, default_ask_fallback TEXT,
  auto_allow_skills INTEGER, agent_count INTEGER NOT NULL, allowlist_count INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL) STRICT`;

const SAVED_AT = 1_795_319_743_534;

/** A document of the recipe's shape: `main` with two rows, `*` with one, `other` with one. */
function sampleDocument(): Record<string, unknown> {
  return {
    version: 1,
    socket: { path: '/state/exec-approvals.sock', token: SOCKET_TOKEN },
    defaults: { security: 'allowlist', ask: 'on-miss', askFallback: 'deny' },
    agents: {
      main: {
        ask: 'on-miss',
        security: 'allowlist',
        allowlist: [
          { pattern: '/usr/bin/uname', source: 'allow-always', id: 'fd6d95a2-0000-4000-8000-000000000001', lastUsedAt: 1_795_319_000_000, lastUsedCommand: 'uname -m', lastResolvedPath: '/usr/bin/uname' },
          { pattern: '/usr/bin/git', argPattern: '^status$', source: 'allow-always', id: 'fd6d95a2-0000-4000-8000-000000000002' },
        ],
      },
      '*': { allowlist: [{ pattern: '/usr/bin/date', id: '49838e21-0000-4000-8000-000000000003' }] },
      other: { allowlist: ['/bin/ls'] },
    },
  };
}

const keyOf = (pattern: string, argPattern: string | null, source: string | null) =>
  createHash('sha256').update(JSON.stringify([pattern, argPattern, source])).digest('hex').slice(0, 16);
const UNAME = keyOf('/usr/bin/uname', null, 'allow-always');
const GIT = keyOf('/usr/bin/git', '^status$', 'allow-always');
const DATE = keyOf('/usr/bin/date', null, null);

const stateDbOf = (home: string) => join(home, 'gateway-state', 'state', 'openclaw.sqlite');

/** Writes the gateway's table and (unless `raw` is null) the `current` row, as the gateway would. */
function writeGatewayDb(file: string, raw: string | null, counts = { agents: 3, entries: 4 }, opts: { table?: boolean } = {}): void {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    if (opts.table !== false) db.exec(CREATE_TABLE);
    if (raw !== null) {
      db.prepare(
        `INSERT INTO exec_approvals_config VALUES ('current', ?, '/state/exec-approvals.sock', 1, 'allowlist', 'on-miss', 'deny', NULL, ?, ?, ?)`,
      ).run(raw, counts.agents, counts.entries, SAVED_AT);
    }
  } finally {
    db.close();
  }
}

/** Replaces raw_json only, the way a damaged or foreign write would (the projection columns stay). */
function corruptRawJson(file: string, raw: string): void {
  const db = new Database(file);
  try {
    db.prepare(`UPDATE exec_approvals_config SET raw_json = ? WHERE config_key = 'current'`).run(raw);
  } finally {
    db.close();
  }
}

async function setup(t: TestContext) {
  const ctx = await buildTestApp(t);
  const { app } = ctx;
  const agent = async (payload: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: '/api/agents', payload });
    assert.equal(res.statusCode, 200, res.body);
  };
  await agent({ id: 'gw-main', name: 'Main', runtime: 'gateway', gatewayId: 'main' });
  await agent({ id: 'gw-lonely', name: 'Lonely', runtime: 'gateway', gatewayId: 'lonely' });
  await agent({ id: 'gw-none', name: 'No gateway id', runtime: 'gateway', gatewayId: null });
  await agent({ id: 'cli', name: 'Cli', runtime: 'cli-a' });
  return { ...ctx, stateDb: stateDbOf(ctx.home) };
}

async function get(app: FastifyInstance, url: string) {
  const res = await app.inject({ method: 'GET', url });
  assert.ok(!res.body.includes(SOCKET_TOKEN), 'the socket token is never returned');
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, text: res.body };
}

async function revoke(app: FastifyInstance, payload: unknown) {
  const res = await app.inject({
    method: 'POST', url: '/api/exec-allowlist/revoke',
    ...(payload === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
  assert.ok(!res.body.includes(SOCKET_TOKEN), 'the socket token is never returned');
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

void test('Standing exec grants: GET /api/exec-allowlist needs an agentId (400) naming an agent row (404)', async (t) => {
  const { app } = await setup(t);
  for (const url of ['/api/exec-allowlist', '/api/exec-allowlist?agentId=', '/api/exec-allowlist?agentId=%20%20']) {
    assert.deepEqual(await get(app, url).then((r) => [r.status, r.body]), [400, { error: 'agentId required' }], url);
  }
  assert.deepEqual(await get(app, '/api/exec-allowlist?agentId=ghost').then((r) => [r.status, r.body]), [404, { error: 'agent not found' }]);
});

void test('Standing exec grants: not-applicable for another runtime or a gateway agent without a gateway id', async (t) => {
  const { app, stateDb } = await setup(t);
  writeGatewayDb(stateDb, JSON.stringify(sampleDocument()));
  assert.deepEqual((await get(app, '/api/exec-allowlist?agentId=cli')).body, {
    state: 'not-applicable', agentId: 'cli', runtime: 'cli-a', reason: 'not-gateway-runtime',
  });
  assert.deepEqual((await get(app, '/api/exec-allowlist?agentId=gw-none')).body, {
    state: 'not-applicable', agentId: 'gw-none', runtime: 'gateway', reason: 'no-gateway-id',
  });
});

void test('Standing exec grants: absent when there is no gateway database, no table or no current row, and the read creates nothing', async (t) => {
  const { app, stateDb } = await setup(t);
  const absent = async (reason: string) => {
    const r = await get(app, '/api/exec-allowlist?agentId=gw-main');
    assert.deepEqual([r.status, r.body], [200, { state: 'absent', agentId: 'gw-main', gatewayAgentId: 'main', reason }]);
  };
  await absent('no-database');
  assert.equal(existsSync(stateDb), false, 'a read-only open never creates the file');
  writeGatewayDb(stateDb, null, undefined, { table: false });
  await absent('no-table');
  const other = new Database(stateDb);
  other.exec(CREATE_TABLE);
  other.close();
  await absent('no-row');
});

void test('Standing exec grants: ok shows the own bucket as entries and the wildcard bucket apart, never the socket token', async (t) => {
  const { app, stateDb } = await setup(t);
  writeGatewayDb(stateDb, JSON.stringify(sampleDocument()));
  const { status, body, text } = await get(app, '/api/exec-allowlist?agentId=gw-main');
  assert.equal(status, 200);
  assert.ok(!text.includes('token') && !text.includes('socket'), text);
  assert.deepEqual(body, {
    state: 'ok', agentId: 'gw-main', gatewayAgentId: 'main', hasBucket: true,
    entries: [
      { key: UNAME, id: 'fd6d95a2-0000-4000-8000-000000000001', pattern: '/usr/bin/uname', argPattern: null, source: 'allow-always',
        lastUsedAt: 1_795_319_000_000, lastUsedCommand: 'uname -m', lastResolvedPath: '/usr/bin/uname', nodeMarker: false },
      { key: GIT, id: 'fd6d95a2-0000-4000-8000-000000000002', pattern: '/usr/bin/git', argPattern: '^status$', source: 'allow-always',
        lastUsedAt: null, lastUsedCommand: null, lastResolvedPath: null, nodeMarker: false },
    ],
    wildcard: [
      { key: DATE, id: '49838e21-0000-4000-8000-000000000003', pattern: '/usr/bin/date', argPattern: null, source: null,
        lastUsedAt: null, lastUsedCommand: null, lastResolvedPath: null, nodeMarker: false },
    ],
    counts: { agents: 3, entries: 4, savedAtMs: SAVED_AT },
  });

  // Genuinely no grants: a document without a bucket for this agent is still `ok`.
  const lonely = await get(app, '/api/exec-allowlist?agentId=gw-lonely');
  assert.deepEqual([lonely.status, lonely.body.state, lonely.body.hasBucket, lonely.body.entries], [200, 'ok', false, []]);
  assert.equal((lonely.body.wildcard as unknown[]).length, 1, 'the wildcard is shown, never merged into entries');

  // A bare-string row (the gateway accepts them) is a pattern with no other fields.
  const doc = sampleDocument();
  (doc.agents as Record<string, unknown>).main = { allowlist: ['/bin/ls'] };
  corruptRawJson(stateDb, JSON.stringify(doc));
  const bare = await get(app, '/api/exec-allowlist?agentId=gw-main');
  assert.deepEqual((bare.body.entries as Array<Record<string, unknown>>).map((e) => [e.key, e.pattern, e.source]), [
    [keyOf('/bin/ls', null, null), '/bin/ls', null],
  ]);
});

void test('Standing exec grants: a file that is not SQLite is 502 unreadable with the last good read\'s counts and no entries key', async (t) => {
  const { app, stateDb, logs } = await setup(t);
  mkdirSync(dirname(stateDb), { recursive: true });
  writeFileSync(stateDb, 'this is not a database, it is a text file with enough bytes to have a header '.repeat(20));
  const never = await get(app, '/api/exec-allowlist?agentId=gw-main');
  assert.deepEqual([never.status, never.body], [502, {
    error: 'the exec approvals document could not be read', state: 'unreadable', agentId: 'gw-main', gatewayAgentId: 'main',
    reason: 'query-failed', counts: null, countsFrom: null,
  }]);

  // A good read is remembered, then the file is damaged.
  writeFileSync(stateDb, '');
  writeGatewayDb(stateDb, JSON.stringify(sampleDocument()));
  assert.equal((await get(app, '/api/exec-allowlist?agentId=gw-main')).body.state, 'ok');
  writeFileSync(stateDb, Buffer.alloc(8192, 0x5a));
  const r = await get(app, '/api/exec-allowlist?agentId=gw-main');
  assert.equal(r.status, 502);
  assert.equal(Object.hasOwn(r.body, 'entries'), false, 'deliberately no entries key');
  assert.equal(Object.hasOwn(r.body, 'wildcard'), false);
  assert.deepEqual(r.body.counts, { agents: 3, entries: 4, savedAtMs: SAVED_AT });
  assert.equal(r.body.countsFrom, 'last-read');
  assert.ok(logs.some((l) => l.includes('gateway exec approvals document unreadable')));
});

void test('Standing exec grants: a corrupt or foreign-shaped raw_json is 502 unreadable with the counts of the last successful save', async (t) => {
  const { app, stateDb } = await setup(t);
  writeGatewayDb(stateDb, JSON.stringify(sampleDocument()));
  assert.equal((await get(app, '/api/exec-allowlist?agentId=gw-main')).status, 200);
  const cases: Array<[string, string]> = [
    [`{"version":1,"socket":{"token":"${SOCKET_TOKEN}"},"agents":{"main":`, 'invalid-json'],
    [JSON.stringify({ ...sampleDocument(), version: 2 }), 'invalid-document'],
    [JSON.stringify({ ...sampleDocument(), agents: { main: { allowlist: [{ pattern: '' }] } } }), 'invalid-document'],
    [JSON.stringify([SOCKET_TOKEN]), 'invalid-document'],
  ];
  for (const [raw, reason] of cases) {
    corruptRawJson(stateDb, raw);
    const r = await get(app, '/api/exec-allowlist?agentId=gw-main');
    assert.equal(r.status, 502, raw);
    assert.deepEqual(r.body, {
      error: 'the exec approvals document could not be read', state: 'unreadable', agentId: 'gw-main', gatewayAgentId: 'main',
      reason, counts: { agents: 3, entries: 4, savedAtMs: SAVED_AT }, countsFrom: 'gateway-row',
    }, raw);
  }
});

void test('Standing exec grants: revoke validation (body, agentId, 1 to 200 non-empty keys) is 400 and reads nothing', async (t) => {
  const { app } = await setup(t);
  const cases: Array<[unknown, string]> = [
    [undefined, 'JSON object body required'],
    ['[]', 'JSON object body required'],
    ['"x"', 'JSON object body required'],
    ['{oops', 'JSON object body required'],
    [{ keys: ['a'] }, 'agentId required'],
    [{ agentId: '', keys: ['a'] }, 'agentId required'],
    [{ agentId: '  ', keys: ['a'] }, 'agentId required'],
    [{ agentId: 7, keys: ['a'] }, 'agentId required'],
    [{ agentId: 'gw-main' }, 'keys must be an array of strings'],
    [{ agentId: 'gw-main', keys: 'abc' }, 'keys must be an array of strings'],
    [{ agentId: 'gw-main', keys: [] }, 'keys must hold 1 to 200 keys'],
    [{ agentId: 'gw-main', keys: Array.from({ length: 201 }, (_, i) => `k${i}`) }, 'keys must hold 1 to 200 keys'],
    [{ agentId: 'gw-main', keys: [''] }, 'keys must be non-empty strings'],
    [{ agentId: 'gw-main', keys: ['ok', '   '] }, 'keys must be non-empty strings'],
    [{ agentId: 'gw-main', keys: ['ok', 5] }, 'keys must be non-empty strings'],
    [{ agentId: 'gw-main', keys: [null] }, 'keys must be non-empty strings'],
  ];
  for (const [payload, error] of cases) {
    assert.deepEqual(await revoke(app, payload).then((r) => [r.status, r.body]), [400, { error }], JSON.stringify(payload));
  }
  assert.deepEqual(await revoke(app, { agentId: 'ghost', keys: ['a'] }).then((r) => [r.status, r.body]), [404, { error: 'agent not found' }]);
  for (const agentId of ['cli', 'gw-none']) {
    assert.deepEqual(await revoke(app, { agentId, keys: ['a'] }).then((r) => [r.status, r.body]), [
      400, { error: 'exec grants apply only to gateway-runtime agents with a gateway agent id' },
    ]);
  }
  // 200 keys is within the limit: it reaches the document (none present here).
  const many = await revoke(app, { agentId: 'gw-main', keys: Array.from({ length: 200 }, (_, i) => `k${i}`) });
  assert.deepEqual([many.status, many.body.outcome], [409, 'no-such-agent']);
});

void test('Standing exec grants: blocked-wildcard, already-absent and no-such-agent are 409 and write nothing', async (t) => {
  const { app, stateDb } = await setup(t);
  writeGatewayDb(stateDb, JSON.stringify(sampleDocument()));
  const bytes = () => readFileSync(stateDb).toString('base64');
  const before = bytes();

  // All or nothing: one revocable key plus one wildcard key revokes neither.
  const blocked = await revoke(app, { agentId: 'gw-main', keys: [UNAME, DATE, DATE] });
  assert.deepEqual([blocked.status, blocked.body], [409, {
    error: 'some keys are in the fleet-wide (*) allowlist, which cannot be revoked here; nothing was revoked',
    outcome: 'blocked-wildcard', agentId: 'gw-main', keys: [DATE],
  }]);
  const absent = await revoke(app, { agentId: 'gw-main', keys: ['0123456789abcdef', 'nope'] });
  assert.deepEqual([absent.status, absent.body], [409, {
    error: "none of the keys is in this agent's allowlist; nothing was written",
    outcome: 'already-absent', agentId: 'gw-main', keys: ['0123456789abcdef', 'nope'],
  }]);
  const noBucket = await revoke(app, { agentId: 'gw-lonely', keys: [UNAME] });
  assert.deepEqual([noBucket.status, noBucket.body], [409, {
    error: 'the exec approvals document has no allowlist bucket for this agent', outcome: 'no-such-agent', agentId: 'gw-lonely',
  }]);
  assert.equal(bytes(), before, 'the gateway database is byte-for-byte unchanged');
  assert.equal((await get(app, '/api/exec-allowlist?agentId=gw-main')).body.state, 'ok');
});

void test('Standing exec grants: a revoke over an unreadable document is 502 unreadable, over a missing one 409 no-such-agent', async (t) => {
  const { app, stateDb } = await setup(t);
  const missing = await revoke(app, { agentId: 'gw-main', keys: [UNAME] });
  assert.deepEqual([missing.status, missing.body.outcome], [409, 'no-such-agent']);
  writeGatewayDb(stateDb, '{"version":1,');
  const bad = await revoke(app, { agentId: 'gw-main', keys: [UNAME] });
  assert.deepEqual([bad.status, bad.body], [502, {
    error: 'the exec approvals document could not be read', state: 'unreadable', agentId: 'gw-main', reason: 'invalid-json',
  }]);
});

void test('Standing exec grants: a revoke the gateway cannot take (not connected) is 502 with a redacted message and writes nothing', async (t) => {
  const { app, stateDb } = await setup(t);
  writeGatewayDb(stateDb, JSON.stringify(sampleDocument()));
  const before = readFileSync(stateDb).toString('base64');
  const r = await revoke(app, { agentId: 'gw-main', keys: [UNAME] });
  assert.equal(r.status, 502);
  assert.equal(r.body.outcome, 'gateway-error');
  assert.equal(r.body.code, 'UNAVAILABLE');
  assert.match(String(r.body.error), /^gateway call failed: gateway not connected/);
  assert.equal(readFileSync(stateDb).toString('base64'), before);
});

void test('Standing exec grants: revoke is limited to 60 requests a minute per client address; the 61st is 429', async (t) => {
  const { app } = await setup(t);
  for (let i = 1; i <= 60; i++) {
    const r = await revoke(app, { agentId: 'gw-main', keys: [] });
    assert.equal(r.status, 400, `call ${i}`);
  }
  const limited = await app.inject({ method: 'POST', url: '/api/exec-allowlist/revoke', payload: { agentId: 'gw-main', keys: ['a'] } });
  assert.equal(limited.statusCode, 429);
  assert.deepEqual(limited.json(), { error: 'Rate limit exceeded, retry in 1 minute' });
  assert.equal(limited.headers['retry-after'], '60');
  // Another client address has its own budget; the read is not limited.
  const other = await app.inject({ method: 'POST', url: '/api/exec-allowlist/revoke', remoteAddress: '127.0.0.2', payload: { agentId: 'gw-main', keys: [] } });
  assert.equal(other.statusCode, 400);
  assert.equal((await get(app, '/api/exec-allowlist?agentId=gw-main')).status, 200);
});

void test('Standing exec grants: companion node-marker rows go with the rows that approved their command; the wildcard is never touched', () => {
  const marker = (cmd: string) => `=node-command:${createHash('sha256').update(cmd).digest('hex').slice(0, 16)}`;
  const agents = {
    main: {
      allowlist: [
        { pattern: '/usr/bin/uname', source: 'allow-always', lastUsedCommand: 'uname -m' },
        { pattern: marker('uname -m'), source: 'allow-always' },
        { pattern: '/usr/bin/tar', source: 'allow-always', commandText: ' tar -xf a.tar ' },
        { pattern: marker('tar -xf a.tar'), source: 'allow-always' },
        { pattern: marker('ls -la'), source: 'allow-always' },
      ],
    },
    '*': { allowlist: [{ pattern: marker('uname -m'), source: 'allow-always' }] },
  };
  const plan = planRevoke(agents, 'main', [keyOf('/usr/bin/uname', null, 'allow-always'), keyOf('/usr/bin/tar', null, 'allow-always')]);
  assert.equal(plan.outcome, 'revoke');
  if (plan.outcome !== 'revoke') return;
  assert.deepEqual(plan.companionKeys, [keyOf(marker('uname -m'), null, 'allow-always'), keyOf(marker('tar -xf a.tar'), null, 'allow-always')]);
  assert.deepEqual(plan.keep.map((e) => e.pattern), [marker('ls -la')], 'an unrelated marker stays');
  assert.deepEqual(plan.absentKeys, []);
  assert.equal(agents['*'].allowlist.length, 1);
  // A companion found on the raw stored document is dropped from the gateway's copy too.
  const gatewayCopy = { main: { allowlist: [{ pattern: '/usr/bin/tar', source: 'allow-always' }, { pattern: marker('tar -xf a.tar'), source: 'allow-always' }] } };
  const again = planRevoke(gatewayCopy, 'main', [keyOf('/usr/bin/tar', null, 'allow-always')], plan.companionKeys);
  assert.deepEqual(again.outcome === 'revoke' ? again.keep : null, []);
});
