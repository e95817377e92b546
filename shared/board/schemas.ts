// Board inputs (svc's design; README "Board"), validated at every entry:
// the HTTP routes and, later, the MCP tasks server.
import { z } from 'zod';
import { RuntimeSchema } from '../agents/schemas.ts';
import { TASK_STATUSES } from './types.ts';

export const TITLE_MAX = 500;
export const DESCRIPTION_MAX = 20_000;
export const COMMENT_MAX = 20_000;
export const LIST_LIMIT_MAX = 2000;
export const LIST_LIMIT_DEFAULT = 500;

const Id = z.string().min(1, 'must be a non-empty string').max(200);
const Title = z.string().trim().min(1, 'title is required').max(TITLE_MAX, `title must be at most ${TITLE_MAX} characters`);
const Description = z.string().max(DESCRIPTION_MAX, `description must be at most ${DESCRIPTION_MAX} characters`);

export const TaskStatusSchema = z.enum(TASK_STATUSES);

export const TaskCreateSchema = z.object({
  title: Title,
  description: Description.optional(),
  teamId: Id.nullable().optional(),
  assigneeAgentId: Id.nullable().optional(),
  createdByAgentId: Id.nullable().optional(),
  parentTaskId: Id.nullable().optional(),
  runtime: RuntimeSchema.nullable().optional(),
  dependsOn: z.array(Id).max(100).optional(),
});
export type TaskCreate = z.infer<typeof TaskCreateSchema>;

export const TaskPatchSchema = z.object({
  title: Title.optional(),
  description: Description.optional(),
  status: TaskStatusSchema.optional(),
  assigneeAgentId: Id.nullable().optional(),
  runtime: RuntimeSchema.nullable().optional(),
  /** Who makes the change, for the event row (null: a person on the dashboard). */
  actorAgentId: Id.nullable().optional(),
});
export type TaskPatch = z.infer<typeof TaskPatchSchema>;

export const ClaimSchema = z.object({ agentId: Id });

export const DependencySchema = z.object({ dependsOnTaskId: Id });

export const DelegateSchema = z.object({
  fromAgentId: Id,
  toAgentId: Id,
  title: Title,
  description: Description.optional(),
  runtime: RuntimeSchema.nullable().optional(),
});
export type Delegate = z.infer<typeof DelegateSchema>;

export const CommentSchema = z.object({
  body: z.string().trim().min(1, 'body is required').max(COMMENT_MAX, `body must be at most ${COMMENT_MAX} characters`),
  authorAgentId: Id.nullable().optional(),
});
export type CommentInput = z.infer<typeof CommentSchema>;

export const TaskListQuerySchema = z.object({
  teamId: z.string().min(1).optional(),
  status: TaskStatusSchema.optional(),
  assigneeAgentId: z.string().min(1).optional(),
  parentTaskId: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).optional(),
});
export type TaskListQuery = z.infer<typeof TaskListQuerySchema>;
