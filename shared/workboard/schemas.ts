// The gateway's Workboard (the bundled OpenClaw plugin, docs/gateway-facts.md,
// "Workboard"; issue 23 item 5) as svc reads it and serves it. What svc reads
// from `workboard.cards.list` is parsed loosely: only the fields svc shows are
// looked at, so a gateway that adds fields still reads. What svc serves (GET
// /api/workboard) is one schema, WorkboardView, and the UI's types are derived
// from it.
import { z } from 'zod';
import { TASK_STATUSES } from '../board/types.ts';

const optionalText = z.string().trim().min(1).nullish().catch(null);

/** One card as the gateway gives it (cards.list, cards.move, cards.start). */
export const GatewayCard = z
  .object({
    id: z.string().min(1),
    title: z.string().catch(''),
    status: z.string().min(1),
    agentId: optionalText,
    sessionKey: optionalText,
    runId: optionalText,
    // A dispatched card carries its run here too (the gateway reads either place).
    execution: z.object({ sessionKey: optionalText, runId: optionalText }).loose().nullish().catch(null),
    updatedAt: z.number().nullish().catch(null),
  })
  .loose();
export type GatewayCard = z.infer<typeof GatewayCard>;

/** `workboard.cards.list {}` → `{ cards, boards, statuses }`; cards are parsed one by one. */
export const CardsListReply = z.object({ cards: z.array(z.unknown()), statuses: z.array(z.string()).catch([]) }).loose();

/** `workboard.cards.move` / `workboard.cards.start` → `{ card, ... }`. */
export const CardReply = z.object({ card: GatewayCard }).loose();

/** A Workboard card as svc serves it (docs/api.md "Workboard"). Not an svc task: `source` says so. */
export const WorkboardCard = z.object({
  id: z.string(),
  title: z.string(),
  /** Workboard's own status (one of WorkboardView.statuses). */
  status: z.string(),
  /** The svc board column it shows in (shared/workboard/columns.ts). */
  column: z.enum(TASK_STATUSES),
  /** svc's agent id when svc knows the gateway agent, else the gateway's id; null when unassigned. */
  agentId: z.string().nullable(),
  /** The teams of that agent: the one it is a member of, and any it leads. */
  teamIds: z.array(z.string()),
  /** Set once the card was dispatched: its sub-agent session and run. */
  sessionKey: z.string().nullable(),
  runId: z.string().nullable(),
  source: z.literal('workboard'),
  updatedAt: z.number().nullable(),
});
export type WorkboardCard = z.infer<typeof WorkboardCard>;

/** GET /api/workboard. `enabled: false` (and nothing else) when svc cannot read a Workboard. */
export const WorkboardView = z.object({ enabled: z.boolean(), cards: z.array(WorkboardCard), statuses: z.array(z.string()) });
export type WorkboardView = z.infer<typeof WorkboardView>;

/** GET /api/workboard?teamId=. */
export const WorkboardQuery = z.object({ teamId: z.string().min(1).optional().catch(undefined) });

export const WORKBOARD_MESSAGES = {
  statusRequired: 'status required',
  unknownStatus: 'unknown status',
  notFound: 'card not found',
  disabled: 'Workboard is not enabled on the gateway',
  notReady: 'only a ready card can be dispatched',
  idRequired: 'card id required',
} as const;

/** POST /api/workboard/cards/:id/move. */
export const MoveBody = z.object({ status: z.string().trim().min(1) });
