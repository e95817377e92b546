// The state of one streamed job (an install, a gateway start or restart, a
// self-update) folded from its frames. The rules (spec "System (host and
// gateway)", issue 18 page 2):
// - `progress` sets the step; `Waiting for gateway... (n/120)` sets the bar.
// - `output` appends a log line.
// - `error` is recorded and logged; it does not end the job by itself: an
//   EACCES error is informational (npm's global folder is not writable; the
//   stream goes on and the page shows how to fix it).
// - `complete` wins: the job succeeded, whatever came before.
// - the stream's end without `complete` fails the job with the last error's
//   message, or "the stream ended without a result"; a request that failed
//   before or during the stream fails it with that message.
// Pure: no React, no DOM (test/unit/ui-jobs.test.ts).
import { pollCount, type JobFrame } from '../../api/op-stream.ts';

export type JobOutcome = 'running' | 'complete' | 'failed';
export type CompleteResult = Omit<Extract<JobFrame, { type: 'complete' }>, 'type'>;

export interface JobError {
  code: string;
  message: string;
}

export interface LogLine {
  kind: 'output' | 'error';
  text: string;
}

export interface JobState {
  /** The last progress step (installing, stopping, starting, waiting) and its message. */
  step: string | null;
  message: string | null;
  /** The gateway's poll count from `Waiting for gateway... (n/120)`; null before the first poll. */
  progress: { n: number; total: number } | null;
  /** Output lines and errors in arrival order; the oldest are dropped past LOG_LIMIT. */
  log: readonly LogLine[];
  dropped: number;
  errors: readonly JobError[];
  /** An EACCES frame was seen: show how to fix npm's global prefix. */
  permissionHint: boolean;
  outcome: JobOutcome;
  result: CompleteResult | null;
  /** Why the job failed (outcome failed). */
  failure: string | null;
}

export type JobEvent =
  | { type: 'frame'; frame: JobFrame }
  /** The response body ended. */
  | { type: 'end' }
  /** The request failed (an HTTP error answer, a network error). */
  | { type: 'fail'; message: string };

export const LOG_LIMIT = 2000;
export const ENDED_WITHOUT_RESULT = 'the stream ended without a result';
export const PERMISSION_CODE = 'EACCES';

export const initialJobState: JobState = {
  step: null,
  message: null,
  progress: null,
  log: [],
  dropped: 0,
  errors: [],
  permissionHint: false,
  outcome: 'running',
  result: null,
  failure: null,
};

function append(s: JobState, line: LogLine): Pick<JobState, 'log' | 'dropped'> {
  const log = [...s.log, line];
  const over = log.length - LOG_LIMIT;
  return over > 0 ? { log: log.slice(over), dropped: s.dropped + over } : { log, dropped: s.dropped };
}

function onFrame(s: JobState, f: JobFrame): JobState {
  switch (f.type) {
    case 'progress': {
      const count = f.step === 'waiting' ? pollCount(f.message) : null;
      // A new phase (stopping, then starting) starts its own count.
      return { ...s, step: f.step, message: f.message, progress: count ?? (f.step === 'waiting' ? s.progress : null) };
    }
    case 'output':
      return { ...s, ...append(s, { kind: 'output', text: f.line }) };
    case 'error':
      return {
        ...s,
        ...append(s, { kind: 'error', text: `${f.code}: ${f.message}` }),
        errors: [...s.errors, { code: f.code, message: f.message }],
        permissionHint: s.permissionHint || f.code === PERMISSION_CODE,
      };
    case 'complete': {
      const { type: _type, ...result } = f;
      return { ...s, outcome: 'complete', result, failure: null };
    }
  }
}

export function reduceJob(s: JobState, ev: JobEvent): JobState {
  // Once decided, an outcome stays: complete wins, and a failure is final.
  if (s.outcome !== 'running') {
    // Late output (after `complete`) still belongs in the log.
    return ev.type === 'frame' && ev.frame.type === 'output' ? onFrame(s, ev.frame) : s;
  }
  switch (ev.type) {
    case 'frame':
      return onFrame(s, ev.frame);
    case 'end':
      return { ...s, outcome: 'failed', failure: s.errors.at(-1)?.message ?? ENDED_WITHOUT_RESULT };
    case 'fail':
      return { ...s, outcome: 'failed', failure: ev.message };
  }
}

/** Folds a whole stream (the frames, then its end): what a finished job shows. */
export function foldJob(frames: readonly JobFrame[], ended = true): JobState {
  const s = frames.reduce((acc, frame) => reduceJob(acc, { type: 'frame', frame }), initialJobState);
  return ended ? reduceJob(s, { type: 'end' }) : s;
}
