// One item of the transcript: a committed entry (the person's message, an
// agent's reply, or a `meta` notice), a notice of the page's own, a pending
// send, or a live bubble of a run in flight. (A hand-over to a sub-agent and
// the work nested under it: Handover.tsx.)
import { memo } from 'react';
import { Link } from 'wouter';
import type { TranscriptEntry } from '../../api/types.ts';
import { isRefusedSpawn, type LiveBubble, type Notice, type PendingSend } from '../../features/chat/index.ts';
import { noticeText } from './messages.ts';

const time = (ms: number) => (ms > 0 ? new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '');

function Meta({ children, ...data }: { children: string; [data: `data-${string}`]: string }) {
  return (
    <li {...data} className="mx-auto max-w-[90%] px-3 py-1 text-center text-xs text-muted italic">
      {children}
    </li>
  );
}

export interface EntryItemProps {
  entry: TranscriptEntry;
  nameOf: (agentId: string | null) => string;
  /** The lead continuing with a sub-agent's result (issue 23): that child, or null when unknown. */
  continuing?: { childAgentId: string | null } | null;
  /** A sub-agent's entry shown without its hand-over. */
  subAgent?: boolean;
}

export const EntryItem = memo(function EntryItem({ entry, nameOf, continuing = null, subAgent = false }: EntryItemProps) {
  if (isRefusedSpawn(entry)) {
    // The gateway refused a spawn (outside the roster): a warning, not a quiet aside.
    return (
      <li data-entry-id={entry.entryId} data-kind="refused" className="mx-auto max-w-[90%] rounded border border-warn px-3 py-1 text-center text-xs">
        <span className="font-semibold">Hand-over refused: </span>
        {entry.text}
      </li>
    );
  }
  if (entry.kind === 'meta' || entry.role === 'system') {
    return (
      <Meta data-entry-id={entry.entryId} data-kind="meta">
        {entry.text}
      </Meta>
    );
  }
  const mine = entry.role === 'user';
  const who = mine ? (entry.agentId ? `You to ${nameOf(entry.agentId)}` : 'You') : `${nameOf(entry.agentId)}${subAgent ? ' (sub-agent)' : ''}`;
  const resumed = continuing ? `continuing with ${continuing.childAgentId ? `${nameOf(continuing.childAgentId)}'s` : 'a sub-agent\'s'} result` : null;
  return (
    <li
      data-entry-id={entry.entryId}
      data-kind={mine ? 'user' : 'reply'}
      {...(resumed && { 'data-continuing': continuing?.childAgentId ?? '' })}
      className={`flex ${mine ? 'justify-end' : 'justify-start'}`}
    >
      <article className={`max-w-[85%] rounded-lg px-3 py-2 ${mine ? 'bg-accent text-accent-text' : 'border border-border bg-surface'}`}>
        <header className={`mb-0.5 flex flex-wrap gap-x-2 text-xs ${mine ? '' : 'text-muted'}`}>
          <span className="font-semibold">{who}</span>
          {resumed && <span>{resumed}</span>}
          <time dateTime={new Date(entry.timestampMs).toISOString()}>{time(entry.timestampMs)}</time>
          {!mine && entry.runId && (
            // The run's model calls as svc's endpoint served them (issue 22).
            <Link href={`/runs/${encodeURIComponent(entry.runId)}`} className="underline">
              model calls
            </Link>
          )}
        </header>
        <p className="text-sm break-words whitespace-pre-wrap">{entry.text}</p>
      </article>
    </li>
  );
});

export function NoticeItem({ notice, name }: { notice: Notice; name: string }) {
  return <Meta data-notice={notice.kind}>{noticeText(notice.kind, name)}</Meta>;
}

export function PendingItem({ pending, onRetry, onDiscard }: { pending: PendingSend; onRetry: () => void; onDiscard: () => void }) {
  const failed = pending.state === 'failed';
  return (
    <li data-pending={pending.state} className="flex justify-end">
      <article className={`max-w-[85%] rounded-lg px-3 py-2 ${failed ? 'border border-danger bg-surface' : 'bg-accent text-accent-text'}`}>
        <p className="text-sm break-words whitespace-pre-wrap">{pending.text}</p>
        {failed ? (
          <div role="alert" className="mt-1 flex flex-wrap items-center gap-2 text-xs">
            <span className="text-danger">Not sent: {pending.error}</span>
            <button type="button" className="btn px-2 py-0.5 text-xs" onClick={onRetry}>
              Retry
            </button>
            <button type="button" className="btn px-2 py-0.5 text-xs" onClick={onDiscard}>
              Discard
            </button>
          </div>
        ) : (
          <p className="mt-0.5 text-xs">{pending.state === 'sending' ? 'Sending…' : 'Sent'}</p>
        )}
      </article>
    </li>
  );
}

export function LiveItem({ bubble, name }: { bubble: LiveBubble; name: string }) {
  return (
    <div data-live={bubble.sessionKey} className="flex justify-start">
      <article className="max-w-[85%] rounded-lg border border-dashed border-border bg-surface px-3 py-2" aria-busy="true">
        <header className="mb-0.5 flex items-center gap-2 text-xs text-muted">
          <span className="font-semibold">{name}</span>
          <span>is writing…</span>
        </header>
        <p className="text-sm break-words whitespace-pre-wrap" data-live-text="">
          {bubble.text}
        </p>
      </article>
    </div>
  );
}
