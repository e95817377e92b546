// Issue 15 #17: a crash of the gateway-host worker ends the child processes
// it started (CLI runs, installs) together with what they started, through
// the supervisor: the worker reports each child over its channel and the
// supervision exit path ends those left. The gateway it launched is not one
// of them: it is detached by design and outlives svc (spec "Gateway
// process"). The real worker runs behind the real supervisor, through a
// fixture entry that can be told to crash; stand-ins for the gateway CLI and
// `npm` record their pids (and those of a background child each) and wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { loadConfig } from '../../shared/config.ts';
import { isAlive } from '../../shared/launcher/stop.ts';
import { createLogger } from '../../shared/log.ts';
import { svcPaths } from '../../shared/paths.ts';
import { startGatewayHost, type OpFrame } from '../../supervisor/services/gateway-host-service.ts';
import { Supervisor } from '../../supervisor/services/supervision.ts';
import { removeHome, tempHome, testEnv } from '../helpers/server.ts';
import { waitFor } from '../helpers/wait.ts';

/** Alive and not a zombie (a killed child of this process may wait to be reaped). */
function running(pid: number): boolean {
  if (!isAlive(pid)) return false;
  if (process.platform !== 'linux') return true;
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    // Gone between the two checks.
    return false;
  }
}

const pidIn = (file: string) => Number(readFileSync(file, 'utf8').trim());

void test('Security (issue 15 #17): a gateway-host worker crash ends the CLI run and the install it started, with their children; the gateway it launched runs on', async (t) => {
  const home = tempHome('svc-gwh-crash-');
  const bin = join(home, 'bin');
  const pids = join(home, 'pids');
  mkdirSync(bin);
  mkdirSync(pids);
  // Each long run records its own pid and a background child's, then waits.
  const longRun = (name: string) => `echo $$ > "${pids}/${name}"; sleep 600 & echo $! > "${pids}/${name}-child"; wait`;
  const cli = join(bin, 'openclaw');
  writeFileSync(cli, `#!/bin/sh
case "$1 $2" in
  "--version "*) echo "OpenClaw 2026.9.6 (test)";;
  "devices list") ${longRun('cli')};;
  "gateway run") echo $$ > "${pids}/gateway"; exec sleep 600;;
esac
`, { mode: 0o755 });
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\n${longRun('npm')}\n`, { mode: 0o755 });
  // The worker copies this process's environment when it starts.
  const savedPath = process.env.PATH;
  process.env.PATH = `${bin}${delimiter}${savedPath ?? ''}`;

  const config = loadConfig(testEnv(home, { SVC_GATEWAY_CLI: cli, SVC_GATEWAY_PACKAGE: 'openclaw@2026.9.6' }));
  const logs: string[] = [];
  const logger = createLogger({ level: 'warn' }, { write: (s: string) => void logs.push(s) });
  const supervisor = new Supervisor(logger);
  const host = startGatewayHost({
    supervisor, config, paths: svcPaths(config), logger, startWorkers: true,
    entry: new URL('../fixtures/gateway-host-crash-worker.ts', import.meta.url),
  });
  t.after(async () => {
    process.env.PATH = savedPath;
    await supervisor.stopAll();
    // Whatever a failed run left: never a stray process after the test.
    for (const name of ['gateway', 'cli', 'cli-child', 'npm', 'npm-child']) {
      const file = join(pids, name);
      if (existsSync(file) && running(pidIn(file))) process.kill(pidIn(file), 'SIGKILL');
    }
    removeHome(home);
  });

  const signal = new AbortController().signal;
  const startFrames: OpFrame[] = [];
  const installFrames: OpFrame[] = [];
  // The gateway launch (it never becomes ready here), a CLI run and an install, all in flight.
  const starting = host.run('start', (f) => startFrames.push(f), { signal });
  await waitFor(() => existsSync(join(pids, 'gateway')), { what: 'the gateway launch', timeoutMs: 30_000 });
  const approving = host.request('approveDevice', {}, { timeoutMs: 60_000 });
  const installing = host.run('install', (f) => installFrames.push(f), { signal });
  const names = ['cli', 'cli-child', 'npm', 'npm-child'];
  await waitFor(() => names.every((n) => existsSync(join(pids, n)) && readFileSync(join(pids, n), 'utf8').trim() !== ''), {
    what: 'the CLI run and the install',
    timeoutMs: 30_000,
  });
  const children = names.map((n) => pidIn(join(pids, n)));
  assert.ok(children.every(running), 'all four are running before the crash');

  writeFileSync(join(home, 'crash-now'), '');
  const approved = await approving;
  assert.equal(approved.ok, false);
  assert.equal(!approved.ok && approved.error.code, 'WORKER_EXITED');
  await Promise.all([starting, installing]);
  assert.equal(installFrames.at(-1)?.type, 'error', 'the install stream says it failed');

  // Timing out here is reported by the assertion below, which names the survivors.
  await waitFor(() => !children.some(running), { what: 'the children to end' }).catch(() => undefined);
  assert.deepEqual(children.filter(running), [], 'no CLI run, install or child of theirs outlives the worker');
  assert.ok(running(pidIn(join(pids, 'gateway'))), 'the gateway is detached by design: it keeps running');
  assert.ok(logs.some((l) => l.includes('ended the child processes an exited worker left running')), logs.join('\n'));
});
