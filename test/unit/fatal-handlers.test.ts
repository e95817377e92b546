// Issue 15 #18: an uncaught exception or an unhandled rejection is logged
// (stack included, redacted) and the process exits 1, instead of running on
// in a state nothing planned for. As a unit with an injected exit, and in a
// real child process that installs the same handlers as supervisor/main.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createLogger } from '../../shared/log.ts';
import { createRedactor } from '../../shared/redact.ts';
import { fatalHandler } from '../../supervisor/fatal-handlers.ts';
import { REPO_ROOT } from '../helpers/server.ts';
import { runChild, tsArgs } from '../helpers/spawn.ts';

const SECRET = 'Xq81mPz0Lw4kSecretValue';

void test('Security (issue 15 #18): the fatal handler logs the redacted stack and exits 1, even when logging throws', () => {
  const redactor = createRedactor(() => [SECRET]);
  const lines: string[] = [];
  const notes: string[] = [];
  const exits: number[] = [];
  const logger = createLogger({ level: 'info', redactor }, { write: (s: string) => void lines.push(s) });
  const handle = fatalHandler('uncaught exception', { logger, redactor, exit: (c) => void exits.push(c), note: (l) => void notes.push(l) });
  handle(new Error(`boom holding ${SECRET}`));
  assert.deepEqual(exits, [1]);
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0] ?? '{}') as { level: number; msg: string; err: { message: string; stack: string } };
  assert.equal(line.level, 60, 'fatal');
  assert.match(line.msg, /^uncaught exception: exiting/);
  assert.equal(line.err.message, 'boom holding ••••');
  assert.match(line.err.stack, /fatal-handlers\.test\.ts/);
  assert.ok(!lines[0]?.includes(SECRET));
  assert.deepEqual(notes, ['svc: uncaught exception, exiting: boom holding ••••']);

  const throwing = createLogger({ level: 'info' }, { write: () => { throw new Error('log sink gone'); } });
  const exits2: number[] = [];
  const handle2 = fatalHandler('unhandled rejection', { logger: throwing, redactor, exit: (c) => void exits2.push(c), note: () => undefined });
  assert.throws(() => handle2('not an Error'), /log sink gone/);
  assert.deepEqual(exits2, [1], 'exits whatever happens while logging');
});

for (const mode of ['throw', 'reject'] as const) {
  const kind = mode === 'throw' ? 'uncaught exception' : 'unhandled rejection';
  void test(`Security (issue 15 #18): a real process with svc's handlers exits 1 on an ${kind}, logging it redacted`, async () => {
    const { code, stdout: out, stderr: err } = await runChild(process.execPath, tsArgs(join(REPO_ROOT, 'test', 'fixtures', 'fatal-child.ts'), mode), {
      cwd: REPO_ROOT,
      env: { ...process.env, FIXTURE_SECRET: SECRET },
    });
    assert.equal(code, 1, `${out}\n${err}`);
    assert.ok(!out.includes(SECRET) && !err.includes(SECRET), 'the secret is never printed');
    const log = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { msg: string; err: { stack: string } };
    assert.match(log.msg, new RegExp(`^${kind}: exiting`));
    assert.match(log.err.stack, /fatal-child\.ts/, 'the stack is logged');
    assert.match(err, new RegExp(`svc: ${kind}, exiting: .*holding ••••`));
  });
}
