// Issue 18 unit tests for the dashboard's job store (ui/src/features/jobs/
// job-store.ts): a job lives outside components, a second start of a kind
// while one runs joins it (one request, not two), and every caller hears
// the outcome once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JobFrame } from '../../ui/src/api/op-stream.ts';
import { getJob, jobStore, startJob, type JobRun } from '../../ui/src/features/jobs/job-store.ts';
import { waitFor } from '../helpers/wait.ts';

/** A run the test drives: frames pushed by hand, ended or failed on demand. */
function controlledRun() {
  let emit: ((f: JobFrame) => void) | null = null;
  let finish: (() => void) | null = null;
  let fail: ((e: Error) => void) | null = null;
  let calls = 0;
  const run: JobRun = (onFrame) => {
    calls += 1;
    emit = onFrame;
    return new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return {
    run,
    calls: () => calls,
    emit: (f: JobFrame) => emit?.(f),
    end: () => finish?.(),
    fail: (m: string) => fail?.(new Error(m)),
  };
}

void test('Dashboard (issue 18, unit): a second start while a job runs joins it; both callers hear the one outcome', async () => {
  const c = controlledRun();
  const settled: string[] = [];
  const first = startJob('gateway', { label: 'Start the gateway', run: c.run, onSettled: (j) => settled.push(`a:${j.state.outcome}`) });
  const second = startJob('gateway', { label: 'Restart the gateway', run: c.run, onSettled: (j) => settled.push(`b:${j.state.outcome}`) });
  assert.equal(second.id, first.id, 'joined, not a new job');
  assert.equal(c.calls(), 1, 'one request to the server');
  c.emit({ type: 'progress', step: 'waiting', message: 'Waiting for gateway... (4/120)' });
  assert.deepEqual(getJob('gateway')?.state.progress, { n: 4, total: 120 });
  assert.equal(getJob('gateway')?.label, 'Start the gateway');
  c.emit({ type: 'complete', success: true, pid: 9 });
  c.end();
  await waitFor(() => settled.length === 2, { what: 'both callers to hear the outcome' });
  assert.deepEqual(settled, ['a:complete', 'b:complete']);
  assert.equal(getJob('gateway')?.state.outcome, 'complete');
});

void test('Dashboard (issue 18, unit): after a job ended, a start begins a new one; a failed request fails it with its message', async () => {
  const c1 = controlledRun();
  const j1 = startJob('install-gateway', { label: 'Install', run: c1.run });
  c1.fail('an install is already running');
  await waitFor(() => getJob('install-gateway')?.state.outcome === 'failed', { what: 'the first job to fail' });
  assert.equal(getJob('install-gateway')?.state.failure, 'an install is already running');
  const c2 = controlledRun();
  const j2 = startJob('install-gateway', { label: 'Install', run: c2.run });
  assert.notEqual(j2.id, j1.id);
  assert.equal(c2.calls(), 1);
  // The store is the only holder: no component, no subscription, and the job still advances.
  c2.emit({ type: 'output', line: 'added 1 package' });
  c2.end();
  await waitFor(() => getJob('install-gateway')?.state.outcome === 'failed', { what: 'the second job to end' });
  assert.equal(getJob('install-gateway')?.state.failure, 'the stream ended without a result');
  assert.deepEqual(getJob('install-gateway')?.state.log, [{ kind: 'output', text: 'added 1 package' }]);
});

void test('Dashboard (issue 18, unit): jobs of different kinds run side by side; a run that throws at once fails its job', async () => {
  const a = controlledRun();
  startJob('self-update', { label: 'Update svc', run: a.run });
  startJob('install-gateway', {
    label: 'Install',
    run: () => {
      throw new Error('no fetch here');
    },
  });
  await waitFor(() => jobStore.get()['install-gateway']?.state.outcome === 'failed', { what: 'the throwing job to fail' });
  assert.equal(jobStore.get()['install-gateway']?.state.failure, 'no fetch here');
  assert.equal(jobStore.get()['self-update']?.state.outcome, 'running');
  a.emit({ type: 'complete', success: true, version: '0.3.2' });
  a.end();
  await waitFor(() => jobStore.get()['self-update']?.state.outcome === 'complete', { what: 'the update to complete' });
});
