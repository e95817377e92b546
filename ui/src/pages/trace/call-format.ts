// How a model call reads on the run trace: its outcome in words and its
// times. Pure.
import type { ModelCall } from '../../api/types.ts';

const OUTCOME_TEXT: Record<ModelCall['outcome'], string> = {
  ok: 'OK',
  refused: 'Refused (budget)',
  upstream_error: 'Provider error',
  aborted: 'Aborted',
  cut: 'Cut mid-stream',
  capped: 'Ended at a cap mid-stream',
  ended: 'Turn ended (runaway)',
  interrupted: 'Interrupted (svc restarted)',
  open: 'In progress',
};

export const OUTCOME_TONE: Partial<Record<ModelCall['outcome'], string>> = {
  ok: 'text-ok',
  refused: 'text-danger',
  upstream_error: 'text-danger',
  cut: 'text-warn',
  aborted: 'text-warn',
  capped: 'text-danger',
  ended: 'text-danger',
  interrupted: 'text-warn',
};

/** "Provider error 429", "Refused (budget)", … */
export function outcomeText(c: Pick<ModelCall, 'outcome' | 'httpStatus'>): string {
  const base = OUTCOME_TEXT[c.outcome];
  return c.outcome === 'upstream_error' && c.httpStatus !== null ? `${base} ${c.httpStatus}` : base;
}

/** 840 → "840 ms", 12_345 → "12.3 s". */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
