// Sub-agent work in the team chat (issue 23, docs/delegation.md): a native
// spawn (`sessions_spawn`) is written by svc as a hand-over entry (trigger
// `spawn`, `childSessionKey` set) in the parent's session; the child's reply
// and notes are entries under the child's own session key, and its live text
// comes as deltas on that key. This nests them: the hand-over owns every
// entry whose session key is its child's (a depth-2 hand-over under the child
// key nests in turn), whatever order the rows and frames arrived in. A child
// entry whose hand-over the page does not hold (older than what is loaded)
// shows on its own, marked as a sub-agent's. The lead's announce run (trigger
// `announce`) stays a normal lead bubble in time order, marked as continuing
// with the child's result. Plain functions: no React, no DOM.
import type { AgentRunStatus, TranscriptEntry } from '../../api/types.ts';
import type { LiveBubble, Notice, PendingSend, TranscriptItem } from './chat-state.ts';

export type HandoverStatus = 'running' | 'done' | 'failed' | 'stopped';

export interface Handover {
  /** The hand-over entry itself (a `meta` entry in the parent's session). */
  entry: TranscriptEntry;
  childSessionKey: string;
  /** The child's svc id when an entry or frame of the child named it, else its gateway id (from the session key). */
  childAgentId: string;
  label: string;
  status: HandoverStatus;
  /** What the child's runs cost, once its reply carries it. */
  costUsd: number | null;
  /** The child's reply, for the collapsed summary. */
  reply: TranscriptEntry | null;
  /** The child's entries and nested hand-overs, in order. */
  items: ChatItem[];
  /** The child's run in flight. */
  live: LiveBubble | null;
}

export type ChatItem =
  | {
      type: 'entry';
      key: string;
      entry: TranscriptEntry;
      /** A lead bubble continuing with a child's result: the child (null when the page cannot tell which). */
      continuing: { childAgentId: string | null } | null;
      /** A sub-agent's entry shown without its hand-over. */
      subAgent: boolean;
    }
  | { type: 'handover'; key: string; handover: Handover }
  | { type: 'notice'; key: string; notice: Notice }
  | { type: 'pending'; key: string; pending: PendingSend };

export interface DelegationView {
  items: ChatItem[];
  /** Live bubbles not nested under a hand-over (the team's own runs, or a child whose hand-over has not come). */
  live: LiveBubble[];
}

const SUBAGENT_KEY = /^agent:([^:]+):subagent:/;
const ANNOUNCE_CHILD = /^announce:v1:(agent:[^:]+:subagent:[^:]+):/;

/** The gateway agent id in a sub-agent session key (`agent:<id>:subagent:<uuid>`), else null. */
export function agentIdOfChildKey(sessionKey: string): string | null {
  return SUBAGENT_KEY.exec(sessionKey)?.[1] ?? null;
}

/** A hand-over: the parent gave a task to a child session. */
export const isHandover = (e: TranscriptEntry): boolean =>
  e.trigger === 'spawn' && e.kind === 'meta' && typeof e.childSessionKey === 'string' && e.childSessionKey !== '';

/** A spawn the gateway refused (a `meta` notice in the parent's session, no child). */
export const isRefusedSpawn = (e: TranscriptEntry): boolean => e.trigger === 'spawn' && e.kind === 'meta' && !e.childSessionKey && e.entryId.startsWith('spawn-refused-');

const isReply = (e: TranscriptEntry): boolean => e.role === 'assistant' && e.kind === 'message';

/** The note svc writes when a child was stopped (the page's own Stop, or after a reload). */
const STOPPED_NOTE = /\b(stopped|cancell?ed|aborted)\b/i;

/**
 * The child session keys of hand-overs that have neither a reply nor a note
 * yet: what a Stop pressed now ends (so the page can say "stopped", not "failed").
 */
export function openChildKeys(entries: Iterable<TranscriptEntry>): string[] {
  const open = new Set<string>();
  const ended = new Set<string>();
  for (const e of entries) {
    if (isHandover(e)) open.add(e.childSessionKey as string);
    else if (isReply(e) || e.kind === 'meta') ended.add(e.sessionKey);
  }
  return [...open].filter((k) => !ended.has(k));
}

export interface GroupInput {
  live: Record<string, LiveBubble>;
  statuses: Record<string, AgentRunStatus>;
  /** Child keys that were open when the person pressed Stop. */
  stoppedChildKeys: readonly string[];
}

/** A note under the child's key ends it (svc writes one only on a failure or a stop, after keeping what had streamed as a reply). */
function statusOf(h: Handover, own: TranscriptEntry[], input: GroupInput): HandoverStatus {
  const stopped = input.stoppedChildKeys.includes(h.childSessionKey);
  const note = own.find((e) => e.kind === 'meta' && !isHandover(e));
  if (note) return stopped || STOPPED_NOTE.test(note.text) ? 'stopped' : 'failed';
  if (own.some(isReply)) return 'done';
  if (h.live || input.statuses[h.childAgentId] === 'running') return 'running';
  return stopped ? 'stopped' : 'running';
}

/** Groups what the transcript shows (transcriptItems) and the live bubbles into top-level items with hand-overs nesting their child's work. */
export function groupDelegations(flat: readonly TranscriptItem[], input: GroupInput): DelegationView {
  // Pass 1: every hand-over the page holds, by its child's key (the first one wins: entry ids are idempotent).
  const nodes = new Map<string, Handover>();
  const owned = new Map<string, TranscriptEntry[]>();
  for (const it of flat) {
    if (it.type !== 'entry' || !isHandover(it.entry)) continue;
    const key = it.entry.childSessionKey as string;
    if (nodes.has(key) || key === it.entry.sessionKey) continue;
    nodes.set(key, {
      entry: it.entry, childSessionKey: key, childAgentId: agentIdOfChildKey(key) ?? key, label: it.entry.label ?? it.entry.text,
      status: 'running', costUsd: null, reply: null, items: [], live: null,
    });
    owned.set(key, []);
  }
  // A hand-over nests under the hand-over of the session it was made in, unless that would loop.
  const parentOf = (h: Handover): Handover | null => {
    const up = nodes.get(h.entry.sessionKey);
    if (!up) return null;
    for (let at: Handover | null = up, hops = 0; at; at = nodes.get(at.entry.sessionKey) ?? null, hops++) {
      if (at === h || hops > nodes.size) return null;
    }
    return up;
  };
  // Where a non-hand-over entry belongs: its own session's hand-over, else (a sub-agent's entry at depth 2 whose
  // inner hand-over is not held) its parent session's. An entry in a team session (the lead's announce run) stays out.
  const ownerOf = (e: TranscriptEntry): Handover | null =>
    nodes.get(e.sessionKey) ?? (e.parentSessionKey && agentIdOfChildKey(e.sessionKey) !== null ? (nodes.get(e.parentSessionKey) ?? null) : null);
  // The child's svc id: from its own entries (svc names it when it knows the gateway id), else its live bubble.
  const childAgentOfRun = new Map<string, string>();
  const named = new Set<string>();
  for (const it of flat) {
    if (it.type !== 'entry' || isHandover(it.entry) || !it.entry.agentId) continue;
    const node = nodes.get(it.entry.sessionKey);
    if (node && !named.has(node.childSessionKey)) {
      node.childAgentId = it.entry.agentId;
      named.add(node.childSessionKey);
    }
    if (it.entry.runId && agentIdOfChildKey(it.entry.sessionKey)) childAgentOfRun.set(it.entry.runId, it.entry.agentId);
  }
  for (const b of Object.values(input.live)) {
    const node = nodes.get(b.sessionKey);
    if (node && b.agentId && !named.has(node.childSessionKey)) node.childAgentId = b.agentId;
  }

  // Pass 2: place everything in order.
  const top: ChatItem[] = [];
  for (const it of flat) {
    if (it.type !== 'entry') {
      top.push(it);
      continue;
    }
    const e = it.entry;
    const node = isHandover(e) ? nodes.get(e.childSessionKey as string) : undefined;
    if (node && node.entry === e) {
      const up = parentOf(node);
      (up ? up.items : top).push({ type: 'handover', key: it.key, handover: node });
      if (up) owned.get(up.childSessionKey)?.push(e);
      continue;
    }
    const owner = ownerOf(e);
    const child = agentIdOfChildKey(e.sessionKey) !== null;
    const item: ChatItem = { type: 'entry', key: it.key, entry: e, continuing: continuingOf(e, nodes, childAgentOfRun), subAgent: child && owner?.childSessionKey !== e.sessionKey };
    if (owner) {
      owner.items.push(item);
      if (owner.childSessionKey === e.sessionKey) owned.get(owner.childSessionKey)?.push(e);
    } else {
      top.push(item);
    }
  }

  const live: LiveBubble[] = [];
  for (const b of Object.values(input.live)) {
    const node = nodes.get(b.sessionKey);
    if (node) node.live = b;
    else live.push(b);
  }
  for (const h of nodes.values()) {
    const own = owned.get(h.childSessionKey) ?? [];
    h.reply = own.find(isReply) ?? null;
    const costs = own.map((e) => e.costUsd).filter((c): c is number => typeof c === 'number' && Number.isFinite(c));
    h.costUsd = costs.length > 0 ? costs.reduce((a, b) => a + b, 0) : null;
    h.status = statusOf(h, own, input);
  }
  return { items: top, live };
}

function continuingOf(e: TranscriptEntry, nodes: Map<string, Handover>, childAgentOfRun: Map<string, string>): { childAgentId: string | null } | null {
  if (e.trigger !== 'announce') return null;
  const byRun = e.parentRunId ? childAgentOfRun.get(e.parentRunId) : undefined;
  if (byRun) return { childAgentId: byRun };
  const key = e.runId ? ANNOUNCE_CHILD.exec(e.runId)?.[1] : undefined;
  return { childAgentId: key ? (nodes.get(key)?.childAgentId ?? agentIdOfChildKey(key)) : null };
}

/** A cost as the page shows it: four decimals under a dollar (`$0.0012`), cents above. */
export function formatUsd(usd: number): string {
  return `$${usd >= 1 ? usd.toFixed(2) : usd.toFixed(4)}`;
}

/** Every hand-over in a view, depth first (for tests and for counting). */
export function handoversOf(items: readonly ChatItem[]): Handover[] {
  const out: Handover[] = [];
  for (const it of items) {
    if (it.type === 'handover') out.push(it.handover, ...handoversOf(it.handover.items));
  }
  return out;
}
