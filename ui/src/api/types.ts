// The server's answer shapes the dashboard reads, as types derived from the
// zod schemas in shared/ (type-only imports: no schema code reaches the
// bundle). Add a line here when a page needs another shape; never redeclare
// one by hand.
export type { SystemStatus } from '../../../shared/channels/gateway-host.ts';
export type { Team, Assignment, TeamList } from '../../../shared/teams/types.ts';
export type { OrchestrationView } from '../../../shared/teams/schemas.ts';
export type { DelegationView } from '../../../shared/teams/delegation-sync.ts';
export type { GatewayAgent, GatewayAgentsView } from '../../../shared/gateway/agents-directory.ts';
export type { TeamCreate, TeamPatch } from '../../../shared/teams/schemas.ts';
export type { Onboarding } from '../../../shared/teams/onboarding.ts';
export type { TeamRules } from '../../../shared/teams/rules.ts';
export type { Brief } from '../../../shared/lead/briefs.ts';
export type { Agent } from '../../../shared/agents/types.ts';
export type { Task, TaskComment, TaskStatus } from '../../../shared/board/types.ts';
export type { TaskCreate, TaskPatch } from '../../../shared/board/schemas.ts';
// The gateway's Workboard beside the board (issue 23 item 5).
export type { WorkboardCard, WorkboardView } from '../../../shared/workboard/schemas.ts';
// Team chat (brief C): transcript entries, run statuses, history pages, the global lead.
export type { AgentRunStatus, TranscriptEntry } from '../../../shared/team-chat/schemas.ts';
export type { TeamStreamFrame } from '../../../shared/team-chat/stream-frames.ts';
export type { HistoryPage } from '../../../shared/chat-history/history.ts';
export type { LeadOverrideView } from '../../../shared/lead/resolve.ts';
// Approvals, tool audit, settings and health (brief D). ToolApproval, Tool and
// ToolAuditRow are the broker's declared shapes (shared/broker/types.ts).
export type { ApprovalDecision, Tool, ToolApproval, ToolAuditRow } from '../../../shared/broker/types.ts';
export type { DecisionRecord } from '../../../shared/approvals/schemas.ts';
export type { EventRow } from '../../../shared/events/types.ts';
export type { SettingsView } from '../../../shared/settings/resolve.ts';
export type { BootReport, CheckResult } from '../../../shared/health/types.ts';
export type { ErrorEntry, ErrorFeed } from '../../../shared/obs/errors.ts';
// The gateway host (brief A): the setup and gateway pages.
export type { OpStreamFrame, GatewayStopResult } from '../../../shared/channels/gateway-host.ts';
export type { ModelEntry, ModelList } from '../../../shared/gateway/models.ts';
// The gateway-config, setup and self-version routes (issue 32): each answer a zod schema beside what builds it.
export type {
  ConfigureGatewayResult, GatewayConfigPatch, GatewayConfigPatchResult, GatewayConfigResponse,
} from '../../../shared/gateway/config-api.ts';
export type { AutoConfigureResponse } from '../../../shared/gateway/auto-configure.ts';
export type { ApproveDeviceResult } from '../../../shared/gateway/device-approval.ts';
export type { SelfVersion } from '../../../shared/launcher/version.ts';
// Budgets, model calls and model routing (issue 22, brief D).
export type { BudgetRow, BudgetScope, BudgetStatus, BudgetUpsert, ResumedBudget } from '../../../shared/budgets/schemas.ts';
export type { ModelCall } from '../../../shared/model-calls/store.ts';
export type { ModelRoutingView } from '../../../shared/model-routing/status.ts';
// What svc wires into the gateway (issue 30).
export type { WiringAgentView, WiringView } from '../../../shared/gateway-wiring/view.ts';
