// The team chat's shapes, one source each: the bodies of its routes (spec
// "Teams": POST /api/teams/:id/chat; the peer-chat room, whose shapes the
// spec leaves to us: docs/api.md documents them), a transcript entry as svc
// writes it, and the session keys. Messages are the spec's strings.
import { z } from 'zod';

export const TEAM_CHAT_MESSAGES = {
  teamIdRequired: 'team id required',
  messageRequired: 'message required',
  notOrchestrated: 'team is not server-orchestrated',
  roomTeamIdRequired: 'teamId required',
  exchangeFieldsRequired: 'teamId, fromAgentId, toAgentId and topic are required',
  exchangeSameAgent: 'fromAgentId and toAgentId must differ',
  exchangeTurns: 'turns must be a whole number from 1 to 10',
  teamNotFound: 'team not found',
  agentNotOnTeam: 'agent is not on this team',
} as const;

/** A peer-chat exchange's replies: default and bound. */
export const EXCHANGE_TURNS_DEFAULT = 4;
export const EXCHANGE_TURNS_MAX = 10;
export const TOPIC_MAX = 8000;
export const ROOM_LIMIT_DEFAULT = 100;
export const ROOM_LIMIT_MAX = 500;

export { teamFallbackSessionKey, teamSessionKey } from './session-keys.ts';

/** POST /api/teams/:id/chat, after the route's checks: message trimmed and non-empty. */
export const ChatIngest = z.object({
  teamId: z.string().min(1),
  message: z.string().min(1),
  targetAgentId: z.string().min(1).optional(),
  entryId: z.string().min(1).optional(),
});
export type ChatIngest = z.infer<typeof ChatIngest>;

/** A transcript entry as svc writes it (the spec's fields, plus who spoke and why). */
export const TranscriptEntry = z.object({
  entryId: z.string(),
  role: z.enum(['user', 'assistant', 'system']),
  kind: z.enum(['user', 'message', 'meta']),
  text: z.string(),
  sessionKey: z.string(),
  runId: z.string().nullable(),
  /** `local-send` for the user's message, `team-chat` for what the orchestrator writes. */
  source: z.string(),
  timestampMs: z.number(),
  sequenceKey: z.number(),
  confirmed: z.boolean(),
  fingerprint: z.string(),
  teamId: z.string(),
  /** The agent that spoke (assistant) or was addressed (user); null for a team-level meta entry. */
  agentId: z.string().nullable(),
  /** What started the run: `user`, `handover`, `delegation`, `result`, `spawn` (a native delegation), `announce` (the lead continuing with its result). */
  trigger: z.string().optional(),
  taskId: z.string().optional(),
  /** Native delegation (issue 23): the run this one came from (a child's parent run; an announce run's child run). */
  parentRunId: z.string().optional(),
  /** The parent's session key as svc writes it (a team key, or a child key at depth 2). */
  parentSessionKey: z.string().optional(),
  /** On a hand-over: the child's gateway session key. */
  childSessionKey: z.string().optional(),
  /** On a hand-over: the spawn's label (else the task's first 80 characters). */
  label: z.string().optional(),
  /** On a child's reply: what the child's run cost. */
  costUsd: z.number().optional(),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

/** GET /api/team-chat: a cursor read of one team's room. */
export const RoomQuery = z.object({
  teamId: z.string().min(1),
  since: z.number().int().min(0),
  limit: z.number().int().min(1).max(ROOM_LIMIT_MAX),
});
export type RoomQuery = z.infer<typeof RoomQuery>;

export const RoomPost = z.object({
  id: z.number().int(),
  teamId: z.string(),
  authorAgentId: z.string(),
  text: z.string(),
  createdAt: z.number(),
  /** Set on a post an exchange wrote (null for a teamchat MCP post). */
  exchangeId: z.string().nullable(),
});
export type RoomPost = z.infer<typeof RoomPost>;

/** POST /api/team-chat/exchange: `fromAgentId` opens on `topic`; the two alternate for `turns` replies. */
export const ExchangeStart = z.object({
  teamId: z.string().min(1),
  fromAgentId: z.string().min(1),
  toAgentId: z.string().min(1),
  topic: z.string().min(1).max(TOPIC_MAX),
  turns: z.number().int().min(1).max(EXCHANGE_TURNS_MAX),
});
export type ExchangeStart = z.infer<typeof ExchangeStart>;

/** An agent's run status on the stream (spec "Team chat run effects"). */
export const AgentRunStatus = z.enum(['running', 'idle', 'error']);
export type AgentRunStatus = z.infer<typeof AgentRunStatus>;

/**
 * A budget reached its cap during a run (docs/team-chat.md, "Budgets"): `sessionKey` is the gateway's session
 * key of the run (the model endpoint reads it from the call's `Runtime:` line); `budgetLabel` as
 * shared/budgets budgetLabel() words it.
 */
export const BudgetHalt = z.object({
  agentId: z.string().min(1),
  sessionKey: z.string().min(1),
  budgetLabel: z.string().min(1),
  budgetId: z.string().min(1),
});
export type BudgetHalt = z.infer<typeof BudgetHalt>;
