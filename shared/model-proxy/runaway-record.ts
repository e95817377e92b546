// What an ended runaway turn leaves (docs/runaway.md), in one transaction: a
// `loop_detected` event (attributed like the call's other events,
// records.ts) and, when the call belongs to one of svc's team runs, a
// `system`/`meta` note in that run's transcript saying why the turn ended.
// The note is written once per turn (its entryId is the turn's run, else its
// trace): a gateway that retries the ended call leaves no second note.
import type { Tx } from '../db/tx.ts';
import type { EventLog } from '../events/event-log.ts';
import type { EntryWriter } from '../team-chat/entries.ts';
import type { RunawayHit } from './runaway.ts';

export interface RunawayRecordDeps {
  tx: Tx;
  eventLog: Pick<EventLog, 'append'>;
  /** The team-chat transcript writer (createEntryWriter over the main thread's chat messages). */
  entries: Pick<EntryWriter, 'meta'>;
}

export interface RunawayRecordInput {
  agentId: string;
  /** svc's session key of the run (CallContext.executionSessionKey): the transcript the note goes in; null writes no note. */
  sessionKey: string | null;
  teamId: string | null;
  hit: RunawayHit;
  taskId?: string | null;
  /** The gateway run id of svc's execution (CallContext.runId). */
  runId?: string | null;
  traceId?: string | null;
  /** The execution's span (the event hangs under it). */
  parentSpanId?: string | null;
  /** The model_calls row of the ended call. */
  callId?: string | null;
}

/** The note's entryId: one per turn. */
export const runawayEntryId = (turnKey: string): string => `runaway-${turnKey}`;

export function recordRunaway(deps: RunawayRecordDeps, input: RunawayRecordInput): void {
  const { hit } = input;
  const turnKey = input.runId ?? input.traceId ?? input.callId ?? null;
  deps.tx.run(() => {
    deps.eventLog.append({
      kind: 'loop_detected',
      agentId: input.agentId,
      teamId: input.teamId,
      taskId: input.taskId ?? null,
      traceId: input.traceId ?? null,
      parentSpanId: input.parentSpanId ?? null,
      correlationId: input.callId ?? null,
      data: {
        reason: hit.kind,
        count: hit.count,
        limit: hit.limit,
        ...(hit.tool !== undefined ? { tool: hit.tool } : {}),
        sessionKey: input.sessionKey,
        runId: input.runId ?? null,
        modelCallId: input.callId ?? null,
        text: hit.text,
      },
    });
    if (input.sessionKey === null || input.teamId === null) return;
    deps.entries.meta({
      teamId: input.teamId,
      agentId: input.agentId,
      sessionKey: input.sessionKey,
      text: hit.text,
      runId: input.runId ?? null,
      ...(turnKey !== null ? { entryId: runawayEntryId(turnKey) } : {}),
    });
  });
}
