// The tools broker (spec "Tools broker and MCP"): the builtin tools and their
// availability, the call pipeline, the approval queue and the audit log. The
// HTTP routes, the in-process MCP sessions and each MCP stdio binary build
// one over their own database connection; the database is the shared truth.
import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/open.ts';
import type { Tx } from '../db/tx.ts';
import type { EventLog } from '../events/event-log.ts';
import type { Logger } from '../log.ts';
import type { SvcPaths } from '../paths.ts';
import { maskJsonText, type Redactor } from '../redact.ts';
import { createApprovalStore, type StickyCaller } from './approvals.ts';
import type { OperatorCheck, OperatorPrincipal } from './operator.ts';
import { AUDIT_LIMIT_DEFAULT, createAuditStore } from './audit.ts';
import { createPipeline } from './pipeline.ts';
import { createApprovalRequester, type ApprovalRequest, type ApprovalRequestOutcome } from './request.ts';
import { builtinTools } from './tools/index.ts';
import type { ApprovalDecision, CallContext, Tool, ToolApproval, ToolAuditRow, ToolCallResult, ToolRisk } from './types.ts';
import { createApprovalWaiter } from './waiter.ts';

export interface BrokerDeps {
  db: Db;
  tx: Tx;
  config: Config;
  paths: SvcPaths;
  logger: Logger;
  redactor: Redactor;
  eventLog: EventLog;
  now?: () => number;
  /** How often another connection's commits are looked for while someone waits (default 500 ms). */
  crossProcessCheckMs?: number;
  /** Tells an operator principal minted by this process from anything else; without one no resolve is accepted. */
  isOperator?: OperatorCheck;
}

/** What an MCP server needs to expose one available tool. */
export interface ModelTool {
  name: string;
  description: string;
  risk: ToolRisk;
  input: z.ZodObject;
}

export interface Broker {
  /** Every builtin with its availability verdict (GET /api/tools). */
  tools(): Tool[];
  /** The available tools only, with their input schemas (MCP tools/list). */
  modelTools(): ModelTool[];
  /** Runs one call through the pipeline. Never rejects: failures are results with isError true. */
  call(toolName: string, args: unknown, ctx?: CallContext): Promise<ToolCallResult>;
  /** Pending, unexpired approvals, newest first, argsSummary re-masked. */
  pendingApprovals(): ToolApproval[];
  getApproval(id: string): ToolApproval | null;
  /**
   * null when no row has that id; an already resolved or expired row comes back unchanged.
   * `by` must be an operator principal (see operator.ts): anything else throws OperatorRequiredError.
   */
  resolveApproval(by: OperatorPrincipal, id: string, decision: ApprovalDecision): ToolApproval | null;
  /** The approval handshake on its own (for keys other than tools, e.g. `delegate:<kind>`). */
  requestApproval(req: ApprovalRequest): Promise<ApprovalRequestOutcome>;
  hasStickyAllow(key: string, caller: StickyCaller): boolean;
  /** Audit rows newest first, summaries re-masked. */
  audit(query?: { toolName?: string; limit?: number }): ToolAuditRow[];
  /** Approval waits blocked on this database connection. */
  waiting(): number;
}

export function createBroker(deps: BrokerDeps): Broker {
  const { db, config, paths, logger, redactor, eventLog } = deps;
  const now = deps.now ?? Date.now;
  const defs = builtinTools(config, paths);
  const byName = new Map(defs.map((t) => [t.name, t]));
  const store = createApprovalStore(db, deps.isOperator);
  const auditStore = createAuditStore(db);
  const waiter = createApprovalWaiter({
    db,
    get: store.get,
    now,
    crossProcessCheckMs: deps.crossProcessCheckMs,
    onError: (err) => logger.warn({ err }, 'broker: approval check failed; retried on the next change or at expiry'),
  });
  const requester = createApprovalRequester({ store, waiter, eventLog, logger, now, ttlMs: config.approvalTtlMs });
  const pipeline = createPipeline({
    tools: byName,
    audit: auditStore,
    eventLog,
    logger,
    now,
    redact: redactor.text,
    hasStickyAllow: store.hasStickyAllow,
    requestApproval: requester.request,
  });
  const remask = (s: string | null) => (s === null ? null : redactor.text(maskJsonText(s)));

  return {
    tools: () => defs.map((t) => ({ name: t.name, description: t.description, owner: 'core', risk: t.risk, ...t.availability() })),
    modelTools: () => defs.filter((t) => t.availability().available).map((t) => ({ name: t.name, description: t.description, risk: t.risk, input: t.input })),
    call: pipeline.call,
    pendingApprovals: () => store.listPending(now()).map((a) => ({ ...a, argsSummary: remask(a.argsSummary) })),
    getApproval: store.get,
    resolveApproval(by, id, decision) {
      const r = store.resolve(by, id, decision, now());
      if (!r) return null;
      if (r.changed) {
        waiter.notify(id);
        requester.mirrorResolved(r.approval);
      }
      return r.approval;
    },
    requestApproval: requester.request,
    hasStickyAllow: store.hasStickyAllow,
    audit: ({ toolName, limit = AUDIT_LIMIT_DEFAULT } = {}) =>
      auditStore.list({ toolName, limit }).map((r) => ({ ...r, argsSummary: remask(r.argsSummary), resultSummary: remask(r.resultSummary) })),
    waiting: waiter.size,
  };
}
