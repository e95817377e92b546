// The one redactor (shared/redact.ts): spec "Orchestration event row" (data
// masked with four bullets), "Observability" (numeric telemetry survives) and
// "Errors" (error strings pass through a display redactor).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fc } from '../helpers/fc.ts';
import {
  MASK, VALUE_PATTERNS, createRedactor, isSensitiveKey, maskData, maskJsonText, maskText, stripAccessToken,
} from '../../shared/redact.ts';

const B = '••••';
const SK = 'sk-abcdefghijklmnopqrstuv';

// Text built from credential-shaped fragments, so the patterns actually fire.
const fragment = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    'Bearer ', 'basic\t', 'token=', 'api_key: ', 'password="', "'", '"', ' ', '&', ',', 'sk-', 'ghp_', 'AKIA',
    'eyJ', 'xoxb-', 'AIza', 'github_pat_', 'gho_', '.', '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', '\n', B,
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/),
);
const text = fc.array(fragment, { maxLength: 12 }).map((a) => a.join(''));
const key = fc.oneof(
  fc.constantFrom('apiKey', 'gatewayToken', 'password', 'authorization', 'cookie', 'credentials',
    'inputTokens', 'outputTokens', 'tokensPerMinute', 'data', 'usage', 'note'),
  fc.stringMatching(/^[a-z]{1,6}$/),
);
const leaf = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), text);
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('tree'), { maxLength: 4 }),
    fc.dictionary(key, tie('tree'), { maxKeys: 5 }),
  ),
}));

type Path = Array<string | number>;
function scalars(v: unknown, path: Path = []): Array<[Path, number | boolean]> {
  if (typeof v === 'number' || typeof v === 'boolean') return [[path, v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => scalars(x, [...path, i]));
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => scalars(x, [...path, k]));
  return [];
}
const at = (v: unknown, path: Path): unknown =>
  path.reduce<unknown>((cur, k) => (cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined), v);

void test('Orchestration event row: masking is idempotent for text, values and JSON text (property)', () => {
  fc.assert(fc.property(text, (s) => {
    assert.equal(maskText(maskText(s)), maskText(s));
  }), { numRuns: 500 });
  fc.assert(fc.property(tree, (v) => {
    const once = maskData(v);
    assert.deepEqual(maskData(once), once);
    const json = JSON.stringify(v) ?? 'null';
    assert.equal(maskJsonText(maskJsonText(json)), maskJsonText(json));
  }), { numRuns: 300 });
});

void test('Observability: numbers and booleans are never changed at any depth (property)', () => {
  fc.assert(fc.property(tree, (v) => {
    const masked = maskData(v);
    for (const [path, value] of scalars(v)) assert.equal(at(masked, path), value, `at ${JSON.stringify(path)}`);
  }), { numRuns: 300 });
});

void test('Observability: telemetry keys keep numbers; credential keys lose string values (property)', () => {
  const num = fc.oneof(fc.integer(), fc.double());
  const secret = fc.string({ minLength: 1, maxLength: 30 });
  const wrap = fc.array(fc.constantFrom('arr', 'obj'), { maxLength: 4 });
  fc.assert(fc.property(num, num, num, secret, secret, secret, secret, wrap,
    (inputTokens, outputTokens, tokensPerMinute, apiKey, gatewayToken, password, authorization, shape) => {
      const row = { inputTokens, outputTokens, tokensPerMinute, apiKey, gatewayToken, password, authorization };
      const wrapped = shape.reduce<unknown>((inner, s) => (s === 'arr' ? [inner] : { nested: inner }), row);
      const path = shape.map((s) => (s === 'arr' ? 0 : 'nested')).reverse();
      const out = at(maskData(wrapped), path);
      assert.deepEqual(out, {
        inputTokens, outputTokens, tokensPerMinute, apiKey: B, gatewayToken: B, password: B, authorization: B,
      });
    }), { numRuns: 300 });
});

void test('Errors: a known secret embedded anywhere never survives createRedactor().text (property)', () => {
  const secret = fc.string({ minLength: 6, maxLength: 40 });
  const others = fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.constant(null), fc.constant(undefined)), { maxLength: 3 });
  fc.assert(fc.property(text, secret, text, others, fc.nat({ max: 3 }), (pre, s, post, more, times) => {
    const r = createRedactor(() => [...more, s]);
    const input = pre + Array.from({ length: times + 1 }, () => s).join(post) + post;
    const out = r.text(input);
    assert.ok(!out.includes(s), `secret ${JSON.stringify(s)} left in ${JSON.stringify(out)}`);
  }), { numRuns: 500 });
});

void test('Errors: createRedactor reads its secrets on every use and ignores short or empty ones', () => {
  let current: string | null = null;
  const r = createRedactor(() => [current, '', 'abc']);
  assert.equal(r.text('value gw-token-1 here, abc'), 'value gw-token-1 here, abc');
  current = 'gw-token-1';
  assert.equal(r.text('value gw-token-1 here, abc'), `value ${B} here, abc`);
  assert.deepEqual(r.deep({ msg: 'x gw-token-1', gatewayToken: 'other', n: 3, empty: '' }), {
    msg: `x ${B}`, gatewayToken: B, n: 3, empty: '',
  });
});

void test('Security (issue 15 #13): secrets() lists the values the redactor masks now (set, long enough, once each), for a writer thread', () => {
  // A secret that holds another is masked whole, whatever order they were given in.
  assert.equal(createRedactor(() => ['abcdef', 'abcdefghij']).text('x abcdefghij y'), `x ${B} y`);
  let current: string | null = null;
  const r = createRedactor(() => [current, '', 'abc', 'master-key-1', 'master-key-1', undefined]);
  assert.deepEqual(r.secrets(), ['master-key-1']);
  current = 'gw-token-2';
  assert.deepEqual(r.secrets(), ['master-key-1', 'gw-token-2'], 'longest first');
  // Handed to another redactor (as the ingest worker builds its own), they mask the same.
  const worker = createRedactor(() => r.secrets());
  assert.deepEqual(worker.deep({ note: 'a gw-token-2 b master-key-1' }), r.deep({ note: 'a gw-token-2 b master-key-1' }));
  assert.deepEqual(worker.deep({ note: 'a gw-token-2 b master-key-1' }), { note: `a ${B} b ${B}` });
});

void test('Errors: deep() masks secrets held inside an object under a credential key, as maskData does', () => {
  const r = createRedactor(() => []);
  const value = { credentials: { user: 'bob', pass: 'hunter2-plain' } };
  assert.equal(JSON.stringify(maskData(value)).includes('hunter2-plain'), false);
  assert.equal(JSON.stringify(r.deep(value)).includes('hunter2-plain'), false);
});

void test('Errors: deep() does not hand back a value nested past its depth limit unmasked', () => {
  const r = createRedactor(() => []);
  let value: unknown = { password: 'hunter2-deep', note: `key ${SK}` };
  for (let i = 0; i < 40; i++) value = { level: value };
  assert.equal(JSON.stringify(maskData(value)).includes('hunter2-deep'), false);
  const out = JSON.stringify(r.deep(value));
  assert.equal(out.includes('hunter2-deep') || out.includes(SK), false);
});

void test('Orchestration event row: the quick pre-check never lets a credential-shaped substring through (property)', () => {
  // maskText skips strings without any pattern's marker; the answer must be
  // the one that running every pattern gives.
  const everyPattern = (s: string) => VALUE_PATTERNS.reduce((out, [re, rep]) => out.replace(re, rep), s);
  fc.assert(fc.property(text, (s) => assert.equal(maskText(s), everyPattern(s))), { numRuns: 2000 });
  for (const s of ['xoxb-1234567890ab', `AIza${'a'.repeat(35)}`, `github_pat_${'a'.repeat(22)}`, `gho_${'a'.repeat(20)}`]) {
    assert.equal(maskText(`x ${s} y`), `x ${B} y`, s);
  }
});

void test('Orchestration event row: credential-shaped substrings are masked whatever the key', () => {
  assert.equal(MASK, B);
  const cases: Array<[string, string]> = [
    ['Authorization: Bearer abcdefgh12345', `Authorization: Bearer ${B}`],
    ['use sk-abcdefghijklmnopqrstuv now', `use ${B} now`],
    ['AKIAABCDEFGHIJKLMNOP', B],
    ['x ghp_abcdefghijklmnopqrstuvwxyz', `x ${B}`],
    ['k=-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- ok', `k=${B} ok`],
    ['GATEWAY_TOKEN=abc123 next', `GATEWAY_TOKEN=${B} next`],
    ['password: "hunter2"', `password: "${B}"`],
    ['https://h/x?api_key=zzz999&y=1', `https://h/x?api_key=${B}&y=1`],
    ['eyJhbGciOiJI.eyJzdWIiOiIx.c2lnbmF0dXJl', B],
  ];
  for (const [input, expected] of cases) assert.equal(maskText(input), expected, input);
  // Plain prose and numbers are left alone.
  assert.equal(maskText('tokens used: 42, bearer of news'), 'tokens used: 42, bearer of news');
});

void test('Orchestration event row: maskData masks credential keys, keeps numbers, nulls and empty strings', () => {
  const input = {
    apiKey: 'k-123', gateway_token: 'gt', 'x-api-key': 'xk', Cookie: 'a=b', tokenCount: 'not-sensitive',
    password: '', secret: null, token: 12, authorization: true,
    list: [{ privateKey: 'pk' }, `see ${SK}`], inputTokens: 100,
  };
  assert.deepEqual(maskData(input), {
    apiKey: B, gateway_token: B, 'x-api-key': B, Cookie: B, tokenCount: 'not-sensitive',
    password: '', secret: null, token: 12, authorization: true,
    list: [{ privateKey: B }, `see ${B}`], inputTokens: 100,
  });
  assert.equal(input.apiKey, 'k-123', 'the input is not changed');
});

void test('Orchestration event row: isSensitiveKey matches credential names only', () => {
  for (const k of ['apiKey', 'API_KEY', 'gatewayToken', 'password', 'authorization', 'set-cookie', 'clientSecret',
    'vault_key', 'signature', 'credentials', 'accessToken']) assert.equal(isSensitiveKey(k), true, k);
  for (const k of ['inputTokens', 'outputTokens', 'tokensPerMinute', 'tokenCount', 'key', 'monkey', 'author', 'id', '']) {
    assert.equal(isSensitiveKey(k), false, k);
  }
});

void test('Orchestration event row: maskJsonText masks JSON structurally and other text as plain text', () => {
  assert.equal(maskJsonText('{"apiKey":"abc","n":1,"s":"Bearer abcdefghij"}'), `{"apiKey":"${B}","n":1,"s":"Bearer ${B}"}`);
  assert.equal(maskJsonText(`not json ${SK}`), `not json ${B}`);
  assert.equal(maskJsonText('[1,true,null]'), '[1,true,null]');
});

void test('Authentication 2: stripAccessToken hides the access_token query value only', () => {
  assert.equal(stripAccessToken('/api/x?access_token=abc.def&y=1#h'), `/api/x?access_token=${B}&y=1#h`);
  assert.equal(stripAccessToken('/p?y=1&ACCESS_TOKEN=zz'), `/p?y=1&ACCESS_TOKEN=${B}`);
  assert.equal(stripAccessToken('/p?my_access_token=zz'), '/p?my_access_token=zz');
  assert.equal(stripAccessToken('/plain'), '/plain');
});
