// One brokered call: validate → rewrite hook → before-phase decision (audit
// row) → approval wait when required → run → after-phase audit row. Every
// path that returns writes both rows, and nothing thrown by a tool, a bad
// argument or a failed wait escapes: errors are results (isError true).
import type { EventLog } from '../events/event-log.ts';
import { uuidv7 } from '../ids.ts';
import type { Logger } from '../log.ts';
import type { AuditStore } from './audit.ts';
import { decide } from './policy.ts';
import { ToolRefusal } from './refusal.ts';
import { summarizeArgs, summarizeText } from './scrub.ts';
import type { StickyCaller } from './approvals.ts';
import type { CallContext, CallOutcome, Decision, Precheck, ToolCallResult, ToolDef } from './types.ts';
import type { ApprovalRequest, ApprovalRequestOutcome } from './request.ts';
import { messageOf } from '../errors.ts';

/** Longest tool name stored (an unknown name comes from the caller). */
const TOOL_NAME_MAX = 100;

export interface PipelineDeps {
  tools: ReadonlyMap<string, ToolDef>;
  audit: AuditStore;
  eventLog: EventLog;
  logger: Logger;
  now: () => number;
  /** The display redactor (knows the exact secrets in play, e.g. SVC_SEARCH_API_KEY). */
  redact: (s: string) => string;
  hasStickyAllow: (key: string, caller: StickyCaller) => boolean;
  requestApproval: (req: ApprovalRequest) => Promise<ApprovalRequestOutcome>;
}

const describeZod = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string =>
  issues.slice(0, 5).map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');

const WAIT_OUTCOME: Readonly<Record<string, CallOutcome>> = { deny: 'denied', expired: 'expired', timeout: 'expired', cancelled: 'cancelled' };
const WAIT_TEXT: Readonly<Record<string, string>> = {
  deny: 'denied by a human',
  expired: 'the approval expired before anyone answered (treated as a denial)',
  timeout: 'the approval expired before anyone answered (treated as a denial)',
  cancelled: 'the call was cancelled while waiting for approval',
};

/** Runs an available tool's precheck once; a precheck that throws refuses the call rather than failing it unaudited. */
function precheck(tool: ToolDef, args: unknown): Precheck | null {
  if (!tool.precheck || !tool.availability().available) return null;
  try {
    return tool.precheck(args as never);
  } catch (err) {
    return { refused: `${tool.name} could not check its arguments: ${messageOf(err)}` };
  }
}

export function createPipeline(d: PipelineDeps) {
  /** Mirrors the call into the event log for the observability views; the audit rows remain the record. */
  const mirror = (kind: 'tool_call' | 'tool_result', who: CallContext, data: Record<string, unknown>, callId: string) => {
    try {
      d.eventLog.append({ kind, agentId: who.agentId ?? null, taskId: who.taskId ?? null, tenantId: who.tenantId ?? null, correlationId: callId, data: { ...data, toolCallId: callId } });
    } catch (err) {
      d.logger.warn({ err, kind }, 'broker: event mirror failed; the audit row still records the call');
    }
  };

  /** Pattern masking (maskData) plus the exact secrets the redactor knows, before anything is stored. */
  const scrubArgs = (v: unknown): string | null => {
    const s = summarizeArgs(v);
    return s === null ? null : d.redact(s);
  };

  async function run(rawName: string, rawArgs: unknown, ctx: CallContext): Promise<ToolCallResult> {
    const callId = uuidv7(d.now());
    const toolName = String(rawName).slice(0, TOOL_NAME_MAX);
    const agentId = ctx.agentId ?? null;
    // A token vouches only for an agent: with no agent id it vouches for nothing.
    const agentTokenId = agentId === null ? null : (ctx.agentTokenId ?? null);
    const tenantId = ctx.tenantId ?? null;
    let decision: Decision = 'deny';
    let argsSummary: string | null = null;
    let approvalId: string | null = null;

    const before = (dec: Decision) => {
      decision = dec;
      d.audit.append({ toolName, agentId, phase: 'before', decision: dec, argsSummary, resultSummary: null, isError: 0, tenantId }, d.now());
      mirror('tool_call', ctx, { toolName, decision: dec }, callId);
    };
    const after = (outcome: CallOutcome, rawText: string, data: unknown = null): ToolCallResult => {
      const isError = outcome !== 'ok';
      // An error's text can quote a provider's answer or a path: it is redacted for the caller too.
      const text = isError ? d.redact(rawText) : rawText;
      d.audit.append({ toolName, agentId, phase: 'after', decision: null, argsSummary, resultSummary: summarizeText(d.redact(text)), isError: isError ? 1 : 0, tenantId }, d.now());
      mirror('tool_result', ctx, { toolName, isError, outcome }, callId);
      return { toolName, outcome, isError, text, data: isError ? null : data, decision, approvalId };
    };

    const tool = d.tools.get(toolName);
    argsSummary = scrubArgs(rawArgs);
    if (!tool) {
      before('deny');
      return after('unknown_tool', `unknown tool: ${toolName}`);
    }
    const parsed = tool.input.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      before('deny');
      return after('invalid', `invalid arguments for ${toolName}: ${describeZod(parsed.error.issues)}`);
    }
    const args = tool.normalize ? tool.normalize(parsed.data) : parsed.data;
    const rewritten = JSON.stringify(args) !== JSON.stringify(parsed.data);
    argsSummary = scrubArgs(args);

    const pre = precheck(tool, args);
    const verdict = decide({
      tool, refusal: pre && 'refused' in pre ? pre.refused : null, rewritten, hasStickyAllow: () => d.hasStickyAllow(toolName, { agentId, agentTokenId }),
    });
    before(verdict.decision);
    if (verdict.decision === 'deny') return after(verdict.outcome, verdict.reason);
    if (verdict.decision === 'require_approval') {
      const waited = await d.requestApproval({
        key: toolName, agentId, agentTokenId, argsSummary, reason: verdict.reason, taskId: ctx.taskId ?? null, tenantId, signal: ctx.signal, skipSticky: true,
      });
      approvalId = waited.approval?.id ?? null;
      if (waited.status !== 'allow_once' && waited.status !== 'allow_always') {
        return after(WAIT_OUTCOME[waited.status] ?? 'denied', `${toolName}: ${WAIT_TEXT[waited.status] ?? 'not approved'}`);
      }
    }

    const signal = ctx.signal ?? new AbortController().signal;
    try {
      const prechecked = pre && 'seen' in pre ? pre.seen : undefined;
      const result = await tool.run(args, { agentId, taskId: ctx.taskId ?? null, tenantId, signal, prechecked });
      return after('ok', result.text, result.data ?? null);
    } catch (err) {
      if (err instanceof ToolRefusal) return after('refused', `${toolName}: ${err.message}`);
      return after('error', `${toolName} failed: ${messageOf(err)}`);
    }
  }

  return {
    async call(toolName: string, args: unknown, ctx: CallContext = {}): Promise<ToolCallResult> {
      try {
        return await run(toolName, args, ctx);
      } catch (err) {
        // The audit store itself failed (a full disk, a closed database): the
        // caller still gets a result, and the failure is logged, not lost.
        d.logger.error({ err, toolName: String(toolName).slice(0, TOOL_NAME_MAX) }, 'broker: call failed outside the tool');
        return { toolName: String(toolName), outcome: 'error', isError: true, text: `broker error: ${messageOf(err)}`, data: null, decision: 'deny', approvalId: null };
      }
    },
  };
}
