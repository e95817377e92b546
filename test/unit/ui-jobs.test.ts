// Issue 18 unit tests for the dashboard's POST-stream jobs
// (ui/src/features/jobs): the SSE frame parser (spec "System (host and
// gateway)": `data: <json>` frames with type progress|output|error|complete)
// and the job-outcome reducer (EACCES goes on; complete wins; an end without
// complete fails; the gateway's poll count n/120 drives the bar).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFrameReader, parseFrame, pollCount, type JobFrame } from '../../ui/src/api/op-stream.ts';
import { ENDED_WITHOUT_RESULT, foldJob, initialJobState, reduceJob } from '../../ui/src/features/jobs/job-reducer.ts';
import { fc } from '../helpers/fc.ts';

const sse = (frames: readonly unknown[]) => frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('');
const read = (chunks: readonly string[]) => {
  const frames: JobFrame[] = [];
  const invalid: string[] = [];
  const r = createFrameReader((f) => frames.push(f), (d) => invalid.push(d));
  for (const c of chunks) r.feed(c);
  return { frames, invalid };
};

const INSTALL: JobFrame[] = [
  { type: 'progress', step: 'installing', message: 'Installing openclaw@2026.9.6...' },
  { type: 'output', line: 'npm warn deprecated x' },
  { type: 'error', code: 'EACCES', message: 'Permission denied writing the global npm folder' },
  { type: 'output', line: 'added 312 packages in 41s' },
  { type: 'complete', success: true, version: '2026.9.6' },
];

void test('Dashboard (issue 18, unit): the frame parser reads the spec\'s frames and drops what is not one', () => {
  assert.deepEqual(parseFrame('{"type":"progress","step":"waiting","message":"Waiting for gateway... (3/120)"}'), {
    type: 'progress',
    step: 'waiting',
    message: 'Waiting for gateway... (3/120)',
  });
  assert.deepEqual(parseFrame('{"type":"complete","success":true,"pid":42,"port":18789}'), { type: 'complete', success: true, pid: 42, port: 18789 });
  assert.deepEqual(parseFrame('{"type":"complete","success":true,"port":1,"message":"Gateway already running"}'), {
    type: 'complete',
    success: true,
    port: 1,
    message: 'Gateway already running',
  });
  for (const bad of ['', 'not json', '[]', 'null', '{"type":"output"}', '{"type":"output","line":3}', '{"type":"error","code":"X"}', '{"type":"complete","success":false}', '{"type":"complete","success":true,"pid":"1"}', '{"type":"bogus","line":"x"}']) {
    assert.equal(parseFrame(bad), null, bad);
  }
  // Unknown extra fields are not carried into the frame.
  assert.deepEqual(parseFrame('{"type":"output","line":"a","extra":1}'), { type: 'output', line: 'a' });
});

void test('Dashboard (issue 18, unit): the SSE reader yields the same frames however the body is split into chunks', () => {
  const text = sse(INSTALL);
  fc.assert(
    fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 12 }), (cuts) => {
      const points = [...new Set(cuts)].sort((a, b) => a - b);
      const chunks = [0, ...points].map((from, i) => text.slice(from, points[i] ?? text.length));
      const { frames, invalid } = read(chunks);
      assert.deepEqual(frames, INSTALL);
      assert.deepEqual(invalid, []);
    }),
  );
});

void test('Dashboard (issue 18, unit): the SSE reader skips comments, reports non-frames, and keeps a frame cut off mid-way out', () => {
  const { frames, invalid } = read([': keep-alive\n\n', 'data: hello\n\n', sse([{ type: 'output', line: 'one' }]), 'data: {"type":"output","li']);
  assert.deepEqual(frames, [{ type: 'output', line: 'one' }]);
  assert.deepEqual(invalid, ['hello']);
});

void test('Dashboard (issue 18, unit): the poll count n/120 is read from the waiting message', () => {
  assert.deepEqual(pollCount('Waiting for gateway... (1/120)'), { n: 1, total: 120 });
  assert.deepEqual(pollCount('Waiting for gateway... (120/120)'), { n: 120, total: 120 });
  assert.equal(pollCount('Starting gateway...'), null);
  assert.equal(pollCount('Waiting for gateway... (3/0)'), null);
  const s = [
    { type: 'progress', step: 'starting', message: 'Starting gateway...' },
    { type: 'progress', step: 'waiting', message: 'Waiting for gateway... (1/120)' },
    { type: 'progress', step: 'waiting', message: 'Waiting for gateway... (2/120)' },
  ] satisfies JobFrame[];
  const state = foldJob(s, false);
  assert.deepEqual(state.progress, { n: 2, total: 120 });
  assert.equal(state.step, 'waiting');
  assert.equal(state.outcome, 'running');
  // A restart's stop phase comes before the count; a new phase resets it.
  const again = reduceJob(state, { type: 'frame', frame: { type: 'progress', step: 'starting', message: 'Starting gateway...' } });
  assert.equal(again.progress, null);
});

void test('Dashboard (issue 18, unit): an EACCES error is informational: the hint shows and the job goes on to complete', () => {
  const upToEacces = foldJob(INSTALL.slice(0, 3), false);
  assert.equal(upToEacces.outcome, 'running');
  assert.equal(upToEacces.permissionHint, true);
  const done = foldJob(INSTALL);
  assert.equal(done.outcome, 'complete');
  assert.deepEqual(done.result, { success: true, version: '2026.9.6' });
  assert.equal(done.failure, null);
  assert.deepEqual(
    done.log.map((l) => [l.kind, l.text]),
    [
      ['output', 'npm warn deprecated x'],
      ['error', 'EACCES: Permission denied writing the global npm folder'],
      ['output', 'added 312 packages in 41s'],
    ],
  );
});

void test('Dashboard (issue 18, unit): complete wins over earlier errors and over a later end or request failure', () => {
  const frames: JobFrame[] = [
    { type: 'error', code: 'SPAWN_ERROR', message: 'first try failed' },
    { type: 'complete', success: true, pid: 7 },
  ];
  const s = foldJob(frames);
  assert.equal(s.outcome, 'complete');
  assert.equal(reduceJob(s, { type: 'fail', message: 'network error' }).outcome, 'complete');
  assert.equal(reduceJob(s, { type: 'frame', frame: { type: 'error', code: 'X', message: 'late' } }).outcome, 'complete');
});

void test('Dashboard (issue 18, unit): a stream that ends without complete fails with the last error, else "the stream ended without a result"', () => {
  const noError = foldJob([{ type: 'progress', step: 'installing', message: 'Installing...' }, { type: 'output', line: 'x' }]);
  assert.equal(noError.outcome, 'failed');
  assert.equal(noError.failure, ENDED_WITHOUT_RESULT);
  const withErrors = foldJob([
    { type: 'error', code: 'EACCES', message: 'Permission denied' },
    { type: 'error', code: 'EXIT_243', message: 'npm exited with code 243' },
  ]);
  assert.equal(withErrors.outcome, 'failed');
  assert.equal(withErrors.failure, 'npm exited with code 243');
  assert.equal(withErrors.permissionHint, true);
  const refused = reduceJob(initialJobState, { type: 'fail', message: 'an install is already running' });
  assert.deepEqual([refused.outcome, refused.failure], ['failed', 'an install is already running']);
  // A failure is final: a late end does not rewrite it.
  assert.equal(reduceJob(refused, { type: 'end' }).failure, 'an install is already running');
});

void test('Dashboard (issue 18, unit): the outcome is decided by complete or its absence, for any order of frames', () => {
  const frame = fc.oneof(
    fc.record({ type: fc.constant('progress' as const), step: fc.constantFrom('installing', 'starting', 'waiting'), message: fc.string() }),
    fc.record({ type: fc.constant('output' as const), line: fc.string() }),
    fc.record({ type: fc.constant('error' as const), code: fc.constantFrom('EACCES', 'EXIT_1', 'TIMEOUT'), message: fc.string() }),
    fc.record({ type: fc.constant('complete' as const), success: fc.constant(true as const) }),
  );
  fc.assert(
    fc.property(fc.array(frame, { maxLength: 30 }), (frames) => {
      const s = foldJob(frames);
      const at = frames.findIndex((f) => f.type === 'complete');
      // What came before the outcome was decided.
      const before = at === -1 ? frames : frames.slice(0, at);
      assert.equal(s.outcome, at === -1 ? 'failed' : 'complete');
      if (at === -1) {
        const lastError = frames.filter((f) => f.type === 'error').at(-1);
        assert.equal(s.failure, lastError ? lastError.message : ENDED_WITHOUT_RESULT);
      }
      assert.equal(s.permissionHint, before.some((f) => f.type === 'error' && f.code === 'EACCES'));
      assert.equal(s.log.filter((l) => l.kind === 'output').length, frames.filter((f) => f.type === 'output').length);
    }),
  );
});
