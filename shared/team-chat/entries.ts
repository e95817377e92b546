// Transcript entries as the orchestrator writes them (spec "Transcript entry
// (team chat)", shared/team-chat/schemas.ts TranscriptEntry): the user's
// message, an agent's reply, and `system`/`meta` notes (a failed delivery, a
// run recovery closed, the turn bound); and for native delegations (issue 23,
// spawns.ts) the hand-over and refused-spawn notes, a child's reply and the
// lead's announce reply, with their links to the parent run. Each is one row of chat_messages,
// idempotent on its entryId; the committed rows reach the live streams
// through the ChatMessages onCommitted hook.
import type { ChatMessages, ChatRow } from '../db/chat-messages.ts';
import { uuidv7 } from '../ids.ts';
import type { TranscriptEntry } from './schemas.ts';

export const ENTRY_SOURCE = { user: 'local-send', orchestrator: 'team-chat' } as const;

export interface EntryWriter {
  /** The user's message; [] when its entryId was written before (nothing new is queued then). */
  user(p: { teamId: string; agentId: string | null; sessionKey: string; text: string; entryId: string }): ChatRow[];
  /** An agent's reply (entryId `run-<runId>`: a second commit of the same run writes nothing). */
  reply(p: { teamId: string; agentId: string; sessionKey: string; text: string; runId: string; trigger: string; taskId: string | null } & ParentRefs): ChatRow[];
  meta(p: { teamId: string; agentId: string | null; sessionKey: string; text: string; runId?: string | null; entryId?: string; trigger?: string } & ParentRefs): ChatRow[];
  /** A native hand-over under the parent's key (entryId `spawn-<childSessionKey>`). */
  handOver(p: { teamId: string; agentId: string; sessionKey: string; text: string; runId: string | null; childSessionKey: string; label: string; taskId: string | null }): ChatRow[];
}

/** A native delegation's links (schemas.ts TranscriptEntry); absent on svc's own entries. */
export interface ParentRefs {
  parentRunId?: string | null;
  parentSessionKey?: string | null;
  costUsd?: number | null;
}

const refs = (p: ParentRefs) => ({
  ...(p.parentRunId ? { parentRunId: p.parentRunId } : {}),
  ...(p.parentSessionKey ? { parentSessionKey: p.parentSessionKey } : {}),
  ...(typeof p.costUsd === 'number' ? { costUsd: p.costUsd } : {}),
});

/** An entry before the writer stamps its time, order and fingerprint. */
type Unstamped = Omit<TranscriptEntry, 'timestampMs' | 'sequenceKey' | 'confirmed' | 'fingerprint'>;

export function createEntryWriter(chat: ChatMessages, now: () => number): EntryWriter {
  // Strictly increasing within this writer, even within one millisecond.
  let lastSeq = 0;
  const sequenceKey = () => (lastSeq = Math.max(now(), lastSeq + 1));
  const write = (e: Unstamped): ChatRow[] => {
    const entry: TranscriptEntry = { ...e, timestampMs: now(), sequenceKey: sequenceKey(), confirmed: true, fingerprint: `${e.source}:${e.entryId}` };
    return chat.insert(e.sessionKey, [entry]);
  };
  /** A `system`/`meta` entry: a note, or (with more fields) a hand-over. */
  const note = (p: Parameters<EntryWriter['meta']>[0]): Unstamped => ({
    entryId: p.entryId ?? `meta-${uuidv7(now())}`,
    role: 'system',
    kind: 'meta',
    text: p.text,
    sessionKey: p.sessionKey,
    runId: p.runId ?? null,
    source: ENTRY_SOURCE.orchestrator,
    teamId: p.teamId,
    agentId: p.agentId,
    ...(p.trigger ? { trigger: p.trigger } : {}),
    ...refs(p),
  });
  return {
    user: (p) =>
      write({ entryId: p.entryId, role: 'user', kind: 'user', text: p.text, sessionKey: p.sessionKey, runId: null, source: ENTRY_SOURCE.user, teamId: p.teamId, agentId: p.agentId, trigger: 'user' }),
    reply: (p) =>
      write({
        entryId: `run-${p.runId}`,
        role: 'assistant',
        kind: 'message',
        text: p.text,
        sessionKey: p.sessionKey,
        runId: p.runId,
        source: ENTRY_SOURCE.orchestrator,
        teamId: p.teamId,
        agentId: p.agentId,
        trigger: p.trigger,
        ...(p.taskId ? { taskId: p.taskId } : {}),
        ...refs(p),
      }),
    meta: (p) => write(note(p)),
    handOver: (p) =>
      write({
        ...note({ ...p, entryId: `spawn-${p.childSessionKey}`, trigger: 'spawn' }),
        childSessionKey: p.childSessionKey,
        label: p.label,
        ...(p.taskId ? { taskId: p.taskId } : {}),
      }),
  };
}
