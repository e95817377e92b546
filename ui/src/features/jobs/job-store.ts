// The running and last-finished job of each kind, outside React: a job
// lives here, not in a component, so it survives navigation and nothing
// aborts it when a page unmounts (no user action cancels one today). A
// second start of a kind while one runs joins the running job instead of
// starting another. How a job reaches the server is the caller's `run`
// (api/system-streams.ts in the app, a fake in the unit tests).
import { createStore } from '../../lib/store.ts';
import { initialJobState, reduceJob, type JobEvent, type JobState } from './job-reducer.ts';
import type { JobFrame } from '../../api/op-stream.ts';

/** One job at a time per kind: gateway start and restart share `gateway`. */
export type JobKind = 'install-gateway' | 'gateway' | 'self-update';

export interface Job {
  id: number;
  kind: JobKind;
  /** What the person started, as the page names it ("Start the gateway"). */
  label: string;
  startedAt: number;
  state: JobState;
}

/** Streams the job's frames to `onFrame`; resolves when the stream ends, rejects when the request fails. */
export type JobRun = (onFrame: (f: JobFrame) => void) => Promise<void>;

export const jobStore = createStore<Readonly<Partial<Record<JobKind, Job>>>>({});

let nextId = 1;
const settledListeners = new Map<number, Array<(job: Job) => void>>();

function dispatch(id: number, kind: JobKind, ev: JobEvent): void {
  const before = jobStore.get()[kind];
  if (!before || before.id !== id) return;
  const state = reduceJob(before.state, ev);
  if (state === before.state) return;
  const job = { ...before, state };
  jobStore.set((all) => ({ ...all, [kind]: job }));
  if (before.state.outcome === 'running' && state.outcome !== 'running') {
    const listeners = settledListeners.get(id) ?? [];
    settledListeners.delete(id);
    for (const fn of listeners) fn(job);
  }
}

export interface StartOptions {
  label: string;
  run: JobRun;
  /** Called once when the job (this one, or the running one joined) has an outcome. */
  onSettled?: (job: Job) => void;
}

/** Starts a job of this kind, or joins the one that is running; returns it. */
export function startJob(kind: JobKind, opts: StartOptions): Job {
  const current = jobStore.get()[kind];
  if (current && current.state.outcome === 'running') {
    if (opts.onSettled) settledListeners.get(current.id)?.push(opts.onSettled);
    return current;
  }
  const job: Job = { id: nextId++, kind, label: opts.label, startedAt: Date.now(), state: initialJobState };
  settledListeners.set(job.id, opts.onSettled ? [opts.onSettled] : []);
  jobStore.set((all) => ({ ...all, [kind]: job }));
  let run: Promise<void>;
  try {
    run = opts.run((frame) => dispatch(job.id, kind, { type: 'frame', frame }));
  } catch (err) {
    run = Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
  void run.then(
    () => dispatch(job.id, kind, { type: 'end' }),
    (err: unknown) => dispatch(job.id, kind, { type: 'fail', message: err instanceof Error ? err.message : String(err) }),
  );
  return job;
}

export function getJob(kind: JobKind): Job | undefined {
  return jobStore.get()[kind];
}
