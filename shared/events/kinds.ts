// Orchestration event kinds (spec "Events"). Board lifecycle kinds are
// written only by server-side board code; clients may ingest only the three
// kinds in INGESTIBLE_KINDS.
import { z } from 'zod';

export const EVENT_KINDS = [
  'task_created', 'task_claimed', 'status_changed', 'comment_added', 'dep_linked',
  'execution_started', 'execution_completed', 'tool_call', 'tool_result', 'cost',
  'approval_requested', 'approval_resolved', 'error', 'span_start', 'span_end',
  'session_rotated', 'routine_fired', 'routine_dispatched', 'routine_completed', 'routine_error',
  'team_chat_post', 'speaker_selected', 'turn_bound_hit',
  // Issue 31: svc's model endpoint ended a runaway turn (shared/model-proxy/runaway.ts).
  'loop_detected',
] as const;

export const EventKind = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof EventKind>;

export const BOARD_KINDS: ReadonlySet<EventKind> = new Set([
  'task_created', 'task_claimed', 'status_changed', 'comment_added', 'dep_linked',
]);

export const INGESTIBLE_KINDS = ['tool_call', 'tool_result', 'error'] as const;
export type IngestibleKind = (typeof INGESTIBLE_KINDS)[number];
