// A team chat as the page holds it, and the one reducer every stream frame
// and every send goes through (plain functions: no React, no DOM).
//
// - Committed rows come from the stream, ordered by row id; a row seen again
//   (a replay after a reconnect) is skipped. The page keeps the newest
//   RENDER_LIMIT of them; older ones are paged back on request through
//   GET /api/chat-history (transcript-merge.ts) into `older`.
// - `event: delta` REPLACES the live bubble's text of its session (the frame
//   carries the whole text so far). The live bubble goes when the committed
//   row of its run arrives, or when its agent's status goes idle or error.
// - A run that ends idle with no text and no committed reply leaves a notice
//   ("<name> finished without a reply", or "stopped" after a Stop). A run
//   that ends in error leaves none here: svc writes the error into the
//   transcript as a `meta` entry ("Could not deliver to <name>: …").
// - A message the person sends shows at once (pending, with its client-minted
//   entryId) and is dropped when the committed row with that entryId arrives;
//   a refused send keeps the server's message for a retry.
// - Native delegation (issue 23): a sub-agent's deltas come on its own session
//   key with its agentId; a hand-over counts as its parent run's answer; a
//   Stop remembers which hand-overs were still open. Nesting them under their
//   hand-over is delegation.ts's job, over what transcriptItems lists.
import type { AgentRunStatus, TranscriptEntry } from '../../api/types.ts';
import type { DeltaFrame, RowFrame, StatusFrame } from './stream-parse.ts';
import { agentIdOfTeamSessionKey } from '../../../../shared/team-chat/session-keys.ts';
import { hasOlder, type Paging } from './transcript-merge.ts';
import { agentIdOfChildKey, isHandover, openChildKeys } from './delegation.ts';

/** At most this many committed rows are kept (and rendered) until the person asks for earlier ones. */
export const RENDER_LIMIT = 200;
/** Run ids remembered as committed, so a late delta of a finished run cannot bring its bubble back. */
const COMMITTED_RUNS_KEPT = 100;

export interface LiveBubble {
  sessionKey: string;
  agentId: string | null;
  runId: string;
  text: string;
}

/** What the page saw of an agent's current run. */
export interface RunWatch {
  sawText: boolean;
  committed: boolean;
  /** The person pressed Stop while it ran. */
  stopping: boolean;
}

export interface Notice {
  key: string;
  kind: 'no-reply' | 'stopped';
  agentId: string;
  /** The row id it follows (0: before every row). */
  after: number;
}

export interface PendingSend {
  entryId: string;
  text: string;
  targetAgentId: string | null;
  state: 'sending' | 'sent' | 'failed';
  error: string | null;
}

export interface ChatState {
  teamId: string;
  /** Committed rows from the stream, ascending id. */
  rows: RowFrame[];
  /** The highest row id seen. */
  cursor: number;
  /** Rows older than rows[0] were dropped (or never kept): there is earlier history. */
  trimmed: boolean;
  /** Entries paged back through chat history, oldest first; all older than rows[0]. */
  older: TranscriptEntry[];
  paging: Paging | null;
  pending: PendingSend[];
  live: Record<string, LiveBubble>;
  statuses: Record<string, AgentRunStatus>;
  runs: Record<string, RunWatch>;
  notices: Notice[];
  noticeSeq: number;
  committedRuns: string[];
  /** Committed rows received so far (for "n new"). */
  received: number;
  /** The stream's status snapshot arrived: the catch-up before it is complete. */
  synced: boolean;
  /** Sub-agent session keys whose work was still open when the person pressed Stop (their hand-over then reads "stopped"). */
  stoppedChildKeys: string[];
}

export type ChatAction =
  | { type: 'row'; frame: RowFrame }
  | { type: 'delta'; frame: DeltaFrame }
  | { type: 'status'; frame: StatusFrame }
  | { type: 'reset' }
  | { type: 'stopRequested' }
  | { type: 'send'; entryId: string; text: string; targetAgentId: string | null }
  | { type: 'sent'; entryId: string }
  | { type: 'sendFailed'; entryId: string; error: string }
  | { type: 'discard'; entryId: string }
  | { type: 'pagingStarted'; paging: Paging }
  | { type: 'older'; paging: Paging; revealed: TranscriptEntry[] };

export function initialChatState(teamId: string): ChatState {
  return {
    teamId,
    rows: [],
    cursor: 0,
    trimmed: false,
    older: [],
    paging: null,
    pending: [],
    live: {},
    statuses: {},
    runs: {},
    notices: [],
    noticeSeq: 0,
    committedRuns: [],
    received: 0,
    synced: false,
    stoppedChildKeys: [],
  };
}

const without = <T>(rec: Record<string, T>, key: string): Record<string, T> => {
  if (!(key in rec)) return rec;
  const next = { ...rec };
  delete next[key];
  return next;
};

function addRow(s: ChatState, frame: RowFrame): ChatState {
  const { id, entry } = frame;
  let rows: RowFrame[];
  if (id > s.cursor || s.rows.length === 0) {
    if (s.rows.some((r) => r.entry.entryId === entry.entryId) || s.older.some((e) => e.entryId === entry.entryId)) return { ...s, cursor: Math.max(s.cursor, id) };
    rows = [...s.rows, frame];
  } else {
    // A replay below the cursor: skip what is held; keep id order otherwise.
    if (s.rows.some((r) => r.id === id || r.entry.entryId === entry.entryId)) return s;
    if (s.trimmed && s.rows.length > 0 && id < (s.rows[0] as RowFrame).id) return s;
    rows = [...s.rows, frame].sort((a, b) => a.id - b.id);
  }
  let next: ChatState = {
    ...s,
    rows,
    cursor: Math.max(s.cursor, id),
    received: s.received + 1,
    pending: s.pending.some((p) => p.entryId === entry.entryId) ? s.pending.filter((p) => p.entryId !== entry.entryId) : s.pending,
  };
  if (entry.role === 'assistant') next = committedReply(next, entry);
  else if (isHandover(entry)) next = handedOver(next, entry);
  return trim(next);
}

/** A committed reply ends its run's live bubble. */
function committedReply(s: ChatState, entry: TranscriptEntry): ChatState {
  const agentId = entry.agentId ?? agentIdOfTeamSessionKey(entry.sessionKey, s.teamId);
  const bubble = s.live[entry.sessionKey];
  const live = bubble && (bubble.runId === '' || entry.runId === null || bubble.runId === entry.runId) ? without(s.live, entry.sessionKey) : s.live;
  const runs = agentId && s.runs[agentId] ? { ...s.runs, [agentId]: { ...s.runs[agentId], committed: true } } : s.runs;
  const committedRuns = entry.runId ? [...s.committedRuns, entry.runId].slice(-COMMITTED_RUNS_KEPT) : s.committedRuns;
  return { ...s, live, runs, committedRuns };
}

/** A run that handed work to a sub-agent answered with the hand-over: its end is no "finished without a reply". */
function handedOver(s: ChatState, entry: TranscriptEntry): ChatState {
  const w = entry.agentId ? s.runs[entry.agentId] : undefined;
  return w && entry.agentId ? { ...s, runs: { ...s.runs, [entry.agentId]: { ...w, committed: true } } } : s;
}

/** Keeps the newest RENDER_LIMIT rows while the person has not paged back. */
function trim(s: ChatState): ChatState {
  if (s.paging !== null || s.older.length > 0 || s.rows.length <= RENDER_LIMIT) return s;
  const rows = s.rows.slice(s.rows.length - RENDER_LIMIT);
  const first = (rows[0] as RowFrame).id;
  return { ...s, rows, trimmed: true, notices: s.notices.filter((n) => n.after >= first) };
}

function delta(s: ChatState, f: DeltaFrame): ChatState {
  if (f.runId !== '' && s.committedRuns.includes(f.runId)) return s;
  // A sub-agent's key names no team agent: the frame's agentId does (else the gateway id in the key).
  const agentId = f.agentId ?? agentIdOfTeamSessionKey(f.sessionKey, s.teamId) ?? agentIdOfChildKey(f.sessionKey);
  const prev = s.live[f.sessionKey];
  // The frame holds the whole text so far: it replaces, never appends.
  const bubble: LiveBubble = { sessionKey: f.sessionKey, agentId, runId: f.runId !== '' ? f.runId : (prev?.runId ?? ''), text: f.text };
  let runs = s.runs;
  if (agentId) {
    const w = s.runs[agentId] ?? { sawText: false, committed: false, stopping: false };
    if (f.text !== '' && !w.sawText) runs = { ...s.runs, [agentId]: { ...w, sawText: true } };
    else if (!s.runs[agentId]) runs = { ...s.runs, [agentId]: w };
  }
  return { ...s, live: { ...s.live, [f.sessionKey]: bubble }, runs };
}

function status(s: ChatState, f: StatusFrame): ChatState {
  const was = s.statuses[f.agentId];
  const statuses = { ...s.statuses, [f.agentId]: f.status };
  if (f.status === 'running') {
    const runs = was === 'running' && s.runs[f.agentId] ? s.runs : { ...s.runs, [f.agentId]: { sawText: false, committed: false, stopping: false } };
    return { ...s, statuses, runs, synced: true };
  }
  // idle or error: the agent's live bubbles go.
  let live = s.live;
  for (const [key, b] of Object.entries(s.live)) if (b.agentId === f.agentId) live = without(live, key);
  const w = s.runs[f.agentId];
  let { notices, noticeSeq } = s;
  if (w && f.status === 'idle' && !w.sawText && !w.committed) {
    const after = s.rows.length > 0 ? (s.rows[s.rows.length - 1] as RowFrame).id : 0;
    noticeSeq += 1;
    notices = [...notices, { key: `notice-${noticeSeq}`, kind: w.stopping ? 'stopped' : 'no-reply', agentId: f.agentId, after }];
  }
  return { ...s, statuses, live, runs: without(s.runs, f.agentId), notices, noticeSeq, synced: true };
}

export function chatReducer(s: ChatState, a: ChatAction): ChatState {
  switch (a.type) {
    case 'row':
      return addRow(s, a.frame);
    case 'delta':
      return delta(s, a.frame);
    case 'status':
      return status(s, a.frame);
    case 'reset':
      // A (re)connected stream replays the statuses; deltas of a run in flight come again whole.
      return { ...s, live: {}, runs: {} };
    case 'stopRequested': {
      const runs = { ...s.runs };
      for (const [id, st] of Object.entries(s.statuses)) {
        if (st === 'running') runs[id] = { ...(runs[id] ?? { sawText: false, committed: false }), stopping: true };
      }
      const open = openChildKeys([...s.older, ...s.rows.map((r) => r.entry)]);
      return { ...s, runs, stoppedChildKeys: [...new Set([...s.stoppedChildKeys, ...open])].slice(-COMMITTED_RUNS_KEPT) };
    }
    case 'send': {
      const rest = s.pending.filter((p) => p.entryId !== a.entryId);
      return { ...s, pending: [...rest, { entryId: a.entryId, text: a.text, targetAgentId: a.targetAgentId, state: 'sending', error: null }] };
    }
    case 'sent':
      return { ...s, pending: s.pending.map((p) => (p.entryId === a.entryId ? { ...p, state: 'sent', error: null } : p)) };
    case 'sendFailed':
      return { ...s, pending: s.pending.map((p) => (p.entryId === a.entryId ? { ...p, state: 'failed', error: a.error } : p)) };
    case 'discard':
      return { ...s, pending: s.pending.filter((p) => p.entryId !== a.entryId) };
    case 'pagingStarted':
      return s.paging === null ? { ...s, paging: a.paging } : s;
    case 'older': {
      const held = new Set([...s.older.map((e) => e.entryId), ...s.rows.map((r) => r.entry.entryId)]);
      const fresh = a.revealed.filter((e) => !held.has(e.entryId));
      return { ...s, paging: a.paging, older: [...fresh, ...s.older] };
    }
  }
}

/** Whether there is history before what the page holds. */
export function hasEarlier(s: ChatState): boolean {
  return s.paging !== null ? hasOlder(s.paging) : s.trimmed;
}

/** Whether any agent of the team is running (the composer offers Stop instead of Send). */
export function anyoneRunning(s: ChatState): boolean {
  return Object.values(s.statuses).some((st) => st === 'running');
}

export type TranscriptItem =
  | { type: 'entry'; key: string; entry: TranscriptEntry }
  | { type: 'notice'; key: string; notice: Notice }
  | { type: 'pending'; key: string; pending: PendingSend };

/** What the transcript shows, in order: paged-back entries, committed rows with the notices after them, then the pending sends. */
export function transcriptItems(s: ChatState): TranscriptItem[] {
  const out: TranscriptItem[] = s.older.map((entry) => ({ type: 'entry', key: entry.entryId, entry }));
  const notices = [...s.notices].sort((a, b) => a.after - b.after);
  let n = 0;
  while (n < notices.length && (s.rows.length === 0 || (notices[n] as Notice).after < (s.rows[0] as RowFrame).id)) {
    const notice = notices[n++] as Notice;
    out.push({ type: 'notice', key: notice.key, notice });
  }
  for (const r of s.rows) {
    out.push({ type: 'entry', key: r.entry.entryId, entry: r.entry });
    while (n < notices.length && (notices[n] as Notice).after === r.id) {
      const notice = notices[n++] as Notice;
      out.push({ type: 'notice', key: notice.key, notice });
    }
  }
  for (; n < notices.length; n++) {
    const notice = notices[n] as Notice;
    out.push({ type: 'notice', key: notice.key, notice });
  }
  for (const p of s.pending) out.push({ type: 'pending', key: `pending-${p.entryId}`, pending: p });
  return out;
}
