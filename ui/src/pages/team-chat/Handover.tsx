// Issue 23: a hand-over to a sub-agent (a native `sessions_spawn`) and the
// child's work nested under it. The row is a button (aria-expanded) that
// opens while the child runs and folds to a one-line summary once it is done;
// the person's own choice wins after that. The child's live text streams
// inside, out of the log's announcements (as the team's live bubbles are).
// ItemView renders any transcript item, so a depth-2 hand-over nests itself.
import { useId, useState } from 'react';
import { formatUsd, type ChatItem, type Handover, type HandoverStatus } from '../../features/chat/index.ts';
import type { AgentRunStatus } from '../../api/types.ts';
import { EntryItem, LiveItem, NoticeItem, PendingItem } from './Bubbles.tsx';
import { StatusDot } from './StatusDot.tsx';

export interface ItemActions {
  nameOf: (agentId: string | null) => string;
  onRetry: (entryId: string) => void;
  onDiscard: (entryId: string) => void;
}

const WORD: Record<HandoverStatus, string> = { running: 'working', done: 'done', failed: 'failed', stopped: 'stopped' };
const DOT: Record<HandoverStatus, AgentRunStatus> = { running: 'running', done: 'idle', failed: 'error', stopped: 'idle' };

function firstLine(text: string, max = 120): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function summaryOf(h: Handover, child: string): string {
  if (h.reply) return `${child}: ${firstLine(h.reply.text)}`;
  const note = [...h.items].reverse().find((it) => it.type === 'entry' && it.entry.kind === 'meta');
  return note && note.type === 'entry' ? firstLine(note.entry.text) : `${child} ${WORD[h.status]}`;
}

export function HandoverItem({ handover: h, actions }: { handover: Handover; actions: ItemActions }) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = chosen ?? h.status === 'running';
  const regionId = useId();
  const child = actions.nameOf(h.childAgentId);
  const empty = h.items.length === 0 && !h.live;
  return (
    <li data-handover={h.childSessionKey} data-entry-id={h.entry.entryId} data-status={h.status} className="w-full">
      <div className={`mx-auto max-w-[95%] rounded-lg border ${h.status === 'failed' ? 'border-danger' : 'border-border'} bg-surface-2`}>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => setChosen(!open)}
          className="flex w-full flex-wrap items-center gap-x-2 gap-y-0.5 rounded-lg px-3 py-1.5 text-left text-xs"
        >
          <span aria-hidden="true" className="w-3 shrink-0">
            {open ? '▾' : '▸'}
          </span>
          <span className="min-w-0 flex-1 break-words">{h.entry.text}</span>
          <span className="flex shrink-0 items-center gap-1.5" data-handover-status={h.status}>
            <StatusDot status={DOT[h.status]} />
            <span className={h.status === 'failed' ? 'text-danger' : 'text-muted'}>
              <span className="sr-only">, </span>
              {WORD[h.status]}
            </span>
          </span>
          {h.costUsd !== null && (
            <span className="shrink-0 text-muted tabular-nums" data-cost="">
              <span className="sr-only">, cost </span>
              {formatUsd(h.costUsd)}
            </span>
          )}
        </button>
        {!open && h.status !== 'running' && (
          <p className="truncate px-3 pb-1.5 pl-8 text-xs text-muted" data-handover-summary="">
            {summaryOf(h, child)}
          </p>
        )}
        <div id={regionId} role="group" aria-label={`${child}'s work on “${h.label}”`} hidden={!open} className="border-t border-border px-2 py-2">
          {empty && <p className="px-2 text-xs text-muted">{h.status === 'running' ? `${child} is starting…` : `Nothing from ${child}.`}</p>}
          {h.items.length > 0 && (
            <ol className="flex flex-col gap-2">
              {h.items.map((it) => (
                <ItemView key={it.key} item={it} actions={actions} />
              ))}
            </ol>
          )}
          {h.live && (
            // Outside the log's announcements: the text changes many times a second.
            <div aria-live="off" className="mt-2">
              <LiveItem bubble={h.live} name={child} />
            </div>
          )}
        </div>
      </div>
    </li>
  );
}

export function ItemView({ item: it, actions }: { item: ChatItem; actions: ItemActions }) {
  switch (it.type) {
    case 'entry':
      return <EntryItem entry={it.entry} nameOf={actions.nameOf} continuing={it.continuing} subAgent={it.subAgent} />;
    case 'handover':
      return <HandoverItem handover={it.handover} actions={actions} />;
    case 'notice':
      return <NoticeItem notice={it.notice} name={actions.nameOf(it.notice.agentId)} />;
    case 'pending':
      return <PendingItem pending={it.pending} onRetry={() => actions.onRetry(it.pending.entryId)} onDiscard={() => actions.onDiscard(it.pending.entryId)} />;
  }
}
