// Spec "Smaller resources" → "Cost records": the input rules at the trust
// boundary. The spec fixes only inputTokens and outputTokens (null or missing
// is a 400, zero passes); the other names are svc's (README "Cost records").
import { z } from 'zod';
import { AgentIdSchema } from '../agents/schemas.ts';

/** The spec's list cap ("Limits": cost records list, 500 rows). */
export const COST_LIST_MAX = 500;

/** The summary window: 30 UTC calendar days ending today. */
export const SUMMARY_DAYS = 30;

export const COST_MESSAGES = {
  body: 'body must be a JSON object',
  agentIdRequired: 'agentId (non-empty string) is required',
  agentIdInvalid: 'agentId must be 1-128 characters without whitespace, /, ?, # or %',
  inputTokensRequired: 'inputTokens is required',
  outputTokensRequired: 'outputTokens is required',
  inputTokensInvalid: 'inputTokens must be a non-negative integer',
  outputTokensInvalid: 'outputTokens must be a non-negative integer',
  optionalString: (field: string) => `${field} must be a string or null`,
} as const;

/** A token count: required (null counts as missing), a non-negative safe integer. */
const tokens = (required: string, invalid: string) =>
  z
    .number({ error: (iss) => (iss.input === undefined || iss.input === null ? required : invalid) })
    .int(invalid)
    .nonnegative(invalid);

/** An optional label: absent, null or blank are all stored as null. */
const label = (field: string) =>
  z
    .string({ error: COST_MESSAGES.optionalString(field) })
    .nullish()
    .transform((s) => (s == null || s.trim() === '' ? null : s));

export const CostRecordCreateSchema = z.object({
  // Kept as given (an id is not trimmed), but blank is as good as missing.
  // The id rule is the agents routes': the placeholder row must be addressable.
  agentId: z
    .string({ error: COST_MESSAGES.agentIdRequired })
    .refine((s) => s.trim() !== '', { error: COST_MESSAGES.agentIdRequired, abort: true })
    .refine((s) => AgentIdSchema.safeParse(s).success, COST_MESSAGES.agentIdInvalid),
  inputTokens: tokens(COST_MESSAGES.inputTokensRequired, COST_MESSAGES.inputTokensInvalid),
  outputTokens: tokens(COST_MESSAGES.outputTokensRequired, COST_MESSAGES.outputTokensInvalid),
  model: label('model'),
  teamId: label('teamId'),
  runId: label('runId'),
  sessionKey: label('sessionKey'),
});
export type CostRecordCreate = z.output<typeof CostRecordCreateSchema>;

/** A limit from the query string: a number is clamped to 1..500; anything else is the default. */
const listLimit = z.unknown().optional().transform((v) => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) return COST_LIST_MAX;
  return Math.min(COST_LIST_MAX, Math.max(1, Math.trunc(n)));
});

/** A filter from the query string: a repeated or blank parameter is ignored, never a 500. */
const listFilter = z
  .string()
  .transform((s) => (s.trim() === '' ? undefined : s))
  .optional()
  .catch(undefined);

export const CostListQuerySchema = z.object({
  agentId: listFilter,
  teamId: listFilter,
  limit: listLimit,
});
export type CostListQuery = z.output<typeof CostListQuerySchema>;
