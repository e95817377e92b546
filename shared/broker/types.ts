// The broker's shapes as the spec names them ("Tool", "Tool approval", "Tool
// audit row"), plus what one call takes and gives back.
import type { z } from 'zod';

export const TOOL_RISKS = ['safe', 'destructive', 'external'] as const;
export type ToolRisk = (typeof TOOL_RISKS)[number];
export type ToolOwner = 'core' | 'plugin' | 'channel' | 'mcp';

/** GET /api/tools: one tool and its availability verdict. */
export interface Tool {
  name: string;
  description: string;
  owner: ToolOwner;
  risk: ToolRisk;
  available: boolean;
  diagnostics: string[];
}

export const APPROVAL_DECISIONS = ['allow_once', 'allow_always', 'deny'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];
export type ApprovalStatus = 'pending' | ApprovalDecision;

export interface ToolApproval {
  id: string;
  toolName: string;
  agentId: string | null;
  argsSummary: string | null;
  reason: string | null;
  status: ApprovalStatus;
  taskId: string | null;
  tenantId: string | null;
  createdAt: number;
  expiresAt: number;
  resolvedAt: number | null;
}

/** The before phase's verdict. */
export type Decision = 'allow' | 'deny' | 'require_approval' | 'rewrite';

export interface ToolAuditRow {
  id: string;
  toolName: string;
  agentId: string | null;
  phase: 'before' | 'after';
  decision: Decision | null;
  argsSummary: string | null;
  resultSummary: string | null;
  isError: 0 | 1;
  tenantId: string | null;
  createdAt: number;
}

/** Who is calling. agentId comes from the session binding, never from tool arguments. */
export interface CallContext {
  agentId?: string | null;
  /**
   * The minted agent token that vouched for agentId (an MCP session's
   * binding). Without one the agent id is a label only: it is recorded, but
   * it never holds or uses a sticky allow_always.
   */
  agentTokenId?: string | null;
  taskId?: string | null;
  tenantId?: string | null;
  /** Aborts the call (a closed MCP session, a cancelled request): the approval wait stops. */
  signal?: AbortSignal;
}

/** How a call ended. Only 'ok' ran the tool successfully. */
export type CallOutcome = 'ok' | 'error' | 'invalid' | 'unknown_tool' | 'unavailable' | 'refused' | 'denied' | 'expired' | 'cancelled';

export interface ToolCallResult {
  toolName: string;
  outcome: CallOutcome;
  isError: boolean;
  /** Human- and model-readable text of the result or the refusal. */
  text: string;
  /** Structured result of a successful run (null otherwise). */
  data: unknown;
  decision: Decision;
  /** The approval row this call waited on, if any. */
  approvalId: string | null;
}

/** What a tool's run() gets besides its arguments. */
export interface RunContext {
  agentId: string | null;
  taskId: string | null;
  tenantId: string | null;
  signal: AbortSignal;
  /** What the tool's precheck saw before anyone was asked (its `seen`), so run can tell the target was not swapped. */
  prechecked: unknown;
}

/** A precheck's answer: a refusal (nobody is asked), or what it saw, handed to run(). */
export type Precheck = { refused: string } | { seen: unknown };

export interface ToolRunResult {
  text: string;
  data?: unknown;
}

/**
 * A builtin tool. `input` is the argument schema (also the MCP input schema);
 * `normalize` is the rewrite hook (a changed result makes the decision
 * `rewrite`); `precheck` refuses a call before anyone is asked to approve it,
 * or records what it checked for run() to compare against.
 */
export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  risk: ToolRisk;
  input: S;
  availability(): { available: boolean; diagnostics: string[] };
  normalize?(args: z.output<S>): z.output<S>;
  precheck?(args: z.output<S>): Precheck;
  run(args: z.output<S>, ctx: RunContext): Promise<ToolRunResult>;
}
