// An agent's run status: a coloured dot for the eye, a word for screen readers.
import type { AgentRunStatus } from '../../api/types.ts';

const DOT: Record<AgentRunStatus, string> = {
  running: 'bg-ok motion-safe:animate-pulse',
  idle: 'border border-muted bg-surface',
  error: 'bg-danger',
};

export const STATUS_WORD: Record<AgentRunStatus, string> = { running: 'working', idle: 'idle', error: 'error' };

export function StatusDot({ status }: { status: AgentRunStatus }) {
  return <span aria-hidden="true" data-status={status} className={`inline-block size-2.5 shrink-0 rounded-full ${DOT[status]}`} />;
}

/** A stored agent status as a stream status (anything but running and error is idle, as the stream's snapshot reads it). */
export const asRunStatus = (s: string | undefined): AgentRunStatus => (s === 'running' || s === 'error' ? s : 'idle');
