// Team inputs (spec "Teams"). The messages are the spec's; where the spec
// says a wrong-typed field is ignored, the schema says so with .catch().
import { z } from 'zod';
import { UUID_RE } from '../ids.ts';

export const TEAM_MESSAGES = {
  idRequired: 'team id required',
  invalidJson: 'invalid JSON',
  createRequired: 'name, icon, and color are required',
  notFound: 'team not found',
  agentIdRequired: 'agentId is required',
  agentIdRequiredPath: 'agentId required',
  orchestrationRequired: 'serverOrchestrated (boolean) is required',
} as const;

const nullableString = z.string().nullable();

export const TeamCreateSchema = z.object({
  name: z.string().min(1),
  icon: z.string().min(1),
  color: z.string().min(1),
  // Honoured only when UUID-shaped; anything else means "mint one".
  id: z.string().regex(UUID_RE).optional().catch(undefined),
  colorCollectionId: nullableString.optional(),
  templateId: nullableString.optional(),
  leaderAgentId: nullableString.optional(),
  // Only a real `true` turns the setting on; anything else is ignored.
  serverOrchestrated: z.boolean().optional().catch(undefined),
});
export type TeamCreate = z.infer<typeof TeamCreateSchema>;

export const TeamPatchSchema = z.object({
  name: z.string().min(1).optional(),
  icon: z.string().min(1).optional(),
  color: z.string().min(1).optional(),
  colorCollectionId: nullableString.optional(),
  // Spec: a number, truthy becomes 1 and falsy 0 (booleans read the same way).
  isArchived: z.union([z.number(), z.boolean()]).transform((v) => (v ? 1 : 0) as 0 | 1).optional(),
  leaderAgentId: nullableString.optional(),
});
export type TeamPatch = z.infer<typeof TeamPatchSchema>;

export const AssignSchema = z.object({
  // Blank counts as missing, as for the path segments: a blank-id agent could never be unassigned.
  agentId: z.string().refine((s) => s.trim() !== ''),
  // A wrong-typed or empty name falls back to the agent id.
  agentName: z.string().min(1).optional().catch(undefined),
});


/** PUT /api/teams/:id/orchestration (beyond the spec: the chat gate's switch). */
export const OrchestrationBody = z.object({ serverOrchestrated: z.boolean() });
/** GET and PUT /api/teams/:id/orchestration answer this. */
export const OrchestrationView = z.object({ teamId: z.string(), serverOrchestrated: z.boolean() });
export type OrchestrationView = z.infer<typeof OrchestrationView>;
