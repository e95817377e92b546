// Spec "Observability" (all payload-bearing responses mask the event data
// field; numeric telemetry survives) and "Orchestration event row" (masked
// with four bullets), at the route level: test/unit/redact.test.ts proves
// maskData itself; this proves the feed and the trace apply it to what they
// answer, including rows another writer stored unmasked, at any depth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import type { EventRow } from '../../shared/events/types.ts';
import { maskDataText } from '../../shared/obs/mask-row.ts';
import { maskedDataText } from '../../shared/events/event-log.ts';
import { MASK_RULES_VERSION, createRedactor, isSensitiveKey, maskJsonText } from '../../shared/redact.ts';
import { buildTestApp } from '../helpers/app.ts';

const B = '••••';
const secretKey = fc.constantFrom('apiKey', 'api_key', 'gatewayToken', 'password', 'Authorization', 'cookie', 'clientSecret', 'privateKey');
const plainKey = fc.constantFrom('inputTokens', 'outputTokens', 'usd', 'note', 'items', 'child', 'tokensPerMinute');
const secretValue = fc.constantFrom('sk-abcdefghijklmnopqrstuvwx', 'ghp_abcdefghijklmnopqrstuvwxyz12', 'Bearer abcdefghijk.lmnop', 'hunter2-hunter2');
const leaf = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }), secretValue);
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('tree'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(secretKey, plainKey), tie('tree'), { maxKeys: 4 }),
  ),
}));
const data = fc.dictionary(fc.oneof(secretKey, plainKey), tree, { minKeys: 1, maxKeys: 4 });

type Path = Array<string | number>;
/** Every leaf with its path and whether a credential-shaped key sits above it. */
function leaves(v: unknown, path: Path = [], secret = false): Array<{ path: Path; value: unknown; secret: boolean }> {
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, [...path, i], secret));
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, [...path, k], secret || isSensitiveKey(k)));
  return [{ path, value: v, secret }];
}
const at = (v: unknown, path: Path): unknown =>
  path.reduce<unknown>((cur, k) => (cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined), v);
// Credential-shaped whatever key they sit under (hunter2 is a secret only under a credential key).
const SECRETS = ['sk-abcdefghijklmnopqrstuvwx', 'ghp_abcdefghijklmnopqrstuvwxyz12', 'abcdefghijk.lmnop'];

void test('Observability: feed and trace responses mask credential-shaped keys and values at any depth; numbers survive (property)', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const insert = runtime.deps.db.prepare(
    `INSERT INTO events (id, ts, kind, trace_id, data, created_at) VALUES (?, ?, 'tool_call', ?, ?, ?)`,
  );
  let n = 0;
  await fc.assert(
    fc.asyncProperty(data, async (d) => {
      const traceId = `mask-${++n}`;
      // Stored unmasked, as a writer other than appendEvent could.
      insert.run(`raw-${n}`, Date.now(), traceId, JSON.stringify(d), Date.now());
      const feed = (await app.inject({ url: `/api/obs/events?traceId=${traceId}` })).json() as { events: EventRow[] };
      const trace = (await app.inject({ url: `/api/obs/traces/${traceId}` })).json() as { events: EventRow[] };
      for (const rows of [feed.events, trace.events]) {
        assert.equal(rows.length, 1);
        const text = rows[0]?.data ?? '';
        for (const s of SECRETS) assert.ok(!text.includes(s), `${s} leaked in ${text}`);
        const out: unknown = JSON.parse(text);
        for (const l of leaves(d)) {
          const got = at(out, l.path);
          if (typeof l.value === 'number' || typeof l.value === 'boolean' || l.value === null) assert.equal(got, l.value, `number/boolean/null at ${l.path.join('.')}`);
          else if (l.secret && l.value !== '') assert.equal(got, B, `secret at ${l.path.join('.')}`);
        }
      }
    }),
    { numRuns: 150 },
  );
});

// shared/obs/mask-row.ts returns a text as stored when the full pass could
// not change it; this proves the shortcut never answers differently, on text
// built from credential-shaped fragments, escapes and split key words.
const fragment = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('Bearer ', 'token=', 'api_key', 'Pass_Word', 'sk-', 'ghp_', 'AKIA', 'eyJ', 'Cookie', 'x-Api-Key', '\\', '"',
    'sig-nature', 'priv', 'ate', 'key', '\u0074oken', 'secret', 'Authorization', 'vault.key', '-----BEGIN RSA PRIVATE KEY-----'),
  fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/),
);
const text = fc.array(fragment, { maxLength: 8 }).map((a) => a.join(''));
const { anyTree } = fc.letrec((tie) => ({
  anyTree: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), text),
    fc.array(tie('anyTree'), { maxLength: 3 }),
    fc.dictionary(text, tie('anyTree'), { maxKeys: 4 }),
  ),
}));

void test('Observability: the response masking shortcut answers exactly what the full masking pass answers (property)', () => {
  fc.assert(
    fc.property(fc.dictionary(text, anyTree), (d) => {
      const stored = JSON.stringify(d);
      assert.deepEqual(JSON.parse(maskDataText(stored)), JSON.parse(maskJsonText(stored)));
    }),
    { numRuns: 5000 },
  );
  // Texts the shortcut must not pass through: an escaped key, a split key word.
  for (const stored of ['{"to\\u006ben":"abc"}', '{"api-Key":"abc"}', '{"note":"Bearer abcdefghijkl"}']) {
    assert.notEqual(maskDataText(stored), stored, stored);
  }
});

// Rows appendEvent stored carry MASK_RULES_VERSION and are answered as
// stored (shared/obs/rows.ts). That is only sound because masking twice
// changes nothing: what appendEvent stores is a fixed point of the response pass.
void test('Observability: data masked on write is a fixed point of the response masking (property)', () => {
  fc.assert(
    fc.property(fc.dictionary(text, anyTree), (d) => {
      const stored = maskedDataText(d);
      assert.equal(maskJsonText(stored), stored);
      assert.equal(maskDataText(stored), stored);
    }),
    { numRuns: 5000 },
  );
});

void test('Observability: svc-written rows record the masking rules they went through; rows under other rules are masked again', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  const secret = 'sk-abcdefghijklmnopqrstuvwx';
  const row = runtime.deps.eventLog.append({ kind: 'tool_call', traceId: 'mv', data: { note: `key ${secret}`, n: 7 } });
  const stored = runtime.deps.db.prepare('SELECT mask_version, data FROM events WHERE seq = ?').get(row.seq) as { mask_version: number; data: string };
  assert.equal(stored.mask_version, MASK_RULES_VERSION);
  assert.ok(!stored.data.includes(secret));
  // A row stored by a writer under older rules (a different version), unmasked.
  runtime.deps.db.prepare(
    `INSERT INTO events (id, ts, kind, trace_id, data, created_at, mask_version) VALUES ('old-1', ?, 'tool_call', 'mv', ?, ?, ?)`,
  ).run(Date.now(), JSON.stringify({ apiKey: 'plain-secret', note: `x ${secret}`, n: 8 }), Date.now(), MASK_RULES_VERSION === 1 ? 2 : 1);
  for (const url of ['/api/obs/events?traceId=mv', '/api/obs/traces/mv']) {
    const { events } = (await app.inject({ url })).json() as { events: EventRow[] };
    assert.equal(events.length, 2, url);
    for (const e of events) {
      assert.ok(!e.data.includes(secret) && !e.data.includes('plain-secret'), `${url}: ${e.data}`);
    }
    assert.deepEqual(JSON.parse(events[1]?.data ?? ''), { apiKey: B, note: `x ${B}`, n: 8 });
  }
});

// Issue 15 #13: the exact values svc holds (the gateway token, the access
// token) are masked in stored event data whatever key or shape they sit in,
// not only when a credential pattern recognises them.
const GATEWAY_TOKEN = 'zq7Xw2Lp9Rt4Kv8NgatewayPlain';
const ACCESS_TOKEN = 'Jm3Qe8Vb1Nc6Hy0Taccess.plain';

void test('Security (issue 15 #13): event data stored by svc holds no exact secret, in a plain field or a plain shape; mask_version stays the rules\' version', async (t) => {
  const { app, runtime } = await buildTestApp(t, { env: { STUDIO_ACCESS_TOKEN: ACCESS_TOKEN } });
  const saved = await app.inject({
    method: 'POST',
    url: '/api/settings',
    headers: { authorization: `Bearer ${ACCESS_TOKEN}` },
    payload: { gatewayToken: GATEWAY_TOKEN },
  });
  assert.equal(saved.statusCode, 200);
  const row = runtime.deps.eventLog.append({
    kind: 'tool_result',
    traceId: 'exact',
    data: { note: `ran with ${GATEWAY_TOKEN} ok`, args: [ACCESS_TOKEN, { path: `/x/${GATEWAY_TOKEN}/y` }], n: 3 },
  });
  const stored = runtime.deps.db.prepare('SELECT mask_version, data FROM events WHERE seq = ?').get(row.seq) as { mask_version: number; data: string };
  assert.ok(!stored.data.includes(GATEWAY_TOKEN), stored.data);
  assert.ok(!stored.data.includes(ACCESS_TOKEN), stored.data);
  assert.deepEqual(JSON.parse(stored.data), { note: `ran with ${B} ok`, args: [B, { path: `/x/${B}/y` }], n: 3 });
  assert.equal(stored.mask_version, MASK_RULES_VERSION);
  // A read answers it as stored (it is a fixed point of the response masking).
  const feed = (await app.inject({ url: '/api/obs/events?traceId=exact', headers: { authorization: `Bearer ${ACCESS_TOKEN}` } })).json() as { events: EventRow[] };
  assert.equal(feed.events[0]?.data, stored.data);
});

void test('Observability: data masked on write with exact secrets too is a fixed point of the response masking (property)', () => {
  fc.assert(
    fc.property(fc.dictionary(text, anyTree), fc.array(fc.stringMatching(/^[A-Za-z0-9_.-]{6,16}$/), { maxLength: 3 }), (d, secrets) => {
      const stored = maskedDataText(d, createRedactor(() => secrets));
      assert.equal(maskJsonText(stored), stored);
      assert.equal(maskDataText(stored), stored);
    }),
    { numRuns: 3000 },
  );
});
