// The `svc` launcher end to end (spec "Command-line launcher"): the real
// bin/svc.ts run as a child process against real servers on 127.0.0.1, with
// a temporary SVC_HOME and CI=true so no browser opens.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../../shared/db/open.ts';
import { isAlive, pidFromPort, tcpCheck } from '../../shared/launcher/index.ts';
import { freePort, LAUNCHER_ENTRY, REPO_ROOT, removeHome, SERVER_ENTRY, startServer, tempHome, testEnv } from '../helpers/server.ts';
import { runChild, tsArgs, type ChildRun } from '../helpers/spawn.ts';

/** Runs `svc <args>` to completion (it must exit on its own, leaving any server detached); tsx is found from any cwd (backup's default destination is the cwd). */
function svc(args: string[], env: NodeJS.ProcessEnv, cwd = REPO_ROOT): Promise<ChildRun> {
  return runChild(process.execPath, tsArgs(LAUNCHER_ENTRY, ...args), { cwd, env, timeoutMs: 90_000 });
}

const launcherEnv = (home: string, extra: Record<string, string> = {}) => testEnv(home, { SVC_SERVER_PATH: SERVER_ENTRY, ...extra });

function ownerPid(port: number): number | null {
  const owner = pidFromPort(port);
  return owner.kind === 'found' ? (owner.pids[0] as number) : null;
}

/** Kills whatever this test left listening on `port`, by PID, and removes the home. */
function cleanup(t: TestContext, home: string, port: () => number | null): void {
  t.after(() => {
    const p = port();
    const pid = p === null ? null : ownerPid(p);
    if (pid !== null && pid !== process.pid) process.kill(pid, 'SIGKILL');
    removeHome(home);
  });
}

const alive = isAlive;

const portFile = (home: string) => join(home, 'api-port.txt');
const readPort = (home: string) => (existsSync(portFile(home)) ? readFileSync(portFile(home), 'utf8').trim() : null);

void test('Command-line launcher: svc backup copies svc.db with no server running', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const env = launcherEnv(home);

  const missing = await svc(['backup', join(home, 'none.db')], env, home);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no database/);

  const db = openDatabase(join(home, 'svc.db'));
  db.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)').run('backup-probe', 'yes', Date.now());
  db.close();

  const first = await svc(['backup', 'copy.db'], env, home);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout.trim(), join(home, 'copy.db'));
  const copy = new Database(join(home, 'copy.db'), { readonly: true });
  assert.deepEqual(copy.prepare('SELECT value FROM settings WHERE key = ?').get('backup-probe'), { value: 'yes' });
  copy.close();

  const again = await svc(['backup', 'copy.db'], env, home);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already exists/);
  assert.equal((await svc(['backup', 'copy.db', '--force'], env, home)).code, 0);

  const dated = await svc(['backup'], env, home);
  assert.equal(dated.code, 0, dated.stderr);
  assert.match(dated.stdout.trim(), /svc-backup-\d{8}-\d{6}\.db$/);
  assert.ok(readdirSync(home).some((f) => /^svc-backup-\d{8}-\d{6}\.db$/.test(f)));
});

void test('Command-line launcher: svc starts a detached server, attaches on a second run, and svc stop ends it', async (t) => {
  const home = tempHome();
  const port = await freePort();
  cleanup(t, home, () => port);
  const env = launcherEnv(home, { SVC_API_PORT: String(port) });

  const first = await svc([], env);
  assert.equal(first.code, 0, `${first.stdout}\n${first.stderr}`);
  assert.match(first.stdout, /Gateway: /);
  assert.match(first.stdout, /Starting the svc dashboard/);
  assert.ok(first.stdout.includes(`svc dashboard: http://localhost:${port}`), first.stdout);
  assert.equal(readPort(home), String(port));
  const pid = ownerPid(port);
  assert.ok(pid !== null && alive(pid), 'a server owns the port after the launcher exited');
  assert.ok(existsSync(join(home, 'logs', 'server.log')));

  const second = await svc([], env);
  assert.equal(second.code, 0, second.stderr);
  assert.doesNotMatch(second.stdout, /Starting/);
  assert.ok(second.stdout.includes(`svc dashboard: http://localhost:${port}`));
  assert.equal(ownerPid(port), pid, 'no second server');
  assert.equal(readPort(home), String(port));

  const stop = await svc(['stop'], env);
  assert.equal(stop.code, 0, stop.stderr);
  assert.match(stop.stdout, /Stopped the svc dashboard/);
  assert.equal(await tcpCheck(port), false);
  assert.equal(existsSync(portFile(home)), false);
  assert.equal(alive(pid as number), false);

  const idle = await svc(['stop'], env);
  assert.equal(idle.code, 0, idle.stderr);
  assert.match(idle.stdout, /No svc dashboard is running/);
});

void test('Command-line launcher: svc stop with nothing running exits 0 and removes a stale port file', async (t) => {
  const home = tempHome();
  t.after(() => removeHome(home));
  const port = await freePort();
  writeFileSync(portFile(home), `${port}\n`);
  const r = await svc(['stop'], launcherEnv(home, { SVC_API_PORT: String(port) }));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /No svc dashboard is running/);
  assert.equal(existsSync(portFile(home)), false);
});

void test('Command-line launcher: svc restart keeps the same port', async (t) => {
  const server = await startServer();
  let port: number | null = server.port;
  cleanup(t, server.home, () => port);
  t.after(() => server.stop('SIGKILL'));
  assert.equal(readPort(server.home), String(server.port));

  // No SVC_API_PORT for the launcher: it finds the server through api-port.txt.
  const r = await svc(['restart', '--no-open'], launcherEnv(server.home));
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  assert.notEqual(server.proc.exitCode ?? server.proc.signalCode, null, 'the old server exited');
  const successor = ownerPid(server.port);
  assert.ok(successor !== null && successor !== server.proc.pid, 'a new process holds the old port');
  assert.equal(readPort(server.home), String(server.port));
  assert.ok(r.stdout.includes(`svc dashboard: http://localhost:${server.port}`), r.stdout);
  const settings = await fetch(`${server.base}/api/settings`);
  assert.equal(settings.status, 200);
  port = server.port;
});

void test('Command-line launcher: a gated dashboard is reported, not duplicated, and svc stop refuses it', async (t) => {
  const server = await startServer({ env: { STUDIO_ACCESS_TOKEN: 'abc123' } });
  t.after(async () => {
    await server.stop('SIGKILL');
    removeHome(server.home);
  });
  const env = launcherEnv(server.home, { SVC_API_PORT: String(server.port) });

  const r = await svc([], env);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`port ${server.port}.*access gate on`));
  assert.doesNotMatch(r.stdout, /Starting/);
  assert.ok(!`${r.stdout}${r.stderr}`.includes('abc123'), 'the token is never printed');
  assert.equal(ownerPid(server.port), server.proc.pid);

  const stop = await svc(['stop'], env);
  assert.equal(stop.code, 1);
  assert.ok(stop.stderr.includes(`kill ${server.proc.pid}`), stop.stderr);
  assert.equal(server.proc.exitCode, null, 'the server is still alive');
  const gate = await fetch(`${server.base}/api/settings`);
  assert.equal(gate.status, 401);
  assert.deepEqual(await gate.json(), { error: 'access token required', service: 'svc' });
});

void test('Security (issue 15 #9): with the token, the launcher recognises its own gated svc through api-port.txt and stops it; the token is never printed', async (t) => {
  const token = 'launcher-e2e-token-9';
  const server = await startServer({ env: { STUDIO_ACCESS_TOKEN: token } });
  t.after(async () => {
    await server.stop('SIGKILL');
    removeHome(server.home);
  });
  // No SVC_API_PORT: the port comes from the server's own api-port.txt; the token from the launcher's environment.
  const env = launcherEnv(server.home, { STUDIO_ACCESS_TOKEN: token });
  const r = await svc(['--no-open'], env);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`port ${server.port}.*access gate on`));
  assert.doesNotMatch(r.stdout, /Starting/);
  assert.ok(!`${r.stdout}${r.stderr}`.includes(token), 'the token is never printed');

  const stop = await svc(['stop'], env);
  assert.equal(stop.code, 0, `${stop.stdout}\n${stop.stderr}`);
  assert.match(stop.stdout, /Stopped the svc dashboard/);
  assert.notEqual(server.proc.exitCode ?? server.proc.signalCode, null, 'the gated server exited');
  assert.equal(existsSync(portFile(server.home)), false);
});
