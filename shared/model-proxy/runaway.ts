// Runaway turns (issue 31 item 7, docs/runaway.md): the two limits a model
// call is held to before svc forwards it, judged from its request body alone
// (turn-steps.ts reads the turn out of it):
//   calls_per_turn       this call would be model call N+1 of the turn
//   repeated_tool_call   the turn ends in M model calls in a row that asked
//                        for the same tool call(s) with the same arguments and
//                        got the same result(s) back: the model learns nothing
//                        new from an M+1st
// The repeat is checked first: it names the tool, the more useful reason.
// At a hit the caller answers with a normal completion that says why
// (`text`), which ends the turn at the gateway.
import { z } from 'zod';
import type { RoutedApi } from '../model-routing/registry.ts';
import { turnSteps, type TurnStep } from './turn-steps.ts';

/**
 * The defaults (docs/runaway.md says why): 100 calls is ten times the most a
 * plain tool turn made on the real gateway (docs/gateway-facts.md, "Model
 * calls per turn") and leaves long coding turns alone; 10 identical repeats
 * is where OpenClaw's own loop detection first warns.
 */
export const RUNAWAY_DEFAULTS = { maxCallsPerTurn: 100, maxIdenticalRepeats: 10 } as const;
export const RUNAWAY_BOUNDS = { maxCallsPerTurn: { min: 1, max: 10_000 }, maxIdenticalRepeats: { min: 2, max: 1_000 } } as const;

const limit = (b: { min: number; max: number }) => z.number().int().min(b.min).max(b.max);

export const RunawayLimits = z.object({
  /** Model calls one turn may make (the turn is everything after the last real user message). */
  maxCallsPerTurn: limit(RUNAWAY_BOUNDS.maxCallsPerTurn),
  /** Identical tool call + identical result pairs in a row before the next call is ended. */
  maxIdenticalRepeats: limit(RUNAWAY_BOUNDS.maxIdenticalRepeats),
});
export type RunawayLimits = z.infer<typeof RunawayLimits>;

export interface RunawayHit {
  kind: 'calls_per_turn' | 'repeated_tool_call';
  /** Calls this turn including this one, or identical repeats in a row. */
  count: number;
  limit: number;
  /** The repeated tool's name (several joined with `+` when one answer asked for several). */
  tool?: string;
  /** What the ended call answers, for people and the model alike. */
  text: string;
}

const signature = (s: TurnStep): string => JSON.stringify([s.calls.map((c) => [c.name, c.args]), s.results]);

/** How many steps at the turn's end are the same tool call(s) with the same result(s). */
function trailingRepeats(steps: readonly TurnStep[]): { count: number; tool: string } {
  const last = steps[steps.length - 1];
  if (!last || last.calls.length === 0) return { count: 0, tool: '' };
  const sig = signature(last);
  let count = 0;
  for (let i = steps.length - 1; i >= 0 && signature(steps[i] as TurnStep) === sig; i--) count++;
  return { count, tool: last.calls.map((c) => c.name).join('+') };
}

/** What the limits are judged on, read from the body (in a pool thread for a large one). */
export interface TurnCounts {
  /** Model calls of this turn, this one included. */
  calls: number;
  /** Identical tool call + result pairs at the turn's end. */
  repeats: number;
  /** The repeated tool's name(s). */
  tool: string;
}

export function turnCounts(api: RoutedApi, body: Record<string, unknown>): TurnCounts {
  const steps = turnSteps(api, body);
  const repeats = trailingRepeats(steps);
  return { calls: steps.length + 1, repeats: repeats.count, tool: repeats.tool };
}

/** The limit a turn's counts pass, else null. `agent` names the agent in the answer's text. */
export function runawayHit(counts: TurnCounts, limits: RunawayLimits, agent = 'the agent'): RunawayHit | null {
  if (counts.repeats >= limits.maxIdenticalRepeats) {
    return {
      kind: 'repeated_tool_call',
      count: counts.repeats,
      limit: limits.maxIdenticalRepeats,
      tool: counts.tool,
      text: `svc ended this turn: ${agent} repeated the same ${counts.tool} call ${counts.repeats} times with the same result (the limit is ${limits.maxIdenticalRepeats}).`,
    };
  }
  if (counts.calls > limits.maxCallsPerTurn) {
    return {
      kind: 'calls_per_turn',
      count: counts.calls,
      limit: limits.maxCallsPerTurn,
      text: `svc ended this turn: ${agent} reached ${limits.maxCallsPerTurn} model calls in one turn, the most its team allows.`,
    };
  }
  return null;
}

/** The limit this call would pass, else null. `agent` names the agent in the answer's text. */
export function detectRunaway(api: RoutedApi, body: Record<string, unknown>, limits: RunawayLimits, agent = 'the agent'): RunawayHit | null {
  return runawayHit(turnCounts(api, body), limits, agent);
}
