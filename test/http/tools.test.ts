// Spec "Tools broker and MCP" → /api/tools*, "Tool approval" (states and
// transitions) and the broker's pipeline as a user sees it: the tool list and
// its availability, the approval queue (list, resolve, expiry, stickiness),
// the audit log with masking, delete_path's confinement, and waiters woken by
// a resolve in this process and in another connection to the same database.
// No clock in the assertions (issue 16 #5): a wake-up is shown by the waiter
// count at the moment the resolve returns, the cross-connection check runs on
// node:test's mock timers, and the expiry by the outcome it produces.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createBroker, workspaceDir, type Broker, type ToolApproval, type ToolAuditRow } from '../../shared/broker/index.ts';
import { openDatabase } from '../../shared/db/open.ts';
import { createTx } from '../../shared/db/tx.ts';
import { createEventLog } from '../../shared/events/event-log.ts';
import { createLogger } from '../../shared/log.ts';
import { createRedactor } from '../../shared/redact.ts';
import { createAgentTokenStore } from '../../shared/agent-tokens/index.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { deadline, untilClockPasses, waitFor } from '../helpers/wait.ts';

const SECRET = 'sk-abcdefghijklmnopqrstuvwxyz0123';

async function pending(app: FastifyInstance): Promise<ToolApproval[]> {
  const res = await app.inject('/api/tools/approvals');
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<{ ok: true; approvals: ToolApproval[] }>();
  assert.equal(body.ok, true);
  return body.approvals;
}

/** The pending approvals once the call under test has opened its row (the pipeline opens it asynchronously). */
function listed(app: FastifyInstance): Promise<ToolApproval[]> {
  return waitFor(async () => {
    const list = await pending(app);
    return list.length ? list : undefined;
  }, { what: 'a pending approval on GET /api/tools/approvals' });
}

function resolve(app: FastifyInstance, id: string, payload: unknown) {
  return app.inject({ method: 'POST', url: `/api/tools/approvals/${id}/resolve`, payload: payload as object });
}

async function audit(app: FastifyInstance, query = ''): Promise<ToolAuditRow[]> {
  const res = await app.inject(`/api/tools/audit${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json<{ ok: true; audit: ToolAuditRow[] }>().audit;
}

/** A file inside the workspace that delete_path may remove. */
function workspaceFile(t: TestApp, name: string): string {
  const dir = workspaceDir(t.runtime.deps.paths);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, 'x');
  return file;
}

/** A loopback SearXNG stand-in that records what it was asked. */
async function searchServer(t: TestContext, reply: (url: URL) => { status?: number; body: string }) {
  const seen: Array<{ url: URL; headers: IncomingHttpHeaders }> = [];
  const srv = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    seen.push({ url, headers: req.headers });
    const r = reply(url);
    res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
    res.end(r.body);
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  t.after(() => new Promise<void>((ok) => srv.close(() => ok())));
  const addr = srv.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}/search`, seen };
}

void test('Tools broker and MCP → GET /api/tools: builtins with availability; web_search unavailable without SVC_SEARCH_URL', async (t) => {
  const { app } = await buildTestApp(t);
  const res = await app.inject('/api/tools');
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<{ ok: true; tools: Array<Record<string, unknown>> }>();
  assert.equal(body.ok, true);
  assert.deepEqual(body.tools.map((x) => x.name), ['echo', 'note', 'web_search', 'delete_path']);
  for (const tool of body.tools) {
    assert.deepEqual(Object.keys(tool).sort(), ['available', 'description', 'diagnostics', 'name', 'owner', 'risk']);
    assert.equal(tool.owner, 'core');
  }
  const by = Object.fromEntries(body.tools.map((x) => [x.name, x]));
  assert.equal(by.echo?.risk, 'safe');
  assert.equal(by.note?.risk, 'safe');
  assert.equal(by.web_search?.risk, 'external');
  assert.equal(by.delete_path?.risk, 'destructive');
  assert.equal(by.web_search?.available, false);
  assert.match(String((by.web_search?.diagnostics as string[])[0]), /SVC_SEARCH_URL/);
  for (const name of ['echo', 'note', 'delete_path']) {
    assert.equal(by[name]?.available, true);
    assert.deepEqual(by[name]?.diagnostics, []);
  }
});

void test('Tools broker and MCP → GET /api/tools: web_search available with SVC_SEARCH_URL; a call sends the bearer key, rewrites the query, trims results', async (t) => {
  const results = Array.from({ length: 30 }, (_, i) => ({ title: `T${i} ${'x'.repeat(400)}`, url: `https://e.example/${i}`, content: 'c'.repeat(2000) }));
  const search = await searchServer(t, () => ({ body: JSON.stringify({ results }) }));
  const ta = await buildTestApp(t, { env: { SVC_SEARCH_URL: search.url, SVC_SEARCH_API_KEY: 'search-key-123456' } });
  const tools = (await ta.app.inject('/api/tools')).json<{ tools: Array<{ name: string; available: boolean; diagnostics: string[] }> }>().tools;
  assert.deepEqual(tools.find((x) => x.name === 'web_search'), { ...tools.find((x) => x.name === 'web_search'), available: true, diagnostics: [] });

  const r = await ta.runtime.deps.broker.call('web_search', { query: '   svc   dashboard\n agents  ', limit: 50 }, { agentId: 'a1' });
  assert.equal(r.isError, false, r.text);
  assert.equal(r.decision, 'rewrite');
  const data = r.data as { query: string; results: Array<{ title: string; snippet: string }> };
  assert.equal(data.query, 'svc dashboard agents');
  assert.equal(data.results.length, 10, 'limit clamped to 10');
  assert.ok(data.results.every((h) => h.title.length <= 200 && h.snippet.length <= 500));
  assert.equal(search.seen.length, 1);
  assert.equal(search.seen[0]?.url.searchParams.get('q'), 'svc dashboard agents');
  assert.equal(search.seen[0]?.url.searchParams.get('format'), 'json');
  assert.equal(search.seen[0]?.headers.authorization, 'Bearer search-key-123456');

  const rows = await audit(ta.app, '?toolName=web_search');
  assert.deepEqual(rows.map((x) => [x.phase, x.decision, x.isError]), [['after', null, 0], ['before', 'rewrite', 0]]);
  assert.equal(rows[1]?.argsSummary, JSON.stringify({ query: 'svc dashboard agents', limit: 10 }));
  assert.ok(!JSON.stringify(rows).includes('search-key-123456'));
});

void test('Tools broker and MCP → web_search: a provider failure is an error result and an after row, not a crash', async (t) => {
  const search = await searchServer(t, () => ({ status: 502, body: 'upstream down' }));
  const ta = await buildTestApp(t, { env: { SVC_SEARCH_URL: search.url } });
  const r = await ta.runtime.deps.broker.call('web_search', { query: 'x' });
  assert.equal(r.isError, true);
  assert.equal(r.outcome, 'error');
  assert.match(r.text, /HTTP 502/);
  const rows = await audit(ta.app);
  assert.equal(rows[0]?.phase, 'after');
  assert.equal(rows[0]?.isError, 1);
});

void test('Tools broker and MCP → POST /api/tools/approvals/:id/resolve: a pending delete_path is listed, allow_once wakes the waiter at once and runs it', async (t) => {
  const ta = await buildTestApp(t);
  const file = workspaceFile(ta, 'doomed.txt');
  const { broker } = ta.runtime.deps;
  const call = broker.call('delete_path', { path: 'doomed.txt' }, { agentId: 'agent-1', taskId: 'task-1' });
  const [row] = await listed(ta.app);
  assert.ok(row);
  assert.equal(row.toolName, 'delete_path');
  assert.equal(row.agentId, 'agent-1');
  assert.equal(row.taskId, 'task-1');
  assert.equal(row.status, 'pending');
  assert.equal(row.resolvedAt, null);
  assert.equal(row.argsSummary, JSON.stringify({ path: 'doomed.txt' }));
  assert.match(String(row.reason), /destructive/);
  assert.ok(row.expiresAt > row.createdAt);
  assert.deepEqual(Object.keys(row).sort(), ['agentId', 'argsSummary', 'createdAt', 'expiresAt', 'id', 'reason', 'resolvedAt', 'status', 'taskId', 'tenantId', 'toolName']);
  assert.ok(existsSync(file), 'nothing is deleted before approval');

  assert.equal(broker.waiting(), 1);
  const res = await resolve(ta.app, row.id, { decision: 'allow_once' });
  // Woken by the resolve itself: no waiter is left when the response is back,
  // before any cross-process check could have run (they see only other connections' commits).
  assert.equal(broker.waiting(), 0, 'the resolve woke the waiter');
  assert.equal(res.statusCode, 200, res.body);
  const approval = res.json<{ ok: true; approval: ToolApproval }>().approval;
  assert.equal(approval.status, 'allow_once');
  assert.equal(typeof approval.resolvedAt, 'number');
  const result = await call;
  assert.equal(result.isError, false, result.text);
  assert.equal(result.approvalId, row.id);
  assert.equal(existsSync(file), false);
  assert.deepEqual(await pending(ta.app), []);

  const rows = await audit(ta.app, '?toolName=delete_path');
  assert.deepEqual(rows.map((x) => [x.phase, x.decision, x.isError]), [['after', null, 0], ['before', 'require_approval', 0]]);
});

void test('Tools broker and MCP → POST /api/tools/approvals/:id/resolve: 400 with details, 404 for an unknown id, re-resolve unchanged', async (t) => {
  const ta = await buildTestApp(t);
  workspaceFile(ta, 'keep.txt');
  const call = ta.runtime.deps.broker.call('delete_path', { path: 'keep.txt' }, { agentId: 'a' });
  const [row] = await listed(ta.app);
  assert.ok(row);

  for (const payload of [{ decision: 'maybe' }, {}, { decision: 1 }]) {
    const bad = await resolve(ta.app, row.id, payload);
    assert.equal(bad.statusCode, 400, bad.body);
    const body = bad.json<{ error: string; details: { formErrors: string[]; fieldErrors: Record<string, string[]> } }>();
    assert.equal(body.error, 'invalid body');
    assert.ok(Array.isArray(body.details.fieldErrors.decision) && body.details.fieldErrors.decision.length > 0, bad.body);
  }
  const noBody = await app400(ta.app, row.id);
  assert.equal(noBody.statusCode, 400);
  assert.equal(noBody.json<{ error: string }>().error, 'invalid body');

  const missing = await resolve(ta.app, '00000000-0000-7000-8000-000000000000', { decision: 'deny' });
  assert.equal(missing.statusCode, 404);
  assert.deepEqual(missing.json(), { error: 'approval not found' });

  const first = await resolve(ta.app, row.id, { decision: 'deny' });
  assert.equal(first.statusCode, 200);
  const denied = first.json<{ approval: ToolApproval }>().approval;
  assert.equal(denied.status, 'deny');
  const result = await call;
  assert.equal(result.isError, true);
  assert.equal(result.outcome, 'denied');
  assert.match(result.text, /denied/);
  assert.ok(existsSync(join(workspaceDir(ta.runtime.deps.paths), 'keep.txt')));

  await untilClockPasses(denied.resolvedAt ?? 0); // an update now would stamp a later resolvedAt
  const again = await resolve(ta.app, row.id, { decision: 'allow_always' });
  assert.equal(again.statusCode, 200);
  assert.deepEqual(again.json(), { ok: true, approval: denied });
  assert.equal(ta.runtime.deps.broker.hasStickyAllow('delete_path', { agentId: 'a', agentTokenId: 'any' }), false);
});

function app400(app: FastifyInstance, id: string) {
  return app.inject({ method: 'POST', url: `/api/tools/approvals/${id}/resolve`, headers: { 'content-type': 'application/json' }, payload: '{not json' });
}

void test('Tool approval → expiry: past expiresAt the row is no longer listed, the waiter sees a denial, a late resolve changes nothing', async (t) => {
  const ta = await buildTestApp(t, { env: { SVC_APPROVAL_TTL_MS: '300' } });
  const file = workspaceFile(ta, 'late.txt');
  const call = ta.runtime.deps.broker.call('delete_path', { path: 'late.txt' }, { agentId: 'a' });
  // Nobody resolves: only the expiry timer can end this wait (the deadline just stops a hang).
  const result = await deadline(call, { what: 'the expiry timer to end the approval wait' });
  const id = ta.runtime.deps.db.prepare('SELECT id FROM tool_approvals').pluck().get() as string;
  const row = ta.runtime.deps.broker.getApproval(id);
  assert.ok(row, 'the call opened an approval row');
  assert.equal(row.expiresAt - row.createdAt, 300);
  assert.ok(Date.now() >= row.expiresAt, 'the wait ended no earlier than expiresAt');
  assert.equal(result.outcome, 'expired');
  assert.equal(result.isError, true);
  assert.match(result.text, /expired/);
  assert.deepEqual(await pending(ta.app), []);
  const late = await resolve(ta.app, row.id, { decision: 'allow_once' });
  assert.equal(late.statusCode, 200);
  const after = late.json<{ approval: ToolApproval }>().approval;
  assert.equal(after.status, 'pending');
  assert.equal(after.resolvedAt, null);
  assert.ok(existsSync(file));
});

void test('Tool approval → allow_always is sticky per tool and agent: a later call by that agent skips the prompt, others are still asked', async (t) => {
  const ta = await buildTestApp(t);
  const { broker } = ta.runtime.deps;
  // Security (issue 15 #6): the agent identity that holds a sticky allow_always is one a minted binding vouched for.
  const tokens = createAgentTokenStore(ta.runtime.deps.db);
  const alice = { agentId: 'alice', agentTokenId: tokens.mint('mcp', { agentId: 'alice' }).binding.id };
  const bob = { agentId: 'bob', agentTokenId: tokens.mint('mcp', { agentId: 'bob' }).binding.id };
  workspaceFile(ta, 'one.txt');
  const first = broker.call('delete_path', { path: 'one.txt' }, alice);
  const [row] = await listed(ta.app);
  assert.ok(row);
  assert.equal((await resolve(ta.app, row.id, { decision: 'allow_always' })).statusCode, 200);
  assert.equal((await first).isError, false);

  workspaceFile(ta, 'two.txt');
  const second = await broker.call('delete_path', { path: 'two.txt' }, alice);
  assert.equal(second.isError, false, second.text);
  assert.equal(second.decision, 'allow');
  assert.equal(second.approvalId, null);
  assert.deepEqual(await pending(ta.app), []);

  // Another agent, an anonymous caller and a caller that only names alice (no binding) are still asked.
  workspaceFile(ta, 'three.txt');
  for (const who of [bob, { agentId: null }, { agentId: 'alice' }]) {
    const ac = new AbortController();
    const other = broker.call('delete_path', { path: 'three.txt' }, { ...who, signal: ac.signal });
    const list = await listed(ta.app);
    assert.equal(list[0]?.agentId, who.agentId);
    ac.abort();
    const r = await other;
    assert.equal(r.outcome, 'cancelled');
    assert.deepEqual(await pending(ta.app), [], 'a cancelled wait withdraws its row');
  }
  assert.ok(existsSync(join(workspaceDir(ta.runtime.deps.paths), 'three.txt')));
});

void test('Tools broker and MCP → GET /api/tools/audit: before/after rows, secrets never stored raw, filter and limit', async (t) => {
  const ta = await buildTestApp(t);
  const { broker, db } = ta.runtime.deps;
  const r = await broker.call('echo', { text: `my key is ${SECRET}` }, { agentId: 'a', tenantId: 'tn' });
  assert.equal(r.isError, false);
  assert.equal(r.text, `my key is ${SECRET}`, 'the caller gets its result unchanged');
  await broker.call('note', { text: `password=${SECRET}`, tags: ['t'] }, { agentId: 'a' });
  await broker.call('no_such_tool', { apiKey: 'plain-value-here' }, { agentId: 'a' });

  const rows = await audit(ta.app);
  assert.equal(rows.length, 6);
  assert.deepEqual(rows.map((x) => `${x.toolName}:${x.phase}:${x.decision}:${x.isError}`), [
    'no_such_tool:after:null:1', 'no_such_tool:before:deny:0',
    'note:after:null:0', 'note:before:allow:0',
    'echo:after:null:0', 'echo:before:allow:0',
  ]);
  assert.deepEqual(Object.keys(rows[0] as object).sort(), ['agentId', 'argsSummary', 'createdAt', 'decision', 'id', 'isError', 'phase', 'resultSummary', 'tenantId', 'toolName']);
  assert.equal(rows[5]?.tenantId, 'tn');
  assert.equal(rows[5]?.argsSummary, JSON.stringify({ text: 'my key is ••••' }));
  assert.equal(rows[4]?.resultSummary, 'my key is ••••');
  assert.equal(rows[1]?.argsSummary, JSON.stringify({ apiKey: '••••' }));
  // Never stored raw: the database itself holds only masked text.
  const raw = JSON.stringify(db.prepare('SELECT * FROM tool_audit').all());
  assert.ok(!raw.includes(SECRET) && !raw.includes('plain-value-here'), raw);
  const notes = readFileSync(join(ta.runtime.deps.paths.home, 'notes.jsonl'), 'utf8');
  assert.ok(!notes.includes(SECRET));
  assert.match(notes, /"agentId":"a"/);

  assert.equal((await audit(ta.app, '?toolName=echo')).length, 2);
  assert.equal((await audit(ta.app, '?limit=1')).length, 1);
  assert.equal((await audit(ta.app, '?limit=0')).length, 1, 'clamped up to 1');
  assert.equal((await audit(ta.app, '?limit=abc')).length, 6, 'wrong type → default');
  assert.equal((await audit(ta.app, '?limit=99999')).length, 6);
});

void test('Tools broker and MCP → GET /api/tools/audit: default limit 100, capped at 500', async (t) => {
  const ta = await buildTestApp(t);
  for (let i = 0; i < 260; i++) await ta.runtime.deps.broker.call('echo', { text: String(i) });
  assert.equal((await audit(ta.app)).length, 100);
  assert.equal((await audit(ta.app, '?limit=9999')).length, 500);
  assert.equal((await audit(ta.app, '?limit=250')).length, 250);
});

void test('Tools broker and MCP → delete_path is confined to <SVC_HOME>/workspace: outside paths, symlink escapes and the root are refused without a prompt', async (t) => {
  const ta = await buildTestApp(t);
  const { broker } = ta.runtime.deps;
  const ws = workspaceDir(ta.runtime.deps.paths);
  mkdirSync(ws, { recursive: true });
  const outside = mkdtempSync(join(tmpdir(), 'svc-outside-'));
  t.after(() => rmSync(outside, { recursive: true, force: true }));
  const victim = join(outside, 'victim.txt');
  writeFileSync(victim, 'precious');
  writeFileSync(join(ta.runtime.deps.paths.home, 'sibling.txt'), 'precious');
  symlinkSync(outside, join(ws, 'escape'));
  symlinkSync(victim, join(ws, 'victim-link'));

  const refused = ['../sibling.txt', victim, '/etc/passwd', 'escape/victim.txt', 'escape', '.', ws, '', 'a/../../sibling.txt', 'missing.txt'];
  for (const path of refused) {
    const r = await broker.call('delete_path', { path }, { agentId: 'a' });
    assert.equal(r.isError, true, `${path}: ${r.text}`);
    assert.ok(r.outcome === 'refused' || r.outcome === 'invalid', `${path}: ${r.outcome}`);
    assert.equal(r.decision, 'deny');
  }
  // The symlink to a file outside: its real path is outside, so it is refused too.
  const link = await broker.call('delete_path', { path: 'victim-link' }, { agentId: 'a' });
  assert.equal(link.outcome, 'refused');
  assert.deepEqual(await pending(ta.app), [], 'no human was asked about a refused path');
  assert.equal(readFileSync(victim, 'utf8'), 'precious');
  assert.ok(existsSync(join(ta.runtime.deps.paths.home, 'sibling.txt')));
  assert.ok(existsSync(ws));

  // Inside: a folder with content, removed after approval (absolute path inside works too).
  mkdirSync(join(ws, 'dir', 'sub'), { recursive: true });
  writeFileSync(join(ws, 'dir', 'sub', 'f.txt'), 'x');
  const call = broker.call('delete_path', { path: join(ws, 'dir') }, { agentId: 'a' });
  const [row] = await listed(ta.app);
  assert.ok(row);
  assert.ok(existsSync(join(ws, 'dir')));
  await resolve(ta.app, row.id, { decision: 'allow_once' });
  const r = await call;
  assert.equal(r.isError, false, r.text);
  assert.equal(existsSync(join(ws, 'dir')), false);
  assert.ok(existsSync(outside));
});

void test('Tool approval → a waiter in another connection (an MCP binary stand-in) is woken by a resolve made through the route', async (t) => {
  const ta = await buildTestApp(t);
  const file = workspaceFile(ta, 'remote.txt');
  const { config, paths } = ta.runtime.deps;
  // A second broker on its own connection to the same file, as a stdio binary builds one.
  const db2 = openDatabase(paths.db);
  t.after(() => db2.close());
  const logger = createLogger({ level: 'silent' });
  const tx2 = createTx(db2, () => {});
  const other: Broker = createBroker({ db: db2, tx: tx2, config, paths, logger, redactor: createRedactor(() => []), eventLog: createEventLog({ db: db2, tx: tx2, logger }), crossProcessCheckMs: 50 });
  // The other broker's cross-process check runs on setInterval: mocked, it runs only when ticked.
  t.mock.timers.enable({ apis: ['setInterval'] });
  const call = other.call('delete_path', { path: 'remote.txt' }, { agentId: 'remote-agent' });
  const [row] = await listed(ta.app);
  assert.ok(row);
  assert.equal(other.waiting(), 1);
  t.mock.timers.tick(150); // three cross-process checks while nobody resolves
  assert.equal(other.waiting(), 1);
  const res = await resolve(ta.app, row.id, { decision: 'allow_once' });
  assert.equal(res.statusCode, 200);
  assert.equal(other.waiting(), 1, 'a resolve on another connection is not seen before the next check');
  t.mock.timers.tick(50);
  assert.equal(other.waiting(), 0, 'the first check after the resolve wakes the waiter');
  const result = await call;
  assert.equal(result.isError, false, result.text);
  assert.equal(existsSync(file), false);
  assert.equal(other.waiting(), 0);
});

void test('Tools broker and MCP → errors on /api/tools* are 500 { error } passed through the redactor', async (t) => {
  const ta = await buildTestApp(t);
  ta.runtime.deps.broker.tools = () => {
    throw new Error(`tool registry broke with ${SECRET}`);
  };
  const res = await ta.app.inject('/api/tools');
  assert.equal(res.statusCode, 500);
  const body = res.json<{ error: string }>();
  assert.deepEqual(Object.keys(body), ['error']);
  assert.ok(!body.error.includes(SECRET), body.error);
  assert.match(body.error, /tool registry broke/);
});
