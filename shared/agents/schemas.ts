// Input schemas for the agent routes (svc's design; see README "Agents").
import { z } from 'zod';
import { AGENT_ROLES } from './types.ts';

/** An id svc accepts when it is given one: no whitespace or URL delimiters, so it fits a path segment. */
export const AgentIdSchema = z.string().regex(/^[^\s/?#%]{1,128}$/, 'agent id must be 1-128 characters without whitespace, /, ?, # or %');

/** Runtime ids are an open set; they only have to look like ids. */
export const RuntimeSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'runtime must be a lowercase id such as gateway, native, cli-a');

const Name = z.string().trim().min(1, 'name is required').max(200, 'name must be at most 200 characters');
const Model = z.string().trim().max(200).nullable();
const Archived = z.union([z.boolean(), z.number()]).transform((v) => (v ? 1 : 0) as 0 | 1);

export const AgentCreateSchema = z.object({
  id: AgentIdSchema.optional(),
  name: Name,
  teamId: z.string().min(1).nullable().optional(),
  runtime: RuntimeSchema.optional(),
  model: Model.optional(),
  gatewayId: z.string().min(1).max(200).nullable().optional(),
  role: z.enum(AGENT_ROLES).optional(),
});
export type AgentCreate = z.infer<typeof AgentCreateSchema>;

export const AgentPatchSchema = z.object({
  name: Name.optional(),
  teamId: z.string().min(1).nullable().optional(),
  runtime: RuntimeSchema.optional(),
  model: Model.optional(),
  gatewayId: z.string().min(1).max(200).nullable().optional(),
  role: z.enum(AGENT_ROLES).optional(),
  isArchived: Archived.optional(),
});
export type AgentPatch = z.infer<typeof AgentPatchSchema>;

export const AgentListQuerySchema = z.object({
  teamId: z.string().min(1).optional(),
  runtime: z.string().min(1).optional(),
  includeArchived: z.enum(['true', 'false']).optional(),
});
