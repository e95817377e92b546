// Worker supervision: a worker made to crash is restarted with backoff while
// the front door keeps answering on a real socket; in-flight calls fail with
// a clear error; past the restart intensity the service is reported down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../helpers/app.ts';
import { crashyContract } from '../fixtures/crashy-contract.ts';
import { waitFor } from '../helpers/wait.ts';

const entry = new URL('../fixtures/crashy-worker.ts', import.meta.url);

void test('Supervision: a crashed worker is restarted while the front door keeps answering', async (t) => {
  const { app, runtime } = await buildTestApp(t, { startWorkers: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const svc = runtime.supervisor.start({ name: 'crashy', entry, contract: crashyContract, workerData: () => ({}), policy: { baseBackoffMs: 50 } });
  await waitFor(() => svc.status().state === 'running', { what: 'the crashy worker to run' });
  const first = await svc.request('echo', { text: 'hi' });
  assert.deepEqual(first.ok && first.result.text, 'hi');

  const hanging = svc.request('hang', {}, { timeoutMs: 30_000 });
  // Hammer the front door while the worker dies and comes back.
  let answered = 0;
  let stopHammer = false;
  const hammer = (async () => {
    while (!stopHammer) {
      const res = await fetch(`${base}/api/settings`);
      assert.equal(res.status, 200);
      answered++;
    }
  })();
  await svc.request('crash', {});
  const failed = await hanging;
  assert.equal(failed.ok, false);
  assert.equal(!failed.ok && failed.error.code, 'WORKER_EXITED');
  await waitFor(() => svc.status().restarts === 1 && svc.status().state === 'running', { what: 'the worker to be restarted once and running' });
  const after = await svc.request('echo', { text: 'back' });
  assert.equal(after.ok && after.result.text, 'back');
  stopHammer = true;
  await hammer;
  assert.ok(answered > 0);

  const health = (await (await fetch(`${base}/api/health/recheck`, { method: 'POST' })).json()) as { workers: Array<{ name: string; state: string; restarts: number; lastError: string | null }> };
  const crashy = health.workers.find((w) => w.name === 'crashy');
  assert.equal(crashy?.state, 'running');
  assert.equal(crashy?.restarts, 1);
  assert.match(crashy?.lastError ?? '', /deliberate crash/);
  assert.equal(health.workers.find((w) => w.name === 'tail')?.state, 'running');
});

void test('Supervision: past the restart intensity limit the worker is reported down, and calls fail as values', async (t) => {
  const { app, runtime } = await buildTestApp(t);
  await app.inject({ method: 'POST', url: '/api/health/recheck' }); // cache a report before the worker exists
  const svc = runtime.supervisor.start({
    name: 'flappy', entry, contract: crashyContract, workerData: () => ({}),
    policy: { maxRestarts: 2, windowMs: 60_000, baseBackoffMs: 10 },
  });
  for (let crash = 1; crash <= 3; crash++) {
    await waitFor(() => svc.status().state === 'running', { what: `the worker to run before crash ${crash}` });
    await svc.request('crash', {});
    // Seen by what the supervisor counts, not by catching a short-lived state between two looks.
    if (crash <= 2) await waitFor(() => svc.status().restarts === crash, { what: `restart ${crash}` });
  }
  await waitFor(() => svc.status().state === 'down', { what: 'the worker to be reported down past the limit' });
  assert.equal(svc.status().restarts, 2);
  const r = await svc.request('echo', { text: 'anyone?' });
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.error.code, 'WORKER_UNAVAILABLE');
  // A plain GET (cached checks) shows the live supervision state too.
  const health = (await app.inject({ method: 'GET', url: '/api/health' })).json() as { workers: Array<{ name: string; state: string }> };
  assert.equal(health.workers.find((w) => w.name === 'flappy')?.state, 'down');
});

void test('Supervision (issue 32 #1): a worker serves once it said ready and took what it needs first, again after each restart; a wait for one that never does fails with a clear message', async (t) => {
  const { runtime } = await buildTestApp(t);
  const prepared: number[] = [];
  const svc = runtime.supervisor.start({
    name: 'announcing', entry, contract: crashyContract, workerData: () => ({ sayReady: true }), policy: { baseBackoffMs: 10 },
    ready: {
      event: 'ready',
      // What must reach the worker before anything else: a request of its own, answered before the service serves.
      prepare: async (client) => {
        const r = await client.request('echo', { text: 'configure' });
        assert.ok(r.ok);
        prepared.push(r.result.pid);
      },
    },
  });
  await svc.whenServing(30_000);
  assert.equal(svc.serving(), true);
  assert.equal(prepared.length, 1);
  const first = await svc.request('echo', { text: 'hi' });
  assert.ok(first.ok);
  assert.equal(first.result.pid, prepared[0]);

  await svc.request('crash', {});
  await waitFor(() => svc.status().restarts === 1, { what: 'the restart' });
  await svc.whenServing(30_000);
  assert.equal(prepared.length, 2, 'the restarted worker was prepared again');
  const again = await svc.request('echo', { text: 'back' });
  assert.ok(again.ok);
  assert.equal(again.result.pid, prepared[1]);
  assert.notEqual(prepared[1], prepared[0]);

  const silent = runtime.supervisor.start({ name: 'silent', entry, contract: crashyContract, workerData: () => ({}), ready: { event: 'ready' } });
  await waitFor(() => silent.status().state === 'running', { what: 'the silent worker to run' });
  assert.equal(silent.serving(), false, 'running is not serving until it says ready');
  await assert.rejects(silent.whenServing(200), { message: 'the silent worker is not ready (running); try again shortly' });
});
