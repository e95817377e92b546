// The approval-decision history's shapes (spec "Governance": GET/POST
// /api/approvals). The three actions are the tool approval's decisions, so a
// resolved approval and a recorded decision read the same. The query names
// the spec leaves "not shown" are documented in docs/api.md.
import { z } from 'zod';
import { APPROVAL_DECISIONS } from '../broker/types.ts';

export const DECISION_MESSAGES = {
  bodyNotObject: 'body must be a JSON object',
  fieldsRequired: 'agentId, action and toolName are required',
  badAction: `action must be one of ${APPROVAL_DECISIONS.join(', ')}`,
} as const;

export const DECISION_LIST_DEFAULT = 100;
export const DECISION_LIST_MAX = 500;
const FIELD_MAX = 200;
const REASON_MAX = 2000;

const required = z.string(DECISION_MESSAGES.fieldsRequired).trim().min(1, DECISION_MESSAGES.fieldsRequired).max(FIELD_MAX, `at most ${FIELD_MAX} characters`);

/** POST /api/approvals. */
export const DecisionInput = z.object({
  agentId: required,
  toolName: required,
  action: z.enum(APPROVAL_DECISIONS, DECISION_MESSAGES.badAction),
  reason: z.string('reason must be a string').max(REASON_MAX, `reason: at most ${REASON_MAX} characters`).nullish(),
});
export type DecisionInput = z.infer<typeof DecisionInput>;

/** The spec's 400 for a body that fails DecisionInput: the first problem's own message. */
export const decisionInputProblem = (error: z.ZodError): string => error.issues[0]?.message ?? DECISION_MESSAGES.fieldsRequired;

/**
 * GET /api/approvals: optional filters, newest first. As on the audit log, a
 * wrong-typed parameter falls back to its default and the limit is clamped.
 */
/**
 * Who a record comes from: `svc`, the decision that resolved one of svc's own
 * tool approvals (the record names it); `client`, a decision a client
 * reported through POST /api/approvals, which svc did not see taken and
 * which links to no approval (issue 33 #6).
 */
export const DECISION_SOURCES = ['svc', 'client'] as const;
export type DecisionSource = (typeof DECISION_SOURCES)[number];
export const sourceOf = (approvalId: string | null): DecisionSource => (approvalId === null ? 'client' : 'svc');

export const DecisionQuery = z.object({
  agentId: z.string().min(1).optional().catch(undefined),
  toolName: z.string().min(1).optional().catch(undefined),
  source: z.enum(DECISION_SOURCES).optional().catch(undefined),
  limit: z.coerce
    .number()
    .int()
    .catch(DECISION_LIST_DEFAULT)
    .transform((n) => Math.min(Math.max(n, 1), DECISION_LIST_MAX)),
});
export type DecisionQuery = z.infer<typeof DecisionQuery>;

export const DecisionRecord = z.object({
  id: z.string(),
  agentId: z.string().nullable(),
  toolName: z.string(),
  action: z.enum(APPROVAL_DECISIONS),
  /** The tool approval this decision resolved; null for a decision a client recorded. */
  approvalId: z.string().nullable(),
  source: z.enum(DECISION_SOURCES),
  reason: z.string().nullable(),
  createdAt: z.number(),
});
export type DecisionRecord = z.infer<typeof DecisionRecord>;
