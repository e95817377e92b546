// The team chat stream's frames (spec "GET /api/teams/:id/chat/stream"), read
// from the `data` of each frame the browser's EventSource hands over:
//   unnamed        a committed transcript row: `id:` is the row id (the cursor)
//   event: delta   { sessionKey, runId, text, agentId }: the whole running text so far
//                  (agentId, the speaker's svc id, since issue 23: a sub-agent's key names no team agent)
//   event: status  { agentId, status: 'running' | 'idle' | 'error' }
// (`event: board` is the board feature's: features/board/board-frame.ts.)
// Anything that is not the expected shape reads as null and is skipped: a
// frame the page cannot show must not break the page.
import type { TeamStreamFrame, TranscriptEntry } from '../../api/types.ts';

export interface RowFrame {
  id: number;
  entry: TranscriptEntry;
}

/** The server's `delta` frame; its agentId (who is writing, svc id) is absent from older servers, where the team session key says it. */
export type DeltaFrame = Omit<TeamStreamFrame<'delta'>, 'agentId'> & Partial<Pick<TeamStreamFrame<'delta'>, 'agentId'>>;

export type StatusFrame = TeamStreamFrame<'status'>;

function json(data: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(data);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    // Not JSON: not a frame this page can show (the caller skips it).
    return null;
  }
}

const str = (v: unknown): v is string => typeof v === 'string';
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A transcript entry from its JSON (a stream row or a chat-history entry):
 * the fields the page reads must be there and typed; the others default.
 */
export function toEntry(v: unknown): TranscriptEntry | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (!str(o.entryId) || o.entryId === '' || !str(o.text) || !str(o.sessionKey)) return null;
  const role = o.role === 'user' || o.role === 'assistant' || o.role === 'system' ? o.role : null;
  const kind = o.kind === 'user' || o.kind === 'message' || o.kind === 'meta' ? o.kind : null;
  if (role === null || kind === null) return null;
  const timestampMs = num(o.timestampMs) ? o.timestampMs : 0;
  return {
    entryId: o.entryId,
    role,
    kind,
    text: o.text,
    sessionKey: o.sessionKey,
    runId: str(o.runId) && o.runId !== '' ? o.runId : null,
    source: str(o.source) ? o.source : '',
    timestampMs,
    sequenceKey: num(o.sequenceKey) ? o.sequenceKey : timestampMs,
    confirmed: o.confirmed !== false,
    fingerprint: str(o.fingerprint) ? o.fingerprint : '',
    teamId: str(o.teamId) ? o.teamId : '',
    agentId: str(o.agentId) ? o.agentId : null,
    ...(str(o.trigger) && { trigger: o.trigger }),
    ...(str(o.taskId) && { taskId: o.taskId }),
    // Native delegation (issue 23): the hand-over's child, a child's parent, and what the child cost.
    ...(str(o.parentRunId) && { parentRunId: o.parentRunId }),
    ...(str(o.parentSessionKey) && { parentSessionKey: o.parentSessionKey }),
    ...(str(o.childSessionKey) && { childSessionKey: o.childSessionKey }),
    ...(str(o.label) && { label: o.label }),
    ...(num(o.costUsd) && { costUsd: o.costUsd }),
  };
}

/** An unnamed frame: its `id:` line (the row id) and its data (the entry). */
export function parseRowFrame(data: string, lastEventId: string): RowFrame | null {
  if (!/^\d+$/.test(lastEventId)) return null;
  const id = Number(lastEventId);
  const entry = toEntry(json(data));
  return entry && Number.isSafeInteger(id) && id > 0 ? { id, entry } : null;
}

export function parseDeltaFrame(data: string): DeltaFrame | null {
  const o = json(data);
  if (!o || !str(o.sessionKey) || o.sessionKey === '' || !str(o.text)) return null;
  return { sessionKey: o.sessionKey, runId: str(o.runId) ? o.runId : '', text: o.text, ...(str(o.agentId) && o.agentId !== '' && { agentId: o.agentId }) };
}

export function parseStatusFrame(data: string): StatusFrame | null {
  const o = json(data);
  if (!o || !str(o.agentId) || o.agentId === '') return null;
  const status = o.status === 'running' || o.status === 'idle' || o.status === 'error' ? o.status : null;
  return status ? { agentId: o.agentId, status } : null;
}
