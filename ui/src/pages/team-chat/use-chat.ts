// A team's chat as server state: the transcript, the live bubbles and the
// agents' statuses in the react-query cache under teamChatKeys.transcript
// (api/team-chat.ts), patched by the team's chat stream and by the person's
// sends (useSendTeamMessage) through the chat reducer (features/chat). Leaving the
// page keeps the cache; coming back resumes the stream from its cursor
// (`?since=`), and the browser's EventSource resumes a dropped connection
// with Last-Event-ID by itself. Frames are applied in order, once per
// animation frame: a run streaming hundreds of deltas a second re-renders the
// page at most once a frame (a delta replaces the text, so nothing is lost).
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { boardKeys } from '../../api/board.ts';
import { useEventStream } from '../../api/event-stream.ts';
import { teamChatKeys, teamStreamUrl, useSendTeamMessage, useStopTeamChat } from '../../api/team-chat.ts';
import { applyBoardFrame } from '../../features/board/index.ts';
import {
  chatReducer, initialChatState, parseDeltaFrame, parseRowFrame, parseStatusFrame, type ChatAction, type ChatState,
} from '../../features/chat/index.ts';
import { messageOf } from './messages.ts';

/** A client-minted entry id: randomUUID where the page is a secure context, else the same shape from getRandomValues. */
export function newEntryId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function chatDispatch(qc: QueryClient, teamId: string, actions: readonly ChatAction[]): void {
  if (actions.length === 0) return;
  qc.setQueryData<ChatState>(teamChatKeys.transcript(teamId), (s) => actions.reduce(chatReducer, s ?? initialChatState(teamId)));
}

/** Queues stream actions and applies them together on the next animation frame (or soon, in a hidden tab). */
function useFrameQueue(apply: (actions: ChatAction[]) => void) {
  const queue = useRef<ChatAction[]>([]);
  const timers = useRef<{ raf: number | null; timeout: number | null }>({ raf: null, timeout: null });
  const flush = useCallback(() => {
    const t = timers.current;
    if (t.raf !== null) cancelAnimationFrame(t.raf);
    if (t.timeout !== null) clearTimeout(t.timeout);
    t.raf = null;
    t.timeout = null;
    const actions = queue.current;
    queue.current = [];
    apply(actions);
  }, [apply]);
  const push = useCallback(
    (a: ChatAction) => {
      queue.current.push(a);
      const t = timers.current;
      if (t.raf === null) t.raf = requestAnimationFrame(flush);
      // requestAnimationFrame does not run in a hidden tab: the queue must not grow there.
      if (t.timeout === null) t.timeout = window.setTimeout(flush, 250);
    },
    [flush],
  );
  useEffect(() => () => flush(), [flush]);
  return { push, flush };
}

export function useChat(teamId: string) {
  const qc = useQueryClient();
  const key = teamChatKeys.transcript(teamId);
  const { data } = useQuery({
    queryKey: key,
    // Only the stream and the sends write this entry; a refetch hands back what is cached.
    queryFn: () => qc.getQueryData<ChatState>(key) ?? initialChatState(teamId),
    initialData: () => initialChatState(teamId),
    staleTime: Infinity,
    structuralSharing: false,
  });
  const state = data ?? initialChatState(teamId);
  const apply = useCallback((actions: ChatAction[]) => chatDispatch(qc, teamId, actions), [qc, teamId]);
  const frames = useFrameQueue(apply);

  // Fixed per mount: resume after what the cache already holds. Reconnects then carry Last-Event-ID.
  const url = useMemo(() => {
    const cursor = qc.getQueryData<ChatState>(teamChatKeys.transcript(teamId))?.cursor ?? 0;
    return teamStreamUrl(teamId, cursor);
  }, [qc, teamId]);
  useEffect(() => {
    apply([{ type: 'reset' }]);
  }, [apply]);
  const stream = useEventStream(url, {
    message: (raw, id) => {
      const frame = parseRowFrame(raw, id);
      if (frame) frames.push({ type: 'row', frame });
    },
    events: {
      delta: (raw) => {
        const frame = parseDeltaFrame(raw);
        if (frame) frames.push({ type: 'delta', frame });
      },
      status: (raw) => {
        const frame = parseStatusFrame(raw);
        if (frame) frames.push({ type: 'status', frame });
      },
      board: (raw) => applyBoardFrame(qc, teamId, raw),
    },
    onReopen: () => {
      frames.flush();
      apply([{ type: 'reset' }]);
      // Board frames sent while the stream was down are gone: reload the board.
      void qc.invalidateQueries({ queryKey: boardKeys.list(teamId) });
    },
  });

  // mutateAsync: each send settles on its own, however many are in flight.
  const { mutateAsync: sendMessage } = useSendTeamMessage(teamId);
  const post = useCallback(
    (entryId: string, text: string, targetAgentId: string | null) => {
      apply([{ type: 'send', entryId, text, targetAgentId }]);
      sendMessage({ entryId, text, targetAgentId }).then(
        () => apply([{ type: 'sent', entryId }]),
        (err: unknown) => apply([{ type: 'sendFailed', entryId, error: messageOf(err) }]),
      );
    },
    [apply, sendMessage],
  );
  const send = useCallback((text: string, targetAgentId: string | null) => post(newEntryId(), text, targetAgentId), [post]);
  const retry = useCallback(
    (entryId: string) => {
      const p = qc.getQueryData<ChatState>(teamChatKeys.transcript(teamId))?.pending.find((x) => x.entryId === entryId);
      // The same entryId again: the server stores and sends a message once, however often it is posted.
      if (p) post(p.entryId, p.text, p.targetAgentId);
    },
    [post, qc, teamId],
  );
  const discard = useCallback((entryId: string) => apply([{ type: 'discard', entryId }]), [apply]);
  const stop = useStopTeamChat(teamId, { onMutate: () => apply([{ type: 'stopRequested' }]) });
  return { state, send, retry, discard, stop, stream };
}
