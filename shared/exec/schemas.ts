// What svc reads from the gateway's exec approvals document (its state
// database row and its exec.approvals.get/set replies), parsed with zod before
// anything looks at it. Shapes follow OpenClaw's own persisted schema: an
// allowlist entry is a bare pattern string or an object with a non-empty
// pattern; unknown fields are kept (loose) because the gateway keeps them.
// The socket (and its token) is parsed only so the document is accepted; no
// type below that leaves this folder carries it.
import { z } from 'zod';

export const EXEC_ASK_VALUES = ['off', 'on-miss', 'always'] as const;
export const ExecAskSchema = z.enum(EXEC_ASK_VALUES);
export type ExecAsk = z.infer<typeof ExecAskSchema>;

const NonBlank = z.string().refine((v) => v.trim().length > 0);

const EntryObject = z.looseObject({
  pattern: NonBlank,
  id: z.string().optional(),
  source: z.string().optional(),
  commandText: z.string().optional(),
  argPattern: z.string().optional(),
  lastUsedAt: z.number().optional(),
  lastUsedCommand: z.string().optional(),
  lastResolvedPath: z.string().optional(),
});

/** One allowlist row as stored: a bare string is a pattern with no other fields. */
export const AllowlistEntrySchema = z
  .union([NonBlank, EntryObject])
  .transform((v) => (typeof v === 'string' ? { pattern: v } : v));
export type AllowlistEntry = z.infer<typeof AllowlistEntrySchema>;

export const AgentBucketSchema = z.looseObject({
  ask: z.string().optional(),
  security: z.string().optional(),
  allowlist: z.array(AllowlistEntrySchema).optional(),
});
export type AgentBucket = z.infer<typeof AgentBucketSchema>;

/** The document in `exec_approvals_config.raw_json` (socket token included there). */
export const ApprovalsDocumentSchema = z.looseObject({
  version: z.literal(1),
  socket: z.looseObject({ path: z.string().optional(), token: z.string().optional() }).optional(),
  defaults: z.looseObject({}).optional(),
  agents: z.record(z.string(), AgentBucketSchema).optional(),
});
export type ApprovalsDocument = z.infer<typeof ApprovalsDocumentSchema>;

/** The projection columns the gateway writes beside raw_json on every save. */
export const ConfigRowCountsSchema = z.object({
  agent_count: z.number().int().nonnegative(),
  allowlist_count: z.number().int().nonnegative(),
  updated_at_ms: z.number().int().nonnegative(),
});

/**
 * exec.approvals.get and exec.approvals.set reply with the same snapshot:
 * `{ path, exists, file, hash, resolvedDefaults }`, the file without the socket
 * token. `file` is kept as an opaque object for writing it back unchanged
 * apart from svc's edit; `agents` is parsed for verification.
 */
export const ApprovalsSnapshotSchema = z.looseObject({
  exists: z.boolean().optional(),
  hash: z.string().min(1),
  file: z.looseObject({
    agents: z.record(z.string(), AgentBucketSchema).optional(),
  }),
});
export type ApprovalsSnapshot = z.infer<typeof ApprovalsSnapshotSchema>;
