// One streamed job as a person follows it, on the setup and gateway pages
// alike: the step, a progress bar from the gateway's poll count, the live
// log (kept scrolled to the end unless the reader scrolled up), the hint for
// npm's permission error, and the outcome.
import { useLayoutEffect, useRef } from 'react';
import type { CompleteResult, JobState } from './job-reducer.ts';
import type { Job } from './job-store.ts';

const STEP_TEXT: Record<string, string> = {
  installing: 'Installing',
  stopping: 'Stopping the gateway',
  starting: 'Starting the gateway',
  waiting: 'Waiting for the gateway to accept connections',
};

/** How near the end (px) still counts as "at the end" for auto-scroll. */
const STICK_PX = 40;

function resultText(r: CompleteResult): string {
  const parts = [r.message, r.version ? `version ${r.version}` : undefined, r.pid !== undefined ? `pid ${r.pid}` : undefined, r.port !== undefined ? `port ${r.port}` : undefined];
  const detail = parts.filter(Boolean).join(', ');
  return detail ? `Done: ${detail}.` : 'Done.';
}

function Outcome({ label, state }: { label: string; state: JobState }) {
  if (state.outcome === 'running') {
    const step = state.step ? (STEP_TEXT[state.step] ?? state.step) : 'Starting';
    return (
      <p>
        <span className="font-medium">{label}:</span> {step}…
      </p>
    );
  }
  if (state.outcome === 'complete' && state.result) {
    return (
      <p className="font-medium text-ok">
        {label} succeeded. {resultText(state.result)}
      </p>
    );
  }
  return (
    <p className="font-medium text-danger">
      {label} failed: {state.failure}
    </p>
  );
}

function Log({ label, state }: { label: string; state: JobState }) {
  const ref = useRef<HTMLPreElement>(null);
  const stick = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [state.log]);
  if (state.log.length === 0) return <p className="text-sm text-muted">No output yet.</p>;
  return (
    <pre
      ref={ref}
      role="log"
      aria-live="off"
      aria-label={`${label} log`}
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
      }}
      className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md border border-border bg-surface-2 p-2 font-mono text-xs"
    >
      {state.dropped > 0 && <span className="text-muted">({state.dropped} earlier lines not shown){'\n'}</span>}
      {state.log.map((l, i) => (
        <span key={i + state.dropped} className={l.kind === 'error' ? 'text-danger' : undefined}>
          {l.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

export function JobProgress({ job }: { job: Job | undefined }) {
  if (!job) return null;
  const { state, label } = job;
  const running = state.outcome === 'running';
  const count = state.progress;
  return (
    <div className="mt-3 flex flex-col gap-2" aria-label={`${label} progress`} role="group">
      <div role="status" aria-live="polite">
        <Outcome label={label} state={state} />
      </div>
      {(count || running) && (
        <div className="flex items-center gap-3 text-sm">
          <progress
            className="h-2 w-full max-w-md accent-accent"
            aria-label={count ? `Gateway checks: ${count.n} of ${count.total}` : `${label}: in progress`}
            {...(count ? { max: count.total, value: state.outcome === 'complete' ? count.total : count.n } : {})}
          />
          {count && (
            <span className="shrink-0 text-muted">
              check {count.n} of {count.total}
            </span>
          )}
        </div>
      )}
      {state.permissionHint && (
        <div role="note" className="rounded-md border border-warn p-3 text-sm">
          <p className="font-medium text-warn">npm may not write to its global folder (EACCES).</p>
          <p className="mt-1">
            Give npm a folder you own, then install again: run <code>npm config set prefix ~/.npm-global</code> and add{' '}
            <code>~/.npm-global/bin</code> to your PATH (restart svc from that shell). The install goes on meanwhile; its outcome shows above.
          </p>
        </div>
      )}
      <Log label={label} state={state} />
    </div>
  );
}
