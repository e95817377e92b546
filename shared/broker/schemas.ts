// The /api/tools* inputs, validated at the boundary. The audit query follows
// the spec's "wrong types → default": a bad limit is ignored, not rejected.
import { z } from 'zod';
import { AUDIT_LIMIT_DEFAULT, AUDIT_LIMIT_MAX } from './audit.ts';
import { APPROVAL_DECISIONS } from './types.ts';

export const ResolveBody = z.object({ decision: z.enum(APPROVAL_DECISIONS) });

const limit = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z.number().finite().transform((n) => Math.min(AUDIT_LIMIT_MAX, Math.max(1, Math.trunc(n)))),
).catch(AUDIT_LIMIT_DEFAULT);

export const AuditQuery = z.object({
  toolName: z.string().min(1).optional().catch(undefined),
  limit: limit.optional().transform((v) => v ?? AUDIT_LIMIT_DEFAULT),
});
