// Issue 16 #4: on a terminal the log is readable lines (pino-pretty), anywhere
// else JSON; both go through the same redaction. The isTTY decision is
// injected through the destination stream's `isTTY`, as process.stdout has it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { createLogger, wantsPretty } from '../../shared/log.ts';
import { createRedactor } from '../../shared/redact.ts';

const SECRET = 'Hq72vLs0Kd9wSecretValue';

function capture(isTTY: boolean | undefined, pretty?: boolean) {
  const lines: string[] = [];
  const stream = isTTY === undefined ? { write: (s: string) => void lines.push(s) } : { write: (s: string) => void lines.push(s), isTTY };
  const logger = createLogger({ level: 'info', redactor: createRedactor(() => [SECRET]), ...(pretty === undefined ? {} : { pretty }) }, stream);
  logger.info({ port: 18790, token: 'plain-token-value', url: `/api/obs/stream?access_token=${SECRET}` }, `svc ready holding ${SECRET}`);
  logger.error({ err: new Error(`boom holding ${SECRET}`) }, 'could not bind');
  return lines;
}

const isJson = (line: string) => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    // Not JSON: what a pretty line is.
    return false;
  }
};

void test('Logs (issue 16 #4): a logger over a stream that is not a terminal writes JSON lines, secrets masked', () => {
  for (const lines of [capture(undefined), capture(false)]) {
    assert.equal(lines.length, 2);
    const ready = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    assert.equal(ready.level, 30);
    assert.equal(ready.msg, 'svc ready holding ••••');
    assert.equal(ready.port, 18790);
    assert.equal(ready.token, '••••', 'a sensitive field name masks its value');
    const failed = JSON.parse(lines[1] ?? '') as { level: number; err: { message: string } };
    assert.equal(failed.level, 50);
    assert.equal(failed.err.message, 'boom holding ••••');
    for (const line of lines) {
      assert.ok(!line.includes(SECRET), line);
      assert.ok(!line.includes('plain-token-value'), line);
    }
  }
});

void test('Logs (issue 16 #4): on a terminal the lines are readable: level, name and message in plain text, no JSON, secrets still masked', () => {
  const lines = capture(true);
  assert.equal(lines.length, 2);
  const [ready = '', failed = ''] = lines;
  assert.ok(!isJson(ready) && !ready.trimStart().startsWith('{'), `not raw JSON: ${ready}`);
  assert.match(ready, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(svc\): svc ready holding ••••\n/);
  assert.match(ready, /^ {4}port: 18790$/m, 'fields on their own lines');
  assert.match(ready, /^ {4}token: "••••"$/m);
  assert.match(ready, /access_token=••••/);
  assert.match(failed, /^\[[\d:.]+\] ERROR \(svc\): could not bind\n/);
  assert.match(failed, /Error: boom holding ••••/, 'the stack is printed, masked');
  assert.ok(!(ready + failed).includes('\u001b['), 'no colour codes into a stream that is not stdout');
  for (const line of lines) {
    assert.ok(!line.includes(SECRET), line);
    assert.ok(!line.includes('plain-token-value'), line);
  }
});

void test('Logs (issue 16 #4): an explicit choice wins over the stream, and the default follows isTTY', () => {
  assert.ok(isJson(capture(true, false)[0] ?? ''), 'pretty: false on a terminal is JSON');
  assert.ok(!isJson(capture(undefined, true)[0] ?? ''), 'pretty: true on a pipe is pretty');
  assert.equal(wantsPretty({}, { write: () => undefined, isTTY: true }), true);
  assert.equal(wantsPretty({}, { write: () => undefined }), false);
});

void test('Logs (issue 16 #4): a logger built in a worker thread writes JSON even over a terminal stream', async () => {
  const worker = new Worker(new URL('../../workers/tsx-bootstrap.mjs', import.meta.url), {
    workerData: { __entry: new URL('../fixtures/log-pretty-worker.ts', import.meta.url).href },
  });
  const [lines] = (await once(worker, 'message')) as [string[]];
  await worker.terminate();
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0] ?? '') as { msg: string; name: string };
  assert.equal(line.msg, 'from a worker');
  assert.equal(line.name, 'worker');
});
