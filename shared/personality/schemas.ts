// Spec "Smaller resources" → "Personality": per-agent trait values (an open
// object the dashboard's sliders fill) and an optional free-text addendum.
// Both are bounded so one request cannot grow a row without limit.
import { z } from 'zod';

export const PERSONALITY_MESSAGES = {
  agentIdRequired: 'agentId required',
  bodyRequired: 'JSON object body required',
  fieldsRequired: 'agentId and values are required (values must be an object)',
} as const;

export const PERSONALITY_LIMITS = { traits: 100, valuesJsonChars: 16_384, customTextChars: 8_000, agentIdLength: 200 } as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const TraitValues = z
  .custom<Record<string, unknown>>(isPlainObject, { message: 'values must be an object' })
  .refine((v) => Object.keys(v).length <= PERSONALITY_LIMITS.traits, `values: at most ${PERSONALITY_LIMITS.traits} traits`)
  .refine((v) => JSON.stringify(v).length <= PERSONALITY_LIMITS.valuesJsonChars, `values: at most ${PERSONALITY_LIMITS.valuesJsonChars} characters of JSON`);

export const AgentIdQuery = z.object({ agentId: z.string().trim().min(1) });

/** The two fields whose absence is the spec's own 400. */
export const RequiredFields = z.object({ agentId: z.string().trim().min(1), values: z.custom<Record<string, unknown>>(isPlainObject) });

export const PersonalityPostBody = z.object({
  agentId: z.string().trim().min(1).max(PERSONALITY_LIMITS.agentIdLength),
  values: TraitValues,
  // Blank (or null, or absent) is stored as null.
  customText: z
    .string()
    .max(PERSONALITY_LIMITS.customTextChars)
    .nullable()
    .optional()
    .transform((s) => (s && s.trim() !== '' ? s : null)),
});
export type PersonalityPostBody = z.output<typeof PersonalityPostBody>;

export interface Personality {
  agentId: string;
  /** Null when nothing is stored or the stored JSON is unreadable. */
  values: Record<string, unknown> | null;
  customText: string | null;
  updatedAt: number | null;
}
