// The tasks MCP server (spec "Tools broker and MCP": list_tasks, create_task,
// claim_task, add_comment). Each tool calls the board functions of shared/
// that the /api/tasks routes call, with the routes' input schemas, so an
// agent meets the same rules: a lost claim is refused ("task already
// claimed", the route's 409) and is not retried here. A task created here
// is recorded with origin `mcp` (the team-chat orchestrator delivers it:
// docs/team-chat.md). A session bound to an agent acts as that agent
// (bound-identity.ts): an argument naming another creator, claimer or
// author is refused, and left out it is the bound agent.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { AgentStore } from '../agents/store.ts';
import { ClaimSchema, CommentSchema, LIST_LIMIT_MAX, TaskCreateSchema, TaskListQuerySchema, type TaskCreate } from '../board/schemas.ts';
import { actingAgent, boundAgentOf, otherAgentRefusal } from './bound-identity.ts';
import { errorResult, okResult, runTool } from './results.ts';
import type { McpServerFactory } from './types.ts';

const TaskId = z.string().min(1, 'must be a non-empty string').max(200).describe('the task id');
const Filter = z.string().min(1).max(200);

export const ListTasksInput = TaskListQuerySchema.extend({
  teamId: Filter.optional().describe('only tasks of this team'),
  assigneeAgentId: Filter.optional().describe('only tasks assigned to this agent'),
  parentTaskId: Filter.optional().describe('only subtasks of this task'),
  limit: z.number().int().min(1).max(LIST_LIMIT_MAX).optional().describe(`at most this many tasks (1-${LIST_LIMIT_MAX}, default 500), oldest first`),
});
export const CreateTaskInput = TaskCreateSchema;
export const ClaimTaskInput = z.object({
  taskId: TaskId,
  agentId: ClaimSchema.shape.agentId.optional().describe('the agent that takes the task (left out: the agent the session is bound to)'),
});
export const AddCommentInput = CommentSchema.extend({ taskId: TaskId });

/**
 * A session bound to an agent (a minted binding) creates tasks as that agent
 * (a different createdByAgentId was refused before): the creator is the bound agent and, when no team is named, the task is on
 * the creator's team. That is what makes it a delegation the team-chat
 * orchestrator delivers (docs/team-chat.md).
 */
function withCreator(args: TaskCreate, bound: string | null, agents: Pick<AgentStore, 'get'>): TaskCreate {
  if (bound === null) return args;
  const teamId = args.teamId !== undefined ? args.teamId : (agents.get(bound)?.teamId ?? null);
  return { ...args, createdByAgentId: bound, teamId };
}

const NO_CLAIMER = 'agentId is required: this session is not bound to an agent';

export const createTasksServer: McpServerFactory = (ctx, binding) => {
  const { board } = ctx.domain;
  const bound = boundAgentOf('tasks', binding);
  const server = new McpServer({ name: 'svc-tasks', version: ctx.config.version });

  server.registerTool(
    'list_tasks',
    {
      description: 'List tasks on the svc board, oldest first, optionally filtered by team, status, assignee or parent task.',
      inputSchema: ListTasksInput,
      annotations: { readOnlyHint: true },
    },
    (args) => runTool(ctx, 'list_tasks', () => okResult({ tasks: board.list(args) })),
  );

  server.registerTool(
    'create_task',
    {
      description: 'Create a task (status todo). Optional team, assignee, creator agent, parent task, runtime and dependencies (task ids it waits for).',
      inputSchema: CreateTaskInput,
    },
    (args) =>
      runTool(ctx, 'create_task', () =>
        otherAgentRefusal(bound, args, ['createdByAgentId']) ?? okResult({ task: board.create(withCreator(args, bound, ctx.domain.agents), 'mcp') }),
      ),
  );

  server.registerTool(
    'claim_task',
    {
      description:
        'Claim a todo task for an agent (it moves to in_progress). Atomic: when two agents claim one task, one wins and the other gets "task already claimed". A refused claim is final; do not retry it.',
      inputSchema: ClaimTaskInput,
    },
    (args) =>
      runTool(ctx, 'claim_task', () => {
        const refused = otherAgentRefusal(bound, args, ['agentId']);
        if (refused) return refused;
        const agentId = actingAgent(bound, args.agentId);
        return agentId === null ? errorResult(NO_CLAIMER, { status: 400 }) : okResult({ task: board.claim(args.taskId, agentId) });
      }),
  );

  server.registerTool(
    'add_comment',
    {
      description: 'Add a comment to a task, optionally naming the agent that wrote it.',
      inputSchema: AddCommentInput,
    },
    (args) =>
      runTool(ctx, 'add_comment', () =>
        otherAgentRefusal(bound, args, ['authorAgentId']) ??
          okResult({ comment: board.comment(args.taskId, { body: args.body, authorAgentId: actingAgent(bound, args.authorAgentId) }) }),
      ),
  );

  return server;
};
