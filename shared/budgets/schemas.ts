// The shapes of budgets (spec "Budget row", the Governance budget routes),
// each from one zod schema: the stored row's JSON, the POST body, the resume
// body. Field names beyond the spec's are svc's (docs/budgets.md).
import { z } from 'zod';
import { BUDGET_PERIODS } from './period.ts';

export const BUDGET_SCOPES = ['global', 'team', 'agent', 'task'] as const;
export const BUDGET_MODES = ['cap', 'warn'] as const;
export const BUDGET_STATUSES = ['active', 'paused', 'soft_capped'] as const;

export const BudgetScope = z.enum(BUDGET_SCOPES);
export type BudgetScope = z.infer<typeof BudgetScope>;
export const BudgetMode = z.enum(BUDGET_MODES);
export type BudgetMode = z.infer<typeof BudgetMode>;
export const BudgetStatus = z.enum(BUDGET_STATUSES);
export type BudgetStatus = z.infer<typeof BudgetStatus>;
export const BudgetPeriod = z.enum(BUDGET_PERIODS);

/** The global scope has exactly one target. */
export const GLOBAL_SCOPE_ID = 'all';
/** The largest limit a POST accepts (one million dollars). */
export const MAX_LIMIT_USD_CENTS = 100_000_000;

export const BudgetRowSchema = z.object({
  id: z.string(),
  scope: BudgetScope,
  scopeId: z.string(),
  /** null: every model; else the one (normalised) model this budget counts. */
  model: z.string().nullable(),
  /** The budget in words (events.ts budgetLabel): \`team “ops”\` (the team's name), \`agent researcher\`, \`global\`, \`task <id>\`. */
  label: z.string(),
  mode: BudgetMode,
  period: BudgetPeriod,
  limitUsdCents: z.number().int().positive(),
  /** floor(spent micro-USD / 10 000). */
  spentUsdCents: z.number().int(),
  /** The exact spend in dollars. */
  spentUsd: z.number(),
  /** ceil(reserved micro-USD / 10 000): estimates of calls in flight. */
  reservedUsdCents: z.number().int(),
  graceUsdCents: z.number().int(),
  status: BudgetStatus,
  warnedPct: z.number().int(),
  periodStartedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BudgetRow = z.infer<typeof BudgetRowSchema>;

const positiveCents = z.number().int().positive().max(MAX_LIMIT_USD_CENTS);
const modelField = z
  .string()
  .trim()
  .max(200)
  .nullable()
  .optional()
  .transform((m) => (m === undefined || m === null || m === '' ? null : m));

export const BudgetUpsertBody = z
  .object({
    scope: BudgetScope,
    scopeId: z.string().trim().min(1).max(200),
    limitUsdCents: positiveCents,
    mode: BudgetMode,
    period: BudgetPeriod.default('none'),
    model: modelField,
  })
  .superRefine((b, ctx) => {
    if (b.scope === 'global' && b.scopeId !== GLOBAL_SCOPE_ID) {
      ctx.addIssue({ code: 'custom', path: ['scopeId'], message: `the global scope's id is "${GLOBAL_SCOPE_ID}"` });
    }
  });
export type BudgetUpsert = z.output<typeof BudgetUpsertBody>;

export const BudgetResumeBody = z.object({
  graceUsdCents: positiveCents.optional(),
  model: modelField,
});
export type BudgetResume = z.output<typeof BudgetResumeBody>;

/** The resume route's answer: the row plus whether its next call pauses it again. */
export type ResumedBudget = BudgetRow & { willRepause: boolean };

/** What a model call is attributed to: the budgets that apply are chosen from it. */
export interface CallScope {
  agentId: string;
  teamId: string | null;
  taskId: string | null;
  model: string | null;
  /** Further teams whose budgets apply (an agent outside svc's runs: every team it is on). */
  teamIds?: readonly string[];
  /** Further board tasks whose budgets apply. */
  taskIds?: readonly string[];
}

/** One budget's change caused by a ledger write. */
export interface BudgetTransition {
  /** The row after the change. */
  budget: BudgetRow;
  from: BudgetStatus;
  to: BudgetStatus;
  /** A warn threshold crossed by this change (e.g. 80 or 100), else null. */
  crossedPct: number | null;
  cause: 'spend' | 'refusal';
}

export type ReserveResult =
  | { ok: true; reservedUsd: number; budgetIds: string[] }
  | { ok: false; refusedBy: BudgetRow; transitions: BudgetTransition[] };

/** The messages of the budget routes. */
export const BUDGET_MESSAGES = {
  invalidBudget: 'invalid budget',
  invalidResume: 'invalid resume',
  notFound: 'budget not found',
  unknownScope: (scope: string) => `unknown budget scope: ${scope}`,
  noSuch: { team: 'no such team', agent: 'no such agent', task: 'no such task' },
  /** Field messages of a change the hard cap refuses on the global budget for every model (store.ts). */
  hardCap: {
    mode: (cap: string) => `the global budget stays a cap while SVC_BUDGET_HARD_CAP_USD_CENTS (${cap}) is set`,
    limit: (cap: string) => `the global budget's limit cannot pass SVC_BUDGET_HARD_CAP_USD_CENTS (${cap})`,
    period: (cap: string) => `the global budget has no period while SVC_BUDGET_HARD_CAP_USD_CENTS (${cap}) is set: the hard cap bounds all spend`,
    grace: (cap: string, room: string) =>
      `limit plus grace cannot pass SVC_BUDGET_HARD_CAP_USD_CENTS (${cap}): at most ${room} of grace can be added`,
  },
} as const;
