// The transcript: at most RENDER_LIMIT committed rows until the person loads
// earlier ones; it follows new content only while the reader is near the
// bottom, else it offers "Jump to latest (n new)". Live bubbles (runs in
// flight) sit under the log, outside its live region: their text changes many
// times a second and is not announced piece by piece. A sub-agent's work
// sits under the hand-over that started it (Handover.tsx), its live text too.
import { useLayoutEffect, useRef, useState } from 'react';
import type { ChatItem, ChatState, LiveBubble } from '../../features/chat/index.ts';
import { Empty } from '../../components/States.tsx';
import { LiveItem } from './Bubbles.tsx';
import { ItemView, type ItemActions } from './Handover.tsx';

/** Within this many pixels of the bottom counts as "at the bottom". */
const NEAR_BOTTOM_PX = 64;

export interface TranscriptProps {
  state: ChatState;
  items: readonly ChatItem[];
  /** Live bubbles not nested under a hand-over. */
  live: readonly LiveBubble[];
  nameOf: (agentId: string | null) => string;
  earlier: { has: boolean; busy: boolean; error: string | null; load: () => void };
  onRetry: (entryId: string) => void;
  onDiscard: (entryId: string) => void;
  /** Changes when the person sends: the view goes to the bottom. */
  followSignal: number;
  /** The stream's catch-up is not known to be complete yet (its status snapshot has not come). */
  waiting: boolean;
}

export function Transcript({ state, items, live, nameOf, earlier, onRetry, onDiscard, followSignal, waiting }: TranscriptProps) {
  const ref = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** The received count when the reader scrolled away from the bottom (null: at the bottom). */
  const [awayAt, setAwayAt] = useState<number | null>(null);
  const restore = useRef<{ height: number; top: number } | null>(null);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM_PX;
    atBottom.current = near;
    if (near && awayAt !== null) setAwayAt(null);
    if (!near && awayAt === null) setAwayAt(state.received);
  };
  const toBottom = () => {
    const el = ref.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    atBottom.current = true;
    setAwayAt(null);
  };

  // After each render: keep the reading position after "load earlier", else follow the bottom when the reader is there.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (restore.current) {
      el.scrollTop = restore.current.top + (el.scrollHeight - restore.current.height);
      restore.current = null;
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  });
  useLayoutEffect(() => {
    if (followSignal > 0) toBottom();
  }, [followSignal]);

  const loadEarlier = () => {
    const el = ref.current;
    if (el) restore.current = { height: el.scrollHeight, top: el.scrollTop };
    earlier.load();
  };
  const fresh = awayAt === null ? 0 : state.received - awayAt;
  const actions: ItemActions = { nameOf, onRetry, onDiscard };

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div ref={ref} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto px-3 py-3 md:px-4" data-testid="transcript">
        {earlier.has && (
          <div className="mb-3 flex flex-col items-center gap-1">
            <button type="button" className="btn" onClick={loadEarlier} disabled={earlier.busy}>
              {earlier.busy ? 'Loading earlier messages…' : 'Load earlier messages'}
            </button>
            {earlier.error && (
              <p role="alert" className="text-sm text-danger">
                {earlier.error}
              </p>
            )}
          </div>
        )}
        {waiting && items.length === 0 ? (
          <p role="status" className="p-3 text-muted">
            Loading the conversation…
          </p>
        ) : items.length === 0 && live.length === 0 ? (
          <Empty title="No messages yet">Say hello: your message goes to the lead unless you @mention someone.</Empty>
        ) : null}
        <div role="log" aria-label="Conversation">
          <ol className="flex flex-col gap-2">
            {items.map((it) => (
              <ItemView key={it.key} item={it} actions={actions} />
            ))}
          </ol>
        </div>
        {live.length > 0 && (
          <div className="mt-2 flex flex-col gap-2">
            {live.map((b) => (
              <LiveItem key={b.sessionKey} bubble={b} name={nameOf(b.agentId)} />
            ))}
          </div>
        )}
      </div>
      {awayAt !== null && fresh > 0 && (
        <button type="button" className="btn btn-primary absolute bottom-3 left-1/2 -translate-x-1/2 shadow-lg" onClick={toBottom}>
          Jump to latest ({fresh} new)
        </button>
      )}
    </div>
  );
}
