// Spec "Tools broker and MCP": a call never escapes the pipeline as a throw.
// Fuzzed tool names and arguments (and a search provider answering garbage)
// always give a result, and every call leaves exactly one before and one
// after audit row. Also: the scrubbing of what is stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { fc } from '../helpers/fc.ts';
import { summarizeArgs, summarizeText, SUMMARY_MAX } from '../../shared/broker/scrub.ts';
import { buildTestApp } from '../helpers/app.ts';

const TOOL_NAMES = ['echo', 'note', 'web_search', 'delete_path', 'nope', ''];

const argsArb = fc.oneof(
  fc.anything(),
  fc.record(
    {
      text: fc.oneof(fc.string(), fc.anything()),
      tags: fc.oneof(fc.array(fc.string()), fc.anything()),
      query: fc.oneof(fc.string(), fc.anything()),
      limit: fc.oneof(fc.integer(), fc.double(), fc.anything()),
      path: fc.oneof(fc.string(), fc.constantFrom('.', '..', '/', '/etc', '../x', 'a/../../b', '\0'), fc.anything()),
    },
    { requiredKeys: [] },
  ),
);

void test('Tools broker and MCP → call: fuzzed names and arguments never throw out of call; each call writes one before and one after row', async (t) => {
  let body = '{}';
  let status = 200;
  const srv = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  t.after(() => new Promise<void>((ok) => srv.close(() => ok())));
  const addr = srv.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const ta = await buildTestApp(t, { env: { SVC_SEARCH_URL: `http://127.0.0.1:${port}/s` } });
  const { broker, db } = ta.runtime.deps;
  const count = db.prepare('SELECT phase, COUNT(*) AS n FROM tool_audit GROUP BY phase');

  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...TOOL_NAMES),
      argsArb,
      fc.oneof(fc.json(), fc.string(), fc.constant('{"results":[{"title":1,"url":null},"x",{"title":"ok"}]}')),
      fc.constantFrom(200, 404, 500),
      async (name, args, reply, code) => {
        body = reply;
        status = code;
        const before = Object.fromEntries((count.all() as Array<{ phase: string; n: number }>).map((r) => [r.phase, r.n]));
        // A destructive call that got as far as an approval would wait: the signal bounds it.
        const result = await broker.call(name, args, { agentId: 'fuzz', signal: AbortSignal.timeout(500) });
        assert.equal(typeof result.isError, 'boolean');
        assert.equal(typeof result.text, 'string');
        assert.equal(result.isError, result.outcome !== 'ok');
        const after = Object.fromEntries((count.all() as Array<{ phase: string; n: number }>).map((r) => [r.phase, r.n]));
        assert.equal((after.before ?? 0) - (before.before ?? 0), 1);
        assert.equal((after.after ?? 0) - (before.after ?? 0), 1);
      },
    ),
    { numRuns: 150 },
  );
  assert.deepEqual(broker.pendingApprovals(), []);
});

void test('Tools broker and MCP → scrub: stored summaries are bounded, masked, and JSON-safe for odd values', () => {
  fc.assert(
    fc.property(fc.anything(), (v) => {
      const s = summarizeArgs(v);
      if (s !== null) assert.ok(s.length <= SUMMARY_MAX + 20);
    }),
  );
  assert.equal(summarizeArgs(undefined), null);
  assert.equal(summarizeArgs({ password: 'hunter2', nested: { apiKey: 'k', ok: 1 } }), JSON.stringify({ password: '••••', nested: { apiKey: '••••', ok: 1 } }));
  assert.equal(summarizeArgs({ n: 10n, f: () => 1, inf: Infinity }), JSON.stringify({ n: '10', f: '[function]', inf: 'Infinity' }));
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.ok(summarizeArgs(cyclic)?.includes('[nested]'));
  const long = summarizeArgs({ text: 'a'.repeat(100_000) });
  assert.ok(long && long.length < 1100);
  // A secret past the clip point is masked before the cut, not left as a raw prefix.
  assert.ok(!summarizeText(`${'a'.repeat(3990)} sk-abcdefghijklmnopqrstuvwxyz`).includes('sk-abcdefghij'));
  assert.equal(summarizeText('Bearer abcdefghijklmnop'), 'Bearer ••••');
});
