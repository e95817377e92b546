// Contract of the team-chat worker: one orchestrator per team and the gateway
// connection they send through live in this worker (ARCHITECTURE: what is
// long-running lives in a worker), so a slow or crashing run never touches the
// front door. The supervisor validates the routes' input, hands messages,
// stops, board changes and exchanges over, and passes on what the worker
// reports: the rows it committed (to the live fan-out, like svc's own
// commits), deltas and run statuses (tier-2 frames of the team's streams).
// The gateway target and the secrets in play come with `configure`, sent on
// every (re)start and whenever the gateway settings change.
import { z } from 'zod';
import { LOG_LEVELS } from '../config.ts';
import { ChatRowSchema } from '../db/chat-messages.ts';
import { EventRowSchema } from '../events/types.ts';
import { BudgetHalt, ChatIngest, ExchangeStart } from '../team-chat/schemas.ts';
import { TeamStreamFrames } from '../team-chat/stream-frames.ts';
import { defineContract } from './contract.ts';

const Empty = z.object({}).strict();
const TeamOnly = z.object({ teamId: z.string().min(1) });

export const teamChatContract = defineContract({
  name: 'team-chat',
  requests: {
    /** Where the gateway is (null: not configured) and the exact secrets to mask in what the worker writes. */
    configure: {
      payload: z.object({ gateway: z.object({ url: z.string(), token: z.string() }).nullable(), secrets: z.array(z.string()) }),
      result: Empty,
    },
    /**
     * One user message (already trimmed and gated by the route): the target is
     * resolved, the user entry persisted (idempotent on entryId), the delivery
     * queued. Answers once the entry is committed; the run goes on detached.
     */
    ingest: {
      payload: ChatIngest,
      result: z.object({ agentId: z.string().nullable(), sessionKey: z.string(), entryId: z.string() }),
    },
    /** Spec "Team chat run effects": abort, release, drop, record `cancelled` rows. Fine when idle or evicted. */
    stop: {
      payload: TeamOnly,
      result: z.object({ aborted: z.number().int(), released: z.number().int(), dropped: z.number().int(), cancelled: z.number().int() }),
    },
    /** A board row of the team changed (any writer): the orchestrator delivers delegations that became ready. */
    boardChanged: { payload: z.object({ teamId: z.string().min(1), taskId: z.string().min(1) }), result: Empty },
    /** Starts one bounded peer-chat exchange (checked by the route); each reply is posted to the team's room. */
    exchange: { payload: ExchangeStart, result: z.object({ exchangeId: z.string() }) },
    /**
     * A budget reached its cap during a run of this agent (the model endpoint refused a call,
     * or fallback metering paused it): the run of that gateway session key is aborted, a meta
     * entry names the budget, no further turn of that message goes to the agent. Unknown session: halted false.
     */
    haltForBudget: { payload: BudgetHalt, result: z.object({ halted: z.boolean() }) },
    stats: {
      payload: Empty,
      result: z.object({ orchestrators: z.number().int(), running: z.number().int(), queued: z.number().int(), runs: z.number().int() }),
    },
    /** Abort nothing, close the gateway connection and the database; the worker then exits. */
    shutdown: { payload: Empty, result: Empty },
  },
  events: {
    /** Recovery is done and the channel serves (once per start). */
    ready: Empty,
    /** Rows this worker committed, in commit order: the supervisor offers them to the live fan-out. */
    committed: z.object({ chat: z.array(ChatRowSchema), events: z.array(EventRowSchema) }),
    /** The full running text of a run (replace semantics): the team's `delta` frame, with the team. */
    delta: TeamStreamFrames.delta.extend({ teamId: z.string() }),
    /** An agent's run status changed (a run started or ended, or recovery closed it): the team's `status` frame, with the team. */
    status: TeamStreamFrames.status.extend({ teamId: z.string() }),
  },
});

export const TeamChatWorkerData = z.object({
  dbPath: z.string(),
  deviceIdentityFile: z.string(),
  version: z.string(),
  turnBound: z.number().int().positive(),
  idleMs: z.number().int().positive(),
  runTimeoutMs: z.number().int().positive(),
  reconnectWaitMs: z.number().int().positive(),
  /** svc's log level: the worker logs through its own redacting logger at the same level. */
  logLevel: z.enum(LOG_LEVELS),
  /** The budgets' first warning threshold (percent) and hard cap (cents, null: none), as svc's config has them. */
  budgetWarnPct: z.number().positive().max(100).default(80),
  budgetHardCapUsdCents: z.number().int().positive().nullable().default(null),
});
export type TeamChatWorkerData = z.infer<typeof TeamChatWorkerData>;
