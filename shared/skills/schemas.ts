// Skill inputs and rows (spec "Smaller resources" → "Skills"). The spec
// leaves the body field names open; ours are agentId, name, source, body and
// an optional category. Values are kept raw here: the injection scan must see
// exactly what was sent, and only then does the store trim the identifiers.
import { z } from 'zod';

export const SKILL_MESSAGES = {
  bodyRequired: 'JSON object body required',
  blocked: 'skill install blocked by the injection scan',
  deleteRequired: 'id and agentId are required',
  listFailed: 'failed to list skills',
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
