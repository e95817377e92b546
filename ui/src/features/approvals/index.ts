// The approvals feature's public surface (its server state is api/approvals.ts).
export { ApprovalCard, type ApprovalCardProps } from './ApprovalCard.tsx';
export { ApprovalTray } from './ApprovalTray.tsx';
export { dismissSettled, settledStore, settleResolved, useApprovals } from './settled.ts';
