// Spec "Smaller resources" → "Chat history" (and "Transcript entry (team
// chat)"): paging with cursors, corrupt rows, idempotent appends, the
// context reset (one divider, no message moved, resume pointers cleared,
// gateway outcome per session) and the per-session delete. Every 400 leaves
// the rows as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createResumePointers, DIVIDER_TEXT, resumeKey } from '../../shared/chat-history/index.ts';
import { GatewayError } from '../../shared/gateway/protocol.ts';
import { UUID_RE } from '../../shared/ids.ts';
import type { Runtime } from '../../supervisor/runtime.ts';
import { buildTestApp } from '../helpers/app.ts';

const A = 'agent:alpha:team:t1';
const B = 'agent:beta:team:t1';
const M = {
  sessionKey: 'sessionKey required',
  body: 'JSON object body required',
  post: 'sessionKey (string) and a non-empty entries array are required',
  keys: 'sessionKeys must be a non-empty array of session keys',
  notice: 'noticeSessionKey must be one of sessionKeys',
};

interface Page {
  entries: Array<Record<string, unknown>>;
  nextBefore: number | null;
}
interface Row {
  id: number;
  entry_id: string;
  session_key: string;
  entry: string;
}

const entry = (n: number, sessionKey = A) => ({
  entryId: `e-${sessionKey}-${n}`,
  role: 'user',
  kind: 'user',
  text: `message ${n}`,
  sessionKey,
  runId: null,
  source: 'local-send',
  timestampMs: 1_700_000_000_000 + n,
  sequenceKey: n,
  confirmed: true,
  fingerprint: `fp-${n}`,
});

const rows = (runtime: Runtime): Row[] => runtime.deps.db.prepare('SELECT id, entry_id, session_key, entry FROM chat_messages ORDER BY id').all() as Row[];

async function post(app: FastifyInstance, payload: unknown) {
  return app.inject({ method: 'POST', url: '/api/chat-history', payload: payload as Record<string, unknown> });
}

async function page(app: FastifyInstance, query: string): Promise<Page> {
  const res = await app.inject(`/api/chat-history?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<Page>();
  assert.deepEqual(Object.keys(body).sort(), ['entries', 'nextBefore']);
  return body;
}

const texts = (p: Page) => p.entries.map((e) => e.text);

function rawJson(app: FastifyInstance, method: 'POST', url: string, payload: string | undefined) {
  return payload === undefined
    ? app.inject({ method, url })
    : app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload });
}

const NON_OBJECT_BODIES: Array<string | undefined> = [undefined, '', '[1,2]', '"text"', 'null', '42', '{"sessionKey": '];

void test('Smaller resources → Chat history: pages go newest to oldest across 3 pages, oldest first within a page, with a cursor until the first message', async (t) => {
  const { app } = await buildTestApp(t);
  // Interleave another session so a page is a range of this session only.
  for (let n = 1; n <= 7; n++) {
    assert.equal((await post(app, { sessionKey: A, entries: [entry(n)] })).statusCode, 200);
    assert.equal((await post(app, { sessionKey: B, entries: [entry(n, B)] })).statusCode, 200);
  }
  const p1 = await page(app, `sessionKey=${encodeURIComponent(A)}&limit=3`);
  assert.deepEqual(texts(p1), ['message 5', 'message 6', 'message 7']);
  assert.equal(typeof p1.nextBefore, 'number');
  assert.deepEqual(p1.entries[0], entry(5), 'the stored transcript entry comes back as it was posted');

  const p2 = await page(app, `sessionKey=${encodeURIComponent(A)}&limit=3&before=${p1.nextBefore}`);
  assert.deepEqual(texts(p2), ['message 2', 'message 3', 'message 4']);
  const p3 = await page(app, `sessionKey=${encodeURIComponent(A)}&limit=3&before=${p2.nextBefore}`);
  assert.deepEqual(texts(p3), ['message 1']);
  assert.equal(p3.nextBefore, null, 'no cursor once the first message is on the page');

  // A page that ends exactly at the first message has no cursor either.
  const exact = await page(app, `sessionKey=${encodeURIComponent(A)}&limit=7`);
  assert.equal(exact.entries.length, 7);
  assert.equal(exact.nextBefore, null);
  // Defaults: 50 rows, newest page.
  assert.deepEqual(texts(await page(app, `sessionKey=${encodeURIComponent(B)}`)), [1, 2, 3, 4, 5, 6, 7].map((n) => `message ${n}`));
  assert.deepEqual(await page(app, 'sessionKey=nobody'), { entries: [], nextBefore: null });
});

void test('Smaller resources → Chat history: corrupt rows are dropped from a page but the cursor still moves past them', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const ins = runtime.deps.db.prepare('INSERT INTO chat_messages (entry_id, session_key, entry, created_at) VALUES (?, ?, ?, 1)');
  const stored = ['{"text":"m1"}', 'not json', '{"text":"m2"}', '[1,2]', '"a string"', 'null', '{"text":"m3"}', '{"text":'];
  stored.forEach((e, i) => ins.run(`raw-${i}`, A, e));
  // Pages of 2 rows: the cursor walks every row, corrupt ones included, and each good entry appears once.
  const seen: unknown[] = [];
  let before: number | null = null;
  let pages = 0;
  do {
    const p: Page = await page(app, `sessionKey=${encodeURIComponent(A)}&limit=2${before === null ? '' : `&before=${before}`}`);
    seen.unshift(...texts(p));
    for (const e of p.entries) assert.equal(typeof e, 'object');
    before = p.nextBefore;
    pages++;
  } while (before !== null && pages < 10);
  assert.equal(pages, 4, '8 rows in pages of 2');
  assert.deepEqual(seen, ['m1', 'm2', 'm3']);
});

void test('Smaller resources → Chat history: a page size or cursor of the wrong type falls back to the default, the size is clamped to 1..500, never a 500', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  runtime.deps.chatMessages.insert(A, Array.from({ length: 520 }, (_, i) => entry(i + 1)));
  const q = (s: string) => page(app, `sessionKey=${encodeURIComponent(A)}&${s}`);
  assert.equal((await q('limit=abc')).entries.length, 50);
  assert.equal((await q('limit=')).entries.length, 50);
  assert.equal((await q('limit=0')).entries.length, 1);
  assert.equal((await q('limit=-4')).entries.length, 1);
  assert.equal((await q('limit=2.9')).entries.length, 2);
  assert.equal((await q('limit=100000')).entries.length, 500);
  assert.equal((await q('limit=1e400')).entries.length, 50, 'Infinity is not a size');
  for (const bad of ['before=xyz', 'before=-3', 'before=0', 'before=1.5', 'before=99999999999999999999', 'before=&limit=5&limit=6']) {
    const p = await q(bad);
    assert.equal(p.entries.at(-1)?.text, 'message 520', `${bad}: the newest page`);
  }
});

void test('Smaller resources → Chat history: GET without a sessionKey is 400', async (t) => {
  const { app } = await buildTestApp(t);
  for (const url of ['/api/chat-history', '/api/chat-history?sessionKey=', '/api/chat-history?sessionKey=%20%20', '/api/chat-history?sessionKey=a&sessionKey=b']) {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 400, url);
    assert.deepEqual(res.json(), { error: M.sessionKey });
  }
});

void test('Smaller resources → Chat history: POST is idempotent on entryId, skips entries without one, and reports saved = entries received', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const noId = { ...entry(9), entryId: undefined };
  let res = await post(app, { sessionKey: A, entries: [entry(1), entry(2), noId, { ...entry(3), entryId: '' }, 'not an entry', entry(1)] });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(res.json(), { ok: true, saved: 6, inserted: 2 });
  assert.deepEqual(rows(runtime).map((r) => r.entry_id), [entry(1).entryId, entry(2).entryId]);

  res = await post(app, { sessionKey: A, entries: [entry(1), { ...entry(2), text: 'changed' }, entry(3)] });
  assert.deepEqual(res.json(), { ok: true, saved: 3, inserted: 1 });
  const after = rows(runtime);
  assert.equal(after.length, 3);
  assert.equal(JSON.parse(after[1]?.entry ?? '{}').text, 'message 2', 'the first write of an entryId wins');

  // The row's session is the body's: an entry claiming another session is filed (and rewritten) under it.
  res = await post(app, { sessionKey: B, entries: [{ ...entry(4), sessionKey: 'agent:other:x' }] });
  assert.equal(res.statusCode, 200);
  const last = rows(runtime).at(-1);
  assert.equal(last?.session_key, B);
  assert.equal(JSON.parse(last?.entry ?? '{}').sessionKey, B);
});

void test('Smaller resources → Chat history: POST rows reach the team chat stream at commit', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const seen: string[] = [];
  const hub = runtime.deps.hubs.chat as unknown as { offerCommitted(rows: Array<{ entryId: string }>): void };
  const original = hub.offerCommitted.bind(hub);
  hub.offerCommitted = (r) => {
    seen.push(...r.map((x) => x.entryId));
    original(r);
  };
  await post(app, { sessionKey: A, entries: [entry(1), entry(2)] });
  await post(app, { sessionKey: A, entries: [entry(1)] });
  assert.deepEqual(seen, [entry(1).entryId, entry(2).entryId], 'new rows once; a duplicate publishes nothing');
});

void test('Smaller resources → Chat history: POST 400s (non-object or malformed body, missing sessionKey, missing or empty entries) write nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  for (const raw of NON_OBJECT_BODIES) {
    const res = await rawJson(app, 'POST', '/api/chat-history', raw);
    assert.equal(res.statusCode, 400, String(raw));
    assert.deepEqual(res.json(), { error: M.body }, String(raw));
  }
  for (const body of [{}, { entries: [entry(1)] }, { sessionKey: '  ', entries: [entry(1)] }, { sessionKey: 7, entries: [entry(1)] }, { sessionKey: A }, { sessionKey: A, entries: [] }, { sessionKey: A, entries: entry(1) }]) {
    const res = await post(app, body);
    assert.equal(res.statusCode, 400, JSON.stringify(body));
    assert.deepEqual(res.json(), { error: M.post });
  }
  assert.deepEqual(rows(runtime), []);
});

async function seedForReset(app: FastifyInstance, runtime: Runtime) {
  await post(app, { sessionKey: A, entries: [entry(1), entry(2)] });
  await post(app, { sessionKey: B, entries: [entry(1, B)] });
  const resume = createResumePointers(runtime.deps.settingsTable, runtime.deps.logger);
  resume.set(A, { runtime: 'claude-code', nativeSessionId: 'native-a' });
  resume.set('local:solo', { runtime: 'codex', nativeSessionId: 'native-solo' });
  return resume;
}

void test('Smaller resources → Chat history: reset-context writes exactly one divider under the notice key, moves or deletes no message, clears resume pointers, and reports the gateway unreachable when none is connected', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const resume = await seedForReset(app, runtime);
  const before = rows(runtime);
  const t0 = Date.now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/chat-history/reset-context',
    payload: { sessionKeys: [A, B, '  ', 5, 'local:solo', A], noticeSessionKey: B },
  });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json<{ ok: true; divider: Record<string, unknown>; sessions: Array<Record<string, unknown>> }>();
  assert.deepEqual(Object.keys(body).sort(), ['divider', 'ok', 'sessions']);

  const d = body.divider;
  assert.match(String(d.entryId), UUID_RE);
  assert.equal(d.role, 'system');
  assert.equal(d.kind, 'meta');
  assert.equal(d.text, DIVIDER_TEXT);
  assert.equal(d.sessionKey, B);
  assert.equal(d.runId, null);
  assert.equal(d.confirmed, true);
  assert.equal(typeof d.source, 'string');
  assert.equal(typeof d.fingerprint, 'string');
  assert.equal(typeof d.sequenceKey, 'number');
  assert.ok(typeof d.timestampMs === 'number' && d.timestampMs >= t0 && d.timestampMs <= Date.now());
  assert.deepEqual(d.resetSessionKeys, [A, B, 'local:solo']);

  const after = rows(runtime);
  assert.deepEqual(after.slice(0, before.length), before, 'every message stays where it was, unchanged');
  assert.equal(after.length, before.length + 1, 'exactly one divider');
  assert.equal(after.at(-1)?.session_key, B);
  assert.deepEqual(JSON.parse(after.at(-1)?.entry ?? '{}'), d, 'the divider returned is the one stored');

  assert.equal(resume.get(A), null);
  assert.equal(resume.get('local:solo'), null);
  assert.equal(runtime.deps.settingsTable.get(resumeKey(A)), null);

  assert.deepEqual(body.sessions.map((s) => [s.sessionKey, s.gateway, s.resumePointerCleared]), [
    [A, 'unreachable', true],
    [B, 'unreachable', false],
    ['local:solo', 'not-applicable', true],
  ]);
  assert.equal(typeof body.sessions[0]?.code, 'string');

  // The divider is history like any entry: the notice session's newest page ends with it.
  const p = await page(app, `sessionKey=${encodeURIComponent(B)}`);
  assert.equal(p.entries.at(-1)?.entryId, d.entryId);
});

void test('Smaller resources → Chat history: reset-context asks the gateway to reset each gateway session and redacts what a refusal says', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await seedForReset(app, runtime);
  const calls: Array<[string, unknown, unknown]> = [];
  runtime.deps.gatewayLink = {
    ...runtime.deps.gatewayLink,
    call: async (method, params, opts) => {
      calls.push([method, params, opts]);
      if ((params as { key: string }).key === B) {
        throw new GatewayError({ code: 'INVALID_REQUEST', message: 'rejected: token=supersecretvalue123 Bearer abcdefghijklmnop' });
      }
      return { ok: true, key: (params as { key: string }).key, entry: { sessionId: 'new' } };
    },
  };
  const res = await app.inject({ method: 'POST', url: '/api/chat-history/reset-context', payload: { sessionKeys: [A, B, 'local:solo'], noticeSessionKey: A } });
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(calls.map(([m, p]) => [m, p]), [['sessions.reset', { key: A }], ['sessions.reset', { key: B }]], 'only gateway session keys go to the gateway');
  for (const [, , opts] of calls) assert.ok(((opts as { timeoutMs: number }).timeoutMs) <= 10_000, 'a short timeout');
  const sessions = res.json<{ sessions: Array<Record<string, unknown>> }>().sessions;
  assert.deepEqual(sessions[0], { sessionKey: A, gateway: 'reset', resumePointerCleared: true });
  assert.equal(sessions[1]?.gateway, 'failed');
  assert.equal(sessions[1]?.code, 'INVALID_REQUEST');
  assert.ok(!res.body.includes('supersecretvalue123') && !res.body.includes('abcdefghijklmnop'), res.body);
  assert.equal(sessions[2]?.gateway, 'not-applicable');
  assert.equal(rows(runtime).filter((r) => JSON.parse(r.entry).kind === 'meta').length, 1, 'the local part happened once');
});

void test('Smaller resources → Chat history: reset-context 400s (non-object body, no usable keys, notice key outside the list) change nothing', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const resume = await seedForReset(app, runtime);
  const before = rows(runtime);
  for (const raw of NON_OBJECT_BODIES) {
    const res = await rawJson(app, 'POST', '/api/chat-history/reset-context', raw);
    assert.equal(res.statusCode, 400, String(raw));
    assert.deepEqual(res.json(), { error: M.body });
  }
  const cases: Array<[unknown, string]> = [
    [{ noticeSessionKey: A }, M.keys],
    [{ sessionKeys: [], noticeSessionKey: A }, M.keys],
    [{ sessionKeys: ['', '   ', 3, null], noticeSessionKey: A }, M.keys],
    [{ sessionKeys: A, noticeSessionKey: A }, M.keys],
    [{ sessionKeys: [A] }, M.notice],
    [{ sessionKeys: [A], noticeSessionKey: B }, M.notice],
    [{ sessionKeys: [A], noticeSessionKey: 7 }, M.notice],
  ];
  for (const [payload, error] of cases) {
    const res = await app.inject({ method: 'POST', url: '/api/chat-history/reset-context', payload: payload as Record<string, unknown> });
    assert.equal(res.statusCode, 400, JSON.stringify(payload));
    assert.deepEqual(res.json(), { error }, JSON.stringify(payload));
  }
  assert.deepEqual(rows(runtime), before);
  assert.deepEqual(resume.get(A), { runtime: 'claude-code', nativeSessionId: 'native-a' });
});

void test('Smaller resources → Chat history: DELETE removes every message of the session and no other; 400 without a sessionKey', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await post(app, { sessionKey: A, entries: [entry(1), entry(2), entry(3)] });
  await post(app, { sessionKey: B, entries: [entry(1, B)] });
  for (const url of ['/api/chat-history', '/api/chat-history?sessionKey=', '/api/chat-history?sessionKey=%20']) {
    const res = await app.inject({ method: 'DELETE', url });
    assert.equal(res.statusCode, 400, url);
    assert.deepEqual(res.json(), { error: M.sessionKey });
  }
  assert.equal(rows(runtime).length, 4, 'a 400 deletes nothing');

  let res = await app.inject({ method: 'DELETE', url: `/api/chat-history?sessionKey=${encodeURIComponent(A)}` });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { ok: true, sessionKey: A, deleted: 3 });
  assert.deepEqual(rows(runtime).map((r) => r.session_key), [B]);
  res = await app.inject({ method: 'DELETE', url: `/api/chat-history?sessionKey=${encodeURIComponent(A)}` });
  assert.deepEqual(res.json(), { ok: true, sessionKey: A, deleted: 0 });
  // Re-posting a deleted entry stores it again (its entryId is free once the row is gone).
  assert.deepEqual((await post(app, { sessionKey: A, entries: [entry(1)] })).json(), { ok: true, saved: 1, inserted: 1 });
});
