// The approvals feature's public surface.
export { ApprovalCard, type ApprovalCardProps } from './ApprovalCard.tsx';
export { ApprovalTray } from './ApprovalTray.tsx';
export { approvalKeys, dismissSettled, settledStore, useApprovalHistory, useApprovals, usePendingApprovals, useResolveApproval, useToolAudit, useTools } from './api.ts';
