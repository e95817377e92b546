// The before phase's policy (spec "Tools broker"): safe → allow; external →
// allow when available; destructive → require_approval unless the agent holds
// a sticky allow_always for the tool. An unavailable tool, or arguments a
// tool's precheck refuses, are denied without asking anyone. When the rewrite
// hook changed the arguments, an allowed call's decision reads `rewrite`.
import type { Decision, ToolDef } from './types.ts';

export type Verdict =
  | { decision: Extract<Decision, 'allow' | 'rewrite'> }
  | { decision: 'deny'; outcome: 'unavailable' | 'refused'; reason: string }
  | { decision: 'require_approval'; reason: string };

export function decide(input: {
  tool: ToolDef;
  /** The precheck's refusal, if it refused (the pipeline runs the precheck once, for run() to see). */
  refusal: string | null;
  rewritten: boolean;
  hasStickyAllow: () => boolean;
}): Verdict {
  const { tool, rewritten } = input;
  const availability = tool.availability();
  if (!availability.available) {
    return { decision: 'deny', outcome: 'unavailable', reason: `${tool.name} is unavailable: ${availability.diagnostics.join('; ') || 'no reason given'}` };
  }
  if (input.refusal !== null) return { decision: 'deny', outcome: 'refused', reason: input.refusal };
  if (tool.risk === 'destructive' && !input.hasStickyAllow()) {
    return { decision: 'require_approval', reason: `${tool.name} is destructive: a human must approve this call` };
  }
  return { decision: rewritten ? 'rewrite' : 'allow' };
}
