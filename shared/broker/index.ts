// The tools broker: what the rest of svc imports.
export { createBroker, type Broker, type BrokerDeps, type ModelTool } from './broker.ts';
export type { ApprovalRequest, ApprovalRequestOutcome } from './request.ts';
export type { StickyCaller } from './approvals.ts';
export { OPERATOR_REQUIRED, OperatorRequiredError, noOperators, type OperatorCheck, type OperatorPrincipal } from './operator.ts';
export type { WaitStatus } from './waiter.ts';
export { AUDIT_LIMIT_DEFAULT, AUDIT_LIMIT_MAX } from './audit.ts';
export { ResolveBody, AuditQuery } from './schemas.ts';
export { workspaceDir, notesFile } from './tools/index.ts';
export {
  APPROVAL_DECISIONS,
  type ApprovalDecision,
  type CallContext,
  type CallOutcome,
  type Decision,
  type Tool,
  type ToolApproval,
  type ToolAuditRow,
  type ToolCallResult,
} from './types.ts';
