// Issue 16 #2 (the jobs contract's abort signal from the caller): a route
// whose work runs in the job pool stops it when its client goes away. The
// pool is replaced at its seam (runtime.deps.pool's methods) by jobs that run
// until the test lets them finish or their signal fires, so "still running"
// and "stopped" are events, not durations. The client is a real socket on
// loopback, and going away is destroying it.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JOB_ERROR } from '../../shared/channels/jobs.ts';
import { EVAL_TASKS, type TrialResult } from '../../shared/eval/index.ts';
import type { ScanOutcome } from '../../shared/skills/schemas.ts';
import { JobError } from '../../supervisor/services/pool.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { deadline, waitFor } from '../helpers/wait.ts';

const GONE_LOG = 'the client went away; the work for its request was stopped';

/** A job that runs until its signal fires, then rejects as the pool does (ABORTED). */
interface HeldJob {
  name: string;
  signal: AbortSignal | undefined;
  aborted: Promise<void>;
  /** Ends a job that was never aborted, so a failing test does not leave its request open. */
  release(): void;
}

function holdJob<T>(jobs: HeldJob[], name: string, signal: AbortSignal | undefined): Promise<T> {
  return new Promise<T>((_resolve, reject) => {
    const aborted = new Promise<void>((done) => {
      signal?.addEventListener(
        'abort',
        () => {
          reject(new JobError(JOB_ERROR.aborted, `jobs.${name} aborted`));
          done();
        },
        { once: true },
      );
    });
    jobs.push({ name, signal, aborted, release: () => reject(new Error('the test ended')) });
  });
}

/** The held jobs of one test; asked for before buildTestApp, so they are released before its cleanup closes the app. */
function heldJobs(t: TestContext): HeldJob[] {
  const jobs: HeldJob[] = [];
  t.after(() => {
    for (const job of jobs) job.release();
  });
  return jobs;
}

/** The built app on a real loopback port (buildTestApp closes it). */
async function listen(built: TestApp): Promise<number> {
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  return (built.app.server.address() as AddressInfo).port;
}

/** Sends a JSON POST and returns the request, whose answer nobody waits for: the test destroys it. */
function postAndLeave(port: number, path: string, body: unknown): ClientRequest {
  const json = JSON.stringify(body);
  const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) } });
  // The socket is destroyed on purpose; its error is the expected end of this request.
  req.on('error', () => undefined);
  req.end(json);
  return req;
}

void test('Observability (issue 16 #2): an eval smoke whose client goes away stops its trials in flight and starts no other', async (t) => {
  const jobs = heldJobs(t);
  const built = await buildTestApp(t);
  const { runtime, logs } = built;
  runtime.deps.pool.evalTrial = (taskId, opts) => holdJob<TrialResult>(jobs, taskId, opts?.signal);
  const port = await listen(built);

  const total = EVAL_TASKS.length * 3;
  const req = postAndLeave(port, '/api/eval/smoke', { trials: 3 });
  const inFlight = runtime.deps.pool.size;
  await waitFor(() => jobs.length === inFlight, { what: `${inFlight} trials in flight` });
  assert.ok(total > inFlight, `the run has ${total} trials, more than the ${inFlight} in flight`);
  for (const job of jobs) assert.ok(job.signal && !job.signal.aborted, 'each trial is given a signal that has not fired');

  req.destroy();
  await deadline(Promise.all(jobs.map((j) => j.aborted)), { what: 'the trials in flight to be aborted' });
  // The route has settled: the one error handler saw the stopped run.
  await waitFor(() => logs.some((line) => line.includes(GONE_LOG)), { what: 'the route to settle' });
  assert.equal(jobs.length, inFlight, `no trial started after the client went away (${jobs.length} of ${total})`);
  assert.ok(!logs.some((line) => line.includes('"level":50')), `stopping is not an error:\n${logs.join('')}`);
});

void test('Smaller resources → Skills (issue 16 #2): an install whose client goes away mid-scan stops the scan and installs nothing', async (t) => {
  const jobs = heldJobs(t);
  const built = await buildTestApp(t);
  const { app, runtime, logs } = built;
  runtime.deps.pool.skillScan = (input, _timeoutMs, opts) => holdJob<ScanOutcome>(jobs, input.name ?? 'skill', opts?.signal);
  const port = await listen(built);

  const req = postAndLeave(port, '/api/skills', { agentId: 'agent-a', name: 'left-behind', source: 'catalog:core', body: '# Notes' });
  await waitFor(() => jobs.length === 1, { what: 'the scan to start' });
  const [scan] = jobs;
  assert.ok(scan?.signal && !scan.signal.aborted, 'the scan is given a signal that has not fired');

  req.destroy();
  await deadline(scan.aborted, { what: 'the scan to be aborted' });
  await waitFor(() => logs.some((line) => line.includes(GONE_LOG)), { what: 'the route to settle' });
  const list = await app.inject({ method: 'GET', url: '/api/skills' });
  assert.deepEqual(list.json(), { skills: [] });
  // Neither an install nor a blocked one: the scan never answered.
  assert.deepEqual(runtime.deps.db.prepare('SELECT kind FROM governance_audit').all(), []);
});
