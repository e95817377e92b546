// Skill inputs and rows (spec "Smaller resources" → "Skills"). The spec
// leaves the body field names open; ours are agentId, name, source, body and
// an optional category. Values are kept raw here: the injection scan must see
// exactly what was sent, and only then does the store trim the identifiers.
import { z } from 'zod';
import { EXCERPT_MAX, MAX_FINDINGS, SCANNED_FIELDS, type Finding } from './injection-scan.ts';

export const SKILL_MESSAGES = {
  bodyRequired: 'JSON object body required',
  blocked: 'skill install blocked by the injection scan',
  deleteRequired: 'id and agentId are required',
  listFailed: 'failed to list skills',
  /** The scan ran past SVC_SKILL_SCAN_TIMEOUT_MS and was stopped: nothing was checked, so nothing is installed. */
  scanTimedOut: (ms: number) => `skill scan timed out after ${ms} ms; install refused`,
} as const;

const nonEmpty = (field: string) => {
  const message = `${field} must be a non-empty string`;
  return z.string({ error: message }).refine((s) => s.trim() !== '', { error: message });
};

export const SkillInstallSchema = z.object({
  agentId: nonEmpty('agentId'),
  name: nonEmpty('name'),
  source: nonEmpty('source'),
  body: nonEmpty('body'),
  // JSON clients often send null for "none"; any other non-string is a 400.
  category: z.string({ error: 'category must be a string' }).nullish(),
});
export type SkillInstall = z.infer<typeof SkillInstallSchema>;

/** GET filter: a wrong-typed or blank agentId means no filter. */
export const SkillListQuery = z.object({ agentId: z.string().trim().min(1).optional().catch(undefined) }).catch({});

export const SkillDeleteQuery = z.object({ id: z.string().trim().min(1), agentId: z.string().trim().min(1) });

/** Only svc writes agent_ids; anything but an array of strings is damage. */
export const AgentIdsSchema = z.array(z.string());

export interface Skill {
  id: string;
  name: string;
  source: string;
  body: string;
  category: string | null;
  /** The agents holding this skill, in install order. */
  agentIds: string[];
  /** sha256 hex of the body. */
  fingerprint: string;
  createdAt: number;
  updatedAt: number;
}

/** inserted: a new row; merged: the agent joined an unchanged row; updated: the body or category changed too. */
export type InstallOutcome = 'inserted' | 'merged' | 'updated';
/** removed: the agent left, others still hold it; deleted: it was the last holder; not-found / not-holder: nothing changed. */
export type RemoveOutcome = 'removed' | 'deleted' | 'not-found' | 'not-holder';

// ------------------------------------------------- the scan job's contract
// The scan runs in a pool thread (workers/jobs/skill-jobs.ts): what crosses
// the thread is validated on the side that receives it.

/** The fields the scan reads, sent to the pool thread. */
export const SkillScanJobArg = z.object({
  name: z.string().nullish(),
  source: z.string().nullish(),
  category: z.string().nullish(),
  body: z.string().nullish(),
});

const FindingSchema = z.object({
  pattern: z.string().min(1),
  field: z.enum(SCANNED_FIELDS),
  line: z.number().int().min(1),
  excerpt: z.string().max(EXCERPT_MAX),
  fingerprint: z.string().regex(/^[0-9a-f]{16}$/),
}) satisfies z.ZodType<Finding>;

/** The pool thread's answer: the findings, at most MAX_FINDINGS. */
export const SkillScanJobResult = z.array(FindingSchema).max(MAX_FINDINGS);

/** What a scan came to: its findings, or the time limit it ran past (the scan was stopped). */
export type ScanOutcome = { findings: Finding[] } | { timedOut: true; timeoutMs: number };
