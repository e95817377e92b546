// The work one team's orchestrator holds (shared/team-chat/orchestrator.ts):
// the chains user messages start, the deliveries queued per agent, and what
// a stop reports. Its own file so the stop (stop.ts) and the orchestrator
// share the shapes without importing each other.
import type { RosterAgent } from './routing/answerer.ts';

export type Trigger = 'user' | 'handover' | 'delegation' | 'result' | 'spawn';

/** A user message and every run it leads to: one trace, one turn count. */
export interface Chain {
  id: string;
  traceId: string;
  /** Runs admitted so far (queued or started), the first included. */
  runs: number;
  /** The turn bound was hit (its note is written once). */
  hit: boolean;
  /** Where the turn-bound note goes: the user's target's (or the lead's) session key. */
  noteKey: string;
}

export interface Delivery {
  agent: RosterAgent;
  message: string;
  trigger: Trigger;
  taskId: string | null;
  chain: Chain;
  parentSpanId: string | null;
}
