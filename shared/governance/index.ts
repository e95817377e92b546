// Governance (spec "Governance"): the append-only forensic audit log that
// skill installs write today and approvals, budgets and tool calls will use.
export {
  AUDIT_KINDS,
  AUDIT_LIMIT,
  AuditQuerySchema,
  clampLimit,
  createAuditLog,
  type AuditEntry,
  type AuditKind,
  type AuditLog,
  type AuditQuery,
  type AuditRow,
} from './audit.ts';
